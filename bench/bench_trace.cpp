// Throughput of the workload readers (issue 9): store records per second from an Accel-Sim
// .traceg text trace, the same trace xz-compressed (liblzma, preset 1 as the tracer's `xz -1`),
// as an Accel-Sim 2.0 .tracez (zstd sub-chunks of 4096 instructions) and the compact .stut
// file converted from it.
//
// The generated trace has 10 instructions per warp (4 stores in each address-compression mode
// and 6 others), 400,000 instructions in all.
#include <benchmark/benchmark.h>
#include <lzma.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../tests/support/tracez_writer.h"
#include "stu/workload/trace.h"

namespace {

using namespace stu::workload;

constexpr uint64_t kWarps = 40000;

std::string temp(const char* name) {
  return "/tmp/stu_bench_trace." + std::to_string(::getpid()) + "." + name;
}

const std::string& text_trace() {
  static const std::string path = [] {
    std::string p = temp("kernel-1.traceg");
    std::FILE* f = std::fopen(p.c_str(), "w");
    std::fprintf(f,
                 "-kernel name = bench\n-accelsim tracer version = 4\n\n#BEGIN_TB\n"
                 "thread block = 0,0,0\n");
    for (uint64_t w = 0; w < kWarps; ++w) {
      std::fprintf(f, "warp = %llu\ninsts = 10\n", (unsigned long long)w);
      std::fprintf(f, "0000 ffffffff 1 R1 S2R 0 0 0\n0010 ffffffff 1 R2 IMAD 2 R0 R1 0 0\n");
      std::fprintf(f, "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x%llx 4 0\n",
                   (unsigned long long)(0x7f0000010000 + 128 * w));
      std::fprintf(f,
                   "0030 0000000f 0 STS 2 R2 R4 4 0 0x0000000000000010 0x0000000000000020 "
                   "0x0000000000000030 0x0000000000000040 0\n");
      std::fprintf(f,
                   "0040 ffffffff 0 STL 2 R2 R4 4 2 0x100 4 -8 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
                   "4 4 4 4 4 4 4 4 4 4 4 0\n");
      std::fprintf(f, "0050 ffffffff 1 R3 LDG.E 1 R2 4 1 0x2000 4 0\n");
      std::fprintf(f, "0060 ffffffff 0 ST.E.64 2 R2 R4 8 1 0x3000 8 0\n");
      std::fprintf(f, "0070 ffffffff 0 BAR 0 0 0\n0080 ffffffff 0 NOP 0 0 0\n");
      std::fprintf(f, "0090 ffffffff 0 EXIT 0 0 0\n");
    }
    std::fprintf(f, "#END_TB\n");
    std::fclose(f);
    return p;
  }();
  return path;
}

const std::string& xz_trace() {
  static const std::string path = [] {
    std::ifstream in(text_trace(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint8_t> out(lzma_stream_buffer_bound(text.size()));
    size_t pos = 0;
    lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr,
                            reinterpret_cast<const uint8_t*>(text.data()), text.size(), out.data(),
                            &pos, out.size());
    std::string p = temp("kernel-1.traceg.xz");
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(out.data()), long(pos));
    return p;
  }();
  return path;
}

const std::string& tracez_trace() {
  static const std::string path = [] {
    std::ifstream in(text_trace(), std::ios::binary);
    const auto [header, ctas] = stu::test_support::split_traceg(
        std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    std::string p = temp("kernel-1.tracez");
    std::ofstream(p, std::ios::binary) << stu::test_support::make_tracez(header, ctas, 4096);
    return p;
  }();
  return path;
}

const std::string& stut_trace() {
  static const std::string path = [] {
    std::string p = temp("kernel-1.stut"), err;
    convert_to_stut(text_trace(), p, err);
    return p;
  }();
  return path;
}

template <typename Open>
void read_all(benchmark::State& state, const std::string& path, Open open) {
  uint64_t records = 0;
  for (auto _ : state) {
    auto src = open(path);
    StoreRecord r;
    while (src->next(r)) ++records;
    if (!src->ok()) state.SkipWithError(src->error_text().c_str());
    benchmark::DoNotOptimize(r.addr[0]);
  }
  state.counters["records/s"] = benchmark::Counter(double(records), benchmark::Counter::kIsRate);
}

void BM_TracegText(benchmark::State& state) {
  read_all(state, text_trace(), [](const std::string& p) { return open_traceg(p); });
}
void BM_TracegXz(benchmark::State& state) {
  read_all(state, xz_trace(), [](const std::string& p) { return open_traceg(p); });
}
void BM_Tracez(benchmark::State& state) {
  read_all(state, tracez_trace(), [](const std::string& p) { return open_tracez(p); });
}
void BM_Stut(benchmark::State& state) {
  read_all(state, stut_trace(), [](const std::string& p) { return open_stut(p); });
}

BENCHMARK(BM_TracegText)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracegXz)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Tracez)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stut)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const std::string* p : {&text_trace(), &xz_trace(), &stut_trace()}) std::remove(p->c_str());
  return 0;
}
