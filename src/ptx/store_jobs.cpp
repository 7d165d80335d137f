#include "store_jobs.h"

#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "stu/isa/parser.h"

namespace stu::ptx {

namespace {

// Bytes that end or spoil the scan of a one-line statement; every other byte is passed over.
struct StatementBytes {
  bool special[256] = {};
  constexpr StatementBytes() {
    for (int c = 0; c < 256; ++c) special[c] = (c < ' ' && c != '\t') || c >= 0x7f;
    for (unsigned char c : {';', '[', '{', '(', ']', '}', ')', '/', '"'}) special[c] = true;
  }
};
constexpr StatementBytes kStatementBytes;

#if defined(__SSE2__)
// The special bytes of the 16 at `p`, one bit each (bit i: p[i]).
unsigned special_mask16(const unsigned char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const auto eq = [&](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
  // Signed bytes: below ' ' are the control bytes and every byte from 0x80 up.
  __m128i m = _mm_andnot_si128(eq('\t'), _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
  m = _mm_or_si128(m, eq(0x7f));
  m = _mm_or_si128(m, _mm_or_si128(eq(';'), eq('/')));
  m = _mm_or_si128(m, _mm_or_si128(eq('['), eq(']')));
  m = _mm_or_si128(m, _mm_or_si128(eq('{'), eq('}')));
  m = _mm_or_si128(m, _mm_or_si128(eq('('), eq(')')));
  m = _mm_or_si128(m, eq('"'));
  return static_cast<unsigned>(_mm_movemask_epi8(m));
}
#endif

// The next special byte at or after `i` (n when none).
size_t next_special(const unsigned char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    if (unsigned m = special_mask16(p + i)) return i + static_cast<size_t>(__builtin_ctz(m));
  }
#endif
  while (i < n && !kStatementBytes.special[p[i]]) ++i;
  return i;
}

}  // namespace

std::optional<size_t> simple_statement_end(std::string_view text, size_t pos) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  int depth = 0;
  for (size_t i = pos;; ++i) {
    i = next_special(p, i, n);
    if (i >= n) return std::nullopt;  // no ';' before the end of the text
    switch (p[i]) {
      case ';':
        if (depth != 0) return std::nullopt;
        return i + 1;
      case '[':
      case '{':
      case '(':
        ++depth;
        break;
      case ']':
      case '}':
      case ')':
        if (depth == 0) return std::nullopt;
        --depth;
        break;
      case '/':  // division, unless a comment starts here
        if (i + 1 < n && (p[i + 1] == '/' || p[i + 1] == '*')) return std::nullopt;
        break;
      default:  // a line break, a string, a control byte
        return std::nullopt;
    }
  }
}

struct StoreJobs::Worker {
  explicit Worker(const SymbolTable& t) : names(t) {}
  CachedSymbols names;
  isa::OpcodeCache opcodes;
  isa::Instruction ins;  // reused for every store (keeps its buffers)
};

StoreJobs::StoreJobs(std::string_view text, const SymbolTable& symbols, unsigned threads)
    : text_(text),
      symbols_(symbols),
      threads_(threads < 2 ? 2 : threads),
      reader_worker_(std::make_unique<Worker>(symbols)) {}

StoreJobs::~StoreJobs() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : pool_) t.join();
}

std::unique_ptr<StoreJobs::Block> StoreJobs::take_free_block() {
  if (free_.empty()) {
    auto b = std::make_unique<Block>();
    b->jobs.reserve(kBlock);
    return b;
  }
  std::unique_ptr<Block> b = std::move(free_.back());
  free_.pop_back();
  return b;
}

void StoreJobs::add(StoreJob job) {
  if (!open_) open_ = take_free_block();
  open_->jobs.push_back(std::move(job));
  if (open_->jobs.size() == kBlock) {
    submit(std::move(open_));
    // The first full block: the module is big enough for threads to pay off.
    if (pool_.empty()) start_pool();
  }
}

void StoreJobs::start_pool() {
  worker_state_.reserve(threads_ - 1);
  pool_.reserve(threads_ - 1);
  for (unsigned i = 0; i + 1 < threads_; ++i) {
    worker_state_.push_back(std::make_unique<Worker>(symbols_));
    Worker* w = worker_state_.back().get();
    pool_.emplace_back([this, w] { run_worker(*w); });
  }
}

void StoreJobs::submit(std::unique_ptr<Block> b) {
  Block* raw = b.get();
  order_.push_back(std::move(b));
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(raw);
    ++submitted_;
  }
  work_cv_.notify_one();
}

void StoreJobs::run_worker(Worker& w) {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_
    Block* b = queue_.front();
    queue_.pop_front();
    lock.unlock();
    check(*b, w);
    lock.lock();
    ++finished_;
    done_cv_.notify_all();
  }
}

void StoreJobs::check(Block& b, Worker& w) const {
  isa::CheckContext ctx{target_, version_, &w.names};
  for (const StoreJob& j : b.jobs) {
    isa::Lexer lx(text_, j.after_op);
    const bool parsed = isa::parse_store(lx, j.op, j.guard, w.ins, b.diags, &w.opcodes);
    if (lx.resume_point().pos != j.end) b.mismatch = true;
    if (!parsed || !isa::validate(w.ins, ctx, b.diags)) ++b.invalid;
  }
}

StoreJobs::Drained StoreJobs::drain(Diagnostics& out) {
  if (open_) submit(std::move(open_));
  // Help: take queued blocks on this thread until none is left, then wait for the others.
  std::unique_lock<std::mutex> lock(mu_);
  while (!queue_.empty()) {
    Block* b = queue_.front();
    queue_.pop_front();
    lock.unlock();
    check(*b, *reader_worker_);
    lock.lock();
    ++finished_;
  }
  done_cv_.wait(lock, [this] { return finished_ == submitted_; });
  lock.unlock();
  Drained r;
  for (std::unique_ptr<Block>& b : order_) {
    out.append(std::move(b->diags));
    r.invalid += b->invalid;
    r.mismatch = r.mismatch || b->mismatch;
    b->jobs.clear();
    b->invalid = 0;
    b->mismatch = false;
    free_.push_back(std::move(b));
  }
  order_.clear();
  merged_ = submitted_;
  return r;
}

}  // namespace stu::ptx
