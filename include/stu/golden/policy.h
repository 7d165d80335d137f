// Decoding of the 64-bit `.L2::cache_hint` policy operand (from `createpolicy`).
//
// The value is opaque in PTX and only a hint: decoding never fails, and a policy that decodes
// changes no functional result. A policy the GPU rejects traps (policy_traps). Known values
// (CUTLASS CacheHintSm90) are recognised by name; other values with bit 60 set decode with the
// layout observed for fractional policies on sm_90
// (../shared/spec/memory-model.md); anything else is reported as opaque.
#pragma once

#include <cstdint>
#include <string>

namespace stu::golden {

enum class L2Priority : uint8_t { Unchanged, First, Last, Normal };
std::string_view to_string(L2Priority p);

// Whether a `.L2::cache_hint` policy makes the GPU trap the store (cudaErrorIllegalInstruction):
// bit 59 set, and bit 60 clear or bits 55:52 all ones. Silicon-checked on an H200, 2026-11-26,
// over every value of bits 63:56, every value of bits 55:48 under 0x10, and 0x10..0x1F with
// several values of bits 55:48 (docs/golden.md, tests/data/silicon/h200-2026-11-26.json).
inline bool policy_traps(uint64_t raw) {
  return ((raw >> 59) & 1) != 0 && (((raw >> 60) & 1) == 0 || ((raw >> 52) & 0xF) == 0xF);
}

struct CachePolicy {
  // Illegal: policy_traps() (the store faults; the other kinds never change a result).
  enum class Kind : uint8_t { Opaque, Fractional, Named, Illegal };
  Kind kind = Kind::Opaque;
  L2Priority primary = L2Priority::Unchanged;
  L2Priority secondary = L2Priority::Unchanged;
  float fraction = 1.0f;  // share of accesses that get `primary`
  uint64_t raw = 0;
  std::string str() const;  // e.g. "fractional(evict_last, 0.25, evict_unchanged)"
};

CachePolicy decode_policy(uint64_t raw);
// createpolicy.fractional: the value the observed layout gives (fraction in (0, 1]).
uint64_t encode_fractional_policy(L2Priority primary, L2Priority secondary, float fraction);

}  // namespace stu::golden
