// Inline-PTX store idioms as used by CUTLASS/CuTe and similar libraries:
// predicated stores inside { .reg .pred p; ... @p st ... } scopes, st.weak,
// st.mmio, explicit .shared/.global vector stores with .b32 types,
// L1/L2 eviction-priority qualifiers, 256-bit stores (sm_100+), the sm_100
// global-space st.async forms, and plain stores to named module-scope
// variables ([symbol], [symbol+off]).  Part of the stu nvcc PTX corpus.
#include <cuda_runtime.h>
#include <cstdint>

__device__ int g_last_block;
__device__ float g_hist[16];
__device__ uint2 g_pair;

// cutlass::arch::global_store<AccessType, 16>
__device__ __forceinline__ void global_store_16(void* ptr, uint4 d, bool pred)
{
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %5, 0;\n"
        "  @p st.global.v4.u32 [%0], {%1, %2, %3, %4};\n"
        "}\n"
        :: "l"(ptr), "r"(d.x), "r"(d.y), "r"(d.z), "r"(d.w), "r"((int)pred));
}
// cutlass::arch::global_store<AccessType, 8> and <.., 4>, <.., 2>, <.., 1>
__device__ __forceinline__ void global_store_8(void* ptr, uint2 d, bool pred)
{
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %3, 0;\n"
        "  @p st.global.v2.u32 [%0], {%1, %2};\n"
        "}\n"
        :: "l"(ptr), "r"(d.x), "r"(d.y), "r"((int)pred));
}
__device__ __forceinline__ void global_store_4(void* ptr, uint32_t d, bool pred)
{
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %2, 0;\n"
        "  @p st.global.u32 [%0], %1;\n"
        "}\n"
        :: "l"(ptr), "r"(d), "r"((int)pred));
}
__device__ __forceinline__ void global_store_2(void* ptr, uint16_t d, bool pred)
{
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  setp.ne.b32 p, %2, 0;\n"
        "  @!p bra.uni skip;\n"
        "  st.global.u16 [%0], %1;\n"
        "skip:\n"
        "}\n"
        :: "l"(ptr), "h"(d), "r"((int)pred));
}
__device__ __forceinline__ void global_store_1_unless(void* ptr, uint8_t d, bool skip)
{
    asm volatile(
        "{\n"
        "  .reg .pred q;\n"
        "  .reg .b16 t;\n"
        "  setp.ne.b32 q, %2, 0;\n"
        "  cvt.u16.u32 t, %1;\n"
        "  @!q st.global.u8 [%0], t;\n"
        "}\n"
        :: "l"(ptr), "r"((uint32_t)d), "r"((int)skip));
}
// cute::SM75_U32x4_STSM-free shared stores: st.shared.v4.b32 / v2.b32 / b64
__device__ __forceinline__ void shared_store_v4(uint32_t saddr, uint4 v)
{
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(saddr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
}
__device__ __forceinline__ void shared_store_v2(uint32_t saddr, uint32_t a, uint32_t b)
{
    asm volatile("st.shared.v2.b32 [%0], {%1, %2};\n" :: "r"(saddr), "r"(a), "r"(b));
}
__device__ __forceinline__ void shared_store_b64(uint32_t saddr, uint64_t v)
{
    asm volatile("st.shared.b64 [%0], %1;\n" :: "r"(saddr), "l"(v));
}

__global__ void predicated_epilogue(uint8_t* out, const uint4* frag, int n, int ldm)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint4 v = frag[i];
    bool in_bounds = i * 16 + 15 < n;
    global_store_16(out + i * 16, v, in_bounds);
    global_store_8(out + n + i * 8, make_uint2(v.x, v.y), i * 8 + 7 < ldm);
    global_store_4(out + 2 * n + i * 4, v.z, i * 4 + 3 < ldm);
    global_store_2(out + 3 * n + i * 2, (uint16_t)v.w, i * 2 + 1 < ldm);
    global_store_1_unless(out + 4 * n + i, (uint8_t)v.x, i >= ldm);
}

__global__ void shared_asm_stores(const uint4* in, uint4* out)
{
    __shared__ alignas(16) uint32_t s[4 * 128];
    __shared__ alignas(8) uint64_t s64[128];
    int t = threadIdx.x & 127;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    uint32_t b64 = (uint32_t)__cvta_generic_to_shared(s64);
    uint4 v = in[blockIdx.x * 128 + t];
    shared_store_v4(base + t * 16, v);
    shared_store_v2(base + ((t + 64) & 127) * 16 + 8, v.x ^ v.y, v.z ^ v.w);
    shared_store_b64(b64 + t * 8, ((uint64_t)v.x << 32) | v.w);
    __syncthreads();
    const uint4* s4 = reinterpret_cast<const uint4*>(s);
    uint4 r = s4[(t + 1) & 127];
    r.x += (uint32_t)s64[(t + 2) & 127];
    out[blockIdx.x * 128 + t] = r;
}

// Memory-model spellings: st.weak, st.mmio.relaxed.sys, st.relaxed/.release
// with cache eviction qualifiers, st.volatile vector.
__global__ void memory_model_asm(uint32_t* p, uint64_t* q, float* f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    asm volatile("st.weak.global.u32 [%0], %1;" :: "l"(p + i), "r"(i) : "memory");
    asm volatile("st.mmio.relaxed.sys.global.u32 [%0], %1;" :: "l"(p + n + i), "r"(i) : "memory");
    asm volatile("st.relaxed.gpu.global.L1::evict_last.u32 [%0], %1;" :: "l"(p + 2 * n + i), "r"(i) : "memory");
    asm volatile("st.release.sys.global.L1::no_allocate.v2.u32 [%0], {%1, %2};"
                 :: "l"(p + 3 * n + 2 * i), "r"(i), "r"(~i) : "memory");
    asm volatile("st.relaxed.cta.shared.u32 [%0], %1;" :: "r"(0u), "r"(i) : "memory");
    asm volatile("st.volatile.global.v2.f32 [%0], {%1, %2};" :: "l"(f + 2 * i), "f"(1.f), "f"(2.f) : "memory");
    asm volatile("st.global.wt.L2::cache_hint.u64 [%0], %1, %2;" :: "l"(q + i), "l"((uint64_t)i), "l"(0ull) : "memory");
    asm volatile("st.release.gpu.u64 [%0], %1;" :: "l"(q + n + i), "l"((uint64_t)i) : "memory");  // generic
    // plain C++ writes to module-scope variables: st.global.* [symbol(+off)]
    if (threadIdx.x == 0) {
        g_last_block = blockIdx.x;
        g_hist[3] = 1.0f;
        g_hist[15] = (float)n;
        g_pair = make_uint2(blockIdx.x, n);
    }
}

// 256-bit global stores and global-space st.async (sm_100+)
__global__ void sm100_wide_and_async(uint32_t* p, uint64_t* q, float* f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if __CUDA_ARCH__ >= 1000
    asm volatile("st.global.v8.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
                 :: "l"(f + 8 * i), "f"(0.f), "f"(1.f), "f"(2.f), "f"(3.f), "f"(4.f), "f"(5.f), "f"(6.f), "f"(7.f)
                 : "memory");
    asm volatile("st.global.L1::no_allocate.v8.b32 [%0], {%1, %1, %1, %1, %2, %2, %2, %2};"
                 :: "l"(p + 8 * i), "r"(i), "r"(~i) : "memory");
    asm volatile("st.global.L1::evict_last.L2::evict_first.v4.b64 [%0], {%1, %2, %1, %2};"
                 :: "l"(q + 4 * i), "l"((uint64_t)i), "l"(~(uint64_t)i) : "memory");
    asm volatile("st.global.L2::evict_last.v4.u64 [%0], {%1, %1, %1, %1};"
                 :: "l"(q + 4 * n + 4 * i), "l"((uint64_t)i) : "memory");
    asm volatile("st.relaxed.gpu.global.L2::evict_first.v8.f32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};"
                 :: "l"(f + 8 * n + 8 * i), "f"(0.5f) : "memory");
    asm volatile("st.async.release.gpu.global.b32 [%0], %1;" :: "l"(p + 8 * n + i), "r"(i) : "memory");
    asm volatile("st.async.mmio.release.sys.global.b64 [%0], %1;" :: "l"(q + 8 * n + i), "l"((uint64_t)i) : "memory");
#else
    p[i] = i;
    q[i] = i;
    f[i] = i;
#endif
}
