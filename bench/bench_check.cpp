// Throughput of `stu check`: validating store-family instructions in a large module.
//
// Target (issue 2): at least 1,000,000 stores per second on one core. The module mixes the
// forms nvcc emits (vector, shared, strong, cache-hinted, st.async, tcgen05.st) with
// non-store instructions in between, as real PTX has.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stu/diag.h"
#include "stu/ptx/module.h"

namespace {

std::string make_module(size_t stores) {
  static const char* const kForms[] = {
      "st.global.u32 [%rd{a}+{o}], %r{b};",
      "st.global.v4.f32 [%rd{a}+{o}], {%f1, %f2, %f3, %f4};",
      "st.shared.u32 [%r{a}+{o}], %r{b};",
      "st.relaxed.gpu.global.u64 [%rd{a}], %rd{b};",
      "@%p1 st.global.cs.v2.u32 [%rd{a}+{o}], {%r{b}, %r2};",
      "st.global.L2::cache_hint.b32 [%rd{a}], %r{b}, %rd3;",
      "st.release.sys.global.b64 [%rd{a}+-{o}], %rd{b};",
      "st.local.b8 [%rd{a}+{o}], %rs{b};",
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r{a}], {%r{b}, %r3}, [%r4];",
      "tcgen05.st.sync.aligned.32x32b.x4.b32 [%r{a}], {%r1, %r2, %r3, %r{b}};",
  };
  std::string m =
      ".version 8.8\n.target sm_100a\n.address_size 64\n"
      ".visible .entry big(.param .u64 p)\n{\n"
      ".reg .pred %p<4>;\n.reg .b16 %rs<16>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<64>;\n"
      ".reg .f32 %f<16>;\n";
  m.reserve(stores * 60);
  for (size_t i = 0; i < stores; ++i) {
    std::string line = kForms[i % 10];
    auto put = [&](const char* key, const std::string& v) {
      for (size_t p = line.find(key); p != std::string::npos; p = line.find(key)) {
        line.replace(p, 3, v);
      }
    };
    put("{a}", std::to_string(i % 60 + 1));
    put("{b}", std::to_string(i * 7 % 15 + 1));
    put("{o}", std::to_string(i % 64 * 4));
    m += line;
    m += '\n';
    if (i % 4 == 3) m += "add.s32 %r5, %r6, %r7;\n";
  }
  m += "ret;\n}\n";
  return m;
}

// check_module over `m` (of `n` stores) on `threads` threads (0: one per hardware thread),
// once per iteration. Timed in wall-clock time: the threads' CPU time is not the caller's.
void check_throughput(benchmark::State& state, const std::string& m, size_t n, unsigned threads) {
  size_t errors = 0;
  stu::ptx::CheckOptions o;
  o.threads = threads;
  for (auto _ : state) {
    stu::Diagnostics d;
    auto s = stu::ptx::check_module(m, d, o);
    errors += d.error_count();
    benchmark::DoNotOptimize(s.stores);
  }
  if (errors) state.SkipWithError("the benchmark module has errors");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * m.size()));
  state.counters["stores/s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

// Arguments: stores, threads (1: the reader alone; 0: one per hardware thread).
void BM_CheckModule(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  check_throughput(state, make_module(n), n, static_cast<unsigned>(state.range(1)));
}
BENCHMARK(BM_CheckModule)
    ->Args({10000, 1})
    ->Args({200000, 1})
    ->Args({200000, 0})
    ->ArgNames({"stores", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Every store form ptxas accepts: the `ptxas: ok` case lines of the sm_100a / PTX 9.0 files of
// the conformance corpora (train, heldout, heldout8), on their common preamble, repeated until
// `stores`. Far more qualifier variety than make_module (and symbol operands, sinks, constant
// expressions). STU_BENCH_WRITE_MODULE=FILE also writes it, for timing the whole process:
//   STU_BENCH_WRITE_MODULE=/tmp/corpus.ptx build/bench_check --benchmark_filter=Corpus
//   perf stat -r 10 build/stu check -q /tmp/corpus.ptx
std::string make_corpus_module(size_t stores) {
  std::string preamble;
  std::vector<std::string> cases;
  for (const char* corpus : {"train", "heldout", "heldout8"}) {
    std::ifstream f(std::string(STU_SOURCE_DIR) + "/tests/conformance/" + corpus +
                    "/sm_100a-ptx90.ptx");
    const bool first = preamble.empty();
    std::string line;
    bool in_cases = false;
    while (std::getline(f, line)) {
      in_cases = in_cases || line.find("  // ptxas: ") != std::string::npos;
      if (!in_cases) {
        if (first && line.rfind("//", 0) != 0) preamble += line + "\n";  // the first file's
      } else if (line.find("  // ptxas: ok") != std::string::npos) {
        cases.push_back(line.substr(0, line.find("  // ptxas: ")));
      }
    }
  }
  if (cases.empty()) return {};
  std::string m = preamble;
  m.reserve(stores * 64);
  for (size_t i = 0; i < stores; ++i) m += cases[i % cases.size()] + "\n";
  m += "\tret;\n}\n";
  return m;
}

void BM_CheckCorpusMix(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::string m = make_corpus_module(n);
  if (m.empty()) {
    state.SkipWithError("the conformance corpora are not readable");
    return;
  }
  if (const char* out = std::getenv("STU_BENCH_WRITE_MODULE")) std::ofstream(out) << m;
  check_throughput(state, m, n, static_cast<unsigned>(state.range(1)));
}
BENCHMARK(BM_CheckCorpusMix)
    ->Args({200000, 1})
    ->Args({200000, 0})
    ->ArgNames({"stores", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
