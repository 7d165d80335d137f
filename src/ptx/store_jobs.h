// Checking a module's stores on several threads, with the result of one thread.
//
// The reader walks the module on its own thread. A store statement that sits on one line and
// ends at its first ';' (outside brackets) is not parsed there: the reader notes where it
// starts and ends and goes on, and worker threads parse and validate a block of such stores
// at a time, each into the block's own diagnostics. Every change to what a store's check
// depends on (a declaration, a scope, the target) and every diagnostic of the reader first
// drains the jobs, so the names in scope are read-only while threads read them and the
// diagnostics are merged in source order: the output is the one thread's, byte for byte.
//
// The reader's guess of where a statement ends is checked by the parser: a job whose parse
// stops anywhere else marks the whole run as mismatched, and the caller runs the module again
// on one thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "stu/diag.h"
#include "stu/isa/lexer.h"
#include "stu/isa/validator.h"
#include "symbols.h"

namespace stu::ptx {

// Where a store statement that starts at `pos` (right after its opcode word) ends: the
// position after its ';' when the statement has no line break, comment, string or control
// byte, its brackets balance and its only ';' is the last character. nullopt: parse it in order.
std::optional<size_t> simple_statement_end(std::string_view text, size_t pos);

struct StoreJob {
  isa::Token op;               // the opcode word, as the reader lexed it
  isa::Guard guard;            // its `@p` / `@!p`, if any
  isa::Lexer::State after_op;  // where the operands start
  size_t end = 0;              // the reader's guess: the position after the ';'
};

class StoreJobs {
 public:
  // `threads`: how many threads check stores, the reader's included (at least 2 here). The
  // names in scope are `symbols`' (the reader's table, changed only while empty()).
  StoreJobs(std::string_view text, const SymbolTable& symbols, unsigned threads);
  ~StoreJobs();
  StoreJobs(const StoreJobs&) = delete;
  StoreJobs& operator=(const StoreJobs&) = delete;

  bool empty() const { return open_ == nullptr && submitted_ == merged_; }
  // The target and PTX version of the jobs added from now on; only while empty().
  void set_target(const isa::Target& t, const isa::PtxVersion& v) {
    target_ = t;
    version_ = v;
  }
  void add(StoreJob job);

  struct Drained {
    size_t invalid = 0;     // stores with an error
    bool mismatch = false;  // a parse ended elsewhere than the reader guessed
  };
  // Checks every job added so far (this thread helps), appends their diagnostics to `out` in
  // source order and forgets them.
  Drained drain(Diagnostics& out);

 private:
  static constexpr size_t kBlock = 256;  // stores a thread takes at a time
  struct Block {
    std::vector<StoreJob> jobs;
    Diagnostics diags;
    size_t invalid = 0;
    bool mismatch = false;
  };
  struct Worker;  // one thread's parser state

  void submit(std::unique_ptr<Block> b);
  void start_pool();
  void run_worker(Worker& w);
  void check(Block& b, Worker& w) const;
  std::unique_ptr<Block> take_free_block();

  std::string_view text_;
  const SymbolTable& symbols_;
  unsigned threads_;
  isa::Target target_;
  isa::PtxVersion version_;
  std::unique_ptr<Block> open_;                // being filled by the reader
  std::vector<std::unique_ptr<Block>> order_;  // submitted, in source order, not yet merged
  std::vector<std::unique_ptr<Block>> free_;
  std::unique_ptr<Worker> reader_worker_;  // the reader's own state when it helps

  std::mutex mu_;
  std::condition_variable work_cv_;  // a block was queued, or stop
  std::condition_variable done_cv_;  // a block was finished
  std::deque<Block*> queue_;         // submitted, not yet taken
  size_t submitted_ = 0;
  size_t finished_ = 0;
  size_t merged_ = 0;
  bool stop_ = false;
  std::vector<std::unique_ptr<Worker>> worker_state_;
  std::vector<std::thread> pool_;  // started with the first full block
};

}  // namespace stu::ptx
