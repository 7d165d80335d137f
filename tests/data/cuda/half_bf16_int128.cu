// 16-bit floating point (__half, __nv_bfloat16 and their x2 forms), 8-bit fp8
// and 128-bit integer (__int128) stores: st.global.b16 / .b32 / .v2.b16 /
// .v4.b16 / .u8 / .v2.u64 / .b128 depending on target.
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cstdint>

// Scalar half / bf16 math and stores (st.global.b16)
__global__ void half_axpy(int n, __half a, const __half* x, __half* y, __nv_bfloat16* yb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half r = __hfma(a, x[i], y[i]);
        y[i] = r;
        yb[i] = __float2bfloat16(__half2float(r) * 0.5f);
    }
}

// Packed half2 / bfloat162 (st.global.b32), and 4-wide (st.global.v2.b32 /
// st.global.v4.b16)
struct __align__(8) half4 { __half2 lo, hi; };
struct __align__(8) bf16x4 { __nv_bfloat16 v[4]; };

__global__ void packed_16bit(int n, const float4* in, __half2* h2, __nv_bfloat162* b2, half4* h4, bf16x4* b4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 f = in[i];
    __half2 a = __floats2half2_rn(f.x, f.y);
    __half2 b = __floats2half2_rn(f.z, f.w);
    h2[i] = __hmul2(a, b);
    b2[i] = __floats2bfloat162_rn(f.x - f.y, f.z - f.w);
    h4[i] = half4{a, b};
    bf16x4 q;
    q.v[0] = __float2bfloat16_rn(f.x);
    q.v[1] = __float2bfloat16_rn(f.y);
    q.v[2] = __float2bfloat16_rn(f.z);
    q.v[3] = __float2bfloat16_rn(f.w);
    b4[i] = q;
}

// half in shared memory (st.shared.b16) then a transposed copy out
__global__ void half_shared(const __half* in, __half* out)
{
    __shared__ __half tile[16][17];
    __shared__ __nv_bfloat162 acc[64];
    tile[threadIdx.y][threadIdx.x] = in[(blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x];
    if (threadIdx.y == 0 && threadIdx.x < 16)
        acc[threadIdx.x] = __bfloat162bfloat162(__float2bfloat16((float)threadIdx.x));
    __syncthreads();
    out[(blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x] =
        __hadd(tile[threadIdx.x][threadIdx.y], __low2half(__float22half2_rn(__bfloat1622float2(acc[threadIdx.x & 15]))));
}

// fp8 (e4m3 / e5m2) quantisation: st.global.u8 / st.global.v2.u8 / st.global.b16
__global__ void quantize_fp8(int n, const float* in, __nv_fp8_e4m3* q43, __nv_fp8_e5m2* q52, __nv_fp8x2_e4m3* q2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    q43[i] = __nv_fp8_e4m3(v);
    q52[i] = __nv_fp8_e5m2(v * 0.5f);
    q2[i] = __nv_fp8x2_e4m3(make_float2(v, -v));
}

// 128-bit integers: st.global.v2.u64 (or .b128 where the backend uses it)
__global__ void int128_ops(int n, const unsigned long long* a, const unsigned long long* b,
                           unsigned __int128* prod, __int128* sprod, __int128* sh)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned __int128 p = (unsigned __int128)a[i] * b[i];
    prod[i] = p + ((unsigned __int128)1 << 100);
    sprod[i] = -(__int128)p;
    sh[i] = ((__int128)a[i] << 64 | b[i]) >> (i & 63);
}

// __int128 in shared memory and local arrays
__global__ void int128_shared(const unsigned long long* in, unsigned __int128* out, int k)
{
    __shared__ unsigned __int128 s[64];
    unsigned __int128 loc[8];
    unsigned t = threadIdx.x & 63;
    s[t] = (unsigned __int128)in[t] << (t & 63);
    for (int j = 0; j < 8; ++j) loc[j] = (unsigned __int128)in[(t + j) & 63] * (unsigned)(j + 1);
    loc[k & 7] += 7;
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[63 - t] ^ loc[(k + 1) & 7];
}
