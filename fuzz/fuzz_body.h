// The property the parser fuzz target checks, shared with the regression test that replays
// the inputs it found (tests/data/fuzz/): reading any bytes as a PTX module, a single store
// line or a SASS `ST` line gives diagnostics and never crashes; a store line that parses
// prints to text that parses to the same instruction.
#pragma once

#include <string>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/parser.h"
#include "stu/isa/printer.h"
#include "stu/isa/sass.h"
#include "stu/ptx/module.h"

namespace stu::fuzz {

// Returns false when the round-trip property fails.
inline bool check_input(std::string_view text) {
  {
    Diagnostics d;
    ptx::check_module(text, d);
  }
  std::string_view first = text.substr(0, text.find('\n'));
  {
    Diagnostics d;
    if (auto ins = isa::parse_instruction(first, d)) {
      std::string printed = isa::print(*ins);
      Diagnostics d2;
      auto again = isa::parse_instruction(printed, d2);
      if (!again || !isa::same_instruction(*ins, *again)) return false;
    }
  }
  {
    Diagnostics d;
    if (auto s = isa::parse_sass_st(first, d)) {
      isa::validate(*s, d);
      Diagnostics d2;
      auto again = isa::parse_sass_st(isa::print(*s), d2);
      if (!again || isa::print(*again) != isa::print(*s)) return false;
    }
  }
  return true;
}

}  // namespace stu::fuzz
