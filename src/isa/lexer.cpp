#include "stu/isa/lexer.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stu::isa {
namespace {

constexpr bool word_start_slow(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
         c == '.';
}

// Character classes, one table lookup per byte on the hot path.
enum : uint8_t { kWordStart = 1, kWordChar = 2 };
struct CharTable {
  uint8_t cls[256] = {};
  constexpr CharTable() {
    for (int c = 0; c < 256; ++c) {
      auto u = static_cast<unsigned char>(c);
      if (word_start_slow(u)) cls[c] |= kWordStart | kWordChar;
      if (u >= '0' && u <= '9') cls[c] |= kWordChar;
    }
  }
};
constexpr CharTable kChars;

constexpr bool is_word_start(unsigned char c) { return kChars.cls[c] & kWordStart; }
constexpr bool is_word_char(unsigned char c) { return kChars.cls[c] & kWordChar; }
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool is_punct(unsigned char c) {
  switch (c) {
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case ',':
    case ';':
    case ':':
    case '+':
    case '-':
    case '@':
    case '!':
    case '<':
    case '>':
    case '=':
    case '|':
    case '*':
    case '/':
    case '&':
    case '~':
    case '?':
    case '^':
      return true;
    default:
      return false;
  }
}

// The first byte at or after `i` that is not a word character (n when none), 16 bytes at a
// time where the machine can once the word is long; the caller handles what stops it (`::`
// continues a word).
inline size_t word_chars_end(const char* text, size_t i, size_t n) {
  // Most words are short registers: a few bytes one at a time first.
  for (const size_t short_end = i + 8 < n ? i + 8 : n; i < short_end; ++i) {
    if (!is_word_char(static_cast<unsigned char>(text[i]))) return i;
  }
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + i));
    const auto in = [&](char lo, char hi, __m128i x) {  // signed: bytes from 0x80 up are out
      return _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8(static_cast<char>(lo - 1))),
                           _mm_cmplt_epi8(x, _mm_set1_epi8(static_cast<char>(hi + 1))));
    };
    const auto eq = [&](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
    __m128i m = in('a', 'z', _mm_or_si128(v, _mm_set1_epi8(0x20)));  // either case
    m = _mm_or_si128(m, in('0', '9', v));
    m = _mm_or_si128(m, _mm_or_si128(eq('_'), eq('.')));
    m = _mm_or_si128(m, _mm_or_si128(eq('%'), eq('$')));
    const unsigned stop = ~static_cast<unsigned>(_mm_movemask_epi8(m)) & 0xFFFFu;
    if (stop != 0) return i + static_cast<size_t>(__builtin_ctz(stop));
  }
#endif
  while (i < n && is_word_char(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

}  // namespace

void Lexer::skip_space_and_comments() {
  const size_t n = text_.size();
  while (pos_ < n) {
    char c = text_[pos_];
    if (static_cast<unsigned char>(c) > ' ' && c != '/') return;  // the usual case: a token
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
      while (pos_ < n && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
      Loc start = here();
      pos_ += 2;
      bool closed = false;
      while (pos_ < n) {
        if (text_[pos_] == '*' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
          pos_ += 2;
          closed = true;
          break;
        }
        if (text_[pos_] == '\n') {
          ++line_;
          line_start_ = pos_ + 1;
        }
        ++pos_;
      }
      if (!closed && !unterminated_comment_) {
        unterminated_comment_ = true;
        unterminated_loc_ = start;
      }
    } else {
      return;
    }
  }
}

Token Lexer::lex() {
  {  // inline fast path: blanks before a token on the same line; the rest out of line
    const size_t n = text_.size();
    while (pos_ < n && text_[pos_] == ' ') ++pos_;
    if (pos_ >= n || static_cast<unsigned char>(text_[pos_]) <= ' ' || text_[pos_] == '/') {
      skip_space_and_comments();
    }
  }
  Token t;
  t.loc = here();
  t.first_on_line = last_token_line_ != line_;
  if (pos_ >= text_.size()) {
    t.kind = TokKind::End;
    return t;
  }
  last_token_line_ = line_;
  const size_t n = text_.size();
  const size_t start = pos_;
  const auto c = static_cast<unsigned char>(text_[pos_]);
  if (is_word_start(c)) {
    ++pos_;
    pos_ = word_chars_end(text_.data(), pos_, n);
    while (pos_ + 1 < n && text_[pos_] == ':' && text_[pos_ + 1] == ':') {
      pos_ = word_chars_end(text_.data(), pos_ + 2, n);
    }
    t.kind = TokKind::Word;
  } else if (is_digit(c)) {
    ++pos_;
    while (pos_ < n) {
      auto d = static_cast<unsigned char>(text_[pos_]);
      if (is_word_char(d) && d != '%' && d != '$') {
        ++pos_;
      } else if ((d == '+' || d == '-') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E') &&
                 text_[start] != '0') {
        ++pos_;  // decimal exponent: 1.5e+3
      } else {
        break;
      }
    }
    t.kind = TokKind::Number;
  } else if (c == '"') {
    ++pos_;
    while (pos_ < n && text_[pos_] != '"' && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && pos_ + 1 < n && text_[pos_ + 1] != '\n') ++pos_;
      ++pos_;
    }
    if (pos_ < n && text_[pos_] == '"') {
      ++pos_;
      t.kind = TokKind::String;
    } else {
      t.kind = TokKind::Invalid;  // unterminated string
    }
  } else if (is_punct(c)) {
    ++pos_;
    t.kind = TokKind::Punct;
    t.punct = static_cast<char>(c);
  } else {
    ++pos_;
    t.kind = TokKind::Invalid;
  }
  t.text = std::string_view(text_.data() + start, pos_ - start);
  return t;
}

IntRadix int_literal_radix(std::string_view s) {
  if (s.size() < 2 || s[0] != '0') return IntRadix{10, 0};
  if (s[1] == 'x' || s[1] == 'X') return IntRadix{16, 2};
  if (s[1] == 'b' || s[1] == 'B') return IntRadix{2, 2};
  return IntRadix{8, 1};
}

unsigned digit_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
  return 99;
}

bool parse_int_literal(std::string_view s, uint64_t& value) {
  bool overflow = false;
  return parse_int_literal_wrapping(s, value, overflow) && !overflow;
}

bool parse_int_literal_wrapping(std::string_view s, uint64_t& value, bool& overflow) {
  overflow = false;
  if (s.empty()) return false;
  if (s.back() == 'U' || s.back() == 'u') s.remove_suffix(1);
  if (s.empty()) return false;
  const IntRadix r = int_literal_radix(s);
  const unsigned base = r.base;
  size_t i = r.digits;
  if (i >= s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const unsigned d = digit_value(s[i]);
    if (d >= base) return false;
    if (v > (UINT64_MAX - d) / base) overflow = true;
    v = v * base + d;
  }
  value = v;
  return true;
}

}  // namespace stu::isa
