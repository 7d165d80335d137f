// Thread-block clusters (sm_90+): writes into a peer CTA's shared memory via
// cooperative_groups::cluster_group::map_shared_rank (st.shared::cluster),
// and asynchronous remote stores with mbarrier completion through the
// cuda::ptx::st_async wrappers
// (st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.*).
// On targets below sm_90 the kernels compile to a plain-global fallback.
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cstdint>

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER2 __cluster_dims__(2, 1, 1)
#define CLUSTER4 __cluster_dims__(4, 1, 1)
#else
#define CLUSTER2
#define CLUSTER4
#endif

// Ring exchange: each CTA writes its block id and a halo row into the next
// CTA's shared memory.  map_shared_rank returns a *generic* pointer (mapa.u64),
// so NVVM emits generic st.f32 / st.u32 / st.f64 for these remote writes.
__global__ void CLUSTER2 __launch_bounds__(128)
cluster_ring(const float* in, float* out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ float halo[128];
    __shared__ unsigned from_rank;
    __shared__ double dsum[4];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned peer = (rank + 1) % cluster.num_blocks();
    float* peer_halo = cluster.map_shared_rank(halo, peer);
    unsigned* peer_from = cluster.map_shared_rank(&from_rank, peer);
    double* peer_dsum = cluster.map_shared_rank(dsum, peer);
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    peer_halo[threadIdx.x] = in[gid];
    if (threadIdx.x == 0) *peer_from = rank;
    if (threadIdx.x < 4) peer_dsum[threadIdx.x] = (double)gid;
    cluster.sync();
    out[gid] = halo[threadIdx.x] + (float)from_rank + (float)dsum[threadIdx.x & 3];
    cluster.sync();   // keep shared memory alive until peers are done
#else
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    out[gid] = in[gid];
#endif
}

// Cluster-wide broadcast from rank 0 to all ranks (4-CTA cluster) with
// %clusterid / %cluster_ctarank style special registers.
__global__ void CLUSTER4 cluster_broadcast(int* out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ int2 box[32];
    cg::cluster_group cluster = cg::this_cluster();
    if (cluster.block_rank() == 0 && threadIdx.x < 32) {
        for (unsigned r = 0; r < cluster.num_blocks(); ++r) {
            int2* dst = cluster.map_shared_rank(box, r);
            dst[threadIdx.x] = make_int2((int)r, (int)cuda::ptx::get_sreg_clusterid_x());
        }
    }
    cluster.sync();
    if (threadIdx.x < 32)
        out[(blockIdx.x * 32) + threadIdx.x] = box[threadIdx.x].x * 1000 + box[threadIdx.x].y
                                               + (int)cuda::ptx::get_sreg_cluster_ctarank();
#else
    if (threadIdx.x < 32) out[(blockIdx.x * 32) + threadIdx.x] = 0;
#endif
}

// st.async: each CTA pushes values into the peer CTA's shared buffer and
// signals the peer's mbarrier with complete_tx::bytes.
__global__ void CLUSTER2 st_async_exchange(const uint32_t* in, uint32_t* out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(16) uint32_t rx32[4];
    __shared__ alignas(16) uint64_t rx64[2];
    __shared__ alignas(16) uint32_t rxv4[4];
    __shared__ alignas(16) uint32_t rxv2[2];
    __shared__ alignas(16) int64_t rxv2l[2];
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned peer = rank ^ 1u;
    constexpr uint32_t tx_bytes = 4 + 8 + 16 + 8 + 16;
    if (threadIdx.x == 0) {
        cuda::ptx::mbarrier_init(&bar, 1);
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
        cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cluster,
                                             cuda::ptx::space_shared, &bar, tx_bytes);
    }
    cluster.sync();
    if (threadIdx.x == 0) {
        uint64_t* peer_bar = cluster.map_shared_rank(&bar, peer);
        uint32_t v = in[blockIdx.x];
        cuda::ptx::st_async(cluster.map_shared_rank(rx32, peer), v, peer_bar);                 // .b32
        cuda::ptx::st_async(cluster.map_shared_rank(rx64, peer), (uint64_t)v << 32, peer_bar); // .b64
        const uint32_t v4[4] = {v, v + 1, v + 2, v + 3};
        cuda::ptx::st_async(cluster.map_shared_rank(rxv4, peer), v4, peer_bar);                // .v4.b32
        const uint32_t v2[2] = {v * 2, v * 3};
        cuda::ptx::st_async(cluster.map_shared_rank(rxv2, peer), v2, peer_bar);                // .v2.b32
        const int64_t l2[2] = {-(int64_t)v, (int64_t)v << 20};
        cuda::ptx::st_async(cluster.map_shared_rank(rxv2l, peer), l2, peer_bar);               // .v2.b64
    }
    if (threadIdx.x == 0) {
        while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0)) { }
        out[blockIdx.x * 8 + 0] = rx32[0];
        out[blockIdx.x * 8 + 1] = (uint32_t)(rx64[0] >> 32);
        out[blockIdx.x * 8 + 2] = rxv4[0] + rxv4[3];
        out[blockIdx.x * 8 + 3] = rxv2[0] + rxv2[1];
        out[blockIdx.x * 8 + 4] = (uint32_t)(rxv2l[0] + rxv2l[1]);
    }
    cluster.sync();
#else
    out[blockIdx.x * 8] = in[blockIdx.x];
#endif
}

// Distributed-shared-memory histogram: bins spread over the cluster, updated
// with atom.shared::cluster and zeroed with st.shared::cluster stores.
__global__ void CLUSTER2 dsmem_histogram(const int* in, int* bins, int n, int nbins_per_cta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ int smem_bins[];
    cg::cluster_group cluster = cg::this_cluster();
    for (int b = threadIdx.x; b < nbins_per_cta; b += blockDim.x) {
        int* remote = cluster.map_shared_rank(smem_bins, cluster.block_rank() ^ 1u);
        remote[b] = 0;
    }
    cluster.sync();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        unsigned owner = (unsigned)v / nbins_per_cta;
        int* dst = cluster.map_shared_rank(smem_bins, owner % cluster.num_blocks());
        atomicAdd(dst + v % nbins_per_cta, 1);
    }
    cluster.sync();
    for (int b = threadIdx.x; b < nbins_per_cta; b += blockDim.x)
        atomicAdd(&bins[cluster.block_rank() * nbins_per_cta + b], smem_bins[b]);
#else
    if (threadIdx.x == 0 && n > 0) bins[0] = in[0];
#endif
}

// CUTLASS-style distributed shared memory helpers written with inline PTX:
// mapa.shared::cluster on a 32-bit shared-window address, then explicit
// st.shared::cluster.* and st.release.cluster.shared::cluster.* stores.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ uint32_t smem_addr(const void* p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t map_to_rank(uint32_t addr, uint32_t rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}
__device__ __forceinline__ void st_cluster_u32(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ void st_cluster_f32(uint32_t addr, float v)
{
    asm volatile("st.shared::cluster.f32 [%0], %1;" :: "r"(addr), "f"(v) : "memory");
}
__device__ __forceinline__ void st_cluster_b64(uint32_t addr, uint64_t v)
{
    asm volatile("st.shared::cluster.b64 [%0], %1;" :: "r"(addr), "l"(v) : "memory");
}
__device__ __forceinline__ void st_cluster_v2f32(uint32_t addr, float a, float b)
{
    asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" :: "r"(addr), "f"(a), "f"(b) : "memory");
}
__device__ __forceinline__ void st_cluster_v4u32(uint32_t addr, uint4 v)
{
    asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}
__device__ __forceinline__ void st_release_cluster(uint32_t addr, uint32_t v)
{
    asm volatile("st.release.cluster.shared::cluster.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed_cluster_b64(uint32_t addr, uint64_t v)
{
    asm volatile("st.relaxed.cluster.shared::cluster.b64 [%0], %1;" :: "r"(addr), "l"(v) : "memory");
}
__device__ __forceinline__ void st_cta_u16(uint32_t addr, uint16_t v)
{
    asm volatile("st.shared::cta.u16 [%0], %1;" :: "r"(addr), "h"(v) : "memory");
}
#endif

__global__ void CLUSTER2 dsmem_inline_asm(const float* in, float* out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(16) float rx[64];
    __shared__ alignas(16) uint4 rx4[8];
    __shared__ alignas(8) uint64_t rx64;
    __shared__ uint32_t flag;
    __shared__ uint32_t rank_seen;
    __shared__ uint16_t local16[64];
    cg::cluster_group cluster = cg::this_cluster();
    uint32_t peer = cluster.block_rank() ^ 1u;
    if (threadIdx.x == 0) flag = 0;
    cluster.sync();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[gid];
    if (threadIdx.x < 64)
        st_cluster_f32(map_to_rank(smem_addr(&rx[threadIdx.x]), peer), v);
    if (threadIdx.x < 32)
        st_cluster_v2f32(map_to_rank(smem_addr(&rx[threadIdx.x * 2]), peer), v, -v);
    if (threadIdx.x < 8)
        st_cluster_v4u32(map_to_rank(smem_addr(&rx4[threadIdx.x]), peer),
                         make_uint4(gid, gid + 1, gid + 2, __float_as_uint(v)));
    if (threadIdx.x < 64)
        st_cta_u16(smem_addr(&local16[threadIdx.x]), (uint16_t)gid);
    if (threadIdx.x == 0) {
        st_cluster_u32(map_to_rank(smem_addr(&rank_seen), peer), cluster.block_rank());
        st_cluster_b64(map_to_rank(smem_addr(&rx64), peer), (uint64_t)gid << 17);
        st_relaxed_cluster_b64(map_to_rank(smem_addr(&rx64), peer), (uint64_t)gid << 18);
        st_release_cluster(map_to_rank(smem_addr(&flag), peer), 1u);
    }
    cluster.sync();
    if (threadIdx.x < 64)
        out[gid] = rx[threadIdx.x] + (float)rank_seen + (float)flag + (float)(rx64 & 0xff)
                   + (float)rx4[threadIdx.x & 7].x + (float)local16[63 - threadIdx.x];
#else
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    out[gid] = in[gid];
#endif
}
