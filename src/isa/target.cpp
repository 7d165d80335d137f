#include "stu/isa/target.h"

#include <charconv>

namespace stu::isa {

std::optional<PtxVersion> PtxVersion::parse(std::string_view text) {
  auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= text.size()) return std::nullopt;
  unsigned maj = 0, min = 0;
  auto [p1, e1] = std::from_chars(text.data(), text.data() + dot, maj);
  auto [p2, e2] = std::from_chars(text.data() + dot + 1, text.data() + text.size(), min);
  if (e1 != std::errc() || e2 != std::errc() || p1 != text.data() + dot ||
      p2 != text.data() + text.size() || maj > 15 || min > 15) {
    return std::nullopt;
  }
  return PtxVersion{static_cast<uint8_t>(maj), static_cast<uint8_t>(min)};
}

std::string PtxVersion::str() const { return std::to_string(major) + "." + std::to_string(minor); }

std::optional<Target> Target::parse(std::string_view text) {
  if (text.substr(0, 3) != "sm_") return std::nullopt;
  text.remove_prefix(3);
  Target t;
  if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) {
    t.suffix = text.back() == 'a' ? Suffix::Arch : Suffix::Family;
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 4) return std::nullopt;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), t.sm);
  if (ec != std::errc() || p != text.data() + text.size() || t.sm < 10) return std::nullopt;
  return t;
}

std::string Target::str() const {
  std::string s = "sm_" + std::to_string(sm);
  if (suffix == Suffix::Arch) s += 'a';
  if (suffix == Suffix::Family) s += 'f';
  return s;
}

bool Target::has_arch_specific(unsigned base) const {
  if (suffix == Suffix::Arch) return sm == base;
  if (suffix == Suffix::Family) return family_of(sm) == family_of(base) && sm >= base;
  return false;
}

bool Target::has_family_specific(unsigned base) const {
  return suffix != Suffix::None && family_of(sm) == family_of(base) && sm >= base;
}

std::optional<PtxVersion> Target::min_version() const {
  // The first PTX ISA version that introduced each target (PTX ISA release notes; the
  // ones ptxas 13.0 still knows are confirmed against it, see docs/check.md).
  struct Row {
    unsigned sm;
    PtxVersion plain, arch, family;
  };
  static constexpr PtxVersion kNone{0, 0};
  static constexpr Row kRows[] = {
      {50, ptx(4, 0), kNone, kNone},          {52, ptx(4, 1), kNone, kNone},
      {53, ptx(4, 2), kNone, kNone},          {60, ptx(5, 0), kNone, kNone},
      {61, ptx(5, 0), kNone, kNone},          {62, ptx(5, 0), kNone, kNone},
      {70, ptx(6, 0), kNone, kNone},          {72, ptx(6, 1), kNone, kNone},
      {75, ptx(6, 3), kNone, kNone},          {80, ptx(7, 0), kNone, kNone},
      {86, ptx(7, 1), kNone, kNone},          {87, ptx(7, 4), kNone, kNone},
      {88, ptx(9, 0), kNone, kNone},          {89, ptx(7, 8), kNone, kNone},
      {90, ptx(7, 8), ptx(8, 0), kNone},      {100, ptx(8, 6), ptx(8, 6), ptx(8, 8)},
      {101, ptx(8, 6), ptx(8, 6), ptx(8, 8)}, {103, ptx(8, 8), ptx(8, 8), ptx(8, 8)},
      {110, ptx(9, 0), ptx(9, 0), ptx(9, 0)}, {120, ptx(8, 7), ptx(8, 7), ptx(8, 8)},
      {121, ptx(8, 8), ptx(8, 8), ptx(8, 8)},
  };
  for (const Row& r : kRows) {
    if (r.sm != sm) continue;
    PtxVersion v = suffix == Suffix::None ? r.plain : suffix == Suffix::Arch ? r.arch : r.family;
    if (v == kNone) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

}  // namespace stu::isa
