// Atomic stores through cuda::atomic_ref / cuda::std::atomic_ref.  These
// lower to st.relaxed.<scope>.* / st.release.<scope>.* (plus fence.sc for
// seq_cst) on sm_70+, in both global and shared memory.
// Part of the stu nvcc PTX corpus (tests/data/nvcc).
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cstdint>

template <cuda::thread_scope S, typename T>
__device__ __forceinline__ void store_all_orders(T* p, T v)
{
    cuda::atomic_ref<T, S> r(*p);
    r.store(v, cuda::std::memory_order_relaxed);
    r.store(v + T(1), cuda::std::memory_order_release);
}

// int / unsigned / long long / float / double at block, device and system
// scope in global memory.
__global__ void atomic_store_global(int* i32, unsigned* u32, long long* i64,
                                    unsigned long long* u64, float* f32, double* f64)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    store_all_orders<cuda::thread_scope_block>(i32 + 3 * t + 0, t);
    store_all_orders<cuda::thread_scope_device>(i32 + 3 * t + 1, t);
    store_all_orders<cuda::thread_scope_system>(i32 + 3 * t + 2, t);

    store_all_orders<cuda::thread_scope_block>(u32 + 3 * t + 0, (unsigned)t);
    store_all_orders<cuda::thread_scope_device>(u32 + 3 * t + 1, (unsigned)t);
    store_all_orders<cuda::thread_scope_system>(u32 + 3 * t + 2, (unsigned)t);

    store_all_orders<cuda::thread_scope_block>(i64 + 3 * t + 0, (long long)t);
    store_all_orders<cuda::thread_scope_device>(i64 + 3 * t + 1, (long long)t);
    store_all_orders<cuda::thread_scope_system>(i64 + 3 * t + 2, (long long)t);

    store_all_orders<cuda::thread_scope_device>(u64 + t, (unsigned long long)t);

    store_all_orders<cuda::thread_scope_block>(f32 + 3 * t + 0, (float)t);
    store_all_orders<cuda::thread_scope_device>(f32 + 3 * t + 1, (float)t);
    store_all_orders<cuda::thread_scope_system>(f32 + 3 * t + 2, (float)t);

    store_all_orders<cuda::thread_scope_block>(f64 + 3 * t + 0, (double)t);
    store_all_orders<cuda::thread_scope_device>(f64 + 3 * t + 1, (double)t);
    store_all_orders<cuda::thread_scope_system>(f64 + 3 * t + 2, (double)t);
}

// Sequentially-consistent stores (fence.sc + st.relaxed) and the
// cuda::std::atomic_ref default (system scope, seq_cst).
__global__ void atomic_store_seq_cst(int* a, long long* b, float* c)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> ra(a[t]);
    ra.store(t);                                        // seq_cst, device
    cuda::atomic_ref<long long, cuda::thread_scope_block> rb(b[t]);
    rb.store(-t, cuda::std::memory_order_seq_cst);      // seq_cst, block
    cuda::std::atomic_ref<float> rc(c[t]);
    rc.store(1.5f * t);                                 // seq_cst, system
}

// Atomic stores into shared memory: st.relaxed.cta.shared / st.release.cta.shared
__global__ void atomic_store_shared(int* out)
{
    __shared__ int flags[128];
    __shared__ unsigned long long words[128];
    cuda::atomic_ref<int, cuda::thread_scope_block> f(flags[threadIdx.x & 127]);
    f.store(threadIdx.x, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> w(words[threadIdx.x & 127]);
    w.store(threadIdx.x * 3ull, cuda::std::memory_order_release);
    __syncthreads();
    out[threadIdx.x] = flags[(threadIdx.x + 1) & 127] + (int)words[(threadIdx.x + 2) & 127];
}

// Message passing: payload with plain stores, flag with a release store, the
// consumer acquires (ld.acquire) and republishes with a relaxed store.
__global__ void release_flag(int* payload, int* flag, int* result)
{
    if (blockIdx.x == 0) {
        payload[threadIdx.x] = threadIdx.x * 11;
        __syncthreads();
        if (threadIdx.x == 0)
            cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::std::memory_order_release);
    } else if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
        while (f.load(cuda::std::memory_order_acquire) == 0) { }
        cuda::atomic_ref<int, cuda::thread_scope_system>(*result)
            .store(payload[blockIdx.x & 31], cuda::std::memory_order_relaxed);
    }
}
