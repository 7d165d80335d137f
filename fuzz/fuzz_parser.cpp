// libFuzzer target: the PTX module reader and store parser on arbitrary bytes. Any input
// must give diagnostics, never a crash, hang or sanitizer report. Also fuzzes the one-line
// parsers (PTX store and SASS ST) on the first line of the input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/parser.h"
#include "stu/isa/printer.h"
#include "stu/isa/sass.h"
#include "stu/ptx/module.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  {
    stu::Diagnostics d;
    stu::ptx::check_module(text, d);
  }
  std::string_view first = text.substr(0, text.find('\n'));
  {
    stu::Diagnostics d;
    if (auto ins = stu::isa::parse_instruction(first, d)) {
      // Round trip: the printed form parses to the same instruction.
      std::string printed = stu::isa::print(*ins);
      stu::Diagnostics d2;
      auto again = stu::isa::parse_instruction(printed, d2);
      if (!again || !stu::isa::same_instruction(*ins, *again)) __builtin_trap();
    }
  }
  {
    stu::Diagnostics d;
    if (auto s = stu::isa::parse_sass_st(first, d)) stu::isa::validate(*s, d);
  }
  return 0;
}
