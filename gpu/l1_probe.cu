// What a global store leaves in the L1 (docs/golden.md, "L1 store action"): for each of 12 store
// forms and each case, one warp stores to a line and reads it back with `ld.global.ca` (cached
// in the L1). Under Nsight Compute the read's L1 sector hits and misses say what the L1 holds:
//   cold  the line is not in the L1 before the store: hits = bytes the store allocated
//   warm  an `ld.global.ca` of the whole line first (its 4 misses count too, the line allocated
//         by the load): hits after the store = the store kept (updated) it, misses = it did not
// Cases (main): which lanes store (4 bytes each: the whole line, lane 0's 4 bytes, sector 0,
// sector 0 and 4 bytes of sector 1, ...), which lanes read back, and an optional second store;
// each back to back (wait 0) and with 4000 cycles' wait after each step (the load's fill and
// the stores finished). Each launch uses a line of its own; stderr names the launches in order
// for gpu/l1_probe_table.py.
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o l1_probe gpu/l1_probe.cu
//   ncu --clock-control none --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
//       l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum --csv l1_probe >l1.csv
//       2>launches
//   gpu/l1_probe_table.py l1.csv launches
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

namespace {

#define CHECK(x)                                                    \
  do {                                                              \
    cudaError_t e_ = (x);                                           \
    if (e_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); \
      return 2;                                                     \
    }                                                               \
  } while (0)

#define FORMS(X)                                       \
  X(st, "st.global.u32")                               \
  X(wb, "st.global.wb.u32")                            \
  X(cg, "st.global.cg.u32")                            \
  X(cs, "st.global.cs.u32")                            \
  X(wt, "st.global.wt.u32")                            \
  X(l1_first, "st.global.L1::evict_first.u32")         \
  X(l1_last, "st.global.L1::evict_last.u32")           \
  X(l1_unchanged, "st.global.L1::evict_unchanged.u32") \
  X(l1_no_allocate, "st.global.L1::no_allocate.u32")   \
  X(relaxed_gpu, "st.relaxed.gpu.global.u32")          \
  X(volatile, "st.volatile.global.u32")                \
  X(mmio, "st.mmio.relaxed.sys.global.u32")

// Spins `cycles` cycles once `dep` is known (so a load before it has completed): lets what a
// load or store started finish before the next step (wait 0: back to back).
__device__ __forceinline__ void settle(long long cycles, uint32_t dep) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles + (dep & 1u)) {
  }
}

#define KERNEL(name, ptx)                                                                         \
  __global__ void k_##name(uint32_t* line, int warm, unsigned smask, unsigned smask2,             \
                           unsigned lmask, long long wait, uint32_t* out) {                       \
    const unsigned lane = threadIdx.x & 31;                                                       \
    uint32_t* p = line + lane;                                                                    \
    uint32_t v = 0, w = 0;                                                                        \
    if (warm) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");           \
    if (wait) settle(wait, v);                                                                    \
    __syncwarp();                                                                                 \
    if ((smask >> lane) & 1u) asm volatile(ptx " [%0], %1;" ::"l"(p), "r"(lane + 1) : "memory");  \
    if (wait) settle(wait, 0);                                                                    \
    __syncwarp();                                                                                 \
    if ((smask2 >> lane) & 1u) asm volatile(ptx " [%0], %1;" ::"l"(p), "r"(lane + 2) : "memory"); \
    if (wait) settle(wait, 0);                                                                    \
    __syncwarp();                                                                                 \
    if ((lmask >> lane) & 1u)                                                                     \
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(w) : "l"(p) : "memory");                   \
    out[lane] = v + w;                                                                            \
  }
FORMS(KERNEL)
#undef KERNEL

}  // namespace

int main() {
  uint32_t *buf = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&buf, 1 << 23));
  CHECK(cudaMalloc(&out, 32 * sizeof(uint32_t)));
  CHECK(cudaMemset(buf, 0, 1 << 23));
  int launch = 0;
  // (warm, lanes that store, lanes that read back): whole line; 4 bytes of sector 0; those 4
  // bytes read alone; sector 0 whole (cold, warm); sector 0 whole and 4 bytes of sector 1; 4
  // bytes of sector 1 alone.
  struct Case {
    int warm;
    unsigned smask, lmask, smask2;  // smask2: a second store of the same form (0: none)
  };
  const Case cases[] = {{0, ~0u, ~0u},
                        {1, ~0u, ~0u},
                        {0, 1u, ~0u},
                        {1, 1u, ~0u},
                        {0, 1u, 1u},
                        {0, 0xFFu, ~0u},
                        {1, 0xFFu, ~0u},
                        {1, 0x1FFu, ~0u},
                        {1, 0x100u, ~0u},
                        // the rule on a hit: a store's bytes alone on a hit, mixed on a miss,
                        // the sectors a whole-sector store leaves, two stores in turn
                        {1, 1u, 1u},
                        {0, 0x1FFu, ~0u},
                        {1, 0xFFu, 0xFF00u},
                        {0, 0xFFu, ~0u, 0xFF00u},
                        {0, 1u, 1u, 2u},
                        {0, 0xFFu, 0xFFu, 0x100u}};
  for (long long wait : {0ll, 4000ll})
    for (const Case& c : cases) {
#define RUN(name, ptx)                                                                       \
  std::fprintf(stderr, "launch %d %s %s store=%08x read=%08x then=%08x wait=%lld\n", launch, \
               #name, c.warm ? "warm" : "cold", c.smask, c.lmask, c.smask2, wait);           \
  k_##name<<<1, 32>>>(buf + launch * 1024, c.warm, c.smask, c.smask2, c.lmask, wait, out);   \
  CHECK(cudaGetLastError());                                                                 \
  CHECK(cudaDeviceSynchronize());                                                            \
  ++launch;
      FORMS(RUN)
#undef RUN
    }
  uint32_t host[32];
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("launches %d, lane 0's last read %u (expect 1)\n", launch, host[0]);
  return 0;
}
