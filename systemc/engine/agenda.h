// Agenda: the one timed queue of a model. What a Stage schedules for later (requests annotated
// to arrive later, acknowledgements, wakes for freed places), the crossbar's deliveries, the L2
// slices' DRAM sends and a Sender's delayed END_REQs are kept here, in one TimeWheel, and run by
// one SystemC method in order of time and, at equal times, of scheduling. Before, every module
// had its own heap or events and methods: nearly every item cost a timed sc_event notification
// (an allocation and an insertion into the kernel's queue) and a method activation of its own.
// Now the kernel sees one event, notified again only when the model's earliest item changes.
#pragma once

#include <cstdint>

#include <systemc>

#include "time_wheel.h"

namespace stu::sim {

class Agenda : public sc_core::sc_module {
 public:
  // Whoever schedules: due() runs an item when its time comes; will_run() is offered the
  // item that runs next, a host-speed hint (its memory is usually cold), no effect on the
  // model.
  class Client {
   public:
    virtual void due(void* item, std::uint32_t what) = 0;
    virtual void will_run(const void* item, std::uint32_t what) const {
      (void)item;
      (void)what;
    }

   protected:
    ~Client() = default;
  };

  // Registers itself as the context's agenda (ctx.agenda): construct it before the stages.
  Agenda(const sc_core::sc_module_name& name, struct SimContext& ctx);
  // `who`.due(item, what) at simulated time `at_ps` (picoseconds; not before now).
  void at(std::uint64_t at_ps, Client& who, void* item, std::uint32_t what) {
    wheel_.push(at_ps, Item{&who, item, what}, ev_);
  }
  // Whether the host-speed hints are on (SimContext::hints).
  bool hints() const { return hints_; }

 private:
  struct Item {
    Client* who;
    void* item;
    std::uint32_t what;
  };
  void run();

  const bool& hints_;  // SimContext::hints
  TimeWheel<Item> wheel_;
  sc_core::sc_event ev_;
};

}  // namespace stu::sim
