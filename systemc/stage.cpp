#include "stage.h"

#include "payload.h"

namespace stu::sim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

Stage::Stage(const sc_core::sc_module_name& name, const Timebase& tb, Agenda& agenda, SimMode mode,
             unsigned depth)
    : sc_module(name),
      in("in"),
      tb_(tb),
      mode_(mode),
      peq_(this, &Stage::from_peq),
      agenda_(agenda),
      depth_(depth ? depth : 1) {
  in.register_b_transport(this, &Stage::b_transport);
  in.register_nb_transport_fw(this, &Stage::nb_transport_fw);
}

void Stage::due(void* item, std::uint32_t what) {
  auto* tr = static_cast<tlm::tlm_generic_payload*>(item);
  switch (Due(what)) {
    case Due::Arrive:
      peq_cb(*tr, tlm::BEGIN_REQ);
      break;
    case Due::Wake:
      wake();
      break;
    case Due::Respond:
      peq_cb(*tr, tlm::BEGIN_RESP);
      break;
  }
}

void Stage::will_run(const void* item, std::uint32_t what) const {
  if (Due(what) == Due::Wake) return;  // a wake reads no payload
  const auto* tr = static_cast<const tlm::tlm_generic_payload*>(item);
  if (Due(what) == Due::Arrive) will_serve(*tr);
  prefetch(tr);
}

void Stage::b_transport(int, tlm::tlm_generic_payload& tr, sc_time& delay) {
  const Cycle t = tb_.at(delay);
  occupied_until_ = kLater;
  const Cycle done = serve(tr, t);
  const Cycle d = done == kLater || done < t ? t : done;
  delay = tb_.time(d) - tb_.stamp();
  tr.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum Stage::nb_transport_fw(int port, tlm::tlm_generic_payload& tr,
                                          tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    route_of(tr).port = std::uint32_t(port);
    if (delay > SC_ZERO_TIME) {  // a request annotated later arrives through the agenda
      later((tb_.stamp() + delay).value(), &tr, Due::Arrive);
      return tlm::TLM_ACCEPTED;
    }
    reclaim();
    if (busy_ < depth_ && waiting_.empty() && !serving_ && peq_pending_ == 0) {
      // A place is free now: take it on the return path (END_REQ, no delta cycle through the
      // PEQ) and serve it at once.
      take(tr);
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    ++peq_pending_;
    peq_.notify(tr, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_COMPLETED;  // END_RESP: nothing left to do
}

void Stage::from_peq(tlm::tlm_generic_payload& tr, const tlm::tlm_phase& phase) {
  --peq_pending_;
  peq_cb(tr, phase);
}

void Stage::peq_cb(tlm::tlm_generic_payload& tr, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    reclaim();
    if (busy_ < depth_) {
      accept(tr);
    } else {
      waiting_.push_back(&tr);
      arm();
    }
    return;
  }
  if (phase == tlm::BEGIN_RESP) {
    tr.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_time d = SC_ZERO_TIME;
    RouteExtension& route = route_of(tr);
    const bool held = route.holds_place;
    route.holds_place = false;
    in[int(route.port)]->nb_transport_bw(tr, p, d);  // answered TLM_COMPLETED
    if (held) free_place();
  }
}

void Stage::free_place() {
  --busy_;
  reclaim();
  admit();
}

void Stage::admit() {
  while (busy_ < depth_ && !waiting_.empty()) {
    tlm::tlm_generic_payload* next = waiting_.front();
    waiting_.pop_front();
    if (agenda_.hints() && !waiting_.empty()) prefetch(waiting_.front());
    accept(*next);
  }
  if (!waiting_.empty()) arm();
}

void Stage::wake() {
  armed_ = kLater;
  reclaim();
  admit();
}

void Stage::arm() {
  if (free_at_.empty() || armed_ <= free_at_.earliest()) return;  // none due, or a wake first
  armed_ = free_at_.earliest();
  later(tb_.time(armed_).value(), nullptr, Due::Wake);
}

void Stage::accept(tlm::tlm_generic_payload& tr) {
  const int port = int(route_of(tr).port);
  take(tr);  // first: the initiator may send its next request from the END_REQ call
  tlm::tlm_phase p = tlm::END_REQ;
  sc_time d = SC_ZERO_TIME;
  in[port]->nb_transport_bw(tr, p, d);
}

void Stage::take(tlm::tlm_generic_payload& tr) {
  ++busy_;
  const Cycle now = tb_.now();
  occupied_until_ = kLater;
  serving_ = true;
  const Cycle done = serve(tr, now);
  serving_ = false;
  RouteExtension& route = route_of(tr);
  if (occupied_until_ != kLater) {  // the place frees when the resource is done
    route.holds_place = false;
    free_at_.add(std::max(occupied_until_, now));
  } else {
    route.holds_place = true;  // until the acknowledgement
  }
  if (done != kLater) respond(tr, done);
}

void Stage::respond(tlm::tlm_generic_payload& tr, Cycle t) {
  const std::uint64_t now = tb_.stamp().value();
  later(std::max<std::uint64_t>(tb_.time(t).value(), now), &tr, Due::Respond);
}

Sender::Sender(const sc_core::sc_module_name& name, const Timebase& tb, Agenda& agenda,
               AckFn on_ack, std::function<void()> on_ready)
    : sc_module(name),
      out("out"),
      tb_(tb),
      agenda_(agenda),
      on_ack_(std::move(on_ack)),
      on_ready_(std::move(on_ready)) {
  out.register_nb_transport_bw(this, &Sender::nb_transport_bw);
}

void Sender::due(void* item, std::uint32_t what) {
  if (Due(what) == Due::Send) {
    send_next();
    return;
  }
  // The END_REQ of the request still waiting for it (a BEGIN_RESP may have stood for it
  // already, and a later request be waiting for its own).
  if (waiting_end_req_ && item == pending_) end_req_due();
}

void Sender::end_req_due() {
  waiting_end_req_ = false;
  if (!queue_.empty()) agenda_.at(tb_.stamp().value(), *this, nullptr, std::uint32_t(Due::Send));
  if (on_ready_) on_ready_();
}

Cycle Sender::lt(tlm::tlm_generic_payload& tr, Cycle t) {
  const Cycle now = tb_.now();
  sc_time delay = t > now ? tb_.time(t - now) : SC_ZERO_TIME;
  out->b_transport(tr, delay);
  return tb_.at(delay);
}

void Sender::at(tlm::tlm_generic_payload& tr, const sc_time& delay) {
  queue_.push_back(Queued{&tr, delay});
  if (!waiting_end_req_ && !sending_) send_next();  // sent now; queued while one waits
}

void Sender::send_next() {
  if (sending_) return;  // a callback of the loop below queued more: the loop sends it
  sending_ = true;
  while (!waiting_end_req_ && !queue_.empty()) {
    tlm::tlm_generic_payload* tr = queue_.front().tr;
    sc_time d = queue_.front().delay;
    queue_.pop_front();
    // A host-speed hint: the target reads the next queued payload's fields when it is sent.
    if (agenda_.hints() && !queue_.empty()) prefetch(queue_.front().tr);
    tlm::tlm_phase p = tlm::BEGIN_REQ;
    waiting_end_req_ = true;
    pending_ = tr;
    const tlm::tlm_sync_enum r = out->nb_transport_fw(*tr, p, d);
    if (r == tlm::TLM_COMPLETED) {  // a target that answers at once
      waiting_end_req_ = false;
      on_ack_(*tr, tb_.at(d));
      if (on_ready_) on_ready_();
    } else if (r == tlm::TLM_UPDATED && p == tlm::END_REQ) {
      if (d > SC_ZERO_TIME) {  // the target takes it later: the next request waits for then
        agenda_.at((tb_.stamp() + d).value(), *this, tr, std::uint32_t(Due::EndReq));
        break;
      }
      waiting_end_req_ = false;
      if (on_ready_) on_ready_();
    }
  }
  sending_ = false;
}

tlm::tlm_sync_enum Sender::nb_transport_bw(tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                           sc_time& delay) {
  if (phase == tlm::END_REQ) {
    if (&tr != pending_) return tlm::TLM_ACCEPTED;  // not the request that waits
    if (delay > SC_ZERO_TIME) {
      agenda_.at((tb_.stamp() + delay).value(), *this, &tr, std::uint32_t(Due::EndReq));
      return tlm::TLM_ACCEPTED;
    }
    waiting_end_req_ = false;
    if (on_ready_) on_ready_();
    send_next();  // the next request now (a target sends END_REQ after taking the request)
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (waiting_end_req_ && &tr == pending_) {  // its BEGIN_RESP implies its END_REQ
      waiting_end_req_ = false;
      if (!queue_.empty())
        agenda_.at(tb_.stamp().value(), *this, nullptr, std::uint32_t(Due::Send));
      if (on_ready_) on_ready_();
    }
    on_ack_(tr, tb_.at(delay));
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

}  // namespace stu::sim
