#include "xbar.h"

#include "l2_slice.h"

namespace stu::sim {

Xbar::Xbar(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_module(name),
      in("in"),
      out("out"),
      ctx_(ctx),
      ports_(ctx.cfg.gpu.sms,
             Calendar(double(ctx.cfg.xbar.bytes_per_clk), calendar_window_bins(ctx.cfg))),
      used_(ctx.cfg.l2.slices, 0),
      waiting_(ctx.cfg.l2.slices),
      latency_(ctx.cfg.xbar.latency) {
  in.register_b_transport(this, &Xbar::b_transport);
  in.register_nb_transport_fw(this, &Xbar::nb_transport_fw);
  out.register_nb_transport_bw(this, &Xbar::nb_transport_bw);
}

// The agenda's item is a request on the wire, with its slice (`what`: computed once, when the
// crossbar took the request).
void Xbar::due(void* item, std::uint32_t slice) {
  deliver(*static_cast<tlm::tlm_generic_payload*>(item), slice);
}

void Xbar::will_run(const void* item, std::uint32_t slice) const {
  const auto* tr = static_cast<const tlm::tlm_generic_payload*>(item);
  // The whole payload: the slice it is delivered to copies the line's bytes at once.
  prefetch(tr, true);
  // And the slice's set of the line, tags, keys and masks, and its sent-ahead sectors: the
  // slice writes them as soon as the line is delivered. (Hinted when the crossbar took the
  // line, 20 cycles before, the set was out of the host's caches again by now: measured
  // slower.)
  if (!ctx_.l2_hints || !ctx_.l2_hints->slices[slice]) return;  // (an RTL core: no hints)
  const std::uint64_t line = tr->get_address();
  ctx_.l2_hints->meta(int(slice), line);
  ctx_.l2_hints->paid(int(slice), line);
}

Cycle Xbar::book(const tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  const unsigned sectors = x.bytes.sector_count();
  return ports_[x.sm % ports_.size()].book(t, double(sectors) * golden::kSectorBytes) + latency_;
}

void Xbar::b_transport(int, tlm::tlm_generic_payload& tr, sc_core::sc_time& delay) {
  const Cycle t = book(tr, ctx_.tb.at(delay));
  delay = ctx_.tb.time(t) - ctx_.tb.stamp();
  out[int(l2_slice_of(ctx_.cfg.l2, tr.get_address()))]->b_transport(tr, delay);
  delay += ctx_.tb.time(latency_);
}

tlm::tlm_sync_enum Xbar::nb_transport_fw(int, tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                         sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: nothing to do
  const std::uint32_t slice = l2_slice_of(ctx_.cfg.l2, tr.get_address());
  if (used_[slice] >= kCredits) {  // no place: END_REQ when one frees
    waiting_[slice].push_back(&tr);
    return tlm::TLM_ACCEPTED;
  }
  ++used_[slice];
  const sc_core::sc_time now = ctx_.tb.stamp();
  const Cycle arrive = book(tr, ctx_.tb.at(delay));  // port moved it + the wire
  ctx_.agenda->at(ctx_.tb.time(arrive).value(), *this, &tr, slice);
  phase = tlm::END_REQ;  // taken when the port has moved it
  const sc_core::sc_time taken = ctx_.tb.time(arrive - latency_);
  delay = taken > now ? taken - now : sc_core::SC_ZERO_TIME;
  return tlm::TLM_UPDATED;
}

void Xbar::take(std::uint32_t slice) {
  --used_[slice];
  if (waiting_[slice].empty()) return;
  tlm::tlm_generic_payload& next = *waiting_[slice].front();
  waiting_[slice].pop_front();
  if (ctx_.hints && !waiting_[slice].empty()) prefetch(waiting_[slice].front());
  ++used_[slice];
  const sc_core::sc_time now = ctx_.tb.stamp();
  const Cycle arrive = book(next, ctx_.tb.now());
  ctx_.agenda->at(ctx_.tb.time(arrive).value(), *this, &next, slice);
  tlm::tlm_phase p = tlm::END_REQ;
  const sc_core::sc_time at = ctx_.tb.time(arrive - latency_);
  sc_core::sc_time d = at > now ? at - now : sc_core::SC_ZERO_TIME;
  in[int(store_ext(next).sm % ports_.size())]->nb_transport_bw(next, p, d);
}

void Xbar::deliver(tlm::tlm_generic_payload& tr, std::uint32_t slice) {
  tlm::tlm_phase p = tlm::BEGIN_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = out[int(slice)]->nb_transport_fw(tr, p, d);
  if (r == tlm::TLM_UPDATED && p == tlm::END_REQ) take(slice);  // the slice took it at once
}

// `port`: the slice's socket index, which is the slice's number (bound in order).
tlm::tlm_sync_enum Xbar::nb_transport_bw(int port, tlm::tlm_generic_payload& tr,
                                         tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) {  // the slice took it: its place in the crossbar frees
    take(std::uint32_t(port));
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) delay += ctx_.tb.time(latency_);
  return in[int(store_ext(tr).sm % ports_.size())]->nb_transport_bw(tr, phase, delay);
}

}  // namespace stu::sim
