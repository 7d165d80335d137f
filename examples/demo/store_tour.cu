// A tour of the store family as real CUDA code produces it, for `scripts/demo.sh`.
// Compiled with: nvcc -ptx -O3 -arch=sm_100a store_tour.cu -o store_tour.sm_100a.ptx
//
//  - a tiled, vectorised epilogue (st.global.v4.f32, streaming __stcs, write-through __stwt)
//  - a release flag publish with cuda::atomic_ref (st.release.gpu / st.relaxed.sys)
//  - a shared-memory staging buffer (st.shared.v2 / st.shared.u32)
//  - a two-CTA cluster exchange through distributed shared memory (st.shared::cluster) and
//    st.async with mbarrier completion
//  - a tensor-memory epilogue with tcgen05.st (32x32b.x4 and 16x64b.x2)
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/ptx>
#include <cstdint>

namespace cg = cooperative_groups;

__global__ void __launch_bounds__(256) epilogue(const float4* __restrict__ acc,
                                                float4* __restrict__ out, float* __restrict__ log,
                                                unsigned* flag, float alpha, int n) {
  __shared__ float2 stage[256];
  __shared__ unsigned count;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  if (i < n) {
    float4 v = acc[i];
    v.x *= alpha; v.y *= alpha; v.z *= alpha; v.w *= alpha;
    out[i] = v;                                   // st.global.v4.f32
    stage[threadIdx.x] = make_float2(v.x, v.y);   // st.shared.v2.f32
    __stcs(&log[i], v.z);                         // st.global.cs.f32 (streaming)
    __stwt(&log[n + i], v.w);                     // st.global.wt.f32 (write-through)
    atomicAdd(&count, 1u);
  }
  __syncthreads();
  if (i < n) log[2 * n + i] = stage[threadIdx.x ^ 1].y;  // read back a neighbour's staging
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flag[0]);
    f.store(count, cuda::memory_order_release);   // st.release.gpu.global
    cuda::atomic_ref<unsigned, cuda::thread_scope_system> h(flag[1]);
    h.store(1u, cuda::memory_order_relaxed);      // st.relaxed.sys.global
  }
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    cluster_exchange(const int* in, int* out) {
  __shared__ int halo[128];
  __shared__ alignas(8) uint64_t bar;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned peer = rank ^ 1;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
        static_cast<unsigned>(__cvta_generic_to_shared(&bar))));
  }
  cluster.sync();
  int* peer_halo = cluster.map_shared_rank(halo, peer);
  peer_halo[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];  // st.shared::cluster (generic)
  // The same exchange as an asynchronous remote store completing on the peer's mbarrier.
  int* remote = cluster.map_shared_rank(halo, peer);
  uint64_t* remote_bar = cluster.map_shared_rank(&bar, peer);
  cuda::ptx::st_async(remote + threadIdx.x, in[threadIdx.x] + 1, remote_bar);
  cluster.sync();
  out[blockIdx.x * 128 + threadIdx.x] = halo[threadIdx.x];
}

__global__ void tmem_epilogue(const uint32_t* in, uint32_t taddr) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  uint32_t r[4];
  for (int k = 0; k < 4; ++k) r[k] = in[threadIdx.x * 4 + k];
  const int32_t v[4] = {int32_t(r[0]), int32_t(r[1]), int32_t(r[2]), int32_t(r[3])};
  cuda::ptx::tcgen05_st_32x32b(taddr, v);         // tcgen05.st.sync.aligned.32x32b.x4.b32
  const int32_t w[2] = {int32_t(r[0] ^ r[1]), int32_t(r[2] ^ r[3])};
  cuda::ptx::tcgen05_st_16x64b(taddr + 8, w);      // tcgen05.st.sync.aligned.16x64b.x2.b32
#endif
}
