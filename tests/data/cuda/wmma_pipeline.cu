// Tensor-core and asynchronous-copy kernels whose PTX contains store-like
// instructions that are *not* st.*: wmma.store.d, stmatrix (sm_90+),
// cp.async (global->shared), red/atom, sust (surface stores).  A PTX store
// checker must leave these alone.  Part of the stu nvcc PTX corpus.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <surface_indirect_functions.h>
#include <cstdint>

using namespace nvcuda;

// One warp computes a 16x16 tile: wmma.load / wmma.mma / wmma.store.d
__global__ void wmma_gemm_16x16(const __half* A, const __half* B, float* C, __half* Ch, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acch;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fill_fragment(acch, __float2half(0.f));
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(acc, a, b, acc);
        wmma::mma_sync(acch, a, b, acch);
    }
    wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(Ch, acch, 16, wmma::mem_col_major);
    // a second store into shared memory, then copy out
    __shared__ float stile[16 * 16];
    wmma::store_matrix_sync(stile, acc, 16, wmma::mem_col_major);
    __syncwarp();
    for (int e = threadIdx.x; e < 256; e += 32) C[256 + e] = stile[e];
}

// Double-buffered cp.async pipeline (sm_80+): cp.async.ca/cg.shared.global,
// cp.async.commit_group, cp.async.wait_group; then st.global of the result.
__global__ void cp_async_pipeline(const float4* in, float4* out, int tiles)
{
    __shared__ alignas(16) float4 buf[2][128];
    __shared__ alignas(8) float2 small[2][128];
    __shared__ int idx[2][128];
    int t = threadIdx.x & 127;
    const float2* in2 = reinterpret_cast<const float2*>(in);
    const int* in1 = reinterpret_cast<const int*>(in);
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_memcpy_async(&small[0][t], &in2[t], sizeof(float2));
    __pipeline_memcpy_async(&idx[0][t], &in1[t], sizeof(int));
    __pipeline_commit();
    for (int k = 0; k < tiles; ++k) {
        int cur = k & 1, nxt = cur ^ 1;
        if (k + 1 < tiles) {
            __pipeline_memcpy_async(&buf[nxt][t], &in[(k + 1) * 128 + t], sizeof(float4));
            __pipeline_memcpy_async(&small[nxt][t], &in2[(k + 1) * 128 + t], sizeof(float2));
            __pipeline_memcpy_async(&idx[nxt][t], &in1[(k + 1) * 128 + t], sizeof(int));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[cur][(t + 1) & 127];
        float2 s = small[cur][t];
        out[k * 128 + t] = make_float4(v.x + s.x, v.y + s.y, v.z, (float)idx[cur][t]);
        __syncthreads();
    }
}

// ldmatrix / stmatrix (stmatrix needs sm_90): transpose 8x8 b16 tiles
// through shared memory.
__global__ void ldst_matrix(const uint32_t* in, uint32_t* out)
{
    __shared__ alignas(16) uint16_t tile[4][8][8];
    __shared__ alignas(16) uint16_t back[4][8][8];
    int lane = threadIdx.x & 31;
    reinterpret_cast<uint32_t*>(tile)[lane * 4 + 0] = in[lane * 4 + 0];
    reinterpret_cast<uint32_t*>(tile)[lane * 4 + 1] = in[lane * 4 + 1];
    reinterpret_cast<uint32_t*>(tile)[lane * 4 + 2] = in[lane * 4 + 2];
    reinterpret_cast<uint32_t*>(tile)[lane * 4 + 3] = in[lane * 4 + 3];
    __syncwarp();
    uint32_t r0, r1, r2, r3;
    uint32_t row_addr = (uint32_t)__cvta_generic_to_shared(&tile[lane / 8][lane % 8][0]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(row_addr));
#if __CUDA_ARCH__ >= 900
    uint32_t back_addr = (uint32_t)__cvta_generic_to_shared(&back[lane / 8][lane % 8][0]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(back_addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                 :: "r"(back_addr), "r"(r0) : "memory");
#else
    reinterpret_cast<uint32_t*>(back)[lane * 4 + 0] = r0;
    reinterpret_cast<uint32_t*>(back)[lane * 4 + 1] = r1;
    reinterpret_cast<uint32_t*>(back)[lane * 4 + 2] = r2;
    reinterpret_cast<uint32_t*>(back)[lane * 4 + 3] = r3;
#endif
    __syncwarp();
    out[lane] = reinterpret_cast<uint32_t*>(back)[lane] ^ reinterpret_cast<uint32_t*>(back)[lane + 32];
}

// Reductions that write memory without st: red.global.add / atom.*
__global__ void atomics_mix(float* fsum, unsigned long long* usum, int* imax, double* dsum, __half2* h2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(fsum, 1.0f);                                // red.global.add.f32
    atomicAdd(usum, (unsigned long long)i);               // red.global.add.u64
    atomicMax(imax, i);                                   // red.global.max.s32
    atomicAdd(dsum, 0.5 * i);                             // red.global.add.f64
    atomicAdd(h2, __floats2half2_rn(1.f, 2.f));           // red.global.add.noftz.f16x2
    int old = atomicCAS(imax + 1, 0, i);                  // atom.global.cas.b32
    if (old == 7) atomicExch(imax + 2, i);                // atom.global.exch.b32
}

// Surface writes: sust.b.2d / sust.b.1d (the surface object is a .u64 param)
__global__ void surface_write(cudaSurfaceObject_t surf, cudaSurfaceObject_t surf1d, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        surf2Dwrite(make_float4(x, y, 0.f, 1.f), surf, x * (int)sizeof(float4), y);
        surf2Dwrite((unsigned short)(x ^ y), surf, x * 2, y + h, cudaBoundaryModeZero);
        if (y == 0) surf1Dwrite(make_uchar4(x, x, x, 255), surf1d, x * 4);
    }
}
