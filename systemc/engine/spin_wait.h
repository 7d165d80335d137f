// What the engine's hand-over rings between two host threads share (AheadFeed, WriteBehind):
// a counter on a host cache line of its own, so that the two threads' counters do not share
// one, and the wait of a thread that polls one: a short spin, then yielding or napping.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace stu::sim {

struct alignas(64) SharedCounter {
  std::atomic<std::uint64_t> value{0};
};

// A polling loop's `spins`-th wait: the CPU's pause for the first 256, then `idle()` (a yield
// or a nap, the caller's choice).
template <class Idle>
void spin_wait(unsigned spins, Idle idle) {
  if (spins < 256) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  } else {
    idle();
  }
}

}  // namespace stu::sim
