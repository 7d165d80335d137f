// L1: one SM's L1 write path (write-through) with its write buffer toward the L2.
//
// Global lines: the L1Core decides (lookup, update or invalidate, allocate; the write buffer's
// merge, release drain and oldest-out); timing books the tag stage (tag_lookups_per_clk) and
// the data stage (bytes_per_clk) and adds l1.hit_latency. The line's bytes are written to the
// model's global image here (the SM's point of view); entries that leave the write buffer
// carry the data on to the L2 (and DRAM), which the golden-image check follows to the end.
// Ordering at the buffer's output: a strong (non-mergeable) entry leaves only after every
// entry before it is acknowledged by the L2; a release store is acknowledged only after the
// entries its drain pushed out are.
// Local and .param::func lines are written to the image at the L1 (they stay in the SM).
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "cores.h"
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
  const L1Core& core() const { return *core_; }
  L1Core& core() { return *core_; }

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  Cycle send(std::vector<golden::WbEntry>& leaving, Cycle t, const StoreExtension& from);
  void pump();
  void ack(tlm::tlm_generic_payload& tr, Cycle c);

  SimContext& ctx_;
  unsigned sm_;
  std::unique_ptr<L1Core> core_;
  Calendar tags_, data_;
  Cycle last_out_ack_ = 0;                          // LT: the latest L2 acknowledgement
  std::vector<golden::WbEntry> leaving_;
  std::deque<LinePayload*> out_;                    // AT: entries waiting to leave
  unsigned in_flight_ = 0;                          // AT: entries sent, not yet acknowledged
  std::deque<tlm::tlm_generic_payload*> releases_;  // AT: releases waiting for the drain
  std::deque<tlm::tlm_generic_payload*> stalled_;   // AT: stores waiting for buffer room
  sc_core::sc_event pump_ev_;
};

}  // namespace stu::sim
