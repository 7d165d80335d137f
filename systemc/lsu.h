// Lsu: the SMs' load/store units on the store side, the initiator of the model. It takes
// planned warp operations from a feed (the workload, or one `.sts` store at a time), and
// for each store issues one transaction per line request (global, local, shared, DSMEM) or
// per TMEM run, honouring:
//   - the SM's instruction issue: an op's instructions (the workload's non-store instructions
//     and the op) take sm.issue_per_clk slots a cycle before the op goes on, and the warp
//     issues them no faster than sm.warp_issue_per_clk;
//   - issue width (lsu.issue_width instructions per cycle per SM) and the per-SM limit of
//     outstanding instructions (lsu.outstanding_stores);
//   - weak and relaxed (strong) stores pipeline: none waits for another's acknowledgement
//     (measured on an H200: a relaxed .gpu store issues as fast as a weak one);
//   - a .mmio store moves one active lane at a time, lsu.mmio_cycles_per_lane each, per SM;
//   - a warp's global stores (not .mmio) issue at least lsu.warp_store_cycles apart;
//   - a fence (OpKind::Fence, and the fence before every release store): .cta costs
//     fence.cta_cycles; wider scopes wait for the warp's earlier stores to be acknowledged
//     (LT: and for what had left the L1's write buffer by then to reach the L2), then take
//     fence.gpu_cycles, .sys at least fence.sys_cycles from its start; an SM starts one such fence
//     every fence.interval cycles. The fenced warp waits, the SM's other warps go on (AT: the
//     LSU's one thread waits only at the warp's next op, or for the fence before a release);
//   - a release store then issues (and the L1 drains the write buffer before it, so the
//     earlier bytes reach the L2 first);
//   - tcgen05.st completes asynchronously (only tcgen05.wait::st waits for it);
//   - mbarrier arrives go to the barrier; a wait holds the warp's SM until the phase completes.
// LT: one thread, per-SM time cursors, b_transport with annotated delays, synchronised by a
// tlm_quantumkeeper. AT: the same thread waits for real (issue slots, acknowledgements,
// barrier events) and sends through nb_transport.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

// After <systemc>: the quantum keeper header uses sc_core without including it.
#include <tlm_utils/tlm_quantumkeeper.h>

#include "mbarrier_unit.h"
#include "sim_context.h"
#include "stage.h"
#include "workload.h"

namespace stu::sim {

// One operation as the LSU receives it: the workload op and, for a store, the planned
// effects (golden::plan on the model's image).
struct PlannedOp {
  OpKind kind = OpKind::Store;
  std::uint32_t sm = 0;
  golden::WarpContext ctx;
  std::uint64_t mbar_offset = 0;
  std::uint32_t tx_bytes = 0;
  std::uint32_t parity = 0;
  const golden::StoreResult* res = nullptr;  // Store: valid until the next feed call
  bool tcgen05 = false;
  std::uint8_t lane_bytes = 0;         // Store: each lane's access, bytes (the instruction's)
  isa::Scope scope = isa::Scope::Gpu;  // Fence
  float instructions = 0;              // the SM's issue slots it takes first (WarpOp)
  bool fenced = false;                 // a release store whose fence already went as an op (AT)
  std::int32_t slot = -1;              // the warp's slot on its SM (WarpOp)
};

class Lsu : public sc_core::sc_module {
 public:
  // The next op (false: none now; the LSU waits for more_ops() or ends when done()).
  using Feed = std::function<bool(PlannedOp&)>;
  Sender out;

  Lsu(const sc_core::sc_module_name& name, SimContext& ctx, MBarrierUnit& mbu, Feed feed);
  // More ops are available (sts mode), or the feed is done.
  void more_ops() { more_.notify(sc_core::SC_ZERO_TIME); }
  void finish() {
    finished_ = true;
    more_.notify(sc_core::SC_ZERO_TIME);
  }
  bool idle() const { return waiting_for_feed_ && outstanding_total_ == 0; }
  // The cycle the last acknowledgement came (LT: the latest cursor).
  Cycle last_cycle() const;
  // A host-speed hint (no effect on the model): SM `sm` issues next. As L1's: its state's own
  // lines, by address alone.
  void prefetch_sm(std::uint32_t sm) const {
    const SmState& s = sms_[sm % sms_.size()];
    __builtin_prefetch(&s);
    __builtin_prefetch(reinterpret_cast<const char*>(&s) + 64);
  }
  std::uint64_t ops_done() const { return ops_done_; }
  static constexpr std::size_t kWarpSlots = 16 * 32;  // per SM: 16 CTAs of 32 warps
  // The index of an op's warp among every SM's warp slots.
  static std::size_t warp_key(const PlannedOp& op, std::uint32_t sms) {
    const std::size_t slot = op.slot >= 0 ? std::size_t(op.slot) % kWarpSlots
                                          : std::size_t(op.ctx.cta % 16) * 32 + op.ctx.warp % 32;
    return std::size_t(op.sm % sms) * kWarpSlots + slot;
  }
  std::vector<std::string>& errors() { return errors_; }
  bool ended() const { return ended_; }

 private:
  struct WarpState {
    Cycle last_ack = 0, tmem_ack = 0;  // LT
    Cycle visible = 0;  // LT: what its stores pushed out of the L1 is at the L2 (and back)
    Cycle ready = 0;    // LT: no op of the warp issues earlier (its fences)
    unsigned outstanding = 0, tmem_outstanding = 0;  // AT
    Cycle issued = 0;      // AT: its last op left the warp's instruction issue
    Cycle store_free = 0;  // its next global store issues no earlier (lsu.warp_store_cycles)
    // AT: its fence (OpKind::Fence) runs while the LSU goes on; its next op waits for it.
    bool fencing = false;  // waiting for its earlier stores' acknowledgements
    bool fence_sys = false;
    std::uint16_t fence_warp = 0;  // for the event log
    Cycle fence_start = 0, fence_done = 0;
  };
  struct SmState {
    Cycle cursor = 0;
    Cycle fence_free = 0;  // the next .cluster/.gpu/.sys fence starts no earlier
    Cycle mmio_free = 0;   // the next .mmio store's first lane goes no earlier
    Calendar issue{1.0};
    Calendar instr{1.0};       // the SM's instruction issue (sm.issue_per_clk)
    Cycle instr_done = 0;      // AT: its last op's instructions took their slots by then
    CycleQueue acks;           // LT: its outstanding stores' acknowledgements
    unsigned outstanding = 0;  // AT
    bool active = false;       // LT: has issued (its cursor counts for the quantum keeper)
    // AT: an mbarrier wait the SM has issued and not yet seen end: its next op (or the end of
    // the workload) waits for the phase; the LSU thread goes on with the other SMs meanwhile.
    struct PendingWait {
      std::uint32_t cta = 0;
      std::uint64_t offset = 0;
      std::uint32_t parity = 0;
      Cycle start = 0;
    };
    std::optional<PendingWait> wait;
  };
  struct Slot {  // AT: an issued instruction waiting for its acknowledgements
    unsigned remaining = 0;
    Cycle issued = 0;
    StoreClass cls = StoreClass::Global;
    WarpState* warp = nullptr;
    SmState* sm = nullptr;
    bool tmem = false, counted = true;
    std::uint64_t instr = 0;
  };

  void main();
  void issue_lt(const PlannedOp& op);
  void issue_at(const PlannedOp& op);
  WarpState& warp(const PlannedOp& op);
  // The transactions of a store (or an arrive), in order.
  void build(const PlannedOp& op, std::vector<tlm::tlm_generic_payload*>& out, StoreClass& cls);
  void ack_at(tlm::tlm_generic_payload& tr, Cycle c);
  // LT: when a fence of `scope` by warp `w` on SM `s` that may start at `t` ends.
  Cycle fence_lt(SmState& s, const WarpState& w, isa::Scope scope, Cycle t);
  // AT: waits until the SM's pending mbarrier wait (if any) ends.
  void finish_wait_at(SmState& s);
  // AT: waits until that fence ends (the fence before a release store).
  void fence_at(SmState& s, WarpState& w, isa::Scope scope);
  // AT: starts a fence op of warp `w` without waiting; end_fence() sets when it ends (`done`,
  // or 0: from when the warp's earlier stores were acknowledged, `drained`).
  void start_fence_at(SmState& s, WarpState& w, isa::Scope scope, std::uint16_t log_warp);
  void end_fence(WarpState& w, Cycle drained, Cycle done);
  // The fence a store implies before it issues (a release: its scope), if any.
  static std::optional<isa::Scope> fence_before(const PlannedOp& op);
  void wait_until(Cycle c);
  // Cycles a warp takes to issue `instructions` alone (sm.warp_issue_per_clk).
  Cycle warp_issue_cycles(float instructions) const;

  SimContext& ctx_;
  MBarrierUnit& mbu_;
  Feed feed_;
  std::vector<SmState> sms_;
  std::vector<WarpState> warps_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> free_slots_;
  std::vector<tlm::tlm_generic_payload*> txns_;
  tlm_utils::tlm_quantumkeeper qk_;
  sc_core::sc_event more_, acked_;
  sc_core::sc_event parked_;  // never notified: main() waits on it once it has ended
  bool waiting_for_feed_ = false, finished_ = false, ended_ = false;
  unsigned outstanding_total_ = 0;
  std::uint64_t next_instr_ = 1, ops_done_ = 0;
  Cycle max_cursor_ = 0;
  std::uint64_t lt_ops_ = 0;
  std::vector<std::string> errors_;
};

StoreClass store_class_of(const golden::StoreResult& r, bool tcgen05, std::uint32_t issuing_cta);

}  // namespace stu::sim
