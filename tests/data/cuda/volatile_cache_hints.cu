// Volatile stores and the cache-operator store intrinsics
// (__stwb -> st.global.wb, __stcg -> st.global.cg, __stcs -> st.global.cs,
//  __stwt -> st.global.wt) on scalar and vector types, plus half/bf16
// overloads.  Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// volatile global stores of every scalar width: st.volatile.global.*
__global__ void volatile_flags(volatile int* flag, volatile unsigned char* b,
                               volatile short* h, volatile long long* q,
                               volatile float* f, volatile double* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        b[i] = (unsigned char)i;
        h[i] = (short)(i * 3);
        q[i] = (long long)i << 40;
        f[i] = (float)i * 0.5f;
        d[i] = (double)i * 0.25;
    }
    __threadfence();
    if (i == 0) *flag = 1;   // publish
}

// volatile shared-memory mailbox: st.volatile.shared.u32
__global__ void volatile_shared_mailbox(int* out)
{
    __shared__ volatile int mailbox[64];
    mailbox[threadIdx.x & 63] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = mailbox[(threadIdx.x + 1) & 63];
}

// Spin-wait producer/consumer through a volatile global pointer.
__global__ void spin_publish(volatile unsigned* seq, unsigned* data, int n)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x < n) data[threadIdx.x] = threadIdx.x * 2u;
        __threadfence();
        if (threadIdx.x == 0) *seq = 1u;
    } else if (threadIdx.x == 0) {
        while (*seq == 0u) { }
        seq[1] = data[0] + 1u;
    }
}

// streaming stores: st.global.cs.*
__global__ void stream_cs(int n, const float4* in, float4* o4, float* o1,
                          int2* oi2, double2* od2, unsigned long long* o64,
                          char* oc, short* os)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = __ldcs(in + i);
    __stcs(o4 + i, v);
    __stcs(o1 + i, v.x + v.y);
    __stcs(oi2 + i, make_int2(__float_as_int(v.z), __float_as_int(v.w)));
    __stcs(od2 + i, make_double2(v.x, v.w));
    __stcs(o64 + i, (unsigned long long)i * 0x9E3779B97F4A7C15ull);
    __stcs(oc + i, (char)i);
    __stcs(os + i, (short)-i);
}

// write-through stores: st.global.wt.*
__global__ void write_through_wt(int n, float4* o4, uint4* ou4, double* od,
                                 uchar4* ouc4, ushort2* ous2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __stwt(o4 + i, make_float4(1.f, 2.f, 3.f, (float)i));
    __stwt(ou4 + i, make_uint4(i, i + 1, i + 2, i + 3));
    __stwt(od + i, (double)i / 3.0);
    __stwt(ouc4 + i, make_uchar4(i, i >> 8, i >> 16, i >> 24));
    __stwt(ous2 + i, make_ushort2(i, ~i));
}

// cache-global stores: st.global.cg.*
__global__ void cache_global_cg(int n, int4* oi4, float2* of2, long long* oll,
                                longlong2* oll2, short4* os4, unsigned* ou)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __stcg(oi4 + i, make_int4(i, -i, 2 * i, -2 * i));
    __stcg(of2 + i, make_float2(0.5f * i, 0.25f * i));
    __stcg(oll + i, -(long long)i);
    __stcg(oll2 + i, make_longlong2(i, (long long)i * i));
    __stcg(os4 + i, make_short4(1, 2, 3, (short)i));
    __stcg(ou + i, (unsigned)i * 7u);
}

// write-back (default policy spelled out): st.global.wb.*
__global__ void write_back_wb(int n, float4* of4, double2* od2, int* oi,
                              char4* oc4, ulonglong2* oull2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __stwb(of4 + i, make_float4(i, i, i, i));
    __stwb(od2 + i, make_double2(i, -i));
    __stwb(oi + i, i);
    __stwb(oc4 + i, make_char4(1, -1, 2, -2));
    __stwb(oull2 + i, make_ulonglong2(i, ~0ull));
}

// half / bfloat16 overloads of the cache-hint stores: st.global.{cs,wt,cg,wb}.b16/.b32
__global__ void cache_hints_half(int n, __half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half hv = __float2half((float)i);
    __nv_bfloat16 bv = __float2bfloat16((float)-i);
    __stcs(h + i, hv);
    __stwt(h2 + i, __halves2half2(hv, hv));
    __stcg(b + i, bv);
    __stwb(b2 + i, __halves2bfloat162(bv, bv));
}
