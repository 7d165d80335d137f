// A PTX tokenizer: one pass, no allocation, positions for every token.
//
// Words cover identifiers, registers, directives and dotted opcodes with their qualifiers
// (`st.shared::cluster.v4.u32` is one word; `::` stays inside a word, a single `:` ends it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stu/isa/instruction.h"

namespace stu::isa {

enum class TokKind : uint8_t {
  Word,     // [A-Za-z_$%.][A-Za-z0-9_$%.]* with embedded `::`
  Number,   // starts with a digit: 12, 0x1F, 0f3F800000, 1.5
  String,   // "..."
  Punct,    // one of { } [ ] ( ) , ; : + - @ ! < > = | * / & ~ ? ^
  Invalid,  // a byte that cannot start a token (binary garbage, a stray quote, ...)
  End,
};

struct Token {
  TokKind kind = TokKind::End;
  std::string_view text;
  Loc loc;
  bool first_on_line = false;  // no other token precedes it on its line
  char punct = 0;              // the character of a Punct token (0 for any other kind)

  bool is(char c) const { return c != 0 && punct == c; }
  bool is_word(std::string_view w) const { return kind == TokKind::Word && text == w; }
};

class Lexer {
 public:
  // Where the lexer stands between two tokens: enough to resume lexing there.
  struct State {
    size_t pos = 0;
    size_t line_start = 0;
    uint32_t line = 1;
    uint32_t last_token_line = 0;  // the line of the token before `pos` (0: none yet)
  };

  explicit Lexer(std::string_view text) : text_(text) {}
  // A lexer over `text` that starts at `at` (from resume_point() of a lexer over the same text).
  Lexer(std::string_view text, const State& at)
      : text_(text),
        pos_(at.pos),
        line_start_(at.line_start),
        line_(at.line),
        last_token_line_(at.last_token_line) {}

  Token next() {
    if (has_peeked_) {
      has_peeked_ = false;
      return peeked_;
    }
    return lex();
  }
  const Token& peek() {
    if (!has_peeked_) {
      before_peek_ = state();
      peeked_ = lex();
      has_peeked_ = true;
    }
    return peeked_;
  }
  // The state right after the last token next() returned (a peeked token is not counted).
  State resume_point() const { return has_peeked_ ? before_peek_ : state(); }
  // Continues lexing at `at` (a resume point of this lexer's text); drops a peeked token.
  void restore(const State& at) {
    has_peeked_ = false;
    pos_ = at.pos;
    line_start_ = at.line_start;
    line_ = at.line;
    last_token_line_ = at.last_token_line;
  }
  bool at_end() const { return !has_peeked_ && pos_ >= text_.size(); }
  // Unterminated block comment or string seen (reported once by the reader).
  bool saw_unterminated_comment() const { return unterminated_comment_; }
  Loc unterminated_loc() const { return unterminated_loc_; }

 private:
  Token lex();
  void skip_space_and_comments();
  State state() const { return State{pos_, line_start_, line_, last_token_line_}; }
  Loc here() const { return Loc{line_, static_cast<uint32_t>(pos_ - line_start_ + 1)}; }

  std::string_view text_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  uint32_t line_ = 1;
  uint32_t last_token_line_ = 0;
  bool unterminated_comment_ = false;
  bool has_peeked_ = false;
  Token peeked_;
  State before_peek_;
  Loc unterminated_loc_;
};

// The radix of an integer literal's spelling (without its suffix): 0x/0X hex, 0b/0B binary, a
// leading 0 octal, else decimal; and the index of its first digit. The one rule of PTX integer
// spellings, used by the literal parser below and by the constant-expression evaluator.
struct IntRadix {
  unsigned base = 10;
  size_t digits = 0;
};
IntRadix int_literal_radix(std::string_view s);
// The value of a hex/decimal digit character; 99 for any other character.
unsigned digit_value(char c);

// Integer literal in PTX syntax (decimal, 0x hex, 0 octal, 0b binary, optional U suffix).
// Returns false when the text is not an integer literal or does not fit in 64 bits.
bool parse_int_literal(std::string_view text, uint64_t& value);
// The same, but a literal wider than 64 bits wraps modulo 2^64 and sets `overflow`.
bool parse_int_literal_wrapping(std::string_view text, uint64_t& value, bool& overflow);

}  // namespace stu::isa
