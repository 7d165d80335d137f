// Silicon probes for golden-model rules the directed library left open (docs/golden.md,
// "Silicon-checked rules"). Each probe runs in a process of its own (a fault ends the CUDA
// context) and prints one line: NAME error=<CUDA error after the kernel> [facts...].
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o probes gpu/probes.cu
//   probes --list            the probe names
//   probes NAME              run one
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>

namespace {

constexpr unsigned long long kUnmapped = 0x00000F0000000000ull;  // gpu/translate's choice
constexpr unsigned long long kTrap = 0x0F00000000000000ull;      // bit 59 set, bit 60 clear

// --- unmapped global addresses ---------------------------------------------------------------
__global__ void k_unmapped(unsigned long long addr, int width, unsigned mask, long long spin) {
  const unsigned lane = threadIdx.x & 31;
  if ((mask >> lane) & 1u) {
    const unsigned long long a = addr + (width == 1 ? 0 : lane * width);
    if (width == 1)
      asm volatile("st.global.u8 [%0], %1;" ::"l"(a), "h"(uint16_t(lane)) : "memory");
    else
      asm volatile("st.global.u32 [%0], %1;" ::"l"(a), "r"(lane) : "memory");
  }
  const long long t0 = clock64();
  while (clock64() - t0 < spin) {
  }
}

// --- per-lane cache policies -------------------------------------------------------------------
__global__ void k_policy(uint32_t* out, unsigned trap_lanes, unsigned mask) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned long long pol = ((trap_lanes >> lane) & 1u) ? kTrap : 0ull;
  if ((mask >> lane) & 1u)
    asm volatile("st.global.L2::cache_hint.u32 [%0], %1, %2;" ::"l"(out + lane), "r"(lane + 1),
                 "l"(pol)
                 : "memory");
}

// Whether the barrier at shared address `m` completed its phase of parity 0.
__device__ uint32_t phase0_complete(uint32_t m) {
  uint32_t done;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, "
      "p; }"
      : "=r"(done)
      : "r"(m)
      : "memory");
  return done;
}

// --- mbarrier tx-count range ---------------------------------------------------------------------
__global__ void k_mbar(int op, unsigned n, unsigned* state) {
  __shared__ alignas(8) uint64_t mbar;
  const uint32_t m = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(m) : "memory");
    if (op == 0)
      asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(n)
                   : "memory");
    else if (op == 1)
      asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(n)
                   : "memory");
    else {  // expect n, then complete n twice in halves
      asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(n)
                   : "memory");
      asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(n / 2)
                   : "memory");
      asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(m),
                   "r"(n - n / 2)
                   : "memory");
    }
    state[0] = phase0_complete(m);
    state[1] = static_cast<uint32_t>(mbar);
    state[2] = static_cast<uint32_t>(mbar >> 32);
  }
}

// --- mbarrier.arrive forms -----------------------------------------------------------------------
// form 0: arrive with a count operand; 1: without; 2: arrive.expect_tx of 0 bytes.
__global__ void k_arrive(int form, unsigned expected, unsigned* state) {
  __shared__ alignas(8) uint64_t mbar;
  const uint32_t m = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(expected) : "memory");
    if (form == 0)
      asm volatile(
          "{ .reg .b64 s; mbarrier.arrive.release.cta.shared::cta.b64 s, [%0], 1; }" ::"r"(m)
          : "memory");
    else if (form == 1)
      asm volatile("{ .reg .b64 s; mbarrier.arrive.release.cta.shared::cta.b64 s, [%0]; }" ::"r"(m)
                   : "memory");
    else
      asm volatile(
          "{ .reg .b64 s; mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 s, [%0], 0; }" ::
              "r"(m)
          : "memory");
    state[0] = phase0_complete(m);
  }
}

// --- st.async in a cluster of one CTA -----------------------------------------------------------
__global__ void __cluster_dims__(1, 1, 1) k_async_one(unsigned* out) {
  __shared__ alignas(16) uint32_t buf[32];
  __shared__ alignas(8) uint64_t mbar;
  const unsigned lane = threadIdx.x & 31;
  buf[lane] = 0;
  const uint32_t m = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  const uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&buf[lane]));
  if (lane == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(m) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("{ .reg .b64 s; mbarrier.arrive.expect_tx.shared::cta.b64 s, [%0], 128; }" ::"r"(m)
                 : "memory");
  }
  __syncthreads();
  uint32_t rb, rm;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rb) : "r"(b));
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rm) : "r"(m));
  asm volatile(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(rb),
      "r"(0x77u + lane), "r"(rm)
      : "memory");
  uint32_t done = 0;
  const long long t0 = clock64();
  while (!done && clock64() - t0 < 2000000)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, "
        "p; }"
        : "=r"(done)
        : "r"(m)
        : "memory");
  __syncthreads();
  out[lane] = buf[lane];
  if (lane == 0) out[32] = done;
}

const char* sync_error() {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  return cudaGetErrorName(e);
}

using Probe = std::function<void(const std::string&)>;

std::map<std::string, Probe> probes() {
  std::map<std::string, Probe> p;
  struct U {
    const char* name;
    unsigned long long addr;
    int width;
    unsigned mask;
    long long spin;
  };
  for (const U& u : {U{"unmapped_u8_lane0", kUnmapped + 0xefff, 1, 1u, 0},
                     U{"unmapped_u8_lane0_spin", kUnmapped + 0xefff, 1, 1u, 20000000},
                     U{"unmapped_u32_lane0", kUnmapped + 0xeffc, 4, 1u, 0},
                     U{"unmapped_u32_all", kUnmapped + 0x100, 4, 0xFFFFFFFFu, 0},
                     U{"unmapped_u8_all", kUnmapped + 0xefff, 1, 0xFFFFFFFFu, 0},
                     U{"unmapped_u32_lane0_at0", kUnmapped, 4, 1u, 0},
                     U{"unmapped_u32_lane0_low", 0x1000, 4, 1u, 0},
                     U{"unmapped_u32_lane0_2tb", 0x0000020000000000ull + 0x40, 4, 1u, 0},
                     U{"unmapped_u32_all_high", 0xFFFFFFFFFFFFE000ull, 4, 0xFFFFFFFFu, 0}}) {
    p[u.name] = [u](const std::string& n) {
      k_unmapped<<<1, 32>>>(u.addr, u.width, u.mask, u.spin);
      std::printf("%s addr=0x%llx width=%d mask=0x%08x error=%s\n", n.c_str(), u.addr, u.width,
                  u.mask, sync_error());
    };
  }
  struct P {
    const char* name;
    unsigned trap, mask;
  };
  for (const P& q :
       {P{"policy_lane5", 1u << 5, ~0u}, P{"policy_lane0", 1u, ~0u},
        P{"policy_lane31", 1u << 31, ~0u}, P{"policy_all", ~0u, ~0u},
        P{"policy_upper_half", 0xFFFF0000u, ~0u}, P{"policy_lane1_first_active", 2u, 0xFFFFFFFEu},
        P{"policy_lane0_inactive", 1u, 0xFFFFFFFEu}, P{"policy_all_but_lane0", 0xFFFFFFFEu, ~0u},
        P{"policy_lane31_only_active", 1u << 31, 1u << 31}}) {
    p[q.name] = [q](const std::string& n) {
      uint32_t* d = nullptr;
      cudaMalloc(&d, 128);
      cudaMemset(d, 0, 128);
      k_policy<<<1, 32>>>(d, q.trap, q.mask);
      const char* err = sync_error();
      uint32_t h[32] = {};
      const bool read = std::strcmp(err, "cudaSuccess") == 0 &&
                        cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost) == cudaSuccess;
      unsigned stored = 0;
      for (unsigned l = 0; l < 32 && read; ++l)
        if (h[l] == l + 1) stored |= 1u << l;
      std::printf("%s trap_lanes=0x%08x mask=0x%08x error=%s stored=0x%08x\n", n.c_str(), q.trap,
                  q.mask, err, stored);
    };
  }
  for (unsigned n : {1u, 65535u, 65536u, 262143u, 262144u, 524287u, 524288u, 1048575u}) {
    for (int op = 0; op < 3; ++op) {
      const char* ops[] = {"mbar_complete_tx", "mbar_expect_tx", "mbar_expect_complete"};
      p[std::string(ops[op]) + "_" + std::to_string(n)] = [op, n](const std::string& name) {
        unsigned* s = nullptr;
        cudaMalloc(&s, 16);
        cudaMemset(s, 0xFF, 16);
        k_mbar<<<1, 32>>>(op, n, s);
        const char* err = sync_error();
        unsigned h[3] = {~0u, ~0u, ~0u};
        if (std::strcmp(err, "cudaSuccess") == 0) cudaMemcpy(h, s, 12, cudaMemcpyDeviceToHost);
        std::printf("%s error=%s phase0_complete=%u word=0x%08x%08x\n", name.c_str(), err, h[0],
                    h[2], h[1]);
      };
    }
  }
  for (int form = 0; form < 3; ++form)
    for (unsigned expected : {1u, 2u}) {
      const char* forms[] = {"arrive_count", "arrive_plain", "arrive_expect_tx0"};
      p[std::string(forms[form]) + "_expected" + std::to_string(expected)] =
          [form, expected](const std::string& name) {
            unsigned* s = nullptr;
            cudaMalloc(&s, 16);
            cudaMemset(s, 0xFF, 16);
            k_arrive<<<1, 32>>>(form, expected, s);
            const char* err = sync_error();
            unsigned h = ~0u;
            if (std::strcmp(err, "cudaSuccess") == 0) cudaMemcpy(&h, s, 4, cudaMemcpyDeviceToHost);
            std::printf("%s error=%s phase0_complete=%u\n", name.c_str(), err, h);
          };
    }
  p["async_cluster_of_one"] = [](const std::string& n) {
    unsigned* d = nullptr;
    cudaMalloc(&d, 33 * 4);
    cudaMemset(d, 0, 33 * 4);
    k_async_one<<<1, 32>>>(d);
    const char* err = sync_error();
    unsigned h[33] = {};
    if (std::strcmp(err, "cudaSuccess") == 0) cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    unsigned landed = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (h[l] == 0x77u + l) landed |= 1u << l;
    std::printf("%s error=%s landed=0x%08x phase0_complete=%u\n", n.c_str(), err, landed, h[32]);
  };
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const auto all = probes();
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const auto& [name, fn] : all) std::printf("%s\n", name.c_str());
    return 0;
  }
  if (argc != 2 || all.count(argv[1]) == 0) {
    std::fprintf(stderr, "usage: %s --list | NAME\n", argv[0]);
    return 2;
  }
  all.at(argv[1])(argv[1]);
  return 0;
}
