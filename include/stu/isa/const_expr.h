// Constant expressions, as ptxas 13.0 evaluates them (probed; see docs/check.md).
//
// ptxas takes a C constant expression wherever PTX takes an integer: address offsets
// (`[%rd1+4*2]`, `[(8)]`), immediate sources (`~0`, `1?2:3`) and the constant added to a
// register (`%r1+(2)`). The grammar and precedence are C's: `?:`, `||`, `&&`, `|`, `^`, `&`,
// `==` `!=`, `<` `>` `<=` `>=`, `<<` `>>`, `+` `-`, `*` `/` `%`, unary `-` `+` `~` `!`,
// parentheses. Values are 64-bit two's complement with C's signedness: a literal is unsigned
// when it has a `U` suffix or exceeds INT64_MAX; arithmetic is unsigned when either operand
// is; `%` is always unsigned (ptxas 13.0); shift counts are taken modulo 64; `?:` gives the
// chosen operand unchanged; comparisons and `!` `&&` `||` give a signed 0 or 1. Every
// operand is evaluated, so a division by zero anywhere is an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/lexer.h"

namespace stu::isa {

struct ConstExpr {
  enum class Kind : uint8_t { Int, Float };
  Kind kind = Kind::Int;
  uint64_t value = 0;        // Int: the two's complement value
  bool is_unsigned = false;  // Int: C's type of the result
  // One literal with optional unary `-`/`+` and parentheses: `literal` as written, negated
  // when an odd number of `-` apply. Floats are only taken in this form.
  bool single = false;
  bool negated = false;
  std::string_view literal;
  Loc loc;  // the first token
  Loc end;  // just past the last token

  int64_t as_signed() const { return static_cast<int64_t>(value); }
  // The value in decimal, negative when the type is signed and the value below zero.
  std::string decimal() const;
  // The source text stu keeps for an immediate: the literal as written when `single`,
  // otherwise `decimal()`.
  std::string immediate_text() const;
};

// Where the expression stands: the wording of "expected an operand" follows it, and an
// address takes integers only.
enum class ConstUse : uint8_t { Address, Source };

// A token that can begin a constant expression: a number, `(`, `-`, `+`, `~` or `!`.
bool starts_const_expr(const Token& t);

// Parses one expression from `lx` (stopping before the first token that cannot continue it:
// `]`, `,`, `;`, `}`, ...). Errors go to `diags` with the column of the offending token.
bool parse_const_expr(Lexer& lx, ConstUse use, Diagnostics& diags, ConstExpr& out);

}  // namespace stu::isa
