// The architectural state the golden model updates: global memory (sparse, 64-bit), shared
// memory per CTA of the cluster, local memory and `.param::func` frames per thread, the
// read-only kernel `.param` and `.const` windows, and tensor memory per CTA.
//
// No global state: every MachineState is independent; many may live in one process.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "stu/golden/access.h"
#include "stu/golden/config.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/tmem.h"

namespace stu::golden {

// Copies the bytes of a line whose mask bit is set from `src` to `dst` (128 bytes each,
// indexed by line offset), runs of set bits at a time; the others are left as they were.
void copy_masked(uint8_t* dst, const LineByteMask& mask, const uint8_t* src);

// Sparse byte memory over a 64-bit address space, in 4 KiB pages created on first write.
// Bytes never written read as the fill value. Memory use is proportional to pages touched.
class SparseMemory {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint64_t kPageBytes = uint64_t(1) << kPageBits;

  explicit SparseMemory(uint8_t fill = 0) : fill_(fill) {}
  // A move takes the pages; the memory moved from is empty (and forgets its last page, which
  // is the new owner's now).
  SparseMemory(SparseMemory&& o) noexcept
      : fill_(o.fill_),
        pages_(std::move(o.pages_)),
        last_number_(std::exchange(o.last_number_, ~uint64_t(0))),
        last_page_(std::exchange(o.last_page_, nullptr)) {
    o.pages_.clear();
  }
  SparseMemory& operator=(SparseMemory&& o) noexcept {
    if (this != &o) {
      fill_ = o.fill_;
      pages_ = std::move(o.pages_);
      o.pages_.clear();
      last_number_ = std::exchange(o.last_number_, ~uint64_t(0));
      last_page_ = std::exchange(o.last_page_, nullptr);
    }
    return *this;
  }
  void read(uint64_t addr, uint8_t* out, size_t n) const;
  void write(uint64_t addr, const uint8_t* data, size_t n);
  // Writes the bytes of a line whose mask bit is set (the line lies in one page).
  void write_line(uint64_t line, const LineByteMask& mask, const uint8_t* data);
  size_t pages() const { return pages_.size(); }
  // Page numbers in ascending order (for dumps).
  std::vector<uint64_t> page_numbers() const;
  const uint8_t* page(uint64_t number) const;

 private:
  // Pages come from calloc: with fill 0, memory fresh from the system is not cleared twice.
  struct FreePage {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  uint8_t* page_for_write(uint64_t number);
  uint8_t fill_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[], FreePage>> pages_;
  uint64_t last_number_ = ~uint64_t(0);
  uint8_t* last_page_ = nullptr;
};

// Allocated global ranges (`cudaMalloc` of the test set-up).
class GlobalAllocations {
 public:
  GlobalAllocations() = default;
  GlobalAllocations(const GlobalAllocations& o) : ranges_(o.ranges_) {}
  GlobalAllocations& operator=(const GlobalAllocations& o) {
    ranges_ = o.ranges_;
    hit_.store(nullptr, std::memory_order_relaxed);
    return *this;
  }
  // Returns false when the range is empty, wraps, or overlaps a live range.
  bool add(uint64_t base, uint64_t size);
  // True when [addr, addr + n) lies inside one allocation. Safe from several threads at once
  // (the performance model plans stores on a thread of its own), not alongside add().
  bool contains(uint64_t addr, uint64_t n) const;

 private:
  using Range = std::pair<const uint64_t, uint64_t>;
  std::map<uint64_t, uint64_t> ranges_;  // base -> size; ranges are never removed
  // The last range found (a cache, not state): one pointer, read and written whole, to a map
  // node, which never moves.
  mutable std::atomic<const Range*> hit_{nullptr};
};

struct CtaState {
  std::vector<uint8_t> shared;
  std::set<uint64_t> mbarriers;  // offsets of initialised mbarrier objects
  std::vector<uint32_t> tmem;    // kTmemLanes * kTmemColumns cells, created on first use
  TmemAllocator tmem_alloc;
  uint32_t* tmem_cells();
};

class MachineState {
 public:
  explicit MachineState(const ModelConfig& cfg);

  const ModelConfig& config() const { return cfg_; }
  SparseMemory& global() { return global_; }
  const SparseMemory& global() const { return global_; }
  GlobalAllocations& allocations() { return allocs_; }
  const GlobalAllocations& allocations() const { return allocs_; }
  CtaState& cta(uint32_t rank) { return ctas_.at(rank); }
  const CtaState& cta(uint32_t rank) const { return ctas_.at(rank); }
  SparseMemory& local() { return local_; }
  const SparseMemory& local() const { return local_; }
  SparseMemory& param_func() { return param_func_; }
  const SparseMemory& param_func() const { return param_func_; }
  std::vector<uint8_t>& kernel_param() { return kernel_param_; }
  const std::vector<uint8_t>& kernel_param() const { return kernel_param_; }
  std::vector<uint8_t>& const_bank() { return const_; }
  const std::vector<uint8_t>& const_bank() const { return const_; }

  // Key of a per-thread location in local()/param_func(): (cta, thread, offset) packed.
  static uint64_t thread_key(uint32_t cta, uint32_t thread, uint64_t offset) {
    return (uint64_t(cta) << 56) | (uint64_t(thread) << 40) | offset;
  }

  // Bounds of a resolved location: OutOfAllocation when [offset, offset + n) is not backed
  // (global: not in an allocation; shared/local/param: beyond the configured size),
  // ReadOnly for kernel .param / .const, None when a store may proceed.
  FaultKind check_store(const Dest& d, uint64_t offset, uint64_t n) const;

  // The memory update: writes the masked bytes of one line request.
  void apply(const LineRequest& line);

  // Reads n bytes of any space (for expectations and dumps); bytes never written read as the
  // fill value. Returns false when the location is outside the space.
  bool read(const Dest& d, uint64_t offset, uint8_t* out, size_t n) const;
  // Host-side initialisation (ignores read-only-ness: this is how .param/.const get data).
  bool write(const Dest& d, uint64_t offset, const uint8_t* data, size_t n);

  // mbarrier access in a CTA's shared memory (offset must be 8-byte aligned and in range).
  // A barrier exists once set_mbar() has written an initialised state there (`init`); before
  // that mbar() reads it as not initialised, whatever the bytes hold (the fill value, or
  // data a plain store left), so a use before `init` is always reported.
  MbarState mbar(uint32_t cta, uint64_t offset) const;
  void set_mbar(uint32_t cta, uint64_t offset, const MbarState& s);

 private:
  // Where the bytes [offset, offset + n) of a location live: a flat array, or a sparse memory
  // at a key; neither when the range is outside the space. One lookup for read() and write()
  // (Self is MachineState or const MachineState).
  template <typename Self>
  static auto place(Self& self, const Dest& d, uint64_t offset, size_t n);

  ModelConfig cfg_;
  SparseMemory global_;
  GlobalAllocations allocs_;
  std::vector<CtaState> ctas_;
  SparseMemory local_;
  SparseMemory param_func_;
  std::vector<uint8_t> kernel_param_;
  std::vector<uint8_t> const_;
};

}  // namespace stu::golden
