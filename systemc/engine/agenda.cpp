#include "agenda.h"

#include "sim_context.h"

namespace stu::sim {

Agenda::Agenda(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_module(name), hints_(ctx.hints), wheel_(ctx.tb.period_ps()) {
  ctx.agenda = this;
  SC_HAS_PROCESS(Agenda);
  SC_METHOD(run);
  sensitive << ev_;
  dont_initialize();
}

void Agenda::run() {
  if (!hints_) {
    wheel_.run_due(
        ev_, [](const Item& x) { x.who->due(x.item, x.what); }, [](const Item&) {},
        [](const Item&) {});
    return;
  }
  wheel_.run_due(
      ev_, [](const Item& x) { x.who->due(x.item, x.what); },
      [](const Item& next) { next.who->will_run(next.item, next.what); },
      // Two items ahead, by address: the client and the first host line of its item (a
      // payload's fields, which will_run() reads one item later).
      [](const Item& after) {
        __builtin_prefetch(after.who);
        __builtin_prefetch(after.item);
      });
}

}  // namespace stu::sim
