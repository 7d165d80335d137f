#include "stu/golden/state.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

namespace stu::golden {

// --- SparseMemory ---------------------------------------------------------------------------

void SparseMemory::read(uint64_t addr, uint8_t* out, size_t n) const {
  while (n > 0) {
    const uint64_t in_page = addr & (kPageBytes - 1);
    const size_t len = std::min<uint64_t>(n, kPageBytes - in_page);
    auto it = pages_.find(addr >> kPageBits);
    if (it == pages_.end())
      std::memset(out, fill_, len);
    else
      std::memcpy(out, it->second.get() + in_page, len);
    out += len;
    addr += len;
    n -= len;
  }
}

uint8_t* SparseMemory::page_for_write(uint64_t number) {
  if (number == last_number_) return last_page_;
  auto& slot = pages_[number];
  if (!slot) {
    slot.reset(static_cast<uint8_t*>(std::calloc(1, kPageBytes)));
    if (!slot) throw std::bad_alloc();
    if (fill_ != 0) std::memset(slot.get(), fill_, kPageBytes);
  }
  last_number_ = number;
  last_page_ = slot.get();
  return last_page_;
}

void SparseMemory::write(uint64_t addr, const uint8_t* data, size_t n) {
  while (n > 0) {
    const uint64_t in_page = addr & (kPageBytes - 1);
    const size_t len = std::min<uint64_t>(n, kPageBytes - in_page);
    std::memcpy(page_for_write(addr >> kPageBits) + in_page, data, len);
    data += len;
    addr += len;
    n -= len;
  }
}

void copy_masked(uint8_t* dst, const LineByteMask& mask, const uint8_t* src) {
  if (mask.lo == ~uint64_t(0) && mask.hi == ~uint64_t(0)) {
    std::memcpy(dst, src, 128);
    return;
  }
  for (unsigned half = 0; half < 2; ++half) {  // runs of written bytes, copied whole
    uint64_t m = half ? mask.hi : mask.lo;
    while (m) {
      const unsigned start = unsigned(__builtin_ctzll(m));
      const uint64_t rest = ~(m >> start);
      const unsigned n = rest ? unsigned(__builtin_ctzll(rest)) : 64 - start;
      std::memcpy(dst + 64 * half + start, src + 64 * half + start, n);
      m = start + n >= 64 ? 0 : m & ~((uint64_t(1) << (start + n)) - 1);
    }
  }
}

void SparseMemory::write_line(uint64_t line, const LineByteMask& mask, const uint8_t* data) {
  copy_masked(page_for_write(line >> kPageBits) + (line & (kPageBytes - 1)), mask, data);
}

std::vector<uint64_t> SparseMemory::page_numbers() const {
  std::vector<uint64_t> v;
  v.reserve(pages_.size());
  for (const auto& kv : pages_) v.push_back(kv.first);
  std::sort(v.begin(), v.end());
  return v;
}

const uint8_t* SparseMemory::page(uint64_t number) const {
  auto it = pages_.find(number);
  return it == pages_.end() ? nullptr : it->second.get();
}

// --- GlobalAllocations ------------------------------------------------------------------------

bool GlobalAllocations::add(uint64_t base, uint64_t size) {
  if (!range_valid(base, size)) return false;
  auto next = ranges_.lower_bound(base);
  if (next != ranges_.end() && next->first <= base + (size - 1)) return false;
  if (next != ranges_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + (prev->second - 1) >= base) return false;
  }
  ranges_.emplace(base, size);
  return true;
}

bool GlobalAllocations::contains(uint64_t addr, uint64_t n) const {
  const uint64_t last = addr + (n ? n - 1 : 0);  // the last byte (ranges may end at 2^64)
  if (last < addr) return false;
  const Range* hit = hit_.load(std::memory_order_relaxed);
  if (hit && addr >= hit->first && last <= hit->first + (hit->second - 1)) return true;
  auto it = ranges_.upper_bound(addr);
  if (it == ranges_.begin()) return false;
  --it;
  const uint64_t range_last = it->first + (it->second - 1);
  if (last > range_last) return false;
  hit_.store(&*it, std::memory_order_relaxed);
  return true;
}

// --- MachineState ---------------------------------------------------------------------------

uint32_t* CtaState::tmem_cells() {
  if (tmem.empty()) tmem.assign(size_t(kTmemLanes) * kTmemColumns, 0);
  return tmem.data();
}

MachineState::MachineState(const ModelConfig& cfg)
    : cfg_(cfg),
      global_(cfg.fill),
      ctas_(cfg.cluster_ctas),
      local_(cfg.fill),
      param_func_(cfg.fill),
      kernel_param_(cfg.kernel_param_bytes, cfg.fill),
      const_(cfg.const_bytes, cfg.fill) {
  for (CtaState& c : ctas_) c.shared.assign(cfg.shared_bytes, cfg.fill);
}

namespace {
bool fits(uint64_t offset, uint64_t n, uint64_t size) {
  return offset <= size && n <= size - offset;
}
}  // namespace

FaultKind MachineState::check_store(const Dest& d, uint64_t offset, uint64_t n) const {
  switch (d.space) {
    case MemSpace::Global:
      return allocs_.contains(offset, n) ? FaultKind::None : FaultKind::OutOfAllocation;
    case MemSpace::Shared:
      return fits(offset, n, cfg_.shared_bytes) ? FaultKind::None : FaultKind::OutOfAllocation;
    case MemSpace::Local:
      return fits(offset, n, cfg_.local_bytes) ? FaultKind::None : FaultKind::OutOfAllocation;
    case MemSpace::ParamFunc:
      return fits(offset, n, cfg_.param_func_bytes) ? FaultKind::None : FaultKind::OutOfAllocation;
    case MemSpace::KernelParam:
    case MemSpace::Const:
      return FaultKind::ReadOnly;
    case MemSpace::Tmem:
      return FaultKind::None;
  }
  return FaultKind::OutOfWindow;
}

void MachineState::apply(const LineRequest& line) {
  const Dest& d = line.dest;
  switch (d.space) {
    case MemSpace::Global:
      global_.write_line(line.line, line.bytes, line.data.data());
      return;
    case MemSpace::Local:
      local_.write_line(thread_key(d.cta, d.thread, line.line), line.bytes, line.data.data());
      return;
    case MemSpace::ParamFunc:
      param_func_.write_line(thread_key(d.cta, d.thread, line.line), line.bytes, line.data.data());
      return;
    case MemSpace::Shared: {
      std::vector<uint8_t>& s = ctas_.at(d.cta).shared;
      if (line.bytes.count() == kLineBytes && line.line + kLineBytes <= s.size()) {
        std::memcpy(s.data() + line.line, line.data.data(), kLineBytes);
        return;
      }
      for (unsigned i = 0; i < kLineBytes; ++i) {
        if (line.bytes.test(i) && line.line + i < s.size()) s[line.line + i] = line.data[i];
      }
      return;
    }
    case MemSpace::KernelParam:
    case MemSpace::Const:
    case MemSpace::Tmem:
      return;  // never produced for stores (read-only / separate path)
  }
}

template <typename Self>
auto MachineState::place(Self& self, const Dest& d, uint64_t offset, size_t n) {
  using Byte = std::conditional_t<std::is_const_v<Self>, const uint8_t, uint8_t>;
  using Sparse = std::conditional_t<std::is_const_v<Self>, const SparseMemory, SparseMemory>;
  struct Place {
    Byte* flat = nullptr;
    Sparse* sparse = nullptr;
    uint64_t key = 0;
  } p;
  const ModelConfig& c = self.cfg_;
  switch (d.space) {
    case MemSpace::Global:
      p.sparse = &self.global_;
      p.key = offset;
      break;
    case MemSpace::Shared:
      if (d.cta < self.ctas_.size() && fits(offset, n, c.shared_bytes))
        p.flat = self.ctas_[d.cta].shared.data() + offset;
      break;
    case MemSpace::Local:
    case MemSpace::ParamFunc: {
      const bool local = d.space == MemSpace::Local;
      if (fits(offset, n, local ? c.local_bytes : c.param_func_bytes)) {
        p.sparse = local ? &self.local_ : &self.param_func_;
        p.key = thread_key(d.cta, d.thread, offset);
      }
      break;
    }
    case MemSpace::KernelParam:
      if (fits(offset, n, self.kernel_param_.size())) p.flat = self.kernel_param_.data() + offset;
      break;
    case MemSpace::Const:
      if (fits(offset, n, self.const_.size())) p.flat = self.const_.data() + offset;
      break;
    case MemSpace::Tmem:
      break;
  }
  return p;
}

bool MachineState::read(const Dest& d, uint64_t offset, uint8_t* out, size_t n) const {
  const auto p = place(*this, d, offset, n);
  if (p.flat) std::memcpy(out, p.flat, n);
  if (p.sparse) p.sparse->read(p.key, out, n);
  return p.flat || p.sparse;
}

bool MachineState::write(const Dest& d, uint64_t offset, const uint8_t* data, size_t n) {
  const auto p = place(*this, d, offset, n);
  if (p.flat) std::memcpy(p.flat, data, n);
  if (p.sparse) p.sparse->write(p.key, data, n);
  return p.flat || p.sparse;
}

MbarState MachineState::mbar(uint32_t cta, uint64_t offset) const {
  if (cta >= ctas_.size() || !ctas_[cta].mbarriers.count(offset)) return MbarState{};
  uint8_t b[8] = {};
  read(Dest{MemSpace::Shared, uint16_t(cta), 0}, offset, b, 8);
  uint64_t w = 0;
  for (int i = 7; i >= 0; --i) w = (w << 8) | b[i];
  return decode_mbar(w);
}

void MachineState::set_mbar(uint32_t cta, uint64_t offset, const MbarState& s) {
  const uint64_t w = encode(s);
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(w >> (8 * i));
  if (write(Dest{MemSpace::Shared, uint16_t(cta), 0}, offset, b, 8) && s.initialised())
    ctas_[cta].mbarriers.insert(offset);
}

}  // namespace stu::golden
