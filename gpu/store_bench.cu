// stu correlation suite, silicon side: runs the experiments of gpu/suite.txt on a GPU and prints
// one JSON object per experiment (docs/correlate.md).
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -I include -o store_bench gpu/store_bench.cu
//   store_bench SUITE [--only NAME[,NAME...]] [--ncu] [--runs N] [--warm]
//
// Each figure is the best of N launches (default 5) after a warm-up launch; before each timed
// launch a kernel reads 4 x the L2's size through the L2, so that every launch starts with none
// of its lines in the L2, as under Nsight Compute and in the model (--warm: no such eviction;
// the launch then finds the previous launch's lines).
// --ncu runs each experiment marked ncu=1 exactly once (no warm-up, no repeats) and prints, on
// stderr, one line "launch N NAME" per kernel launch so that Nsight Compute's rows can be named.
// Every store is inline PTX (asm volatile with a memory clobber), so the compiler neither merges,
// widens nor drops any of them.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "stu/correlate/suite.h"

namespace stu {
namespace {

constexpr int kBlocks = 1056;  // 132 SMs x 8 on an H100/H200
constexpr int kThreads = 512;

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t e_ = (call);                                                    \
    if (e_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: error: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(e_));                                     \
      std::exit(3);                                                             \
    }                                                                           \
  } while (0)

// ---- kernels ---------------------------------------------------------------------------------

template <int Lane>
__device__ __forceinline__ void store_lane(char* p, uint32_t v) {
  if constexpr (Lane == 1) {
    asm volatile("st.global.u8 [%0], %1;" ::"l"(p), "h"(static_cast<uint16_t>(v)) : "memory");
  } else if constexpr (Lane == 2) {
    asm volatile("st.global.u16 [%0], %1;" ::"l"(p), "h"(static_cast<uint16_t>(v)) : "memory");
  } else if constexpr (Lane == 4) {
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (Lane == 8) {
    asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(static_cast<uint64_t>(v)) : "memory");
  } else {
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v), "r"(v + 1),
                 "r"(v + 2), "r"(v + 3)
                 : "memory");
  }
}

// Unroll: stores a thread issues per loop iteration (elements first + k*step, k < Unroll), so
// the loop's own instructions are shared by Unroll stores (suite.txt unroll=1|4). Pad: integer
// multiply-adds before each store, on its data (`mul` is a kernel argument, so ptxas cannot fold
// them): non-store instructions that compete for issue slots (suite.txt pad=0|8|24).
template <int Lane, int Unroll, int Pad>
__device__ __forceinline__ void stream_passes(char* base, size_t elems, int repeat, uint32_t mul) {
  const size_t first = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  const auto value = [mul](size_t i) {
    uint32_t v = static_cast<uint32_t>(i);
#pragma unroll
    for (int k = 0; k < Pad; ++k) v = v * mul + 1;
    return v;
  };
  for (int r = 0; r < repeat; ++r) {
    size_t i = first;
    for (; i + (Unroll - 1) * step < elems; i += Unroll * step) {
#pragma unroll
      for (int k = 0; k < Unroll; ++k)
        store_lane<Lane>(base + (i + k * step) * Lane, value(i + k * step + r));
    }
    for (; i < elems; i += step) store_lane<Lane>(base + i * Lane, value(i + r));
  }
}

template <int Lane, int Unroll, int Pad>
__global__ void k_stream(char* base, size_t elems, int repeat, uint32_t mul) {
  stream_passes<Lane, Unroll, Pad>(base, elems, repeat, mul);
}

// suite.txt kernel `readback ... again=N`: the N passes after the first write, in a kernel of
// their own so that Nsight Compute can count them apart (16-byte lanes, as the first write).
__global__ void k_rewrite(char* base, size_t elems, int repeat, uint32_t mul) {
  stream_passes<16, 1, 0>(base, elems, repeat, mul);
}

template <int Lane>
void launch_stream(int unroll, int pad, char* buffer, size_t elems, int repeat) {
  const uint32_t mul = 3;
  if (pad == 8)
    k_stream<Lane, 1, 8><<<kBlocks, kThreads>>>(buffer, elems, repeat, mul);
  else if (pad == 24)
    k_stream<Lane, 1, 24><<<kBlocks, kThreads>>>(buffer, elems, repeat, mul);
  else if (unroll == 4)
    k_stream<Lane, 4, 0><<<kBlocks, kThreads>>>(buffer, elems, repeat, mul);
  else
    k_stream<Lane, 1, 0><<<kBlocks, kThreads>>>(buffer, elems, repeat, mul);
}

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// tail_ns > 0: thread 0 of CTA 0 stays that long after the kernel's start, so that Nsight
// Compute's counters (which stop with the kernel) include what the L2 sends to DRAM after the
// last store is acknowledged.
__global__ void k_strided(char* base, size_t stride, size_t count, unsigned long long tail_ns) {
  const unsigned long long start = tail_ns ? global_ns() : 0;
  const size_t first = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  for (size_t i = first; i < count; i += step)
    asm volatile("st.global.u32 [%0], %1;" ::"l"(base + i * stride), "r"(uint32_t(i)) : "memory");
  if (tail_ns && first == 0)
    while (global_ns() - start < tail_ns) {
    }
}

// Reads `n` 16-byte words through the L2 (ld.global.cg), grid-stride.
__device__ void read_through_l2(const uint4* p, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;  // keeps the loads
}

// Empties the L2 of the experiment's lines before a timed launch, as Nsight Compute's cache
// control does and as the model starts: reads a scratch buffer of 4 x the L2, which evicts
// every other line, dirty ones written back here, and leaves the L2 holding clean scratch lines.
__global__ void k_evict(const uint4* p, size_t n, unsigned* sink) { read_through_l2(p, n, sink); }

// suite.txt kernel `readback`: reads back lines just written (what the L2 kept of them: its
// read hits under ncu --cache-control none). A kernel of its own, so that ncu can pick it out.
__global__ void k_read(const uint4* p, size_t n, unsigned* sink) { read_through_l2(p, n, sink); }

// The launch floor: the same grid with no store (suite.txt kernel `empty`).
__global__ void k_empty(char* base) {
  if (base == nullptr) asm volatile("trap;");
}

// chain_ops: the operations of a `chain` experiment (suite.txt op=...).
enum ChainOp : int {
  kSt,
  kStRelaxedGpu,
  kStRelaxedSys,
  kStVolatile,
  kStMmio,
  kStReleaseCta,
  kStReleaseGpu,
  kStReleaseSys,
  kFenceAcqRelGpu,
  kFenceScGpu,
  kFenceScSys,
  kStRelaxedFenceAcqRel,
  kStRelaxedFenceSc,
  kStMmioFenceScSys,
  kStFenceAcqRelGpu,
  kStWt,
  kStCs,
  kStReleaseCluster,
  kFenceAcqRelCluster,
  kFenceScCluster,
};

const std::map<std::string, ChainOp>& chain_ops() {
  static const std::map<std::string, ChainOp> ops = {
      {"st", kSt},
      {"st.relaxed.gpu", kStRelaxedGpu},
      {"st.relaxed.sys", kStRelaxedSys},
      {"st.volatile", kStVolatile},
      {"st.mmio", kStMmio},
      {"st.release.cta", kStReleaseCta},
      {"st.release.gpu", kStReleaseGpu},
      {"st.release.sys", kStReleaseSys},
      {"fence.acq_rel.gpu", kFenceAcqRelGpu},
      {"fence.sc.gpu", kFenceScGpu},
      {"fence.sc.sys", kFenceScSys},
      {"st.relaxed.gpu+fence.acq_rel.gpu", kStRelaxedFenceAcqRel},
      {"st.relaxed.gpu+fence.sc.gpu", kStRelaxedFenceSc},
      {"st.mmio+fence.sc.sys", kStMmioFenceScSys},
      {"st+fence.acq_rel.gpu", kStFenceAcqRelGpu},
      {"st.wt", kStWt},
      {"st.cs", kStCs},
      {"st.release.cluster", kStReleaseCluster},
      {"fence.acq_rel.cluster", kFenceAcqRelCluster},
      {"fence.sc.cluster", kFenceScCluster},
  };
  return ops;
}

template <int Op>
__device__ __forceinline__ void chain_step(char* p, uint32_t v) {
  if constexpr (Op == kSt || Op == kStFenceAcqRelGpu)
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStRelaxedGpu || Op == kStRelaxedFenceAcqRel || Op == kStRelaxedFenceSc)
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStRelaxedSys)
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStVolatile)
    asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStMmio || Op == kStMmioFenceScSys)
    asm volatile("st.mmio.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStReleaseCta)
    asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStReleaseGpu)
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStReleaseSys)
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kFenceAcqRelGpu || Op == kStRelaxedFenceAcqRel || Op == kStFenceAcqRelGpu)
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if constexpr (Op == kFenceScGpu || Op == kStRelaxedFenceSc)
    asm volatile("fence.sc.gpu;" ::: "memory");
  if constexpr (Op == kFenceScSys || Op == kStMmioFenceScSys)
    asm volatile("fence.sc.sys;" ::: "memory");
  if constexpr (Op == kStWt) asm volatile("st.wt.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStCs) asm volatile("st.cs.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kStReleaseCluster)
    asm volatile("st.release.cluster.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if constexpr (Op == kFenceAcqRelCluster) asm volatile("fence.acq_rel.cluster;" ::: "memory");
  if constexpr (Op == kFenceScCluster) asm volatile("fence.sc.cluster;" ::: "memory");
}

// tail_ns > 0: the thread stays that long after its timed pass (as k_strided's tail).
template <int Op>
__global__ void k_chain(char* base, int count, unsigned long long* cycles,
                        unsigned long long tail_ns) {
  // One warm-up pass over other lines, then the timed pass.
  for (int i = 0; i < 64; ++i) chain_step<Op>(base + (size_t(count) + i) * 128, i);
  const unsigned long long t0 = clock64();
  for (int i = 0; i < count; ++i) chain_step<Op>(base + size_t(i) * 128, i);
  const unsigned long long t1 = clock64();
  *cycles = t1 - t0;
  const unsigned long long start = tail_ns ? global_ns() : 0;
  while (tail_ns && global_ns() - start < tail_ns) {
  }
}

// `warps` warps of one CTA (one SM), all 32 lanes: warp w's iteration i stores a whole new
// 128-byte line, (i * warps + w) * 128. Thread 0 times the CTA from barrier to barrier.
template <int Op>
__global__ void k_warps(char* base, int count, int warps, unsigned long long* cycles) {
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  char* warm = base + (size_t(count) + 8) * size_t(warps) * 128;
  for (int i = 0; i < 8; ++i) chain_step<Op>(warm + (size_t(i) * warps + w) * 128 + lane * 4, i);
  __syncthreads();
  const unsigned long long t0 = clock64();
  for (int i = 0; i < count; ++i)
    chain_step<Op>(base + (size_t(i) * warps + w) * 128 + lane * 4, i);
  __syncthreads();
  if (threadIdx.x == 0) *cycles = clock64() - t0;
}

__global__ void k_shared(int stride, int count, unsigned long long* cycles) {
  __shared__ uint32_t words[32 * 32 + 32];
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t addr =
      static_cast<uint32_t>(__cvta_generic_to_shared(&words[(lane * stride) % (32 * 32)]));
  __syncthreads();
  const unsigned long long t0 = clock64();
  for (int i = 0; i < count; ++i)
    // .volatile: ptxas drops a plain st.shared that the next iteration overwrites (it kept one
    // in 16 in the first device run); st.volatile.shared is the same STS (docs/check.md).
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(addr), "r"(uint32_t(i)) : "memory");
  __syncthreads();
  const unsigned long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

// CTA 1 of each cluster expects count*512 bytes on its mbarrier; warp 0 of CTA 0 sends them
// with st.async. CTA 1 times from the cluster barrier to the phase's completion.
__global__ void __cluster_dims__(2, 1, 1) k_async(int count, unsigned long long* cycles) {
  __shared__ alignas(16) uint32_t buf[32 * 4];
  __shared__ alignas(8) uint64_t mbar;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const uint32_t mbar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  const uint32_t buf_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&buf[0]));
  if (rank == 1 && threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" ::"r"(
                     mbar_addr),
                 "r"(uint32_t(count) * 512u)
                 : "memory");
  }
  cluster_sync();
  if (rank == 1 && threadIdx.x == 0) {
    const unsigned long long t0 = clock64();
    uint32_t done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, "
          "p; }"
          : "=r"(done)
          : "r"(mbar_addr)
          : "memory");
    cycles[blockIdx.x / 2] = clock64() - t0;
  }
  if (rank == 0 && threadIdx.x < 32) {
    uint32_t rbuf, rmbar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;"
                 : "=r"(rbuf)
                 : "r"(buf_addr + threadIdx.x * 16));
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rmbar) : "r"(mbar_addr));
    for (int i = 0; i < count; ++i)
      asm volatile(
          "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 [%0], {%2, %2, %2, %2}, "
          "[%1];" ::"r"(rbuf),
          "r"(rmbar), "r"(uint32_t(i))
          : "memory");
  }
  cluster_sync();
}

// ---- the suite -------------------------------------------------------------------------------

using correlate::Experiment;

size_t parse_size(const std::string& s) {
  std::uint64_t v = 0;
  if (!correlate::parse_size(s, v)) throw std::runtime_error("bad size '" + s + "'");
  return size_t(v);
}

std::vector<Experiment> read_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "%s: error: cannot open\n", path.c_str());
    std::exit(2);
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> errors;
  auto out = correlate::parse_suite(text.str(), errors);
  for (const auto& e : errors) std::fprintf(stderr, "%s:%s\n", path.c_str(), e.c_str());
  if (!errors.empty()) std::exit(2);
  return out;
}

struct Runner {
  int runs = 5;
  bool ncu = false;
  bool warm = false;  // --warm: no L2 eviction before the timed launches
  uint4* scratch = nullptr;
  size_t scratch_words = 0;
  unsigned* sink = nullptr;
  int launches = 0;
  char* buffer = nullptr;
  size_t buffer_bytes = 0;
  unsigned long long* cycles = nullptr;

  void note_launch(const Experiment& e) {
    if (ncu) std::fprintf(stderr, "launch %d %s\n", launches, e.name.c_str());
    ++launches;
  }

  // Best (smallest) time of `runs` launches after one warm-up, in seconds.
  template <class Launch>
  double time_best(const Experiment& e, Launch launch) {
    if (ncu) {
      note_launch(e);
      launch();
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      return 0;
    }
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < runs; ++r) {
      if (!warm) {
        k_evict<<<kBlocks, kThreads>>>(scratch, scratch_words, sink);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
      }
      CHECK(cudaEventRecord(a));
      launch();
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      best = std::min(best, ms);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return best * 1e-3;
  }

  void emit(const Experiment& e, const char* figure, double value, const char* unit,
            double seconds) {
    std::printf("{\"name\": \"%s\", \"kernel\": \"%s\"", e.name.c_str(), e.kernel.c_str());
    for (const auto& [k, v] : e.params) std::printf(", \"%s\": \"%s\"", k.c_str(), v.c_str());
    std::printf(", \"figure\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"seconds\": %.6g}\n",
                figure, value, unit, seconds);
    std::fflush(stdout);
  }

  void run(const Experiment& e) {
    const auto p = [&](const char* k, const char* dflt) {
      const auto it = e.params.find(k);
      return it == e.params.end() ? std::string(dflt) : it->second;
    };
    if (e.kernel == "stream") {
      const int lane = std::stoi(p("lane", "4"));
      const size_t footprint = parse_size(p("footprint", "8M"));
      const int repeat = std::stoi(p("repeat", "1"));
      const size_t elems = footprint / lane;
      const int unroll = std::stoi(p("unroll", "1"));
      const int pad = std::stoi(p("pad", "0"));
      if ((unroll != 1 && unroll != 4) || (pad != 0 && pad != 8 && pad != 24) ||
          (pad && unroll != 1)) {
        std::fprintf(stderr, "suite:%d: error: unroll must be 1 or 4, pad 0, 8 or 24 (unroll 1)\n",
                     e.line);
        std::exit(2);
      }
      auto launch = [&] {
        switch (lane) {
          case 1:
            launch_stream<1>(unroll, pad, buffer, elems, repeat);
            break;
          case 2:
            launch_stream<2>(unroll, pad, buffer, elems, repeat);
            break;
          case 4:
            launch_stream<4>(unroll, pad, buffer, elems, repeat);
            break;
          case 8:
            launch_stream<8>(unroll, pad, buffer, elems, repeat);
            break;
          default:
            launch_stream<16>(unroll, pad, buffer, elems, repeat);
            break;
        }
      };
      const double s = time_best(e, launch);
      if (!ncu) emit(e, "bandwidth", double(footprint) * repeat / s, "B/s", s);
    } else if (e.kernel == "readback") {
      // The L2 emptied (k_evict), `footprint` written `repeat` times with 16-byte stores,
      // `again` more times by k_rewrite (none by default), then the bytes [from, from + len)
      // read back (k_read; default the whole footprint). The figure is the launches' time; the
      // counters are k_rewrite's and k_read's (the CSV's kernel name tells them apart).
      const size_t footprint = parse_size(p("footprint", "32M"));
      const int repeat = std::stoi(p("repeat", "1"));
      const int again = std::stoi(p("again", "0"));
      const size_t from = parse_size(p("from", "0"));
      const size_t len = parse_size(p("len", p("footprint", "32M").c_str()));
      if (from % 16 || len % 16 || from + len > footprint || len == 0 || again < 0) {
        std::fprintf(stderr,
                     "suite:%d: error: the read window [from, from + len) must be a non-empty, "
                     "16-byte aligned part of the footprint, again >= 0\n",
                     e.line);
        std::exit(2);
      }
      const size_t words = footprint / 16;
      const double s = time_best(e, [&] {
        k_evict<<<kBlocks, kThreads>>>(scratch, scratch_words, sink);
        k_stream<16, 1, 0><<<kBlocks, kThreads>>>(buffer, words, repeat, 1u);
        if (again) k_rewrite<<<kBlocks, kThreads>>>(buffer, words, again, 1u);
        k_read<<<kBlocks, kThreads>>>(reinterpret_cast<const uint4*>(buffer + from), len / 16,
                                      sink);
      });
      if (!ncu) emit(e, "seconds", s, "s", s);
    } else if (e.kernel == "empty") {
      const double s = time_best(e, [&] { k_empty<<<kBlocks, kThreads>>>(buffer); });
      if (!ncu) emit(e, "seconds", s, "s", s);
    } else if (e.kernel == "strided") {
      const size_t stride = parse_size(p("stride", "4"));
      const size_t count = parse_size(p("count", "16M"));
      const unsigned long long tail_ns = 1000ull * std::stoull(p("tail", "0"));
      const double s =
          time_best(e, [&] { k_strided<<<kBlocks, kThreads>>>(buffer, stride, count, tail_ns); });
      if (!ncu) emit(e, "throughput", double(count) / s, "stores/s", s);
    } else if (e.kernel == "chain") {
      const auto it = chain_ops().find(p("op", "st"));
      if (it == chain_ops().end()) {
        std::fprintf(stderr, "suite:%d: error: unknown op '%s'\n", e.line, p("op", "").c_str());
        std::exit(2);
      }
      const int count = std::stoi(p("count", "4096"));
      // warps=W: W whole warps on one SM (k_warps), else one thread (k_chain).
      const int warps = std::stoi(p("warps", "0"));
      const unsigned long long tail_ns = 1000ull * std::stoull(p("tail", "0"));
      auto launch = [&] {
        switch (it->second) {
#define CHAIN_CASE(op)                                              \
  case op:                                                          \
    if (warps > 0)                                                  \
      k_warps<op><<<1, 32 * warps>>>(buffer, count, warps, cycles); \
    else                                                            \
      k_chain<op><<<1, 1>>>(buffer, count, cycles, tail_ns);        \
    break;
          CHAIN_CASE(kSt)
          CHAIN_CASE(kStRelaxedGpu)
          CHAIN_CASE(kStRelaxedSys)
          CHAIN_CASE(kStVolatile)
          CHAIN_CASE(kStMmio)
          CHAIN_CASE(kStReleaseCta)
          CHAIN_CASE(kStReleaseGpu)
          CHAIN_CASE(kStReleaseSys)
          CHAIN_CASE(kFenceAcqRelGpu)
          CHAIN_CASE(kFenceScGpu)
          CHAIN_CASE(kFenceScSys)
          CHAIN_CASE(kStRelaxedFenceAcqRel)
          CHAIN_CASE(kStRelaxedFenceSc)
          CHAIN_CASE(kStMmioFenceScSys)
          CHAIN_CASE(kStFenceAcqRelGpu)
          CHAIN_CASE(kStWt)
          CHAIN_CASE(kStCs)
          CHAIN_CASE(kStReleaseCluster)
          CHAIN_CASE(kFenceAcqRelCluster)
          CHAIN_CASE(kFenceScCluster)
#undef CHAIN_CASE
        }
      };
      // Best of `runs`: the kernel's own clock, not the launch.
      double best = 1e300;
      for (int r = 0; r < (ncu ? 1 : runs + 1); ++r) {
        if (ncu) note_launch(e);
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        unsigned long long c = 0;
        CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
        // One thread: cycles an iteration; W warps: cycles per warp store on the SM.
        if (r > 0 || ncu) best = std::min(best, double(c) / count / std::max(warps, 1));
      }
      if (!ncu) emit(e, warps > 0 ? "cycles_per_warp_store" : "latency", best, "cycles", 0);
    } else if (e.kernel == "shared") {
      const int stride = std::stoi(p("stride", "1"));
      const int count = std::stoi(p("count", "4096"));
      const int ctas = 132;
      double best = 1e300;
      for (int r = 0; r < (ncu ? 1 : runs + 1); ++r) {
        if (ncu) note_launch(e);
        k_shared<<<ctas, 1024>>>(stride, count, cycles);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<unsigned long long> c(ctas);
        CHECK(cudaMemcpy(c.data(), cycles, ctas * sizeof c[0], cudaMemcpyDeviceToHost));
        double sum = 0;
        for (auto v : c) sum += double(v);
        const double per_warp_store = sum / ctas / (double(count) * 32);
        if (r > 0 || ncu) best = std::min(best, per_warp_store);
      }
      if (!ncu) emit(e, "cycles_per_warp_store", best, "cycles", 0);
    } else if (e.kernel == "async") {
      const int count = std::stoi(p("count", "2000"));
      const int clusters = std::stoi(p("clusters", "1"));
      if (count * 512 >= (1 << 20)) {
        std::fprintf(stderr, "suite:%d: error: count*512 must stay below 2^20\n", e.line);
        std::exit(2);
      }
      double best = 1e300;
      for (int r = 0; r < (ncu ? 1 : runs + 1); ++r) {
        if (ncu) note_launch(e);
        k_async<<<2 * clusters, 32>>>(count, cycles);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<unsigned long long> c(clusters);
        CHECK(cudaMemcpy(c.data(), cycles, clusters * sizeof c[0], cudaMemcpyDeviceToHost));
        double sum = 0;  // the mean over clusters (some SMs hold two senders)
        for (auto v : c) sum += double(v);
        if (r > 0 || ncu) best = std::min(best, sum / clusters / count);
      }
      if (!ncu) emit(e, "cycles_per_512B", best, "cycles", 0);
    } else {
      std::fprintf(stderr, "suite:%d: error: unknown kernel '%s'\n", e.line, e.kernel.c_str());
      std::exit(2);
    }
  }
};

}  // namespace
}  // namespace stu

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SUITE [--only NAME,...] [--ncu] [--runs N] [--warm]\n",
                 argv[0]);
    return 2;
  }
  using namespace stu;
  std::vector<std::string> only;
  Runner runner;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--ncu") {
      runner.ncu = true;
    } else if (a == "--warm") {
      runner.warm = true;
    } else if (a == "--runs" && i + 1 < argc) {
      runner.runs = std::atoi(argv[++i]);
    } else if (a == "--only" && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      for (std::string n; std::getline(ss, n, ',');) only.push_back(n);
    } else {
      std::fprintf(stderr, "error: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  const auto suite = read_suite(argv[1]);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  std::printf(
      "{\"device\": \"%s\", \"sms\": %d, \"l2_bytes\": %d, \"clock_khz\": %d, \"cc\": \"%d.%d\"}\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize, clock_khz, prop.major, prop.minor);
  runner.buffer_bytes = size_t(1) << 31;  // 2 GiB: the largest footprint, strided spans too
  CHECK(cudaMalloc(&runner.buffer, runner.buffer_bytes));
  CHECK(cudaMemset(runner.buffer, 0, runner.buffer_bytes));
  CHECK(cudaMalloc(&runner.cycles, 4096 * sizeof(unsigned long long)));
  runner.scratch_words = 4 * size_t(prop.l2CacheSize) / sizeof(uint4);
  CHECK(cudaMalloc(&runner.scratch, runner.scratch_words * sizeof(uint4)));
  CHECK(cudaMemset(runner.scratch, 0, runner.scratch_words * sizeof(uint4)));
  CHECK(cudaMalloc(&runner.sink, sizeof(unsigned)));
  if (!runner.ncu) {  // under ncu every launch is profiled and named: no launch of its own
    k_evict<<<kBlocks, kThreads>>>(runner.scratch, runner.scratch_words, runner.sink);
    CHECK(cudaDeviceSynchronize());
  }
  for (const auto& e : suite) {
    if (!only.empty() && std::find(only.begin(), only.end(), e.name) == only.end()) continue;
    if (runner.ncu && e.get("ncu") != "1") continue;
    if (e.kernel == "strided" &&
        parse_size(e.get("stride", "4")) * parse_size(e.get("count", "16M")) >
            runner.buffer_bytes) {
      std::fprintf(stderr, "suite:%d: error: stride*count exceeds the 2 GiB buffer\n", e.line);
      return 2;
    }
    runner.run(e);
  }
  CHECK(cudaFree(runner.buffer));
  CHECK(cudaFree(runner.cycles));
  CHECK(cudaFree(runner.scratch));
  CHECK(cudaFree(runner.sink));
  return 0;
}
