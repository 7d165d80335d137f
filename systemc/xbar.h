// Xbar: the crossbar from the SMs' L1s to the L2 slices: the slice is l2_slice_of(address);
// a request books its SM's port (xbar.bytes_per_clk) and takes xbar.latency each way.
// LT: b_transport forwarded with the delay added. AT: the crossbar takes a request (END_REQ)
// when its SM's port has moved it, delivers it (BEGIN_REQ) to the slice xbar.latency later,
// and returns the slice's BEGIN_RESP xbar.latency later; the slice's END_REQ stays inside.
// Each slice has kCredits places in the crossbar (on the wire or not yet taken by the
// slice): a request for a slice without a free place waits, without END_REQ, so a busy L2
// slice pushes back to the L1s.
#pragma once

#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "agenda.h"
#include "ring_fifo.h"
#include "sim_context.h"

namespace stu::sim {

class Xbar : public sc_core::sc_module, private Agenda::Client {
 public:
  tlm_utils::multi_passthrough_target_socket<Xbar> in;      // bound by SM: L1 s at index s
  tlm_utils::multi_passthrough_initiator_socket<Xbar> out;  // bound by slice

  Xbar(const sc_core::sc_module_name& name, SimContext& ctx);
  // A host-speed hint (no effect on the model): SM `sm`'s port will book soon (its object, by
  // address alone).
  void prefetch_port(std::uint32_t sm) const { __builtin_prefetch(&ports_[sm % ports_.size()]); }

 private:
  Cycle book(const tlm::tlm_generic_payload& tr, Cycle t);
  void b_transport(int port, tlm::tlm_generic_payload& tr, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  void deliver(tlm::tlm_generic_payload& tr, std::uint32_t slice);
  void take(std::uint32_t slice);  // AT: a place of the slice is free

  // Requests on the wire reach their slice (scheduled on the agenda, the slice as `what`).
  void due(void* item, std::uint32_t what) override;
  void will_run(const void* item, std::uint32_t what) const override;

  SimContext& ctx_;
  std::vector<Calendar> ports_;
  static constexpr unsigned kCredits = 32;
  std::vector<unsigned> used_;                                // per slice
  std::vector<RingFifo<tlm::tlm_generic_payload*>> waiting_;  // per slice
  Cycle latency_;
};

}  // namespace stu::sim
