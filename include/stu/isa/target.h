// Targets (`sm_90a`) and PTX ISA versions (`8.8`): the two axes every gate is checked on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stu::isa {

struct PtxVersion {
  uint8_t major = 0;
  uint8_t minor = 0;

  static std::optional<PtxVersion> parse(std::string_view text);  // "8.8"
  std::string str() const;
  constexpr uint16_t key() const { return static_cast<uint16_t>(major * 16 + minor); }
  friend constexpr bool operator<(PtxVersion a, PtxVersion b) { return a.key() < b.key(); }
  friend constexpr bool operator>=(PtxVersion a, PtxVersion b) { return !(a < b); }
  friend constexpr bool operator==(PtxVersion a, PtxVersion b) { return a.key() == b.key(); }
  friend constexpr bool operator!=(PtxVersion a, PtxVersion b) { return !(a == b); }
};

constexpr PtxVersion ptx(uint8_t major, uint8_t minor) { return PtxVersion{major, minor}; }

// The newest PTX ISA version the reference assembler (ptxas 13.0) accepts, and the newest one
// whose rules stu knows (from the ISA text).
inline constexpr PtxVersion kPtxasMaxVersion = ptx(9, 0);
inline constexpr PtxVersion kStuMaxVersion = ptx(9, 1);

// A compute target: `sm_<N>` with an optional `a` (architecture-specific) or `f`
// (family-specific) suffix.
struct Target {
  enum class Suffix : uint8_t { None, Arch, Family };

  unsigned sm = 0;  // 70, 80, 90, 100, 120, ...
  Suffix suffix = Suffix::None;

  static std::optional<Target> parse(std::string_view text);  // "sm_100a"
  std::string str() const;

  // The family root of an sm number (100, 103 -> 100; 110 -> 110; 120, 121 -> 120).
  static unsigned family_of(unsigned sm) { return sm / 10 * 10; }

  // True when code for this target may use features of `base`+`a` (`sm_100a`): either the
  // target is exactly `base`a, or it is an `f` target of the same family at or above base.
  bool has_arch_specific(unsigned base) const;
  // True when this target includes family-specific features of `base`f.
  bool has_family_specific(unsigned base) const;

  // First PTX ISA version that knows this target (ptxas 13.0's table); nullopt when unknown.
  std::optional<PtxVersion> min_version() const;
  // True when the reference assembler knows this target at all.
  bool known() const { return min_version().has_value(); }
};

}  // namespace stu::isa
