// The golden reference of a workload run: every op of a workload on the golden model, as
// `stu sim` runs it beside (in its own thread) the TLM model's run of a second instance of the
// same workload.
#include "stu/golden/mbarrier.h"
#include "workload.h"

namespace stu::sim {

std::string run_golden(Workload& w, golden::MachineState& m) {
  WarpOp op;
  golden::StoreResult res;
  golden::Scratch scratch;
  while (w.next(op)) {
    switch (op.kind) {
      case OpKind::Store:
        golden::execute(m, *op.ins, op.ctx, op.ops, res, scratch);
        break;
      case OpKind::MbarArrive: {
        const golden::MbarOp mo{
            op.tx_bytes ? golden::MbarOpKind::ArriveExpectTx : golden::MbarOpKind::Arrive,
            op.tx_bytes ? op.tx_bytes : 1u};
        const golden::MbarStep st = golden::mbar_step(m.mbar(op.ctx.cta, op.mbar_offset), mo);
        if (st.fault == golden::FaultKind::None) m.set_mbar(op.ctx.cta, op.mbar_offset, st.next);
        break;
      }
      case OpKind::MbarWait:
      case OpKind::TmemWait:
      case OpKind::Fence:
        break;  // the golden model runs the ops in order: nothing to wait for
    }
  }
  return w.error();
}

}  // namespace stu::sim
