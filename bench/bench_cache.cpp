// Speed of the golden cache piece (cache.h): line writes per second into one sectored cache
// (an L2-slice-sized SectoredCache) and through the whole MemoryHierarchy (L1 + write buffer +
// L2 + DRAM port), for streaming full-line writes and random partial (one-sector) writes.
//
// Streaming sweeps 64 MiB, so after the first pass every write misses and evicts a dirty
// line; random writes touch 4 MiB (8x the L2), so most miss too. Each iteration is one line
// request; items/s is line writes per second.
#include <benchmark/benchmark.h>

#include <vector>

#include "stu/golden/cache.h"

namespace {

using namespace stu::golden;

constexpr uint64_t kBase = 0x10'0000'0000ull;
constexpr uint64_t kStreamBytes = 64ull << 20;
constexpr uint64_t kRandomBytes = 4ull << 20;
constexpr size_t kRandomCount = 1 << 16;

const CacheGeometry kL2{512 << 10, 16};  // 512 KiB, 16 ways: 256 sets
const CacheGeometry kL1{64 << 10, 4};

LineByteMask full() { return LineByteMask{~uint64_t(0), ~uint64_t(0)}; }

// Random (line, sector) pairs from a fixed LCG, precomputed so the loop measures the cache.
std::vector<uint64_t> random_addresses() {
  std::vector<uint64_t> a(kRandomCount);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (uint64_t& v : a) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = kBase + ((x >> 20) % kRandomBytes & ~uint64_t(kSectorBytes - 1));
  }
  return a;
}

LineByteMask sector_mask(uint64_t addr) {
  const unsigned s = unsigned(addr % kLineBytes) / kSectorBytes;
  const uint64_t m = ~uint64_t(0) >> 32;
  return s < 2 ? LineByteMask{m << (32 * s), 0} : LineByteMask{0, m << (32 * (s - 2))};
}

void BM_CacheStreamingWrites(benchmark::State& state) {
  SectoredCache c = *SectoredCache::create(kL2);
  std::array<uint8_t, kLineBytes> data{};
  CacheWrite w;
  w.bytes = full();
  w.data = data.data();
  uint64_t cursor = 0, evicted = 0;
  for (auto _ : state) {
    w.line = kBase + cursor;
    cursor = (cursor + kLineBytes) % kStreamBytes;
    const CacheWriteResult r = c.write(w);
    evicted += r.evicted;
    benchmark::DoNotOptimize(r.victim.data.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["evicted/write"] = double(evicted) / double(state.iterations());
}

void BM_CacheRandomSectorWrites(benchmark::State& state) {
  SectoredCache c = *SectoredCache::create(kL2);
  const std::vector<uint64_t> addrs = random_addresses();
  std::array<uint8_t, kLineBytes> data{};
  CacheWrite w;
  w.data = data.data();
  size_t i = 0;
  uint64_t hits = 0;
  for (auto _ : state) {
    const uint64_t a = addrs[i];
    i = (i + 1) % kRandomCount;
    w.line = a;
    w.bytes = sector_mask(a);
    const CacheWriteResult r = c.write(w);
    hits += r.hit;
    benchmark::DoNotOptimize(r.victim.data.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["hit rate"] = double(hits) / double(state.iterations());
}

HierarchyConfig hierarchy() {
  HierarchyConfig h;
  h.l1 = kL1;
  h.l2 = kL2;
  h.write_buffer = 8;
  return h;
}

void BM_HierarchyStreamingWrites(benchmark::State& state) {
  MemoryHierarchy h = *MemoryHierarchy::create(hierarchy());
  StoreResult r;
  r.lines.resize(1);
  r.lines[0].bytes = full();
  r.lines[0].sector_mask = 0xF;
  HierarchyEvents ev;
  uint64_t cursor = 0, dram = 0;
  for (auto _ : state) {
    r.lines[0].line = kBase + cursor;
    cursor = (cursor + kLineBytes) % kStreamBytes;
    ev.clear();
    h.store(r, ev);
    dram += ev.dram.size();
    benchmark::DoNotOptimize(ev.l2.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["dram/write"] = double(dram) / double(state.iterations());
}

void BM_HierarchyRandomSectorWrites(benchmark::State& state) {
  MemoryHierarchy h = *MemoryHierarchy::create(hierarchy());
  const std::vector<uint64_t> addrs = random_addresses();
  StoreResult r;
  r.lines.resize(1);
  HierarchyEvents ev;
  size_t i = 0;
  uint64_t merged = 0;
  for (auto _ : state) {
    const uint64_t a = addrs[i];
    i = (i + 1) % kRandomCount;
    r.lines[0].line = a & ~uint64_t(kLineBytes - 1);
    r.lines[0].bytes = sector_mask(a);
    ev.clear();
    h.store(r, ev);
    merged += ev.merged();
    benchmark::DoNotOptimize(ev.l2.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["merged/write"] = double(merged) / double(state.iterations());
}

BENCHMARK(BM_CacheStreamingWrites);
BENCHMARK(BM_CacheRandomSectorWrites);
BENCHMARK(BM_HierarchyStreamingWrites);
BENCHMARK(BM_HierarchyRandomSectorWrites);

}  // namespace

BENCHMARK_MAIN();
