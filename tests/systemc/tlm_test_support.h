// Shared helpers of the TLM model tests (tests/systemc/test_tlm_*.cpp): a fixed list of warp
// operations as a Workload, and one checked run of it on a TlmModel with the event log.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_config.h"
#include "sim_context.h"
#include "sim_support.h"
#include "stu/diag.h"
#include "stu/isa/parser.h"
#include "tlm_model.h"
#include "workload.h"

namespace stu::sim::testing_support {

// Where the tests' global memory starts, and how much is allocated.
inline constexpr std::uint64_t kBase = 0x10'0000'0000ull;
inline constexpr std::uint64_t kGlobalBytes = 1ull << 20;

// A fixed list of ops with its machine and set-up. Instructions are parsed once and owned here.
struct Script {
  golden::ModelConfig mc;
  std::function<bool(golden::MachineState&)> setup = [](golden::MachineState&) { return true; };
  std::vector<std::unique_ptr<isa::Instruction>> ins;
  std::vector<WarpOp> ops;

  const isa::Instruction* parse(const std::string& text) {
    Diagnostics d;
    auto i = isa::parse_instruction(text, d, 1);
    EXPECT_TRUE(i && !d.has_errors()) << "cannot parse '" << text << "'";
    if (!i) return nullptr;
    ins.push_back(std::make_unique<isa::Instruction>(std::move(*i)));
    return ins.back().get();
  }
  // A store: lanes of `active` get addr(lane) and element values value(lane, element).
  WarpOp& store(const std::string& text, std::uint32_t sm, std::uint16_t cta, std::uint16_t warp,
                std::uint32_t active, const std::function<std::uint64_t(unsigned)>& addr,
                unsigned elems = 1) {
    WarpOp op;
    op.kind = OpKind::Store;
    op.sm = sm;
    op.ins = parse(text);
    op.ctx = golden::WarpContext{cta, warp, active};
    op.ops.src.resize(std::size_t(elems) * 32);
    const std::uint64_t n = ops.size();
    for (unsigned e = 0; e < elems; ++e)
      for (unsigned l = 0; l < 32; ++l) op.ops.src[e * 32 + l] = op_value(n + 1, l, e);
    for (unsigned l = 0; l < 32; ++l)
      if ((active >> l) & 1) op.ops.addr[l] = addr(l);
    ops.push_back(op);
    return ops.back();
  }
  void other(OpKind k, std::uint32_t sm, std::uint16_t cta, std::uint16_t warp,
             std::uint64_t mbar = 0, std::uint32_t tx = 0, std::uint32_t parity = 0) {
    WarpOp op;
    op.kind = k;
    op.sm = sm;
    op.ctx = golden::WarpContext{cta, warp, k == OpKind::MbarArrive ? 1u : 0xFFFFFFFFu};
    op.mbar_offset = mbar;
    op.tx_bytes = tx;
    op.parity = parity;
    ops.push_back(op);
  }
  void fence(std::uint32_t sm, std::uint16_t cta, std::uint16_t warp, isa::Scope scope) {
    other(OpKind::Fence, sm, cta, warp);
    ops.back().scope = scope;
  }
  // The LSU instruction id of op i (ids count from 1 in op order; waits get none).
  std::uint64_t id_of(std::size_t i) const {
    std::uint64_t id = 0;
    for (std::size_t k = 0; k <= i; ++k)
      if (ops[k].kind == OpKind::Store || ops[k].kind == OpKind::MbarArrive) ++id;
    return id;
  }
};

class VectorWorkload : public Workload {
 public:
  explicit VectorWorkload(const Script& s) : s_(s) {}
  std::string name() const override { return "vector"; }
  golden::ModelConfig model_config() const override { return s_.mc; }
  bool setup(golden::MachineState& m, std::string& error) const override {
    if (!m.allocations().add(kBase, kGlobalBytes) || !s_.setup(m)) {
      error = "vector workload: set-up failed";
      return false;
    }
    return true;
  }
  bool next(WarpOp& op) override {
    if (i_ >= s_.ops.size()) return false;
    op = s_.ops[i_++];
    return true;
  }
  std::uint64_t size_hint() const override { return s_.ops.size(); }

 private:
  const Script& s_;
  std::size_t i_ = 0;
};

// The tests' small machine: h100 with 2 SMs and 2 L2 slices.
inline SimConfig small_config(SimMode mode) {
  SimConfig c = *preset("h100");
  c.gpu.sms = 2;
  c.l2.slices = 2;
  c.sim.mode = mode;
  return c;
}

struct Outcome {
  RunReport report;
  Stats stats;
  std::vector<LogEntry> log;
};

// Runs `w` and `ref` (two instances of one workload) on a fresh model with the golden check.
// `hints`, `plan_thread`: the host-speed hints and the plan thread (TlmModel::set_hints,
// set_plan_thread).
inline Outcome run_workload(Workload& w, Workload& ref, const SimConfig& cfg,
                            const CoreFactory& cores = {}, bool hints = true,
                            bool plan_thread = true) {
  Outcome o;
  TlmModel model(cfg, w.model_config(), std::nullopt, cores);
  model.set_hints(hints);
  model.set_plan_thread(plan_thread);
  golden::MachineState gold(ref.model_config());
  std::string e;
  const bool set = w.setup(model.image(), e) && ref.setup(gold, e);
  EXPECT_TRUE(set) << e;
  if (!set) return o;
  model.record_events(&o.log);
  o.report = model.run_checked(w, ref, gold);
  o.stats = model.stats();
  return o;
}

// Runs generator `name` with `p` (and a second instance as the golden reference) on `cfg`; a
// generator that cannot be made fails the test and runs nothing.
inline Outcome run_generator(const std::string& name, const GenParams& p, const SimConfig& cfg) {
  std::string e;
  auto w = make_generator(name, p, e), ref = make_generator(name, p, e);
  EXPECT_TRUE(w && ref) << name << ": " << e;
  if (!w || !ref) return Outcome{};
  return run_workload(*w, *ref, cfg);
}

inline Outcome run_script(const Script& s, const SimConfig& cfg) {
  VectorWorkload w(s), ref(s);
  return run_workload(w, ref, cfg);
}

// Events of a kind, optionally of one instruction / one address.
inline std::vector<LogEntry> events(const std::vector<LogEntry>& log, Event e,
                                    std::uint64_t instr = 0, std::uint64_t addr = ~0ull) {
  std::vector<LogEntry> out;
  for (const LogEntry& l : log)
    if (l.event == e && (instr == 0 || l.instr == instr) && (addr == ~0ull || l.addr == addr))
      out.push_back(l);
  return out;
}

// The cycle of the one event of kind e for instruction `instr` (fails when there is not one).
inline Cycle one(const std::vector<LogEntry>& log, Event e, std::uint64_t instr) {
  const auto v = events(log, e, instr);
  EXPECT_EQ(v.size(), 1u) << event_name(e) << " of instruction " << instr;
  return v.empty() ? 0 : v.front().cycle;
}

inline Cycle max_cycle(const std::vector<LogEntry>& v) {
  Cycle c = 0;
  for (const LogEntry& l : v) c = std::max(c, l.cycle);
  return c;
}
inline Cycle min_cycle(const std::vector<LogEntry>& v) {
  Cycle c = ~Cycle(0);
  for (const LogEntry& l : v) c = std::min(c, l.cycle);
  return c;
}

inline std::string dump(const std::vector<LogEntry>& log) {
  std::string s;
  for (const LogEntry& l : log)
    s += std::string(event_name(l.event)) + " instr " + std::to_string(l.instr) + " warp " +
         std::to_string(l.warp) + " addr 0x" +
         [&] {
           char b[32];
           std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(l.addr));
           return std::string(b);
         }() +
         " cycle " + std::to_string(l.cycle) + "\n";
  return s;
}

#define STU_EXPECT_GOLDEN_OK(o) EXPECT_TRUE((o).report.ok) << ::stu::sim::mismatch_text((o).report)

}  // namespace stu::sim::testing_support
