// The directives written between a function's parameter list and its body (or the ';' of a
// prototype): performance tuning (`.maxntid 128, 1, 1`, `.maxnreg 40`, ...), cluster shape,
// `.noreturn`, `.abi_preserve{_control}` and `.pragma`. One table holds ptxas 13.0's rule for
// each (where it may be written, its values, its gates); tests/data/directives holds a module
// with ptxas's verdict for every rule.
#pragma once

#include <string_view>

#include "stu/diag.h"
#include "stu/isa/lexer.h"
#include "stu/isa/target.h"

namespace stu::ptx {

struct FuncHeader {
  bool is_entry = false;
  bool has_returns = false;  // a `.func` with return parameters
  std::string_view name;
};

// True for a directive that belongs in a function header (and so is misplaced in a body or at
// module scope).
bool is_func_header_directive(std::string_view word);

// Checks the directives of one header. Call `directive` with each directive token (the
// lexer then stands on its arguments) and `finish` at the `{` or `;`.
class FuncDirectives {
 public:
  FuncDirectives(const FuncHeader& h, isa::Target target, isa::PtxVersion version, Diagnostics& d)
      : h_(h), target_(target), version_(version), d_(d) {}

  // Consumes the directive's arguments. Returns false when `t` is not a header directive
  // (reported; the caller resynchronises).
  bool directive(isa::Lexer& lx, const isa::Token& t);
  void finish(Loc at);

 private:
  const FuncHeader& h_;
  isa::Target target_;
  isa::PtxVersion version_;
  Diagnostics& d_;
  uint32_t seen_ = 0;  // bit per directive kind
  Loc loc_[16];
};

}  // namespace stu::ptx
