// Per-thread arrays indexed with runtime values: they cannot be promoted to
// registers, so they live in the local-memory depot (__local_depot) and are
// written with st.local.*.  Compiled both optimised (-O3) and unoptimised
// (-Xcicc -O0, which yields generic st.* through %SP plus st.param chains).
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda_runtime.h>
#include <cstdint>

struct Item {
    float key;
    int value;
    double weight;
    short tag;
    char flag;
};

// Histogram of a small window in a per-thread array: st.local.u32
__global__ void local_histogram(const unsigned char* in, unsigned* out, int n)
{
    unsigned hist[16];
#pragma unroll
    for (int b = 0; b < 16; ++b) hist[b] = 0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64 && i * 64 + k < n; ++k)
        hist[in[i * 64 + k] & 15]++;
    for (int b = 0; b < 16; ++b)
        out[i * 16 + b] = hist[b];
}

// Sorting a per-thread array of structs (insertion sort, dynamic indices):
// st.local.f32 / st.local.u32 / st.local.f64 / st.local.u16 / st.local.u8
__global__ void local_sort(const float* keys, Item* out, int n)
{
    Item items[12];
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 12;
    if (base + 12 > n) return;
    for (int k = 0; k < 12; ++k) {
        float f = keys[base + k];
        items[k].key = f;
        items[k].value = base + k;
        items[k].weight = (double)f * 0.5;
        items[k].tag = (short)k;
        items[k].flag = (char)(f > 0.f);
    }
    for (int a = 1; a < 12; ++a) {
        Item t = items[a];
        int b = a - 1;
        while (b >= 0 && items[b].key > t.key) {
            items[b + 1] = items[b];
            --b;
        }
        items[b + 1] = t;
    }
    for (int k = 0; k < 12; ++k) out[base + k] = items[k];
}

// Vector-typed local array: st.local.v4.f32 / st.local.v2.f64
__global__ void local_vectors(const int* idx, float4* out, double2* dout, int n)
{
    float4 v[8];
    double2 d[4];
#pragma unroll
    for (int k = 0; k < 8; ++k)
        v[k] = make_float4(k, k + 1, k + 2, k + 3);
#pragma unroll
    for (int k = 0; k < 4; ++k)
        d[k] = make_double2(k * 0.5, k * 0.25);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i] & 7;
        v[j].x += 1.0f;
        d[j & 3].y -= 1.0;
        out[i] = v[(j + 3) & 7];
        dout[i] = d[(j + 1) & 3];
    }
}

// A byte buffer written at runtime positions: st.local.u8, then a 64-bit
// checksum.
__global__ void local_bytes(const uint32_t* seeds, uint64_t* out, int n)
{
    unsigned char buf[40];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t s = seeds[i];
    for (int k = 0; k < 40; ++k) {
        s = s * 1664525u + 1013904223u;
        buf[(s >> 8) % 40] = (unsigned char)(s >> 24);
    }
    uint64_t h = 1469598103934665603ull;
    for (int k = 0; k < 40; ++k) h = (h ^ buf[k]) * 1099511628211ull;
    out[i] = h;
}
