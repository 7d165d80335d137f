// Xbar: the crossbar from the SMs' L1s to the L2 slices. A pass-through interconnect: the
// slice is l2_slice_of(address); a request books its SM's port (xbar.bytes_per_clk) and
// takes xbar.latency each way. LT: b_transport forwarded with the delay added; AT: the
// phases forwarded (BEGIN_REQ delayed by the port, BEGIN_RESP by the return latency).
#pragma once

#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "sim_context.h"

namespace stu::sim {

class Xbar : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Xbar> in;      // bound by SM: L1 s at index s
  tlm_utils::multi_passthrough_initiator_socket<Xbar> out;  // bound by slice

  Xbar(const sc_core::sc_module_name& name, SimContext& ctx);

 private:
  Cycle book(const tlm::tlm_generic_payload& tr, Cycle t);
  void b_transport(int port, tlm::tlm_generic_payload& tr, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& tr,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& tr,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);

  SimContext& ctx_;
  std::vector<Calendar> ports_;
  Cycle latency_;
};

}  // namespace stu::sim
