// Cosimulation speed of each RTL block (issue 7's targets: at least 1 M compared transactions
// per second for a single-cycle block, one core). Each iteration is one whole `stu cosim` run of
// one seed (reset, stimulus, the Verilated block, the golden function, the in-order compare, the
// drain); items/s is the number of output transactions compared per second, and the counters
// give simulated cycles per second.
#include <benchmark/benchmark.h>

#include <string>

#include "cosim.h"

namespace {

void BM_Cosim(benchmark::State& state, const char* block, uint64_t txns) {
  const stu::tb::BlockEntry* b = stu::tb::find_block(block);
  if (!b) {
    state.SkipWithError("unknown block");
    return;
  }
  uint64_t matched = 0, cycles = 0, seed = 1;
  for (auto _ : state) {
    stu::tb::CosimOptions o;
    o.seed = seed++;
    o.txns = txns;
    o.rerun_for_wave = false;
    const stu::tb::CosimResult r = b->run(o);
    if (!r.ok) {
      state.SkipWithError(r.report.c_str());
      return;
    }
    matched += r.matched;
    cycles += r.cycles;
  }
  state.SetItemsProcessed(int64_t(matched));
  state.counters["cycles/s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
  state.counters["txn/cycle"] = double(matched) / double(cycles ? cycles : 1);
}

BENCHMARK_CAPTURE(BM_Cosim, store_align, "store_align", 200000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Cosim, addr_resolve, "addr_resolve", 200000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Cosim, mbarrier, "mbarrier", 200000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Cosim, coalescer, "coalescer", 20000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Cosim, tmem_wdp, "tmem_wdp", 5000)->Unit(benchmark::kMillisecond);
// The L1 write path: events and the L2 writes leaving its buffer (16 sets x 4 ways, 4 entries).
BENCHMARK_CAPTURE(BM_Cosim, l1_wpath, "l1_wpath", 20000)->Unit(benchmark::kMillisecond);
// The L2 slice: writes, their DRAM writes and flushes (64 sets x 4 ways, crowded sets).
BENCHMARK_CAPTURE(BM_Cosim, l2_wslice, "l2_wslice", 20000)->Unit(benchmark::kMillisecond);
// The top: one transaction is one warp store (through the `stu run --on rtl` model, against
// golden::execute); the target is on its simulated cycles per second (>= 1 M).
BENCHMARK_CAPTURE(BM_Cosim, store_unit, "store_unit", 4000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
