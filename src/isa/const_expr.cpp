#include "stu/isa/const_expr.h"

#include <limits>

namespace stu::isa {

std::string ConstExpr::decimal() const {
  if (!is_unsigned && as_signed() < 0) return "-" + std::to_string(uint64_t(0) - value);
  return std::to_string(value);
}

std::string ConstExpr::immediate_text() const {
  if (!single) return decimal();
  std::string s = negated ? "-" : "";
  s += literal;
  return s;
}

bool starts_const_expr(const Token& t) {
  return t.kind == TokKind::Number || t.is('(') || t.is('-') || t.is('+') || t.is('~') || t.is('!');
}

namespace {

std::string quote(std::string_view s) { return "'" + std::string(s.substr(0, 40)) + "'"; }

std::string describe(const Token& t) {
  if (t.kind == TokKind::End) return "end of file";
  if (t.kind == TokKind::Invalid) return "invalid character";
  return quote(t.text);
}

bool is_float_literal(std::string_view s) {
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D'))
    return true;
  const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  return !hex && s.find_first_of(".eE") != std::string_view::npos;
}

// Binary operators, by C precedence (higher binds tighter).
enum class Op : uint8_t {
  None,
  Ternary,
  LogOr,
  LogAnd,
  Or,
  Xor,
  And,
  Eq,
  Ne,
  Lt,
  Gt,
  Le,
  Ge,
  Shl,
  Shr,
  Add,
  Sub,
  Mul,
  Div,
  Mod
};

int precedence(Op op) {
  switch (op) {
    case Op::Ternary:
      return 1;
    case Op::LogOr:
      return 2;
    case Op::LogAnd:
      return 3;
    case Op::Or:
      return 4;
    case Op::Xor:
      return 5;
    case Op::And:
      return 6;
    case Op::Eq:
    case Op::Ne:
      return 7;
    case Op::Lt:
    case Op::Gt:
    case Op::Le:
    case Op::Ge:
      return 8;
    case Op::Shl:
    case Op::Shr:
      return 9;
    case Op::Add:
    case Op::Sub:
      return 10;
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
      return 11;
    case Op::None:
      break;
  }
  return 0;
}

struct PendingOp {
  Op op = Op::None;
  Loc loc;
  std::string_view text;
};

class ConstParser {
 public:
  ConstParser(Lexer& lx, ConstUse use, Diagnostics& d) : lx_(lx), use_(use), d_(d) {}

  // After a first literal already taken by the caller (the fast path of parse_const_expr).
  bool parse_after(const Token& first, ConstExpr& out) {
    out = ConstExpr{};
    end_ = Loc{first.loc.line, first.loc.col + static_cast<uint32_t>(first.text.size())};
    if (!literal(first, out) || !climb(1, out)) return false;
    return finish(first.loc, out);
  }

  bool parse(ConstExpr& out) {
    out = ConstExpr{};
    const Loc start = lx_.peek().loc;
    if (!expression(1, out)) return false;
    return finish(start, out);
  }

 private:
  bool finish(Loc start, ConstExpr& out) {
    out.loc = start;
    if (pending_.op != Op::None && pending_.op != Op::Ternary) {
      // Consumed an operator that no level took: cannot happen (level 1 takes all).
      return syntax(pending_.loc, pending_.text);
    }
    if (use_ == ConstUse::Address && out.kind == ConstExpr::Kind::Float) {
      d_.error(out.loc, "an address offset must be an integer constant expression");
      return false;
    }
    out.end = end_;
    return true;
  }

  Token take() {
    Token t = lx_.next();
    end_ = Loc{t.loc.line, t.loc.col + static_cast<uint32_t>(t.text.size())};
    return t;
  }

  bool syntax(Loc loc, std::string_view near) {
    d_.error(loc, "syntax error in constant expression near " + quote(near));
    return false;
  }

  bool expected_operand(const Token& t, bool after_minus) {
    if (use_ == ConstUse::Address) {
      d_.error(t.loc, "expected an integer address offset, found " + describe(t));
    } else if (after_minus) {
      d_.error(t.loc, "expected a number after '-'");
    } else {
      d_.error(t.loc, "expected a constant, found " + describe(t));
    }
    return false;
  }

  bool adjacent(const Token& a, const Token& b) const {
    return b.kind == TokKind::Punct && b.loc.line == a.loc.line &&
           b.loc.col == a.loc.col + static_cast<uint32_t>(a.text.size());
  }

  // Reads the binary operator at the head of the input into pending_ (consuming it). A
  // token that cannot continue an expression is left in the lexer.
  bool read_operator() {
    if (pending_.op != Op::None) return true;
    const Token& t = lx_.peek();
    Op op = Op::None;
    if (t.kind == TokKind::Word && t.text == "%") {
      op = Op::Mod;
    } else if (t.kind == TokKind::Punct) {
      switch (t.text[0]) {
        case '?':
          op = Op::Ternary;
          break;
        case '|':
          op = Op::Or;
          break;
        case '^':
          op = Op::Xor;
          break;
        case '&':
          op = Op::And;
          break;
        case '<':
          op = Op::Lt;
          break;
        case '>':
          op = Op::Gt;
          break;
        case '=':
          op = Op::Eq;
          break;
        case '!':
          op = Op::Ne;
          break;
        case '+':
          op = Op::Add;
          break;
        case '-':
          op = Op::Sub;
          break;
        case '*':
          op = Op::Mul;
          break;
        case '/':
          op = Op::Div;
          break;
        default:
          break;
      }
    }
    if (op == Op::None) return true;
    Token first = take();
    pending_ = PendingOp{op, first.loc, first.text};
    // Two-character operators are written without a space: `<<`, `<=`, `==`, `&&`, ...
    const Token& second = lx_.peek();
    const bool joined = adjacent(first, second);
    const char c = first.text[0];
    const char n = joined ? second.text[0] : '\0';
    Op two = Op::None;
    if (c == '<' && n == '<') two = Op::Shl;
    if (c == '>' && n == '>') two = Op::Shr;
    if (c == '<' && n == '=') two = Op::Le;
    if (c == '>' && n == '=') two = Op::Ge;
    if (c == '=' && n == '=') two = Op::Eq;
    if (c == '!' && n == '=') two = Op::Ne;
    if (c == '&' && n == '&') two = Op::LogAnd;
    if (c == '|' && n == '|') two = Op::LogOr;
    if (two != Op::None) {
      take();
      pending_.op = two;
    } else if (c == '=' || c == '!') {
      return syntax(first.loc, first.text);  // a lone `=` or `!` is not a binary operator
    }
    return true;
  }

  bool no_float(const ConstExpr& v, Loc loc) {
    if (v.kind != ConstExpr::Kind::Float) return true;
    d_.error(loc,
             "integer constant expression expected (floating-point constants take no "
             "operators other than unary '-' and '+')");
    return false;
  }

  // expression := unary (binop unary)* by precedence climbing; `?:` is right-associative.
  bool expression(int min_prec, ConstExpr& lhs) { return unary(lhs) && climb(min_prec, lhs); }

  bool climb(int min_prec, ConstExpr& lhs) {
    for (;;) {
      if (!read_operator()) return false;
      const int prec = precedence(pending_.op);
      if (pending_.op == Op::None || prec < min_prec) return true;
      const PendingOp op = pending_;
      pending_ = PendingOp{};
      if (op.op == Op::Ternary) {
        ConstExpr a, b;
        if (!expression(1, a)) return false;
        const Token colon = lx_.peek();
        if (!colon.is(':')) return syntax(colon.loc, colon.text);
        take();
        if (!expression(1, b)) return false;  // right-associative
        if (!no_float(lhs, op.loc) || !no_float(a, op.loc) || !no_float(b, op.loc)) return false;
        ConstExpr r = lhs.value != 0 ? a : b;
        r.single = false;
        r.loc = lhs.loc;
        lhs = r;
        continue;
      }
      ConstExpr rhs;
      if (!expression(prec + 1, rhs)) return false;
      if (!binary(op, lhs, rhs)) return false;
    }
  }

  bool binary(const PendingOp& op, ConstExpr& l, const ConstExpr& r) {
    if (l.kind == ConstExpr::Kind::Float || r.kind == ConstExpr::Kind::Float) {
      if (l.kind != r.kind) {
        d_.error(op.loc,
                 "constant expression type mismatch: integer and floating-point "
                 "operands of " +
                     quote(op.text));
        return false;
      }
      return no_float(l, op.loc);
    }
    const bool u = l.is_unsigned || r.is_unsigned;
    const uint64_t a = l.value, b = r.value;
    const auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
    uint64_t v = 0;
    bool vu = u;
    switch (op.op) {
      case Op::Add:
        v = a + b;
        break;
      case Op::Sub:
        v = a - b;
        break;
      case Op::Mul:
        v = a * b;
        break;
      case Op::Or:
        v = a | b;
        break;
      case Op::Xor:
        v = a ^ b;
        break;
      case Op::And:
        v = a & b;
        break;
      case Op::Div:
      case Op::Mod:
        if (b == 0) {
          d_.error(op.loc, "constant expression has a division by zero");
          return false;
        }
        if (op.op == Op::Mod) {  // ptxas 13.0 computes '%' unsigned, whatever the operands
          v = a % b;
          vu = true;
        } else if (u) {
          v = a / b;
        } else if (sa == std::numeric_limits<int64_t>::min() && sb == -1) {
          // ptxas 13.0 dies with SIGFPE here; C leaves it undefined. stu rejects it.
          d_.error(op.loc, "constant expression overflows: the signed division of -2^63 by -1");
          return false;
        } else {
          v = static_cast<uint64_t>(sa / sb);
        }
        break;
      case Op::Shl:
        v = a << (b & 63);
        vu = l.is_unsigned;
        break;
      case Op::Shr:
        v = l.is_unsigned ? a >> (b & 63) : static_cast<uint64_t>(sa >> (b & 63));
        vu = l.is_unsigned;
        break;
      case Op::Eq:
        v = a == b;
        vu = false;
        break;
      case Op::Ne:
        v = a != b;
        vu = false;
        break;
      case Op::Lt:
        v = u ? a < b : sa < sb;
        vu = false;
        break;
      case Op::Gt:
        v = u ? a > b : sa > sb;
        vu = false;
        break;
      case Op::Le:
        v = u ? a <= b : sa <= sb;
        vu = false;
        break;
      case Op::Ge:
        v = u ? a >= b : sa >= sb;
        vu = false;
        break;
      case Op::LogAnd:
        v = a && b;
        vu = false;
        break;
      case Op::LogOr:
        v = a || b;
        vu = false;
        break;
      case Op::Ternary:
      case Op::None:
        break;
    }
    l.value = v;
    l.is_unsigned = vu;
    l.single = false;
    return true;
  }

  // Parentheses and unary operators nest by recursion: bounded, so hostile input cannot
  // exhaust the stack.
  static constexpr int kMaxDepth = 256;
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(++d) {}
    ~DepthGuard() { --depth; }
  };

  bool unary(ConstExpr& out, bool after_minus = false) {
    const Token t = lx_.peek();
    DepthGuard guard(depth_);
    if (depth_ > kMaxDepth) {
      d_.error(t.loc,
               "constant expression nested more than " + std::to_string(kMaxDepth) + " deep");
      return false;
    }
    if (t.kind == TokKind::End) return expected_operand(t, after_minus);
    if (t.is('-') || t.is('+') || t.is('~') || t.is('!')) {
      take();
      const char c = t.text[0];
      const Token& next = lx_.peek();
      // ptxas 13.0 takes `-0d...` and `-1.0` but not `-0f...` (a syntax error).
      if (c == '-' && next.kind == TokKind::Number && next.text.size() > 1 && next.text[0] == '0' &&
          (next.text[1] == 'f' || next.text[1] == 'F')) {
        return syntax(next.loc, next.text);
      }
      if (!unary(out, c == '-')) return false;
      if (c == '-' || c == '+') {
        if (c == '-') {
          out.value = uint64_t(0) - out.value;
          out.negated = !out.negated;
        }
        return true;
      }
      if (!no_float(out, t.loc)) return false;
      out.single = false;
      if (c == '~') {
        out.value = ~out.value;
      } else {
        out.value = out.value == 0;
        out.is_unsigned = false;
      }
      return true;
    }
    if (t.is('(')) {
      take();
      if (!expression(1, out)) return false;
      const Token close = lx_.peek();
      if (!close.is(')')) {
        if (close.kind == TokKind::End || close.is(']') || close.is(',') || close.is(';'))
          return syntax(close.loc, close.text);
        return syntax(close.loc, close.text);
      }
      take();
      out.loc = t.loc;
      return true;
    }
    if (t.kind != TokKind::Number) return expected_operand(t, after_minus);
    take();
    return literal(t, out);
  }

  // An integer literal as ptxas reads it: decimal, 0x hex, 0b binary, 0 octal, an optional
  // upper-case `U`. Digits accumulate modulo 2^64, but a digit that arrives while the value
  // so far is negative as a signed 64-bit number is "Constant overflow" (ptxas 13.0:
  // 0x1ffffffffffffffff wraps, 0xfffffffffffffffff overflows).
  bool literal(const Token& t, ConstExpr& out) {
    std::string_view s = t.text;
    out.loc = t.loc;
    out.single = true;
    out.negated = false;
    out.literal = s;
    if (is_float_literal(s)) {
      out.kind = ConstExpr::Kind::Float;
      return true;
    }
    out.kind = ConstExpr::Kind::Int;
    bool suffix_u = false;
    if (s.back() == 'U') {
      suffix_u = true;
      s.remove_suffix(1);
    }
    const IntRadix r = int_literal_radix(s);
    const unsigned base = r.base;
    size_t i = r.digits;
    if (i >= s.size()) return syntax(t.loc, t.text);
    uint64_t v = 0;
    bool wrapped = false;
    for (; i < s.size(); ++i) {
      const unsigned d = digit_value(s[i]);
      if (d >= base) return syntax(t.loc, t.text);
      if (static_cast<int64_t>(v) < 0) {
        d_.error(t.loc, "constant overflow: " + quote(t.text) + " does not fit in 64 bits");
        return false;
      }
      if (v > (std::numeric_limits<uint64_t>::max() - d) / base) wrapped = true;
      v = v * base + d;
    }
    if (wrapped) {
      d_.warning(t.loc, "constant " + std::string(t.text) + " does not fit in 64 bits; it wraps");
    }
    out.value = v;
    out.is_unsigned = suffix_u || static_cast<int64_t>(v) < 0;
    return true;
  }

  Lexer& lx_;
  ConstUse use_;
  Diagnostics& d_;
  PendingOp pending_;
  Loc end_;
  int depth_ = 0;
};

}  // namespace

bool parse_const_expr(Lexer& lx, ConstUse use, Diagnostics& diags, ConstExpr& out) {
  // Fast path: a short decimal literal that ends the expression (`[%rd1+16]`, `, 0;`).
  const Token& t = lx.peek();
  if (t.kind == TokKind::Number && t.text.size() <= 18 &&
      (t.text[0] != '0' || t.text.size() == 1)) {
    uint64_t v = 0;
    bool digits = true;
    for (char c : t.text) {
      digits &= c >= '0' && c <= '9';
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (digits) {
      const Token first = lx.next();
      const Token& after = lx.peek();
      if (after.is(']') || after.is(',') || after.is(';') || after.is('}')) {
        out = ConstExpr{};
        out.value = v;
        out.single = true;
        out.literal = first.text;
        out.loc = first.loc;
        out.end = Loc{first.loc.line, first.loc.col + static_cast<uint32_t>(first.text.size())};
        return true;
      }
      ConstParser p(lx, use, diags);
      return p.parse_after(first, out);
    }
  }
  ConstParser p(lx, use, diags);
  return p.parse(out);
}

}  // namespace stu::isa
