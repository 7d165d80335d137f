// SASS `ST` of the seed description (an older SASS generation):
//   {@{!}Pg} ST{.E}{.cop}{.sz} [Ra + ImmS32], Rb {, Plg}
//   {@{!}Pg} ST{.E}{.cop}{.sz} [ImmU32], Rb {, Plg}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/instruction.h"

namespace stu::isa {

enum class SassCop : uint8_t { WB, CG, CS, WT };
enum class SassSize : uint8_t { B8, U8, S8, B16, U16, S16, B32, B64, B128 };

unsigned bytes_of(SassSize s);
std::string_view to_string(SassCop c);
std::string_view to_string(SassSize s);

// A register number R0..R254; 255 is RZ (reads as zero).
inline constexpr uint8_t kRZ = 255;
// A predicate number P0..P6; 7 is PT (true).
inline constexpr uint8_t kPT = 7;

struct SassPred {
  uint8_t index = kPT;
  bool negated = false;
};

struct SassSt {
  Loc loc;
  std::optional<SassPred> guard;  // @Pg / @!Pg
  bool extended = false;          // .E: 64-bit address in {Ra+1, Ra}
  SassCop cop = SassCop::WB;
  bool cop_written = false;
  SassSize size = SassSize::B32;
  bool size_written = false;
  bool has_ra = false;  // [Ra + imm] form (false: [ImmU32])
  uint8_t ra = kRZ;
  int64_t imm = 0;  // sign-extended offset, or the zero-extended absolute
  uint8_t rb = 0;
  SassPred plg;  // default PT
  bool plg_written = false;

  // The address is the zero-extended immediate when Ra is omitted or RZ.
  bool absolute() const { return !has_ra || ra == kRZ; }
};

// Parses one line of SASS (a trailing `;` and scheduling annotations such as `&req_6`,
// `&rd1` or `?sched` are allowed). Reports errors at `line`.
std::optional<SassSt> parse_sass_st(std::string_view text, Diagnostics& diags, uint32_t line = 1);
std::string print(const SassSt& s);
// Register-alignment rules (64-bit data in an even pair, 128-bit in an aligned quad, .E
// address in an even pair); returns true when valid.
bool validate(const SassSt& s, Diagnostics& diags);

}  // namespace stu::isa
