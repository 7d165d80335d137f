// Decoding of the 64-bit `.L2::cache_hint` policy operand (from `createpolicy`).
//
// The value is opaque in PTX and only a hint: decoding never fails and never changes a
// functional result. Known values (CUTLASS CacheHintSm90) are recognised by name; other
// values with bit 60 set decode with the layout observed for fractional policies on sm_90
// (../shared/spec/memory-model.md); anything else is reported as opaque.
#pragma once

#include <cstdint>
#include <string>

namespace stu::golden {

enum class L2Priority : uint8_t { Unchanged, First, Last, Normal };
std::string_view to_string(L2Priority p);

struct CachePolicy {
  enum class Kind : uint8_t { Opaque, Fractional, Named };
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
