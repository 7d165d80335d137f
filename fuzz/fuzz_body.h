// The property the parser fuzz target checks, shared with the regression test that replays
// the inputs it found (tests/data/fuzz/): reading any bytes as a PTX module, a single store
// line or a SASS `ST` line gives diagnostics and never crashes; a module checked on several
// threads gives the one-thread result; a store line that parses prints to text that parses to
// the same instruction.
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
    // The reader hands one-line stores to other threads; the result must not depend on it.
    Diagnostics one, many;
    ptx::CheckOptions o;
    o.threads = 1;
    const ptx::CheckStats s1 = ptx::check_module(text, one, o);
    o.threads = 2;
    const ptx::CheckStats s2 = ptx::check_module(text, many, o);
    std::string a, b;
    one.format(a, "m");
    many.format(b, "m");
    if (a != b || s1.stores != s2.stores || s1.invalid_stores != s2.invalid_stores) return false;
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
