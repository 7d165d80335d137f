// CCCL's cuda::ptx store wrappers (<cuda/ptx>):
//   cuda::ptx::st                          -> st.global.b{8,16,32,64,128}
//   cuda::ptx::st_L2_cache_hint            -> st.global.L2::cache_hint.*
//   cuda::ptx::st_L1_<policy>              -> st.global.L1::<policy>.*
//   cuda::ptx::st_L1_<policy>_L2_cache_hint-> st.global.L1::<policy>.L2::cache_hint.*
//   cuda::ptx::st_bulk   (sm_100+)         -> st.bulk.weak.shared::cta
//   cuda::ptx::multimem_st (sm_90+)        -> multimem.st.*.global.* (not an st.*)
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ uint64_t l2_evict_last_policy()
{
    uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    return pol;
}
__device__ __forceinline__ uint64_t l2_evict_first_policy(float frac)
{
    uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %0, %1;" : "=l"(pol) : "f"(frac));
    return pol;
}

// Plain st.global.b8/b16/b32/b64/b128
__global__ void plain_st(uint8_t* b8, uint16_t* b16, uint32_t* b32, uint64_t* b64, uint4* b128, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    ptx::st(ptx::space_global, b8 + i, (uint8_t)i);
    ptx::st(ptx::space_global, b16 + i, (uint16_t)(i * 3));
    ptx::st(ptx::space_global, b32 + i, (uint32_t)i * 5u);
    ptx::st(ptx::space_global, b64 + i, (uint64_t)i << 33);
#if __CUDA_ARCH__ >= 700
    ptx::st(ptx::space_global, b128 + i, make_uint4(i, i + 1, i + 2, i + 3));
#endif
    // float and double through the same template (bit-cast to b32/b64)
    ptx::st(ptx::space_global, reinterpret_cast<float*>(b32) + n + i, 0.5f * i);
    ptx::st(ptx::space_global, reinterpret_cast<double*>(b64) + n + i, 0.25 * i);
}

// L2 cache-hint stores with a createpolicy-produced 64-bit policy operand
__global__ void l2_cache_hint_st(uint8_t* b8, uint16_t* b16, float* f32, double* f64, float4* v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if __CUDA_ARCH__ >= 800
    uint64_t pol = l2_evict_last_policy();
    ptx::st_L2_cache_hint(ptx::space_global, b8 + i, (uint8_t)(i ^ 0x5a), pol);
    ptx::st_L2_cache_hint(ptx::space_global, b16 + i, (uint16_t)i, pol);
    ptx::st_L2_cache_hint(ptx::space_global, f32 + i, 1.0f / (i + 1), pol);
    ptx::st_L2_cache_hint(ptx::space_global, f64 + i, 1.0 / (i + 1), pol);
    ptx::st_L2_cache_hint(ptx::space_global, v + i, make_float4(i, i, i, i), pol);
#endif
}

// L1 eviction-priority stores, each with and without an L2 cache hint
__global__ void l1_eviction_st(uint32_t* a, uint64_t* b, uint16_t* c, uint8_t* d, int4* e, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    ptx::st_L1_evict_normal(ptx::space_global, a + 5 * i + 0, (uint32_t)i);
    ptx::st_L1_evict_unchanged(ptx::space_global, a + 5 * i + 1, (uint32_t)i);
    ptx::st_L1_evict_first(ptx::space_global, a + 5 * i + 2, (uint32_t)i);
    ptx::st_L1_evict_last(ptx::space_global, a + 5 * i + 3, (uint32_t)i);
    ptx::st_L1_no_allocate(ptx::space_global, a + 5 * i + 4, (uint32_t)i);
    ptx::st_L1_evict_first(ptx::space_global, b + i, (uint64_t)i * i);
    ptx::st_L1_evict_last(ptx::space_global, c + i, (uint16_t)i);
    ptx::st_L1_no_allocate(ptx::space_global, d + i, (uint8_t)i);
    ptx::st_L1_no_allocate(ptx::space_global, e + i, make_int4(i, -i, i, -i));
#if __CUDA_ARCH__ >= 800
    uint64_t pol = l2_evict_first_policy(0.5f);
    ptx::st_L1_evict_normal_L2_cache_hint(ptx::space_global, b + n + i, (uint64_t)i, pol);
    ptx::st_L1_evict_unchanged_L2_cache_hint(ptx::space_global, c + n + i, (uint16_t)i, pol);
    ptx::st_L1_evict_first_L2_cache_hint(ptx::space_global, d + n + i, (uint8_t)i, pol);
    ptx::st_L1_evict_last_L2_cache_hint(ptx::space_global, e + n + i, make_int4(1, 2, 3, i), pol);
    ptx::st_L1_no_allocate_L2_cache_hint(ptx::space_global, a + 5 * n + i, (uint32_t)~i, pol);
#endif
}

// st.bulk (sm_100+): zero-fill a shared buffer, then copy it out.
__global__ void bulk_zero(uint32_t* out)
{
    __shared__ alignas(16) uint32_t buf[256];
#if __CUDA_ARCH__ >= 1000
    if (threadIdx.x == 0) ptx::st_bulk(buf, sizeof(buf), ptx::n32_t<0>{});
    __syncthreads();
#else
    buf[threadIdx.x & 255] = 0;
    __syncthreads();
#endif
    out[blockIdx.x * 256 + (threadIdx.x & 255)] = buf[(threadIdx.x + 7) & 255];
}

// multimem.st (sm_90+): stores to a multicast object address.  These are not
// st.* instructions, but a PTX reader must not mistake them for one.
__global__ void multimem_store(float* mc, uint64_t* mc64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if __CUDA_ARCH__ >= 900
    ptx::multimem_st(ptx::sem_weak, mc + i, (float)i);
    ptx::multimem_st(ptx::sem_relaxed, ptx::scope_gpu, mc + n + i, (float)-i);
    ptx::multimem_st(ptx::sem_release, ptx::scope_sys, mc64 + i, (uint64_t)i);
#else
    mc[i] = (float)i;
#endif
}
