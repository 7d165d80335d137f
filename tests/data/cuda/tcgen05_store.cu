// Blackwell tensor-memory stores through the cuda::ptx tcgen05 wrappers
// (sm_100a / sm_101a only; other targets compile a plain-global fallback):
//   tcgen05.alloc / relinquish_alloc_permit / dealloc
//   tcgen05.st.sync.aligned.{32x32b,16x64b,16x128b,16x256b,16x32bx2}.xN[.unpack::16b].b32
//   tcgen05.wait::st.sync.aligned, tcgen05.fence::*
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cstdint>

namespace ptx = cuda::ptx;

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM101_ALL)
#define HAS_TCGEN05 1
#else
#define HAS_TCGEN05 0
#endif

template <int N>
__device__ __forceinline__ void fill(uint32_t (&v)[N], const uint32_t* src)
{
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = src[(threadIdx.x * N + k) & 1023];
}

// Allocates 512 TMEM columns for the CTA, writes with every shape at a few
// .num counts (incl. the largest), waits for the stores, then frees.
__global__ void __launch_bounds__(128, 1) tmem_store_shapes(const uint32_t* src, uint32_t* dbg)
{
#if HAS_TCGEN05
    __shared__ uint32_t tmem_base;
    const unsigned warp = threadIdx.x / 32;
    if (warp == 0) {
        ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base, 512u);
        ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    // lane quarter of the warp in bits 31:16, column in bits 15:0
    const uint32_t taddr = tmem_base + ((warp * 32u) << 16);

    // 32x32b: x1, x2, x4, x16, x64, x128
    { uint32_t v[1];   fill(v, src); ptx::tcgen05_st_32x32b(taddr + 0, v); }
    { uint32_t v[2];   fill(v, src); ptx::tcgen05_st_32x32b(taddr + 1, v); }
    { uint32_t v[4];   fill(v, src); ptx::tcgen05_st_32x32b(taddr + 4, v); }
    { uint32_t v[16];  fill(v, src); ptx::tcgen05_st_32x32b(taddr + 16, v); }
    { uint32_t v[64];  fill(v, src); ptx::tcgen05_st_32x32b(taddr + 64, v); }
    { uint32_t v[128]; fill(v, src); ptx::tcgen05_st_32x32b(taddr + 128, v); }
    // 32x32b with .unpack::16b
    { uint32_t v[1];   fill(v, src); ptx::tcgen05_st_32x32b_unpack_16b(taddr + 256, v); }
    { uint32_t v[8];   fill(v, src); ptx::tcgen05_st_32x32b_unpack_16b(taddr + 264, v); }
    { uint32_t v[32];  fill(v, src); ptx::tcgen05_st_32x32b_unpack_16b(taddr + 320, v); }

    // 16x64b: x1, x8, x32, x128 and unpack
    { uint32_t v[1];   fill(v, src); ptx::tcgen05_st_16x64b(taddr + 0, v); }
    { uint32_t v[8];   fill(v, src); ptx::tcgen05_st_16x64b(taddr + 8, v); }
    { uint32_t v[32];  fill(v, src); ptx::tcgen05_st_16x64b(taddr + 32, v); }
    { uint32_t v[128]; fill(v, src); ptx::tcgen05_st_16x64b(taddr + 128, v); }
    { uint32_t v[2];   fill(v, src); ptx::tcgen05_st_16x64b_unpack_16b(taddr + 384, v); }
    { uint32_t v[16];  fill(v, src); ptx::tcgen05_st_16x64b_unpack_16b(taddr + 400, v); }

    // 16x128b: x1 (2 regs), x4 (8 regs), x64 (128 regs) and unpack
    { uint32_t v[2];   fill(v, src); ptx::tcgen05_st_16x128b(taddr + 0, v); }
    { uint32_t v[8];   fill(v, src); ptx::tcgen05_st_16x128b(taddr + 8, v); }
    { uint32_t v[128]; fill(v, src); ptx::tcgen05_st_16x128b(taddr + 128, v); }
    { uint32_t v[4];   fill(v, src); ptx::tcgen05_st_16x128b_unpack_16b(taddr + 256, v); }
    { uint32_t v[32];  fill(v, src); ptx::tcgen05_st_16x128b_unpack_16b(taddr + 288, v); }

    // 16x256b: x1 (4 regs), x2 (8 regs), x32 (128 regs) and unpack
    { uint32_t v[4];   fill(v, src); ptx::tcgen05_st_16x256b(taddr + 0, v); }
    { uint32_t v[8];   fill(v, src); ptx::tcgen05_st_16x256b(taddr + 8, v); }
    { uint32_t v[128]; fill(v, src); ptx::tcgen05_st_16x256b(taddr + 128, v); }
    { uint32_t v[16];  fill(v, src); ptx::tcgen05_st_16x256b_unpack_16b(taddr + 256, v); }

    // 16x32bx2 takes an immediate half-split offset: x1, x4, x16, x128 and unpack
    { uint32_t v[1];   fill(v, src); ptx::tcgen05_st_16x32bx2(taddr + 0, ptx::n32_t<2>{}, v); }
    { uint32_t v[4];   fill(v, src); ptx::tcgen05_st_16x32bx2(taddr + 4, ptx::n32_t<8>{}, v); }
    { uint32_t v[16];  fill(v, src); ptx::tcgen05_st_16x32bx2(taddr + 16, ptx::n32_t<16>{}, v); }
    { uint32_t v[128]; fill(v, src); ptx::tcgen05_st_16x32bx2(taddr + 128, ptx::n32_t<128>{}, v); }
    { uint32_t v[2];   fill(v, src); ptx::tcgen05_st_16x32bx2_unpack_16b(taddr + 256, ptx::n32_t<4>{}, v); }
    { uint32_t v[64];  fill(v, src); ptx::tcgen05_st_16x32bx2_unpack_16b(taddr + 320, ptx::n32_t<64>{}, v); }

    ptx::tcgen05_wait_st();
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    if (warp == 0)
        ptx::tcgen05_dealloc(ptx::cta_group_1, tmem_base, 512u);
    if (threadIdx.x == 0) dbg[blockIdx.x] = tmem_base;
#else
    dbg[blockIdx.x * blockDim.x + threadIdx.x] = src[threadIdx.x & 1023];
#endif
}

// Epilogue-style kernel: each warp converts an fp32 accumulator row to
// packed 16-bit pairs and stores it back to TMEM with the unpack form, in a
// loop (so tcgen05.st appears inside a loop body with a computed address).
__global__ void __launch_bounds__(128) tmem_epilogue_loop(const float* acc, uint32_t* dbg, int ncol_chunks)
{
#if HAS_TCGEN05
    __shared__ uint32_t tmem_base;
    const unsigned warp = threadIdx.x / 32;
    if (warp == 0) ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base, 256u);
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    const uint32_t row_base = tmem_base + ((warp * 32u) << 16);
    for (int c = 0; c < ncol_chunks; ++c) {
        uint32_t packed[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            float lo = acc[(threadIdx.x * 16 + 2 * k) + c * 2048];
            float hi = acc[(threadIdx.x * 16 + 2 * k + 1) + c * 2048];
            __nv_bfloat162 p = __floats2bfloat162_rn(lo, hi);
            packed[k] = *reinterpret_cast<uint32_t*>(&p);
        }
        ptx::tcgen05_st_32x32b_unpack_16b(row_base + c * 16u, packed);
        ptx::tcgen05_st_16x64b(row_base + c * 16u + 8u, packed);
    }
    ptx::tcgen05_wait_st();
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    if (warp == 0) {
        ptx::tcgen05_fence_after_thread_sync();
        ptx::tcgen05_dealloc(ptx::cta_group_1, tmem_base, 256u);
    }
    if (threadIdx.x == 0) dbg[blockIdx.x] = row_base;
#else
    if (threadIdx.x == 0) dbg[blockIdx.x] = (uint32_t)ncol_chunks + (uint32_t)acc[0];
#endif
}
