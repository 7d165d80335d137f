#include "addr_resolver.h"

namespace stu::sim {

AddrResolver::AddrResolver(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_module(name), in("in"), out("out"), ctx_(ctx) {
  in.register_b_transport(this, &AddrResolver::b_transport);
  in.register_nb_transport_fw(this, &AddrResolver::nb_transport_fw);
  out.register_nb_transport_bw(this, &AddrResolver::nb_transport_bw);
}

int AddrResolver::route(const tlm::tlm_generic_payload& tr) const {
  const StoreExtension& x = store_ext(tr);
  const int sms = int(ctx_.cfg.gpu.sms);
  if (x.mbar_op != StoreExtension::MbarOp::None) return sms;
  switch (x.dest.space) {
    case golden::MemSpace::Shared:
      return sms;
    case golden::MemSpace::Tmem:
      return sms + 1;
    default:
      return int(x.sm % ctx_.cfg.gpu.sms);
  }
}

void AddrResolver::b_transport(tlm::tlm_generic_payload& tr, sc_core::sc_time& delay) {
  out[route(tr)]->b_transport(tr, delay);
}

tlm::tlm_sync_enum AddrResolver::nb_transport_fw(tlm::tlm_generic_payload& tr,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  return out[route(tr)]->nb_transport_fw(tr, phase, delay);
}

tlm::tlm_sync_enum AddrResolver::nb_transport_bw(int, tlm::tlm_generic_payload& tr,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  return in->nb_transport_bw(tr, phase, delay);
}

}  // namespace stu::sim
