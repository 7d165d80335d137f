// Shared-memory kernels: tiled transpose (padded static tile), dynamic
// extern shared staging, classic warp-synchronous reduction through a
// volatile shared pointer, and a 2-D stencil with halo.  Part of the stu nvcc
// PTX corpus (tests/data/nvcc).
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// st.shared.f32 into a [32][33] tile, then st.global.f32
__global__ void __launch_bounds__(TILE * ROWS)
transpose_tiled(float* __restrict__ out, const float* __restrict__ in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// double tile: st.shared.f64
__global__ void transpose_tiled_f64(double* out, const double* in, int n)
{
    __shared__ double tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Dynamic shared memory (.extern .shared .b8 name[]) with float4 staging:
// st.shared.v4.f32, st.shared.v2.f32, st.shared.u8
extern __shared__ __align__(16) unsigned char dyn_smem[];

__global__ void stage_dynamic(const float4* in, float4* out, int n)
{
    float4* s4 = reinterpret_cast<float4*>(dyn_smem);
    float2* s2 = reinterpret_cast<float2*>(dyn_smem + blockDim.x * sizeof(float4));
    unsigned char* tag = dyn_smem + blockDim.x * (sizeof(float4) + sizeof(float2));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = i < n ? in[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    s4[threadIdx.x] = v;
    s2[threadIdx.x] = make_float2(v.x + v.y, v.z + v.w);
    tag[threadIdx.x] = (unsigned char)(v.x > 0.f);
    __syncthreads();
    unsigned r = blockDim.x - 1 - threadIdx.x;
    float4 w = s4[r];
    float2 p = s2[r];
    if (i < n)
        out[i] = make_float4(w.x + p.x, w.y + p.y, w.z, tag[r] ? w.w : -w.w);
}

// Pre-Volta style warp-synchronous reduction: st.volatile.shared.f32
__device__ void warp_reduce(volatile float* s, unsigned tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void __launch_bounds__(256)
reduce_sum(const float* in, float* out, int n)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + tid;
    float v = 0.f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 32; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid < 32) warp_reduce(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}

// Modern reduction: warp shuffles (shfl.sync with %r|%p destinations), one
// shared slot per warp, atomics for the grid.
__global__ void reduce_shfl(const int* in, int* out, int n)
{
    __shared__ int warp_sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < (blockDim.x + 31) / 32 ? warp_sums[threadIdx.x] : 0;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0) atomicAdd(out, v);
    }
}

// 5-point stencil with a halo in a 2-D shared array: st.shared.f32 with
// several constant offsets ([%r+4], [%r+136] ...)
__global__ void stencil5(const float* in, float* out, int w, int h)
{
    __shared__ float s[16 + 2][16 + 2];
    int gx = blockIdx.x * 16 + threadIdx.x;
    int gy = blockIdx.y * 16 + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    auto at = [&](int x, int y) {
        x = min(max(x, 0), w - 1);
        y = min(max(y, 0), h - 1);
        return in[y * w + x];
    };
    s[ly][lx] = at(gx, gy);
    if (threadIdx.x == 0)  s[ly][0]  = at(gx - 1, gy);
    if (threadIdx.x == 15) s[ly][17] = at(gx + 1, gy);
    if (threadIdx.y == 0)  s[0][lx]  = at(gx, gy - 1);
    if (threadIdx.y == 15) s[17][lx] = at(gx, gy + 1);
    __syncthreads();
    if (gx < w && gy < h)
        out[gy * w + gx] = 0.2f * (s[ly][lx] + s[ly][lx - 1] + s[ly][lx + 1] + s[ly - 1][lx] + s[ly + 1][lx]);
}
