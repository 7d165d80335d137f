// L2Slice: one address-hashed slice of the L2 (l2_slice_of). State: a golden::SectoredCache
// of the slice's geometry (the cache piece: hit, allocation, replacement, dirty bytes); the
// slice applies the L2 action the write-buffer entry carries. The lines' bytes: the slice's
// own, 128 a slot of the cache piece, where its core keeps none (the C++ core), moved through
// the model's DataPlane (a write into its slot; a victim's, a write-through's and a flushed
// line's bytes into DRAM's memory, when the slice decides they leave). Timing: the slice's share of
// the L2 bandwidth and its own latency (l2.hit_latency - l1.hit_latency - 2 * xbar.latency).
// A dirty victim and a write-through go to the DRAM model as new transactions; a write-
// through store is acknowledged when DRAM acknowledges it, every other store at the slice.
// Partly written sectors (l2.partial_lines, the slice's share of it): the slice holds that
// many lines with sectors written in part, oldest first; beyond that it sends the oldest line's
// still partly written sectors to DRAM at once, as a fill read and a write (the traffic only:
// the line stays in the cache piece, and its later write back carries their bytes without
// their traffic). A store whose line does so waits for DRAM to take it (LT), as a victim's.
#pragma once

#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "cache_hints.h"
#include "cores.h"
#include "host_prefetch.h"
#include "line_map.h"
#include "ring_fifo.h"
#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

// The slice's own address of a line: with several slices, the set bits are XORed with a hash
// of the bits above them (a bijection, its own inverse), because the lines of one slice share
// their low line-number bits (the slice hash chose them) and would otherwise crowd a few sets.
// The identity with one slice, so a `.sts` test's cache reads as the golden hierarchy's.
class SliceLocal {
 public:
  explicit SliceLocal(const SimConfig& cfg);
  std::uint64_t operator()(std::uint64_t addr) const {
    if (set_bits_ == 0) return addr;
    std::uint64_t h = (addr >> (7 + set_bits_)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return addr ^ ((h & ((std::uint64_t(1) << set_bits_) - 1)) << 7);
  }

 private:
  unsigned set_bits_ = 0;  // 0: the identity (one slice)
};

// Where the slices' C++ cores keep their sets in host memory, so that a module a line passes
// on its way to a slice can ask the host to load the set early (host-speed hints: the model's
// state is read, never changed). Two steps, some time apart: meta() loads the set's tags,
// keys and masks; way(), once those are in, the masks and data of the way the write will take
// (a victim's are read out by the write). Filled by the model after elaboration.
struct L2Hints {
  const SimConfig& cfg;
  SliceLocal local;
  std::vector<CacheHints> slices;  // empty hints: an RTL core
  // The DRAM model, for the slices' hint of the bank a line sent ahead goes to.
  const class Dram* dram = nullptr;
  // Where each slice keeps the sent-ahead sectors of its slots (L2Slice::paid_array()), for
  // paid(): in this small array, so that the hint reads no slice object.
  struct PaidArray {
    const std::uint8_t* base = nullptr;  // set s, way w: base[s * ways + w]
    std::uint32_t set_mask = 0, ways = 0;
    // The bytes of the set of a slice-local line address.
    const std::uint8_t* set_of(std::uint64_t local_addr) const {
      return base + std::size_t(std::uint32_t(local_addr >> 7) & set_mask) * ways;
    }
  };
  std::vector<PaidArray> paid_arrays;
  explicit L2Hints(const SimConfig& c) : cfg(c), local(c) {}
  // The line's slice, or -1 when that slice gives no hints.
  int slice(std::uint64_t line) const {
    const std::uint32_t s = l2_slice_of(cfg.l2, line);
    return slices[s] ? int(s) : -1;
  }
  void probe(int slice, std::uint64_t line) const { slices[slice].prefetch(local(line)); }
  void meta(int slice, std::uint64_t line) const { slices[slice].prefetch_meta(local(line)); }
  // The sent-ahead sectors of the line's set, which the slice's write reads and sets.
  void paid(int slice, std::uint64_t line) const {
    if (std::size_t(slice) >= paid_arrays.size()) return;
    __builtin_prefetch(paid_arrays[std::size_t(slice)].set_of(local(line)));
  }
  // Returns the (global) line the write would evict, if any.
  std::optional<std::uint64_t> way(int slice, std::uint64_t line) const {
    const auto victim = slices[slice].prefetch_way(local(line));
    if (!victim) return std::nullopt;
    return local(*victim);  // the slice-local address is its own inverse
  }
};

class L2Slice : public Stage {
 public:
  // `memory`: where the lines' bytes are taken from, when the core keeps none (null: the
  // default resource).
  L2Slice(const sc_core::sc_module_name& name, SimContext& ctx, std::unique_ptr<L2Core> core,
          std::uint32_t index = 0, std::pmr::memory_resource* memory = nullptr);
  ~L2Slice() override;
  Sender to_dram;

  // End of simulation: every dirty line goes to DRAM (LT: now; AT: queued). Returns the
  // cycle the last one is acknowledged (LT) or the current cycle (AT).
  Cycle flush(Cycle t);
  const L2Core& core() const { return *core_; }
  // A host-speed hint (no effect on the model): a line for this slice comes next. As L1's:
  // the slice's own members, by address alone.
  void prefetch_state() const {
    __builtin_prefetch(&occupied_until_);
    prefetch_range(&core_, &flushed_);  // the slice's own members, in declaration order
  }
  // A host-speed hint: the sent-ahead sectors of the set of this (slice-local) address, which
  // a write to it reads and sets.
  void prefetch_paid(std::uint64_t local_addr) const {
    __builtin_prefetch(paid_array().set_of(local_addr));
  }
  // Where those sectors lie (fixed for the slice's life), for L2Hints::paid.
  L2Hints::PaidArray paid_array() const { return {paid_.data(), set_mask_, ways_}; }
  // The slice's own address of a line (SliceLocal) and back.
  std::uint64_t local(std::uint64_t addr) const { return local_(addr); }
  std::uint64_t global(std::uint64_t local_addr) const { return local_(local_addr); }
  L2Core& core() { return *core_; }
  // The lines' bytes, 128 a slot, where the core keeps none (else null): for host-speed hints.
  const std::uint8_t* slot_bytes() const { return bytes_; }
  std::size_t dram_outstanding() const { return dram_outstanding_; }

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  void will_serve(const tlm::tlm_generic_payload& tr) const override;
  // A DRAM transaction of the line's `bytes` (global line address); `paid`: its sectors sent
  // ahead earlier. `data`: the bytes it carries (for DRAM's log), or null (none).
  Cycle to_dram_line(std::uint64_t line, const golden::LineByteMask& bytes,
                     const std::uint8_t* data, Cycle t, tlm::tlm_generic_payload* waiting,
                     golden::DramCause cause, std::uint8_t paid = 0,
                     DramData kind = DramData::Bytes);
  // A line's bytes `m` leave for DRAM's memory (DataPlane): from the slice's slot `slot`, or
  // from `data` (a core that keeps its bytes, a write-through). Returns the bytes the DRAM
  // transaction may carry: null where the slot is the plan thread's to read (moves behind).
  const std::uint8_t* to_memory(std::uint64_t line, const golden::LineByteMask& m,
                                const std::uint8_t* slot, const std::uint8_t* data);
  void dram_ack(tlm::tlm_generic_payload& tr, Cycle c);
  // l2.partial_lines: note the sectors this write (of the bytes `written`) left written in part
  // (global line), and
  // send the oldest lines' ahead while the slice holds more than its share. Returns when DRAM
  // took the last one sent (0: none).
  Cycle hold_partial(std::uint64_t line, const golden::LineByteMask& written, Cycle t);
  // l2.dirty_lines: note a line the write allocated, and write the oldest allocated lines'
  // dirty sectors back while the slice holds more than its share. Returns when DRAM took the
  // last one sent (0: none).
  Cycle hold_dirty(std::uint64_t line, Cycle t);
  // Sends what of `old`'s sectors `want` (bit s: sector s) is dirty and not yet sent ahead, as
  // DRAM traffic only (DramData::TrafficOnly); records them in paid_. Returns DRAM's time, or 0.
  Cycle send_ahead(std::uint64_t old, std::uint8_t want, bool partly_written, Cycle t);

  SimContext& ctx_;
  std::unique_ptr<L2Core> core_;
  Calendar port_;
  Cycle latency_;
  std::uint32_t partition_ = 0;  // l2.partitions: this slice's
  SliceLocal local_;
  std::size_t dram_outstanding_ = 0;
  std::vector<golden::CacheLineOut> flushed_;
  // AT: DRAM writes whose slice time is over leave (scheduled on the agenda).
  struct DramSend final : Agenda::Client {
    explicit DramSend(L2Slice& s) : slice(s) {}
    void due(void* item, std::uint32_t what) override;
    void will_run(const void* item, std::uint32_t what) const override;
    L2Slice& slice;
  };
  DramSend send_{*this};
  std::size_t to_send_ = 0;                      // DRAM writes scheduled, not yet handed to to_dram
  static constexpr std::size_t kDramQueue = 16;  // AT: DRAM writes waiting to leave
  RingFifo<tlm::tlm_generic_payload*> stalled_;  // AT: stores waiting for that room
  // l2.partial_lines (global line addresses): the lines with sectors held written in part,
  // oldest first, each with those sectors (bit s: sector s); and the sectors already sent
  // ahead of lines still in the cache.
  std::size_t partial_limit_ = 0;  // lines; 0: no limit
  // l2.dirty_lines: the lines allocated for writes, oldest first (global addresses).
  std::size_t dirty_limit_ = 0;  // lines; 0: no limit
  RingFifo<std::uint64_t> allocated_;
  RingFifo<std::uint64_t> partial_order_;
  LineMap<std::uint8_t> partial_;
  // The sectors sent ahead of the line in each slot of the cache piece (set * ways + way; bit
  // s: sector s), as a cache keeps a bit per line: a write that allocates the slot clears them,
  // one that hits clears those of the sectors it writes.
  std::vector<std::uint8_t> paid_;
  // The lines' bytes, 128 a slot (set * ways + way), where the core keeps none; else null.
  std::uint8_t* bytes_ = nullptr;
  std::size_t bytes_size_ = 0;
  std::pmr::memory_resource* bytes_memory_ = nullptr;
  std::uint8_t* slot_bytes(std::size_t slot) const {
    return bytes_ ? bytes_ + slot * golden::kLineBytes : nullptr;
  }
  std::uint32_t ways_ = 1;
  std::uint32_t set_mask_ = 0;  // sets - 1
  std::size_t slot(std::uint32_t set, std::uint32_t way) const {
    return std::size_t(set) * ways_ + way;
  }
  // Host speed: how far ahead of the oldest held (or allocated) line its set is prefetched.
  static constexpr std::size_t kLookAhead = 8;
};

}  // namespace stu::sim
