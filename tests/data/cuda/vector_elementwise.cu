// Elementwise kernels with scalar and vector (v2/v4, and on sm_100 256-bit)
// global stores.  Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda_runtime.h>
#include <cstdint>

// y = a*x + y on float4 -> st.global.v4.f32
__global__ void __launch_bounds__(256, 2)
saxpy_f4(int n4, float a, const float4* __restrict__ x, float4* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n4; i += gridDim.x * blockDim.x) {
        float4 xv = x[i];
        float4 yv = y[i];
        yv.x = fmaf(a, xv.x, yv.x);
        yv.y = fmaf(a, xv.y, yv.y);
        yv.z = fmaf(a, xv.z, yv.z);
        yv.w = fmaf(a, xv.w, yv.w);
        y[i] = yv;
    }
}

// int4 / uint4 / int2 -> st.global.v4.u32 / v2.u32
__global__ void add_i4(int n, const int4* a, const int4* b, int4* c, uint2* lo)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 va = a[i], vb = b[i];
        c[i] = make_int4(va.x + vb.x, va.y - vb.y, va.z * vb.z, va.w ^ vb.w);
        lo[i] = make_uint2((unsigned)va.x, (unsigned)vb.y);
    }
}

// double2 / double -> st.global.v2.f64, st.global.f64
__global__ void axpy_d2(int n, double a, const double2* x, double2* y, double* norm)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 v = x[i];
        double2 r = make_double2(a * v.x + y[i].x, a * v.y + y[i].y);
        y[i] = r;
        norm[i] = r.x * r.x + r.y * r.y;
    }
}

// Narrow integer vectors: char4, uchar2, short2, ushort4, plus scalar
// u8/u16/u64 stores.
__global__ void narrow_types(int n, const float* in, char4* c4, uchar2* uc2,
                             short2* s2, ushort4* us4, unsigned char* u8,
                             short* s16, long long* s64, bool* flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = in[i];
    int q = __float2int_rn(f * 16.0f);
    c4[i]  = make_char4((signed char)q, (signed char)(q >> 1), (signed char)(q >> 2), (signed char)(q >> 3));
    uc2[i] = make_uchar2((unsigned char)q, (unsigned char)(q + 1));
    s2[i]  = make_short2((short)q, (short)-q);
    us4[i] = make_ushort4((unsigned short)q, 1, 2, (unsigned short)(q * 3));
    u8[i]  = (unsigned char)(q & 0xff);
    s16[i] = (short)(q * 7);
    s64[i] = (long long)q * 1000000007LL;
    flags[i] = f > 0.0f;
}

// longlong2 / ulonglong2 -> st.global.v2.u64 ; float2 -> st.global.v2.f32
__global__ void pairs(int n, longlong2* ll, ulonglong2* ull, float2* f2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ll[i]  = make_longlong2(-(long long)i, (long long)i << 33);
        ull[i] = make_ulonglong2(~0ull - i, (unsigned long long)i * i);
        f2[i]  = make_float2((float)i, -(float)i);
    }
}

// 32-byte aligned vector types (CUDA 13).  On sm_100 these become 256-bit
// global stores (st.global.v4.f64 / st.global.v4.u64 / st.global.v8.*).
struct __align__(32) Float8 { float v[8]; };

__global__ void wide_256bit(int n, double4_32a* d4, longlong4_32a* l4, Float8* f8, const float* s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = s[i];
        d4[i] = make_double4_32a(x, x + 1.0, x * 2.0, x * x);
        l4[i] = make_longlong4_32a(i, i + 1, -i, (long long)x);
        Float8 f;
#pragma unroll
        for (int k = 0; k < 8; ++k) f.v[k] = s[i] * (float)k;
        f8[i] = f;
    }
}

// Stores through pointers loaded from memory (pointer chasing).  NVVM infers
// that such pointers are global, so this yields a cvta.to.global + st.global
// pair per row pointer.
__global__ void scatter_rows(float** rows, int* const* counters, int ncols)
{
    int r = blockIdx.x;
    float* row = rows[r];
    for (int c = threadIdx.x; c < ncols; c += blockDim.x)
        row[c] = (float)(r * ncols + c);
    if (threadIdx.x == 0)
        *counters[r] = ncols;
}

// A loop with an unroll pragma disabled (.pragma "nounroll") and predicated
// stores in the tail.
__global__ void fill_strided(unsigned* out, int n, int stride, unsigned v)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (int k = t; k < n; k += stride) {
        out[k] = v + (unsigned)k;
    }
    if (t == 0 && n > 0) out[n - 1] = 0xdeadbeefu;
}
