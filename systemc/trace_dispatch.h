// TraceDispatcher: a trace's records in the order the GPU runs them.
//
// A trace lists its records warp by warp (Accel-Sim: thread block by thread block, each warp's
// instructions together). A GPU runs them otherwise: the block scheduler places CTAs on SMs
// round robin, as many on one SM as its occupancy limits allow, and places the next CTA on an
// SM as soon as one of its CTAs finishes; each SM interleaves its resident warps. The
// dispatcher reads a kernel's records into a buffer and hands them out in that order:
//
//   - CTAs in launch order (their linear index x + gx (y + gy z) in the kernel's grid);
//   - CTAs per SM: the least of the SM's limits (SmLimits) for the kernel's block size,
//     registers per thread and shared memory per CTA (the trace header's);
//   - the first wave breadth first (CTA i on SM i mod sms), later CTAs on the SM whose CTA
//     finished, in launch order;
//   - one record per SM in turn (SM 0, 1, ..., skipping SMs with nothing resident), and on an
//     SM one record of each resident warp in turn (loose round robin).
//
// The dispatcher sees no time: a CTA finishes when its warps' last records have been handed
// out. Memory is bounded by the buffer (SmLimits::buffer_records, about 56 bytes a record, up to
// 256 more for scattered addresses): a kernel with more records
// is dispatched in segments, each as above, and a CTA that goes on into the next segment
// stays on its SM. No SystemC: unit-tested in tests/unit/test_sim_workload.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "stu/workload/trace.h"
#include "workload.h"

namespace stu::sim {

// CTAs of one kernel an SM holds at once: the least of max_ctas, max_warps / warps,
// max_threads / threads, registers / (registers of a CTA, allocated per warp in units of
// 256) and shared_bytes / (shared bytes rounded up to 128, plus the 1 KiB the driver
// reserves per CTA); at least 1. `threads` 0 counts as 32; `regs` and `shmem` 0 set no limit.
std::uint32_t ctas_per_sm(const SmLimits& lim, std::uint32_t threads, std::uint32_t regs,
                          std::uint64_t shmem);

// A record as dispatched: the trace's record, where it runs, and its index in the trace.
struct Dispatched {
  workload::StoreRecord rec;  // every field the models use; pc and opcode are not kept
  std::uint32_t sm = 0;
  std::uint16_t slot = 0;   // the warp's slot among its SM's warps (CTA slot x warps + warp)
  std::uint64_t index = 0;  // the record's position in the trace (0-based, file order)
  std::uint64_t shmem_base = 0, local_base = 0;  // its kernel's windows
};

class TraceDispatcher {
 public:
  // `src` is read as needed; it must outlive the dispatcher.
  TraceDispatcher(workload::StoreSource& src, const SmLimits& lim);
  // The next record in dispatch order; false at the end, or when `accept` refused a record
  // (then error() says why) or the source failed (then the source's error). Records read
  // before an error are all handed out first.
  bool next(Dispatched& out);
  // Checks a record as it is read (the trace workload's width check): empty to accept.
  // `index` is the record's 1-based position in the trace.
  using Accept = std::function<std::string(const workload::StoreRecord&, std::uint64_t index)>;
  void set_accept(Accept a) { accept_ = std::move(a); }
  const std::string& error() const { return error_; }
  std::uint64_t segments() const { return segments_; }
  // Kernels dispatched so far: id, CTAs per SM and segments.
  struct KernelNote {
    std::uint32_t id = 0, ctas_per_sm = 0, warps_per_cta = 0;
    std::uint64_t ctas = 0, segments = 0;
  };
  const std::vector<KernelNote>& kernels() const { return notes_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Held {  // a buffered record, addresses compressed when the lanes form a progression
    workload::RecordKind kind;
    workload::FenceScope scope;
    workload::StoreSpace space;
    bool regular;
    std::uint32_t mask, width, issued, warp, cta, next;
    std::uint64_t index, addr0;  // regular: lane l at addr0 + l * step; else arena_[addr0 + k]
    std::int64_t step;
  };
  struct Warp {
    std::uint32_t head = kNone, tail = kNone, warp = 0;
  };
  struct Cta {
    std::array<std::uint32_t, 3> id{};
    std::uint64_t linear = 0;
    std::vector<Warp> warps;
    std::uint32_t live = 0;  // warps with records left
    std::uint32_t sm = kNone, slot = 0;
  };
  struct Resident {
    std::uint32_t cta, warp;  // index into ctas_, into its warps
  };
  struct Sm {
    std::vector<Resident> warps;
    std::vector<bool> slot_used;
    std::size_t rr = 0;
  };

  bool fill();  // reads the next segment; false when nothing is left
  void hold(const workload::StoreRecord& r);
  void place(std::uint32_t cta, std::uint32_t sm);
  void unpack(const Held& h, const Cta& c, std::uint32_t sm, Dispatched& out) const;

  workload::StoreSource& src_;
  SmLimits lim_;
  Accept accept_;
  std::string error_;
  bool source_done_ = false, stop_ = false;
  bool have_ahead_ = false;  // a record of the next kernel was read ahead
  workload::StoreRecord ahead_;
  workload::KernelInfo ahead_kernel_;
  std::uint64_t read_ = 0, segments_ = 0;
  // The segment being dispatched.
  workload::KernelInfo kernel_;
  std::uint32_t kernel_id_ = 0;
  bool in_kernel_ = false;
  std::vector<Held> held_;
  std::vector<std::uint64_t> arena_;
  std::vector<Cta> ctas_;
  std::map<std::array<std::uint32_t, 3>, std::uint32_t> cta_of_;
  std::vector<std::uint32_t> order_;  // CTAs in launch order
  std::size_t next_cta_ = 0;          // the next of order_ to place
  std::uint32_t per_sm_ = 1, warps_per_cta_ = 1;
  std::vector<Sm> sms_;
  std::size_t sm_rr_ = 0;
  std::uint64_t left_ = 0;  // records of the segment not yet handed out
  // CTAs resident when the last segment ended: their SMs (kept for the next segment).
  std::map<std::array<std::uint32_t, 3>, std::uint32_t> carried_;
  std::vector<KernelNote> notes_;
};

}  // namespace stu::sim
