#include "mbarrier_unit.h"

#include "stu/golden/fault.h"

namespace stu::sim {

MBarrierUnit::MBarrierUnit(const sc_core::sc_module_name& name, SimContext& ctx)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 64), ctx_(ctx) {}

Cycle MBarrierUnit::phase_done(std::uint32_t cta, std::uint64_t offset,
                               std::uint32_t parity) const {
  const golden::MbarState s = ctx_.image.mbar(cta, offset);
  if (!s.initialised() || s.phase == (parity & 1)) return kLater;
  auto it = last_phase_.find({cta, offset});
  return it == last_phase_.end() ? 0 : it->second;
}

Cycle MBarrierUnit::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  const Cycle done = t + ctx_.cfg.mbarrier.latency;
  const std::uint32_t cta = x.dest.cta;
  const std::uint64_t off = x.mbar_offset;
  golden::MbarOp op;
  if (x.mbar_op == StoreExtension::MbarOp::CompleteTx) {
    op = {golden::MbarOpKind::CompleteTx, x.mbar_bytes};
    ctx_.stats.add(Metric::MbarCompleteTx);
  } else if (x.mbar_bytes) {
    op = {golden::MbarOpKind::ArriveExpectTx, x.mbar_bytes};
  } else {
    op = {golden::MbarOpKind::Arrive, 1};
  }
  const golden::MbarState before = ctx_.image.mbar(cta, off);
  const golden::MbarStep step = core_ ? core_->step(before, op) : golden::mbar_step(before, op);
  if (core_) {
    const std::string e = core_->take_error();
    if (!e.empty()) errors_.push_back("mbarrier (" + core_->name() + "): " + e);
  }
  ctx_.record(Event::MbarUpdate, x.instr_id, x.warp, off, done);
  if (step.fault != golden::FaultKind::None) {
    errors_.push_back("mbarrier at shared offset " + std::to_string(off) + " of CTA " +
                      std::to_string(cta) + ": " + std::string(golden::to_string(step.fault)));
    return done;
  }
  ctx_.image.set_mbar(cta, off, step.next);
  if (step.phase_completed) {
    last_phase_[{cta, off}] = done;
    ctx_.stats.add(Metric::MbarPhases);
    ctx_.record(Event::MbarPhase, x.instr_id, x.warp, off, done);
    const Cycle now = ctx_.tb.now();
    changed_.notify(done > now ? ctx_.tb.time(done - now) : sc_core::SC_ZERO_TIME);
  }
  return done;
}

}  // namespace stu::sim
