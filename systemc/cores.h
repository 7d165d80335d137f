// The state machines behind the cache modules, replaceable by their RTL (`stu sim --rtl`):
//
//   L1Core  the L1 write path: the L1 lookup/update/invalidate of a global line request and
//           the write buffer (merge, release drain, oldest out when full)
//   L2Core  one L2 slice: write with the entry's action, dirty victims, flush
//   MbarCore  the mbarrier state step (MBarrierUnit)
//   Coalescer the LSU's coalescing of a warp's lane accesses into line requests
//
// The C++ cores compose the golden cache piece (golden::SectoredCache, golden::WriteBuffer
// and the policy functions); the RTL cores drive the Verilated stu_l1_wpath / stu_l2_wslice
// (tb/sim/rtl_cores.cpp). The modules add timing around either.
#pragma once

#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "stu/golden/cache.h"
#include "stu/golden/mbarrier.h"

namespace stu::sim {

struct L1Result {
  bool hit = false;
  bool merged = false;  // the request merged into a write-buffer entry
};

class L1Core {
 public:
  virtual ~L1Core() = default;
  virtual std::string name() const = 0;
  // One global line request; the entries that left the write buffer are appended to `out`
  // (oldest first).
  virtual L1Result store(const golden::LineRequest& req, const golden::CacheAttrs& attrs,
                         const golden::Ordering& order, bool release_point,
                         std::vector<golden::WbEntry>& out) = 0;
  virtual void drain(std::vector<golden::WbEntry>& out) = 0;
  // The oldest write-buffer entry leaves (the eager policy); false when the buffer is empty
  // or the core cannot (then the L1 behaves as the on_full policy).
  virtual bool pop_oldest(std::vector<golden::WbEntry>& out) {
    (void)out;
    return false;
  }
  // Whether pop_oldest() works (the eager policy needs it).
  virtual bool can_pop() const { return false; }
  virtual golden::CacheLookup lookup(std::uint64_t addr) const = 0;
  virtual unsigned wb_entries() const = 0;
  // A host-speed hint, no effect on the model: a store to the line at this address (its set)
  // comes next.
  virtual void prefetch(std::uint64_t) const {}
  // The core's write buffer, when it is the golden piece in host memory (the C++ core): the
  // model reads which entry leaves next, to hint its L2 set. Null for an RTL core.
  virtual const golden::WriteBuffer* write_buffer() const { return nullptr; }
  // The core's cache array, when it has one in host memory (the C++ core): the model keeps its
  // layout (engine/cache_hints.h) to hint the sets of the lines that come next. Null for an RTL
  // core.
  virtual const golden::SectoredCache* cache_array() const { return nullptr; }
  // A failure of the RTL (an assertion, a hang); empty when none.
  virtual std::string take_error() { return {}; }
};

struct L2Result {
  bool hit = false;
  bool evicted = false;  // a dirty victim: `victim`
  golden::CacheLineOut victim;
  std::uint32_t set = 0, way = 0;  // the slot the line is in now (hit or allocated)
};

class L2Core {
 public:
  virtual ~L2Core() = default;
  virtual std::string name() const = 0;
  virtual L2Result write(const golden::WbEntry& e) = 0;
  // Every dirty line, made clean, appended to `out`.
  virtual void flush(std::vector<golden::CacheLineOut>& out) = 0;
  // Whether the core keeps its lines' bytes: then its victims and flushed lines come with
  // their bytes (`data` of each CacheLineOut). When it does not, they come with their masks
  // only, and the L2 slice keeps the bytes itself, 128 a slot (the `set` and `way` of each
  // write's result; DataPlane).
  virtual bool keeps_data() const = 0;
  // A host-speed hint: a write to this (slice-local) address comes next.
  virtual void prefetch(std::uint64_t) const {}
  virtual const golden::SectoredCache* cache_array() const { return nullptr; }  // as L1Core's
  virtual golden::CacheLookup lookup(std::uint64_t addr) const = 0;
  virtual std::string take_error() { return {}; }
};

class MbarCore {
 public:
  virtual ~MbarCore() = default;
  virtual std::string name() const = 0;
  virtual golden::MbarStep step(const golden::MbarState& s, const golden::MbarOp& op) = 0;
  virtual std::string take_error() { return {}; }
};

class Coalescer {
 public:
  virtual ~Coalescer() = default;
  virtual std::string name() const = 0;
  // As golden::coalesce: `n` accesses in, line requests appended to `out` in order.
  virtual void coalesce(const golden::LaneAccess* accesses, std::size_t n, golden::LaneGroup group,
                        std::vector<golden::LineRequest>& out) = 0;
  virtual std::string take_error() { return {}; }
};

// The C++ cores (the golden cache piece). `memory`: where their arrays are taken from (it must
// outlive the core; the model passes its engine's HostArena); null: the default resource.
std::unique_ptr<L1Core> make_l1_core(const golden::CacheGeometry& g, unsigned wb_entries,
                                     std::pmr::memory_resource* memory = nullptr);
std::unique_ptr<L2Core> make_l2_core(const golden::CacheGeometry& g,
                                     std::pmr::memory_resource* memory = nullptr);

}  // namespace stu::sim
