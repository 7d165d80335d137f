// Kernel attributes that turn into PTX performance-tuning directives:
//   __launch_bounds__(T)            -> .maxntid T[, 1, 1]
//   __launch_bounds__(T, B)         -> .maxntid + .minnctapersm
//   __launch_bounds__(T, B, C)      -> + .maxclusterrank (sm_90+)
//   __maxnreg__(N)                  -> .maxnreg
//   __block_size__((x,y,z))         -> .reqntid + .blocksareclusters + .reqnctapercluster (sm_90+)
//   __cluster_dims__(x,y,z)         -> .explicitcluster + .reqnctapercluster (sm_90+)
//   __grid_constant__ parameter     -> kernel parameter whose address is taken
// Each kernel also performs a few stores.  Part of the stu nvcc PTX corpus.
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BLOCK_SIZE_128 __block_size__((128, 1, 1))
#define BOUNDS_CLUSTER __launch_bounds__(256, 2, 4)
#define CLUSTER_2x2 __cluster_dims__(2, 2, 1)
#else
#define BLOCK_SIZE_128 __launch_bounds__(128)
#define BOUNDS_CLUSTER __launch_bounds__(256, 2)
#define CLUSTER_2x2
#endif

struct Params {
    float scale;
    int n;
    float bias[6];
    double offset;
};

__global__ void BLOCK_SIZE_128 fixed_block(float* out, float v)
{
    out[blockIdx.x * 128 + threadIdx.x] = v * threadIdx.x;
}

__global__ void __maxnreg__(40) capped_registers(double* out, const double* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = in[i];
        out[i] = ((x * 1.5 + 2.0) * x - 3.0) * x + 4.0;
    }
}

__global__ void BOUNDS_CLUSTER bounded_cluster(int* out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x ^ blockIdx.x;
}

__global__ void CLUSTER_2x2 __launch_bounds__(64) clustered_2d(unsigned* out)
{
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    unsigned cx, cy;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
    asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(cy));
    r += (cx << 8) + (cy << 16);
#endif
    out[(blockIdx.y * gridDim.x + blockIdx.x) * 64 + threadIdx.x] = r;
}

// __grid_constant__: the kernel reads the parameter through its address
// (mov.b64 %rd, <param symbol>; ld.param [%rd+off]).
__global__ void grid_constant_param(const __grid_constant__ Params prm, float* out, double* dout)
{
    const Params* p = &prm;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p->n) {
        out[i] = p->bias[i % 6] * p->scale;
        dout[i] = p->offset + i;
    }
}

// Large by-value parameter struct, read without taking its address.
__global__ void by_value_param(Params prm, float4 extra, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < prm.n)
        out[i] = prm.scale * i + prm.bias[0] + extra.x * extra.w + (float)prm.offset;
}
