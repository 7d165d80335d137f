// Host-speed hints: ask the host's caches to start loading memory a model reads soon. No
// effect on any result.
#pragma once

#include <cstddef>

namespace stu {

// One prefetch per 64-byte host line of [p, p + bytes) (bytes > 0 covers at least p's line).
// A loop of __builtin_prefetch alone is not enough: GCC 12 treats the builtin as free of
// effects and may delete the whole loop (it did, at -O2 always and at -O3 once inlined), so
// each iteration also passes the address to an empty volatile asm, which the compiler keeps.
inline void prefetch_lines(const void* p, std::size_t bytes) {
  const char* const c = static_cast<const char*>(p);
  for (std::size_t b = 0; b < bytes; b += 64) {
    __builtin_prefetch(c + b);
#if defined(__GNUC__)
    asm volatile("" : : "r"(c + b));
#endif
  }
}

}  // namespace stu
