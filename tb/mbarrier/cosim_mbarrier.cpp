// Cosimulation of rtl/stu_mbarrier.sv against golden::mbar_step (on golden::decode_mbar of the
// word in, golden::encode of the state out).
#include <cstdio>
#include <string>

#include "Vstu_mbarrier.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/mbarrier.h"

namespace stu::tb {
namespace {

using golden::MbarOp;
using golden::MbarOpKind;

static_assert(rtl::layout::mbar_word::kWidth == 64, "mbar_word_t is golden's 64-bit layout");

struct MbarrierBench : StreamPorts<Vstu_mbarrier> {
  struct In {
    uint64_t word = 0;
    MbarOp op;
  };
  struct Out {
    uint64_t word = 0;
    bool completed = false;
    golden::FaultKind fault = golden::FaultKind::None;
  };

  void setup(Clocked<Dut>&, Rng&) {}

  // Functional coverage: every operation x its result (the phase flips, a fault, nothing),
  // every fault class the barrier word can raise, and the pending count's edges.
  Crossed op_result_;
  CoverPoint *fault_ = nullptr, *pending_ = nullptr;
  void declare_coverage(Coverage& c) {
    op_result_ = c.crossed(
        "mbarrier.op_x_result",
        c.point("mbarrier.op", {"init", "expect_tx", "complete_tx", "arrive", "arrive_expect_tx"}),
        c.point("mbarrier.result", {"updated", "phase_flip", "fault"}), [](size_t i, size_t j) {
          return i == 0 && j == 1 ? "init starts a phase, it never completes one" : "";
        });
    fault_ = &c.point("mbarrier.fault", {"uninitialized", "tx_range"});
    pending_ = &c.point("mbarrier.pending_before", {"0", "1", "max", "other"});
  }
  // The result is the golden step's, which the scoreboard proves equal to the DUT's (the
  // pipeline may hold several operations, so an output is not paired with an input here).
  void cover_in(const In& in) {
    const golden::MbarState s = golden::decode_mbar(in.word);
    pending_->hit(s.pending == 0                       ? 0
                  : s.pending == 1                     ? 1
                  : s.pending == golden::kMbarMaxCount ? 2
                                                       : 3);
    const golden::MbarStep st = golden::mbar_step(s, in.op);
    const size_t r = st.fault != golden::FaultKind::None ? 2 : st.phase_completed ? 1 : 0;
    op_result_.hit(size_t(in.op.kind), r);
    if (st.fault == golden::FaultKind::MbarUninitialized) fault_->hit(0);
    if (st.fault == golden::FaultKind::MbarTxRange) fault_->hit(1);
  }
  void cover_out(const Out&) {}

  uint32_t count(Rng& r) {
    switch (r.below(6)) {
      case 0:
        return uint32_t(r.below(4));  // 0..3
      case 1:
        return uint32_t(golden::kMbarMaxCount - 2 + r.below(5));  // around the limit
      case 2:
        return uint32_t(r.next());  // anything
      default:
        return uint32_t(1 + r.below(256));
    }
  }
  In gen(Rng& r) {
    In in;
    if (r.chance(0.15)) {
      in.word = r.next();  // any bits, reserved ones too
    } else {
      golden::MbarState s;
      s.expected =
          r.chance(0.1) ? 0 : uint32_t(1 + r.below(r.chance(0.5) ? 4 : golden::kMbarMaxCount));
      s.pending = uint32_t(r.below(uint64_t(s.expected) + 1));
      if (r.chance(0.03)) s.expected = s.pending = uint32_t(golden::kMbarMaxCount);  // the limit
      s.tx = r.chance(0.3) ? 0 : int32_t(r.below(2 * golden::kMbarMaxTx + 1)) - golden::kMbarMaxTx;
      if (r.chance(0.3)) s.tx = int32_t(r.below(64)) - 32;
      s.phase = uint32_t(r.below(2));
      in.word = golden::encode(s);
    }
    in.op.kind = MbarOpKind(r.below(5));
    in.op.count = count(r);
    // Often an operation that completes the phase exactly.
    const golden::MbarState s = golden::decode_mbar(in.word);
    if (r.chance(0.2)) {
      if (in.op.kind == MbarOpKind::Arrive && s.tx == 0) in.op.count = s.pending;
      if (in.op.kind == MbarOpKind::CompleteTx && s.pending == 0) in.op.count = uint32_t(s.tx);
    }
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    const golden::MbarStep st = golden::mbar_step(golden::decode_mbar(in.word), in.op);
    out.push_back(Out{golden::encode(st.next), st.phase_completed, st.fault});
  }
  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    d.in_valid_i = 1;
    d.word_i = in.word;
    d.op_i = uint8_t(in.op.kind);
    d.count_i = in.op.count;
  }
  Out sample(Dut& d) { return Out{d.word_o, bool(d.completed_o), golden::FaultKind(d.fault_o)}; }

  static bool equal(const Out& a, const Out& b) {
    return a.word == b.word && a.completed == b.completed && a.fault == b.fault;
  }
  static std::string show(const Out& o) {
    const golden::MbarState s = golden::decode_mbar(o.word);
    return "word " + hex(o.word) + " (phase " + std::to_string(s.phase) + " pending " +
           std::to_string(s.pending) + " expected " + std::to_string(s.expected) + " tx " +
           std::to_string(s.tx) + ")" + (o.completed ? " completed" : "") +
           (o.fault != golden::FaultKind::None ? " fault " + std::string(golden::to_string(o.fault))
                                               : "");
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    const golden::MbarState a = golden::decode_mbar(w.word), b = golden::decode_mbar(g.word);
    field("phase", std::to_string(a.phase), std::to_string(b.phase));
    field("pending", std::to_string(a.pending), std::to_string(b.pending));
    field("expected", std::to_string(a.expected), std::to_string(b.expected));
    field("tx", std::to_string(a.tx), std::to_string(b.tx));
    field("reserved", hex(w.word >> 61 & 3), hex(g.word >> 61 & 3));
    field("completed", std::to_string(w.completed), std::to_string(g.completed));
    field("fault", std::string(golden::to_string(w.fault)),
          std::string(golden::to_string(g.fault)));
    return field.str();
  }
};

}  // namespace

CosimResult cosim_mbarrier(const CosimOptions& o) {
  MbarrierBench b;
  return run_stream(b, "mbarrier", o);
}

}  // namespace stu::tb
