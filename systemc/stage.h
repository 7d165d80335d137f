// The two halves every TLM module of the store path is built from, so one module serves both
// timing styles (docs/tlm.md, "Timing styles"):
//
//   Stage   a target: b_transport (loosely timed: the arrival cycle is now plus the annotated
//           delay, the answer is annotated back) and nb_transport_fw (approximately timed:
//           the four phases, at most `depth` transactions in service. A request that finds a
//           place free and nothing waiting is taken on the return path (TLM_UPDATED, END_REQ)
//           and served at once; any other goes through a peq_with_cb_and_phase, and one beyond
//           `depth` waits for END_REQ, which is how backpressure reaches the initiator). Both
//           call the module's serve().
//   Sender  an initiator port owned by a module: lt() is b_transport; at() sends BEGIN_REQ at
//           once when the previous request has its END_REQ (else queues the payload and sends
//           it when that comes), and reports BEGIN_RESP to the owner's on_ack().
//
// A module decides its own timing in serve() (bandwidth Calendars, latencies) and the cycle
// its acknowledgement leaves; the styles differ in who waits: in LT nobody (time is
// annotated), in AT queues fill and initiators stall.
// In AT, what both schedule for later (arrivals annotated later, acknowledgements, wakes for
// freed places, END_REQs announced with a delay) waits on the model's Agenda (agenda.h).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "agenda.h"
#include "cycle_queue.h"
#include "ring_fifo.h"
#include "sim_config.h"
#include "timing.h"

namespace stu::sim {

inline constexpr Cycle kLater = ~Cycle(0);  // serve(): respond() will be called later

class Stage : public sc_core::sc_module, private Agenda::Client {
 public:
  // Any number of initiators may bind (several L2 slices share the DRAM model).
  tlm_utils::multi_passthrough_target_socket<Stage> in;

  std::size_t waiting() const { return waiting_.size(); }

 protected:
  Stage(const sc_core::sc_module_name& name, const Timebase& tb, Agenda& agenda, SimMode mode,
        unsigned depth);
  // The module's work on a transaction that arrives at cycle `t`: its state changes, and the
  // cycle its acknowledgement leaves (never before t), or kLater (AT only) when the module
  // calls respond() itself.
  virtual Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) = 0;
  // AT: the acknowledgement of a transaction serve() answered kLater leaves at cycle `t`.
  void respond(tlm::tlm_generic_payload& tr, Cycle t);
  // A host-speed hint, no effect on the model: the transaction `tr` is served next, so the
  // module may start loading the state serve() will read for it (its cache set).
  virtual void will_serve(const tlm::tlm_generic_payload& tr) const { (void)tr; }
  // serve() may set this to the cycle its resource is done with the transaction (the rest of
  // its time is pipeline latency): the transaction then leaves the `depth` places at that
  // cycle instead of at its acknowledgement. Reset before every serve().
  Cycle occupied_until_ = kLater;

  const Timebase& tb_;
  const SimMode mode_;

 private:
  void b_transport(int port, tlm::tlm_generic_payload& tr, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void from_peq(tlm::tlm_generic_payload& tr, const tlm::tlm_phase& phase);
  void peq_cb(tlm::tlm_generic_payload& tr, const tlm::tlm_phase& phase);
  void accept(tlm::tlm_generic_payload& tr);  // END_REQ to the initiator, then take()
  void take(tlm::tlm_generic_payload& tr);    // a place, and serve()
  // Places whose resource is done at a known cycle (occupied_until_) are freed lazily:
  // reclaim() frees those due by now, before every decision on places, so the common case
  // (a free place) needs no timed event; arm() schedules a wake() at the first such cycle
  // only while a request waits for a place.
  void reclaim() {
    // Nothing due while now is before the earliest free cycle: compared in picoseconds, so the
    // common case costs a multiplication, not a division of now into cycles.
    if (free_at_.empty()) return;
    std::uint64_t due_ps;
    if (__builtin_mul_overflow(free_at_.earliest(), tb_.period_ps(), &due_ps) ||
        tb_.stamp().value() < due_ps)
      return;
    busy_ -= free_at_.take_due(tb_.now());
  }
  void admit();  // waiting requests take the free places, in order of arrival
  void wake();
  void arm();
  void free_place();

  // What the stage schedules on the agenda: arrivals, responses and wakes (no payload).
  enum class Due : std::uint32_t { Arrive, Wake, Respond };
  void later(std::uint64_t at_ps, tlm::tlm_generic_payload* tr, Due what) {
    agenda_.at(at_ps, *this, tr, std::uint32_t(what));
  }
  void due(void* item, std::uint32_t what) override;
  void will_run(const void* item, std::uint32_t what) const override;

  tlm_utils::peq_with_cb_and_phase<Stage> peq_;  // arriving requests (BEGIN_REQ)
  Agenda& agenda_;
  unsigned depth_;
  unsigned busy_ = 0;
  RingFifo<tlm::tlm_generic_payload*> waiting_;
  CycleQueue free_at_;        // when places whose resource is done at a known cycle free
  Cycle armed_ = kLater;      // the cycle of the scheduled wake() (kLater: none)
  unsigned peq_pending_ = 0;  // requests in the PEQ: a new one may not pass them
  bool serving_ = false;      // inside serve(): a request that arrives now goes to the PEQ
};

class Sender : public sc_core::sc_module, private Agenda::Client {
 public:
  using AckFn = std::function<void(tlm::tlm_generic_payload&, Cycle)>;
  tlm_utils::simple_initiator_socket<Sender> out;

  // `on_ready` (optional): called when the target takes a request (END_REQ), so an owner that
  // paces its sends can offer the next.
  Sender(const sc_core::sc_module_name& name, const Timebase& tb, Agenda& agenda, AckFn on_ack,
         std::function<void()> on_ready = {});
  // LT: sends at cycle t; returns the acknowledgement's cycle.
  Cycle lt(tlm::tlm_generic_payload& tr, Cycle t);
  // AT: sends the payload now, or queues it behind the request waiting for its END_REQ;
  // on_ack(tr, cycle) when its BEGIN_RESP arrives. `delay`: the request is annotated to arrive
  // that much after it is sent. The owner's callbacks may call at() again (it is queued).
  void at(tlm::tlm_generic_payload& tr, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  std::size_t queued() const { return queue_.size() + (waiting_end_req_ ? 1 : 0); }

 private:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tr, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void send_next();
  void end_req_due();  // an END_REQ announced with a delay has come
  // On the agenda: an END_REQ announced with a delay, and a send after a BEGIN_RESP that
  // stood for its END_REQ (not from inside the target's call).
  enum class Due : std::uint32_t { EndReq, Send };
  void due(void* item, std::uint32_t what) override;

  const Timebase& tb_;
  Agenda& agenda_;
  AckFn on_ack_;
  std::function<void()> on_ready_;
  struct Queued {
    tlm::tlm_generic_payload* tr;
    sc_core::sc_time delay;
  };
  RingFifo<Queued> queue_;
  bool waiting_end_req_ = false;
  bool sending_ = false;  // inside send_next(): a payload queued meanwhile is sent by its loop
  tlm::tlm_generic_payload* pending_ = nullptr;  // the request waiting for its END_REQ
};

}  // namespace stu::sim
