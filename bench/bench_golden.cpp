// Speed of the golden model's warp executor (issue 3, section 6).
//
// Target: at least 50 million active-lane stores per second for coalesced st.global.u32 warps
// on one core. Also reported: tcgen05.st.32x32b.x128 (cells per second), strided and vector
// global stores, shared stores, st.async with complete-tx, and SASS ST.E.
//
// Each benchmark sweeps its warps over a working set (1 MiB of global memory) so the sparse
// page lookup and the allocation check are exercised, as a trace-driven user would.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/isa/parser.h"
#include "stu/isa/sass.h"

namespace {

using namespace stu;
using namespace stu::golden;

constexpr uint64_t kBase = 0x10'0000'0000ull;  // above 4 GiB: 64-bit addresses throughout
constexpr uint64_t kWorkingSet = 1 << 20;

isa::Instruction parse(const char* text) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d);
  if (!ins || d.has_errors()) {
    std::fprintf(stderr, "bench: cannot parse '%s'\n", text);
    std::abort();
  }
  return *ins;
}

ModelConfig config(uint32_t ctas = 1) {
  ModelConfig c;
  c.cluster_ctas = ctas;
  c.shared_bytes = 228 << 10;
  return c;
}

// A global store of `bytes_per_lane` bytes per lane, lane stride `stride`, over the working set.
void run_global(benchmark::State& state, const char* text, unsigned elems, unsigned stride) {
  MachineState m(config());
  m.allocations().add(kBase, kWorkingSet + 4096);
  const isa::Instruction ins = parse(text);
  WarpOperands ops;
  ops.src.assign(size_t(elems) * 32, RegValue{});
  for (unsigned e = 0; e < elems; ++e)
    for (unsigned l = 0; l < 32; ++l) ops.src[e * 32 + l] = RegValue{l * 8 + e + 1, 0};
  StoreResult out;
  Scratch scratch;
  const uint64_t warp_span = uint64_t(stride) * 32;
  uint64_t cursor = 0;
  for (auto _ : state) {
    for (unsigned l = 0; l < 32; ++l) ops.addr[l] = kBase + cursor + uint64_t(l) * stride;
    execute(m, ins, WarpContext{0, 0, 0xFFFFFFFFu}, ops, out, scratch);
    benchmark::DoNotOptimize(out.lines.data());
    cursor += warp_span;
    if (cursor + warp_span > kWorkingSet) cursor = 0;
  }
  if (out.fault_mask) state.SkipWithError("unexpected fault");
  state.SetItemsProcessed(int64_t(state.iterations()) * 32);  // active-lane stores
  state.counters["warps/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["lines/warp"] = double(out.lines.size());
}

void BM_GlobalU32Coalesced(benchmark::State& s) {
  run_global(s, "st.global.u32 [%rd1], %r1;", 1, 4);
}
void BM_GlobalU32Stride8(benchmark::State& s) { run_global(s, "st.global.u32 [%rd1], %r1;", 1, 8); }
void BM_GlobalV4U32(benchmark::State& s) {
  run_global(s, "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};", 4, 16);
}
void BM_GlobalV8B32Sink(benchmark::State& s) {
  run_global(s, "st.global.L2::evict_last.v8.b32 [%rd1], {%r0, _, %r2, %r3, %r4, %r5, %r6, %r7};",
             8, 32);
}
void BM_GenericU32ToGlobal(benchmark::State& s) { run_global(s, "st.u32 [%rd1], %r1;", 1, 4); }

void BM_SharedU32(benchmark::State& state) {
  MachineState m(config());
  const isa::Instruction ins = parse("st.shared.u32 [%r1], %r2;");
  WarpOperands ops;
  ops.src.assign(32, RegValue{7, 0});
  StoreResult out;
  Scratch scratch;
  uint64_t cursor = 0;
  for (auto _ : state) {
    for (unsigned l = 0; l < 32; ++l) ops.addr[l] = cursor + l * 4;
    execute(m, ins, WarpContext{0, 0, 0xFFFFFFFFu}, ops, out, scratch);
    cursor = (cursor + 128) % (200 << 10);
  }
  if (out.fault_mask) state.SkipWithError("unexpected fault");
  state.SetItemsProcessed(int64_t(state.iterations()) * 32);
}

void BM_StAsyncCompleteTx(benchmark::State& state) {
  MachineState m(config(2));
  const uint64_t stride = m.config().map.shared_cta_stride;
  const isa::Instruction ins =
      parse("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];");
  WarpOperands ops;
  ops.src.assign(32, RegValue{7, 0});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = stride + 0x1000 + l * 4;  // CTA 1
    ops.mbar[l] = stride + 0x8;
  }
  StoreResult out;
  Scratch scratch;
  for (auto _ : state) {
    state.PauseTiming();
    m.set_mbar(1, 0x8,
               MbarState{0, 0, 1, 128});  // arrived, 128 bytes expected: one warp completes it
    state.ResumeTiming();
    execute(m, ins, WarpContext{0, 0, 0xFFFFFFFFu}, ops, out, scratch);
  }
  if (out.fault_mask || !out.mbar.back().phase_completed)
    state.SkipWithError("phase did not complete");
  state.SetItemsProcessed(int64_t(state.iterations()) * 32);
}

void BM_Tcgen05_32x32b_x128(benchmark::State& state) {
  MachineState m(config());
  const auto base = m.cta(0).tmem_alloc.alloc(128);
  std::string text = "tcgen05.st.sync.aligned.32x32b.x128.b32 [%r0], {";
  for (int j = 0; j < 128; ++j) text += (j ? ", %v" : "%v") + std::to_string(j);
  text += "};";
  const isa::Instruction ins = parse(text.c_str());
  WarpOperands ops;
  ops.addr.fill(*base);
  ops.src.assign(128 * 32, RegValue{});
  for (unsigned j = 0; j < 128; ++j)
    for (unsigned l = 0; l < 32; ++l) ops.src[j * 32 + l] = RegValue{j * 32 + l, 0};
  StoreResult out;
  Scratch scratch;
  for (auto _ : state) {
    execute(m, ins, WarpContext{0, 0, 0xFFFFFFFFu}, ops, out, scratch);
    benchmark::DoNotOptimize(out.tmem.data());
  }
  if (out.fault_mask) state.SkipWithError("unexpected fault");
  state.SetItemsProcessed(int64_t(state.iterations()) * 32 * 128);  // 32-bit cells written
  state.SetBytesProcessed(int64_t(state.iterations()) * 32 * 128 * 4);
  state.counters["instr/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_SassStE(benchmark::State& state) {
  MachineState m(config());
  m.allocations().add(kBase, kWorkingSet + 4096);
  Diagnostics d;
  const isa::SassSt st = *isa::parse_sass_st("ST.E [R2+0x10], R5", d);
  SassRegisterFile rf;
  StoreResult out;
  Scratch scratch;
  uint64_t cursor = 0;
  for (auto _ : state) {
    for (unsigned l = 0; l < 32; ++l) {
      const uint64_t a = kBase + cursor + l * 4;
      rf.write(l, 2, uint32_t(a));
      rf.write(l, 3, uint32_t(a >> 32));
    }
    execute_sass(m, st, WarpContext{0, 0, 0xFFFFFFFFu}, rf, out, scratch);
    cursor = (cursor + 128) % (kWorkingSet - 256);
  }
  if (out.fault_mask) state.SkipWithError("unexpected fault");
  state.SetItemsProcessed(int64_t(state.iterations()) * 32);
}

}  // namespace

BENCHMARK(BM_GlobalU32Coalesced);
BENCHMARK(BM_GlobalU32Stride8);
BENCHMARK(BM_GlobalV4U32);
BENCHMARK(BM_GlobalV8B32Sink);
BENCHMARK(BM_GenericU32ToGlobal);
BENCHMARK(BM_SharedU32);
BENCHMARK(BM_StAsyncCompleteTx);
BENCHMARK(BM_Tcgen05_32x32b_x128);
BENCHMARK(BM_SassStE);
BENCHMARK_MAIN();
