// Calibration of the h100 preset (docs/calibration.md): the TLM model's store latencies and
// streaming DRAM write bandwidth, as the model reports them, are within 10% of the published
// figures of ../shared/spec/microbench.md. These are checks of the model's output (simulated
// cycles), never of host time. Both timing styles (LT and AT) are checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_context.h"

#include "sim_config.h"
#include "stats.h"
#include "timing.h"
#include "tlm_model.h"
#include "workload.h"

namespace stu::sim {
namespace {

// Published figures (../shared/spec/microbench.md, H100 SXM). The L2 latency is a pointer-chase
// load latency (no paper publishes store latency): the model takes it as the latency of a store
// acknowledged by the L2.
constexpr double kL2LatencyCycles = 272;        // public reproduction of Luo et al.
constexpr double kDramBytesPerSecond = 3.0e12;  // ~3.0 TB/s measured (3.35 peak)
constexpr double kTolerance = 0.10;

SimConfig h100(SimMode mode) {
  SimConfig c = *preset("h100");
  c.sim.mode = mode;
  return c;
}

// Runs a generator with the golden-image check; the model's statistics.
Stats run(const SimConfig& cfg, const std::string& name, const GenParams& p) {
  std::string err;
  auto w = make_generator(name, p, err);
  auto ref = make_generator(name, p, err);
  EXPECT_TRUE(w && ref) << err;
  if (!w || !ref) return {};
  TlmModel model(cfg, w->model_config());
  golden::MachineState gold(ref->model_config());
  EXPECT_TRUE(w->setup(model.image(), err)) << err;
  EXPECT_TRUE(ref->setup(gold, err)) << err;
  const RunReport r = model.run_checked(*w, *ref, gold);
  EXPECT_TRUE(r.ok) << name << ": " << (r.errors.empty() ? "golden-image mismatch" : r.errors[0]);
  return model.stats();
}

const LatencyHistogram& busiest(const Stats& s) {
  const LatencyHistogram* h = &s.latency[0];
  for (const LatencyHistogram& l : s.latency)
    if (l.count() > h->count()) h = &l;
  return *h;
}

void expect_near(double model, double published, const char* what) {
  EXPECT_NEAR(model, published, kTolerance * published)
      << what << ": model " << model << ", published " << published << " ("
      << 100.0 * (model - published) / published << "%)";
}

class Calibration : public ::testing::TestWithParam<SimMode> {};

// The requirement: within 10% of the published latency (docs/calibration.md). A chain of
// relaxed .gpu stores of one warp, each acknowledged by the L2 without queueing anywhere, so
// its latency is the store path's.
TEST_P(Calibration, L2StoreLatency) {
  GenParams p;
  p.warps = 2000;
  const Stats s = run(h100(GetParam()), "chain_l2", p);
  EXPECT_EQ(busiest(s).count(), 2000u);
  expect_near(double(busiest(s).percentile(50)), kL2LatencyCycles, "chain_l2 p50");
}

// Streaming stores (coalesced, 16 bytes per lane, every SM) over a footprint twice the L2, in
// steady state: every line written evicts a dirty line to DRAM. To stay cheap the test shrinks
// the L2 to 80 x 64 KiB = 5 MiB (footprint 10 MiB); the steady-state rate does not depend on
// the L2's capacity (docs/calibration.md measures the full 40 MiB L2 with 128-512 MiB). The L2
// replaces the least recently written line, so that every line of a second pass misses (a
// random victim keeps about a fifth of a footprint twice the L2's size).
struct Stream {
  SimConfig cfg;
  GenParams p;
  explicit Stream(SimMode mode) : cfg(h100(mode)) {
    cfg.l2.slice_bytes = 64 << 10;
    cfg.l2.replacement = golden::Replacement::LeastRecentlyWritten;
    p.sms = cfg.gpu.sms;
    p.width = 16;
    p.footprint = 10ull << 20;
    p.warps = p.footprint / (32 * 16);  // one pass
  }
};

// DRAM's own rate: the bytes it takes between the first and the third quartile of its writes
// during the run (the L2's fill before the first eviction and the final flush are left out),
// over the cycles between them (each write's cycle is when DRAM's bandwidth took it).
TEST_P(Calibration, DramSteadyStateWriteBandwidth) {
  Stream st(GetParam());
  st.p.warps *= 2;
  std::string err;
  auto w = make_generator("stream", st.p, err);
  auto ref = make_generator("stream", st.p, err);
  ASSERT_TRUE(w && ref) << err;
  TlmModel model(st.cfg, w->model_config());
  golden::MachineState gold(ref->model_config());
  ASSERT_TRUE(w->setup(model.image(), err) && ref->setup(gold, err)) << err;
  std::vector<LogEntry> log;
  model.record_events(&log);
  ASSERT_EQ(run_golden(*ref, gold), "");
  model.run(*w);
  std::vector<Cycle> writes;
  for (const LogEntry& e : log)
    if (e.event == Event::DramWrite) writes.push_back(e.cycle);
  model.record_events(nullptr);
  EXPECT_TRUE(model.finish(gold, true).ok);
  ASSERT_GT(writes.size(), 1000u);
  std::sort(writes.begin(), writes.end());
  const std::size_t q1 = writes.size() / 4, q3 = 3 * writes.size() / 4;
  const double bytes = double(q3 - q1) * golden::kLineBytes;  // whole lines (full sectors)
  const double seconds = double(writes[q3] - writes[q1]) * cycle_ns(st.cfg.clock) * 1e-9;
  expect_near(bytes / seconds, kDramBytesPerSecond, "DRAM's steady-state write rate");
}

// The rate the stores see (what a streaming-store microbenchmark measures): the difference
// between a run writing the footprint once and one writing it twice, in DRAM bytes and in
// cycles (which end at the last store's acknowledgement). The L2's fill and the final flush
// (counted in DRAM bytes, after the last acknowledgement) are the same in both and cancel.
// Returns bytes per second.
double store_side_rate(SimMode mode) {
  Stream st(mode);
  const Stats one = run(st.cfg, "stream", st.p);
  st.p.warps *= 2;
  const Stats two = run(st.cfg, "stream", st.p);
  const double bytes = two.get(Metric::DramBytesWrite) - one.get(Metric::DramBytesWrite);
  EXPECT_NEAR(bytes, double(st.p.footprint), 0.01 * double(st.p.footprint));  // one pass
  return bytes / (two.seconds() - one.seconds());
}
// The requirement for the store side: not met (docs/calibration.md, "Model problems"): in LT a
// weak store is acknowledged by the L1 whatever the write buffer, crossbar, L2 and DRAM do (the
// rate is the L1's, 132 x 128 B/clk); in AT a Sender takes another transaction's BEGIN_RESP for
// its pending request's END_REQ, so the targets' queues grow without bound and the stores run
// ahead of DRAM (+25%). Enable when the model is fixed.
TEST_P(Calibration, StoreSideSteadyStateBandwidth) {
  expect_near(store_side_rate(GetParam()), kDramBytesPerSecond, "store-side steady-state B/s");
}

INSTANTIATE_TEST_SUITE_P(H100, Calibration, ::testing::Values(SimMode::Lt, SimMode::At),
                         [](const auto& info) {
                           return std::string(info.param == SimMode::Lt ? "Lt" : "At");
                         });

}  // namespace
}  // namespace stu::sim

// libsystemc defines main() and calls sc_main(); each TlmModel has its own simulation context.
int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
