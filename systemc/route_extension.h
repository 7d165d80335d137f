// RouteExtension: what a payload carries on its way through the model that belongs to the
// model, not to the store: the initiator's own bookkeeping (which of its requests this is),
// and the stage it is at (the target socket it came in on, whether it holds one of the stage's
// places until its acknowledgement). TLM-2.0 keeps such per-transaction state of an
// interconnect or an initiator in an extension of its own (ignorable by every other module),
// beside the protocol's (StoreExtension).
#pragma once

#include <cstdint>

#include <tlm>

namespace stu::sim {

struct RouteExtension : tlm::tlm_extension<RouteExtension> {
  // The current owner's bookkeeping: the LSU its instruction slot, the L1 the strong store
  // a write-buffer entry acknowledges, the L2 and shared memory the request that waits for
  // this one's acknowledgement (a tlm_generic_payload*). 0: none.
  std::uint64_t tag = 0;
  std::uint32_t port = 0;    // AT: the target socket index it came in on (one Stage at a time)
  bool holds_place = false;  // AT: counted in its Stage's places until its acknowledgement

  tlm::tlm_extension_base* clone() const override { return new RouteExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const RouteExtension&>(other);
  }
};

// The payload's RouteExtension, attached (owned by the payload) when it has none: a stage
// serves any payload, the model's own (which all carry one) or a caller's.
inline RouteExtension& route_of(tlm::tlm_generic_payload& trans) {
  RouteExtension* r = trans.get_extension<RouteExtension>();
  if (!r) {
    r = new RouteExtension;
    trans.set_extension(r);
  }
  return *r;
}

}  // namespace stu::sim
