#include "stu/golden/policy.h"

#include <cmath>
#include <cstdio>

namespace stu::golden {

std::string_view to_string(L2Priority p) {
  switch (p) {
    case L2Priority::Unchanged:
      return "evict_unchanged";
    case L2Priority::First:
      return "evict_first";
    case L2Priority::Last:
      return "evict_last";
    case L2Priority::Normal:
      return "evict_normal";
  }
  return "?";
}

namespace {
constexpr uint64_t kCutlassNormal = 0x1000000000000000ull;
constexpr uint64_t kCutlassFirst = 0x12F0000000000000ull;
constexpr uint64_t kCutlassLast = 0x14F0000000000000ull;
}  // namespace

CachePolicy decode_policy(uint64_t raw) {
  CachePolicy p;
  p.raw = raw;
  if (policy_traps(raw)) {
    p.kind = CachePolicy::Kind::Illegal;
    return p;
  }
  if (raw == kCutlassNormal || raw == kCutlassFirst || raw == kCutlassLast) {
    p.kind = CachePolicy::Kind::Named;
    p.primary = raw == kCutlassNormal  ? L2Priority::Normal
                : raw == kCutlassFirst ? L2Priority::First
                                       : L2Priority::Last;
    return p;
  }
  // Observed fractional layout: bit 60 set; 59:57 primary; 56 secondary is evict_first;
  // 55:52 round(16 * fraction) - 1. Bits 63:61 and 51:0 are zero in every observed value.
  const unsigned prim = unsigned(raw >> 57) & 7;
  if (((raw >> 60) & 0xF) == 1 && (raw & ((uint64_t(1) << 52) - 1)) == 0 && prim <= 3) {
    p.kind = CachePolicy::Kind::Fractional;
    p.primary = L2Priority(prim);
    p.secondary = ((raw >> 56) & 1) ? L2Priority::First : L2Priority::Unchanged;
    p.fraction = float(((raw >> 52) & 0xF) + 1) / 16.0f;
  }
  return p;
}

uint64_t encode_fractional_policy(L2Priority primary, L2Priority secondary, float fraction) {
  long q = std::lround(double(fraction) * 16.0);
  if (q < 1) q = 1;
  if (q > 16) q = 16;
  return (uint64_t(1) << 60) | (uint64_t(primary) << 57) |
         (uint64_t(secondary == L2Priority::First) << 56) | (uint64_t(q - 1) << 52);
}

std::string CachePolicy::str() const {
  char buf[96];
  switch (kind) {
    case Kind::Named:
      std::snprintf(buf, sizeof buf, "%s", std::string(to_string(primary)).c_str());
      break;
    case Kind::Fractional:
      std::snprintf(buf, sizeof buf, "fractional(%s, %g, %s)",
                    std::string(to_string(primary)).c_str(), double(fraction),
                    std::string(to_string(secondary)).c_str());
      break;
    case Kind::Opaque:
      std::snprintf(buf, sizeof buf, "opaque(0x%016llx)", static_cast<unsigned long long>(raw));
      break;
    case Kind::Illegal:
      std::snprintf(buf, sizeof buf, "illegal(0x%016llx)", static_cast<unsigned long long>(raw));
      break;
  }
  return buf;
}

}  // namespace stu::golden
