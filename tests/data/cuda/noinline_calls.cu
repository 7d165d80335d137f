// Non-inlined device functions and the ABI around them: .func declarations
// with .param arguments and return values (scalar, vector, aggregate),
// st.param / ld.param call sequences, recursion, indirect calls through
// function pointers (call prototypes), virtual dispatch (vtables initialised
// with generic(...) addresses), printf/vprintf, malloc/free, assert, and
// module-scope .global/.const data with initialisers.  Also exercises generic
// (no state space) stores inside a function that receives both shared and
// global pointers.  With -rdc=true the same source yields .visible/.extern/
// .weak linkage.  Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cstdio>
#include <cassert>
#include <cstdint>
#include <cuda_runtime.h>

struct Stats {
    float mean;
    float m2;
    int count;
    double total;
};

struct __align__(16) Pair64 {
    long long a;
    long long b;
};

// Module-scope data with initialisers.
__device__ int g_lut[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
__device__ float g_scale = 1.5f;
__device__ unsigned long long g_counter;
__device__ char g_name[] = "stu";
__device__ int* g_lut_ptr = g_lut;                    // initialised with an address
__constant__ float c_coeffs[4] = {0.5f, -1.25f, 2.0f, 0.0625f};
__constant__ double c_pi = 3.141592653589793;
__constant__ short c_shorts[3] = {-1, 2, -3};

#ifdef __CUDACC_RDC__
// Only meaningful with relocatable device code: defined in another TU.
extern __device__ int g_external_flag;
extern __device__ float external_transform(float x);
#endif

// Scalar in, scalar out.
__device__ __noinline__ float poly(float x)
{
    return ((c_coeffs[3] * x + c_coeffs[2]) * x + c_coeffs[1]) * x + c_coeffs[0];
}

// Aggregate return by value (.param .align 8 .b8 func_retval0[24]).
__device__ __noinline__ Stats welford(const float* v, int n)
{
    Stats s{0.f, 0.f, 0, 0.0};
    for (int i = 0; i < n; ++i) {
        s.count++;
        float d = v[i] - s.mean;
        s.mean += d / s.count;
        s.m2 += d * (v[i] - s.mean);
        s.total += v[i];
    }
    return s;
}

// Vector argument and vector return (.param .align 16 .b8 ...[16]).
__device__ __noinline__ float4 lerp4(float4 a, float4 b, float t)
{
    return make_float4(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y),
                       a.z + t * (b.z - a.z), a.w + t * (b.w - a.w));
}

__device__ __noinline__ Pair64 mul_pair(Pair64 p, long long k)
{
    return Pair64{p.a * k, p.b * k + g_lut[k & 7]};
}

// Recursion.
__device__ __noinline__ unsigned long long fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// Receives both shared and global pointers: stores are generic (st.u32 ...).
__device__ __noinline__ void write_triplet(unsigned* dst, unsigned a, unsigned short* d16, double* dd)
{
    dst[0] = a;
    dst[1] = a * 2u;
    dst[2] = a * 3u;
    *d16 = (unsigned short)a;
    *dd = a * 0.5;
}

// void function with many parameters, some of them bytes.
__device__ __noinline__ void pack_bytes(uint8_t* out, uint8_t a, int8_t b, bool c, char d, uint16_t e)
{
    out[0] = a;
    out[1] = (uint8_t)b;
    out[2] = c;
    out[3] = (uint8_t)d;
    out[4] = (uint8_t)(e >> 8);
}

// Indirect calls through a table of function pointers (call prototypes).
typedef float (*unary_fn)(float);
__device__ __noinline__ float op_sq(float x) { return x * x; }
__device__ __noinline__ float op_neg(float x) { return -x; }
__device__ __noinline__ float op_half(float x) { return 0.5f * x; }
__device__ unary_fn g_ops[3] = {op_sq, op_neg, op_half};

typedef int (*binary_fn)(int, double, float4);
__device__ __noinline__ int mix(int a, double b, float4 c) { return a + (int)b + (int)(c.x * c.w); }

// Virtual dispatch.
struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};
struct Rect : Shape {
    float w, h;
    __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
};

template <typename T>
__device__ __noinline__ T clamp_add(T a, T b, T lo, T hi)
{
    T s = a + b;
    return s < lo ? lo : (s > hi ? hi : s);
}

__global__ void call_scalars(const float* in, float* out, unsigned long long* fibs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = poly(in[i]) * g_scale + clamp_add(in[i], 1.0f, -4.0f, 4.0f);
    fibs[i] = fib(i & 15) + (unsigned long long)clamp_add<int>(i, 3, 0, 100);
}

__global__ void call_aggregates(const float* in, Stats* stats, float4* lerped, Pair64* pairs, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    stats[i] = welford(in + i * w, w);
    float4 a = make_float4(in[i], 0.f, 1.f, 2.f);
    float4 b = make_float4(1.f, in[i], 3.f, 4.f);
    lerped[i] = lerp4(a, b, 0.25f);
    pairs[i] = mul_pair(Pair64{i, -i}, i + 1);
}

__global__ void call_generic_stores(unsigned* gout, unsigned short* g16, double* gd, uint8_t* gbytes)
{
    __shared__ unsigned s[3 * 128];
    __shared__ unsigned short s16[128];
    __shared__ double sd[128];
    unsigned t = threadIdx.x & 127;
    write_triplet(&s[3 * t], t, &s16[t], &sd[t]);                        // shared
    __syncthreads();
    write_triplet(&gout[3 * (blockIdx.x * 128 + t)], s[3 * ((t + 1) & 127)],
                  &g16[blockIdx.x * 128 + t], &gd[blockIdx.x * 128 + t]);  // global
    pack_bytes(gbytes + 5 * t, (uint8_t)t, (int8_t)-t, t & 1, 'x', (uint16_t)(t * 257));
}

__global__ void call_indirect(const float* in, float* out, int* iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_fn f = g_ops[i % 3];
    out[i] = f(in[i]);
    binary_fn bf = (i & 1) ? mix : nullptr;
    if (bf) iout[i] = bf(i, 0.5 * i, make_float4(in[i], 1.f, 2.f, 3.f));
    else    iout[i] = g_lut_ptr[i & 7];
}

__global__ void call_virtual(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Circle c(in[i]);
    Rect r(in[i], 2.f);
    Shape* s = (i & 1) ? static_cast<Shape*>(&c) : static_cast<Shape*>(&r);
    out[i] = s->area();
}

__global__ void call_runtime(const int* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(in[i] >= 0);
    int* scratch = static_cast<int*>(malloc(4 * sizeof(int)));
    if (scratch) {
        for (int k = 0; k < 4; ++k) scratch[k] = in[i] + k;
        printf("thread %d: %s lut=%d v=%d scale=%f pi=%f\n", i, g_name, g_lut[i & 7], scratch[3],
               (double)g_scale, c_pi + c_shorts[i % 3]);
        free(scratch);
    }
    atomicAdd(&g_counter, 1ull);
#ifdef __CUDACC_RDC__
    if (g_external_flag) g_scale = external_transform(g_scale);
#endif
}
