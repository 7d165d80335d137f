// Host speed of the TLM performance model (`stu sim`): warp stores simulated per second of
// host time, LT and AT, with the h100 preset, on one workload instance per iteration. Only
// TlmModel::run is timed (manual time = the model's own wall-clock of the simulation); the
// model's construction, the workload's set-up and the golden reference are left out. The
// golden reference alone is BM_GoldenReference (sim::run_golden on the same workloads).
//
// Counters: items_per_second (warp ops per second of host time), peak_rss_MiB (the process's
// peak resident set so far, getrusage: it only grows from one benchmark to the next),
// faults_per_op (minor page faults inside the timed run, per warp op: memory first touched
// while simulating, each a kernel entry and a zeroed page).
// Targets from the issue: LT >= 1M warp stores/s, AT >= 100k/s. The model uses a second host
// thread to generate and plan the workload (TlmModel::set_plan_thread, on by default).
// BM_HostMemoryLatency gives a run its host's state: the model waits on host memory, so its
// speed follows the host's memory latency (bench/targets.sh prints the two together).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sim_config.h"
#include "tlm_model.h"
#include "workload.h"

namespace {

using namespace stu;

struct Case {
  const char* workload;
  std::uint32_t width;
};
constexpr Case kCases[] = {{"stream", 4}, {"stream", 16}, {"scatter", 4}, {"bank_conflict", 4}};

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

sim::GenParams params(const Case& c, std::uint64_t warps, std::uint32_t sms) {
  sim::GenParams p;
  p.warps = warps;
  p.sms = sms;
  p.width = c.width;
  return p;
}

// One timed run of `workload` on a fresh model (its construction and the set-up untimed); adds
// the warp ops to `ops`. False (the benchmark skipped with the error) when it cannot run.
bool run_once(benchmark::State& state, const sim::SimConfig& cfg, const char* workload,
              const sim::GenParams& p, std::uint64_t& ops, double& faults) {
  std::string err;
  auto w = sim::make_generator(workload, p, err);
  if (!w) {
    state.SkipWithError(err.c_str());
    return false;
  }
  sim::TlmModel model(cfg, w->model_config());
  if (!w->setup(model.image(), err)) {
    state.SkipWithError(err.c_str());
    return false;
  }
  const long f0 = minor_faults();
  model.run(*w);
  faults += double(minor_faults() - f0);
  state.SetIterationTime(model.stats().host_seconds);
  ops += model.stats().warp_ops;
  return true;
}

// The host's memory latency: a chase of dependent loads through 256 MiB of the process's
// ordinary heap in a random order (one load a 64-byte line, every line once in a cycle), each
// load missing every cache of the host. Counter ns_per_load: about 180 ns on the 2-core build
// machine when it is quiet, up to 380 ns when its other tenants are busy
// (docs/performance-notes.md, "How to measure"). The order is seeded: the same every run.
void BM_HostMemoryLatency(benchmark::State& state) {
  constexpr std::size_t kLine = 64 / sizeof(std::uint64_t);  // words a host line
  constexpr std::size_t kLines = (std::size_t(256) << 20) / 64;
  constexpr std::uint64_t kLoads = 2'000'000;
  std::vector<std::uint32_t> order(kLines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  std::vector<std::uint64_t> next(kLines * kLine);
  for (std::size_t i = 0; i < kLines; ++i)
    next[order[i] * kLine] = std::uint64_t(order[(i + 1) % kLines]) * kLine;
  std::uint64_t at = 0, loads = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < kLoads; ++i) at = next[at];
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    seconds += s;
    loads += kLoads;
  }
  benchmark::DoNotOptimize(at);
  state.counters["ns_per_load"] = loads ? seconds * 1e9 / double(loads) : 0.0;
}

// Args: case index, mode (0 LT, 1 AT), warps per iteration.
void BM_TlmStore(benchmark::State& state) {
  const Case& c = kCases[state.range(0)];
  sim::SimConfig cfg = *sim::preset("h100");
  cfg.sim.mode = state.range(1) ? sim::SimMode::At : sim::SimMode::Lt;
  const auto warps = std::uint64_t(state.range(2));
  std::uint64_t ops = 0;
  double faults = 0;
  for (auto _ : state)
    if (!run_once(state, cfg, c.workload, params(c, warps, cfg.gpu.sms), ops, faults)) return;
  state.SetItemsProcessed(std::int64_t(ops));
  state.SetLabel(std::string(c.workload) + " width=" + std::to_string(c.width) +
                 (state.range(1) ? " at" : " lt"));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["faults_per_op"] = faults / double(ops ? ops : 1);
}

// One SM's view: the same LSU, L1, crossbar, 4 L2 slices of 1 MiB and DRAM, a working set of
// 1 MiB. Against BM_TlmStore (h100: 132 L1s and 80 slices, 57 MiB of modelled cache arrays that
// mostly miss the host's caches) this separates the model's own per-store cost from the cost
// of touching a whole GPU's caches. Args: mode (0 LT, 1 AT), warps per iteration.
void BM_TlmStoreOneSm(benchmark::State& state) {
  sim::SimConfig cfg = *sim::preset("h100");
  cfg.gpu.sms = 1;
  cfg.l2.slices = 4;
  cfg.l2.slice_bytes = 1 << 20;
  cfg.sim.mode = state.range(0) ? sim::SimMode::At : sim::SimMode::Lt;
  const auto warps = std::uint64_t(state.range(1));
  std::uint64_t ops = 0;
  double faults = 0;
  sim::GenParams p = params(kCases[0], warps, 1);
  p.footprint = 1 << 20;
  for (auto _ : state)
    if (!run_once(state, cfg, "stream", p, ops, faults)) return;
  state.SetItemsProcessed(std::int64_t(ops));
  state.SetLabel(std::string("stream width=4, 1 SM, 4 MiB L2") + (state.range(0) ? " at" : " lt"));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["faults_per_op"] = faults / double(ops ? ops : 1);
}

// Long runs, the steady state of a long trace: BM_TlmStore's runs fit in the h100's 50 MiB
// L2 (12.8 MiB of new lines at most), so no line is ever written back before the final flush.
// These write 1M lines (LT, width 4) or 800k lines (AT, width 16 with 200k warps) over the
// 64 MiB footprint, so after the first 50 MiB nearly every store evicts a dirty L2 line to
// DRAM. Args: mode (0 LT, 1 AT), warps, width.
void BM_TlmStoreLong(benchmark::State& state) {
  sim::SimConfig cfg = *sim::preset("h100");
  cfg.sim.mode = state.range(0) ? sim::SimMode::At : sim::SimMode::Lt;
  sim::GenParams p = params(kCases[0], std::uint64_t(state.range(1)), cfg.gpu.sms);
  p.width = std::uint32_t(state.range(2));
  std::uint64_t ops = 0;
  double faults = 0;
  for (auto _ : state)
    if (!run_once(state, cfg, "stream", p, ops, faults)) return;
  state.SetItemsProcessed(std::int64_t(ops));
  state.SetLabel("stream width=" + std::to_string(p.width) + ", L2 write-backs" +
                 (state.range(0) ? " at" : " lt"));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["faults_per_op"] = faults / double(ops ? ops : 1);
}

void BM_GoldenReference(benchmark::State& state) {
  const Case& c = kCases[state.range(0)];
  const auto warps = std::uint64_t(state.range(1));
  std::uint64_t ops = 0;
  for (auto _ : state) {
    std::string err;
    auto w = sim::make_generator(c.workload, params(c, warps, 132), err);
    golden::MachineState m(w->model_config());
    if (!w->setup(m, err)) {
      state.SkipWithError(err.c_str());
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    err = sim::run_golden(*w, m);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!err.empty()) state.SkipWithError(err.c_str());
    ops += warps;
  }
  state.SetItemsProcessed(std::int64_t(ops));
  state.SetLabel(std::string(c.workload) + " width=" + std::to_string(c.width));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void lt_and_at(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < int(std::size(kCases)); ++i) {
    b->Args({i, 0, 100000});
    b->Args({i, 1, 20000});
  }
}

void golden_cases(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < int(std::size(kCases)); ++i) b->Args({i, 100000});
}

BENCHMARK(BM_TlmStore)->Apply(lt_and_at)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TlmStoreOneSm)
    ->Args({0, 300000})
    ->Args({1, 100000})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TlmStoreLong)
    ->Args({0, 1000000, 4})
    ->Args({1, 200000, 16})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GoldenReference)->Apply(golden_cases)->UseManualTime()->Unit(benchmark::kMillisecond);
// Last: its 256 MiB would otherwise count in the peak_rss_MiB of every benchmark after it.
BENCHMARK(BM_HostMemoryLatency)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

// libsystemc defines main() and calls sc_main(), so this is Google Benchmark's main (linked
// against benchmark::benchmark, not benchmark_main).
int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
