// AddrResolver: routes each transaction of the LSU to the unit that owns its destination
// space (the LSU resolved the lanes' addresses, generic windows included, with the golden
// rules; the destination travels in the StoreExtension): global, local and .param::func
// lines to the issuing SM's L1, shared lines (own CTA or DSMEM) and barrier operations to
// SharedMem, TMEM runs to TensorMem. A pass-through interconnect in both timing styles.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "sim_context.h"

namespace stu::sim {

class AddrResolver : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<AddrResolver> in;
  // Bound in this order: the L1 of SM 0 .. sms-1, then SharedMem, then TensorMem.
  tlm_utils::multi_passthrough_initiator_socket<AddrResolver> out;

  AddrResolver(const sc_core::sc_module_name& name, SimContext& ctx);

 private:
  int route(const tlm::tlm_generic_payload& tr) const;
  void b_transport(tlm::tlm_generic_payload& tr, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  SimContext& ctx_;
};

}  // namespace stu::sim
