// L1: one SM's L1 write path (write-through) with its write buffer toward the L2.
//
// Global lines: the L1Core decides (lookup, update or invalidate, allocate; the write buffer's
// merge, release drain and oldest-out); timing books the tag stage (tag_lookups_per_clk) and
// the data stage (bytes_per_clk) and adds l1.hit_latency. The line's bytes are written to the
// model's global image here (the SM's point of view); entries that leave the write buffer
// carry the data on to the L2 (and DRAM), which the golden-image check follows to the end.
// Ordering at the buffer's output: entries leave in order and pipeline, strong ones too (an
// H200 issues relaxed .gpu stores as fast as weak ones); AT: a release store's own entry
// leaves only after every entry before it is acknowledged by the L2 (LT: the LSU's fence
// waited for them); a release store is acknowledged only after the entries its drain pushed
// out are.
// Write-buffer policy (l1.write_buffer_policy): `eager` sends the oldest entry whenever the
// port to the crossbar is free (xbar.bytes_per_clk), and acknowledges a strong store of
// .cluster/.gpu/.sys scope when the L2 acknowledges its entry (the L2 keeps every strong
// store; a write-through entry, `.wt`, is acknowledged when DRAM takes it); `on_full` keeps the
// golden rule exactly (entries leave when the buffer is full, at a release or a drain; every store
// is acknowledged at the L1). Local and .param::func lines are written to the image at the L1 (they
// stay in the SM).
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "cores.h"
#include "host_prefetch.h"
#include "ring_fifo.h"
#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

class L1 : public Stage {
 public:
  L1(const sc_core::sc_module_name& name, SimContext& ctx, unsigned sm,
     std::unique_ptr<L1Core> core);
  Sender to_xbar;

  // The write buffer drains (end of simulation, `drain`). LT: returns the cycle the last entry
  // is acknowledged; AT: queues them (done when idle()).
  Cycle drain(Cycle t);
  bool idle() const { return out_.empty() && in_flight_ == 0; }
  // A host-speed hint (no effect on the model): a store of this SM comes next, so the host
  // starts loading the L1's own members, by their addresses alone (reading a member here
  // would wait for its line, and what members point to is not worth that: measured).
  void prefetch_state() const {
    __builtin_prefetch(&occupied_until_);
    prefetch_range(&sm_, &leaving_ + 1);  // the L1's own members, in declaration order
  }
  const L1Core& core() const { return *core_; }
  L1Core& core() { return *core_; }

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  void will_serve(const tlm::tlm_generic_payload& tr) const override;
  Cycle send(std::vector<golden::WbEntry>& leaving, Cycle t, const StoreExtension& from);
  // LT, eager: the entries the port can take by cycle t leave (all of them with `all`);
  // returns the acknowledgement of the last one sent (t when none).
  Cycle eager_lt(Cycle t, bool all, const StoreExtension& from);
  bool eager() const;
  static bool scoped(const StoreExtension& x);
  void pump();  // AT: entries leave the buffer while the crossbar takes them
  void pump_loop();
  void ack(tlm::tlm_generic_payload& tr, Cycle c);

  SimContext& ctx_;
  unsigned sm_;
  std::unique_ptr<L1Core> core_;
  Calendar tags_, data_;
  Cycle last_out_ack_ = 0;  // LT: the latest L2 acknowledgement
  Cycle port_free_ = 0;     // LT: the port to the crossbar
  Cycle last_depart_ = 0;   // LT: when the last entry left
  // LT: when each of the last kCredits entries sent was taken by its slice: an entry leaves
  // only when the one kCredits places before it has been taken (the crossbar's credits per
  // SM port, an assumption: as many as the L2 slice queues hold per SM at the presets).
  static constexpr std::size_t kCredits = 64;
  RingFifo<Cycle> taken_;
  RingFifo<tlm::tlm_generic_payload*> strong_;  // AT: per non-mergeable entry, its store
                                                // when it waits for the L2 (else null)
  std::vector<golden::WbEntry> leaving_;
  RingFifo<tlm::tlm_generic_payload*> out_;         // AT: entries waiting to leave
  unsigned in_flight_ = 0;                          // AT: entries sent, not yet acknowledged
  bool pumping_ = false;                            // AT: inside pump()
  std::deque<tlm::tlm_generic_payload*> releases_;  // AT: releases waiting for the drain
  RingFifo<tlm::tlm_generic_payload*> stalled_;     // AT: stores waiting for buffer room
  sc_core::sc_event pump_ev_;
};

}  // namespace stu::sim
