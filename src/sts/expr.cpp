#include "stu/sts/expr.h"

#include <cmath>
#include <cstring>

#include "stu/golden/address.h"
#include "stu/golden/policy.h"
#include "stu/golden/tmem.h"
#include "stu/isa/lexer.h"

namespace stu::sts {

namespace {

bool word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}
bool word_char(char c) {  // `%` only starts a name (docs/sts-format.md, "Lexical rules")
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == ':';
}

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint16_t f16_bits(float x) {  // round to nearest even, from an f32
  const uint32_t f = f32_bits(x);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const int exp = int((f >> 23) & 0xFF);
  uint32_t mant = f & 0x7FFFFFu;
  if (exp == 0xFF) return uint16_t(sign | 0x7C00u | (mant ? 0x200u : 0));
  const int e = exp - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return uint16_t(sign);
    mant |= 0x800000u;
    const unsigned shift = unsigned(14 - e);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return uint16_t(sign | half);
}

uint16_t bf16_bits(float x) {
  uint32_t f = f32_bits(x);
  if ((f & 0x7F800000u) == 0x7F800000u && (f & 0x7FFFFFu)) return uint16_t((f >> 16) | 0x40u);
  f += 0x7FFFu + ((f >> 16) & 1);
  return uint16_t(f >> 16);
}

struct VarName {
  const char* name;
  Var var;
};
constexpr VarName kVars[] = {
    {"lane", Var::Lane},         {"warp", Var::Warp}, {"cta", Var::Cta}, {"tid", Var::Tid},
    {"nctarank", Var::NCtaRank}, {"i", Var::I},       {"row", Var::Row}, {"col", Var::Col}};

// Binary operators by precedence level (0 binds loosest).
const std::vector<std::vector<std::string_view>> kLevels = {
    {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};

bool is_float_text(std::string_view t) {
  if (t.size() > 1 && t[0] == '0' &&
      (t[1] == 'x' || t[1] == 'X' || t[1] == 'f' || t[1] == 'd' || t[1] == 'b'))
    return false;
  return t.find('.') != std::string_view::npos || t.find('e') != std::string_view::npos ||
         t.find('E') != std::string_view::npos;
}

}  // namespace

bool tokenize(std::string_view line, uint32_t lineno, std::vector<Tok>& out, Diagnostics& diags) {
  out.clear();
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    Tok t;
    t.loc = Loc{lineno, uint32_t(i + 1)};
    const size_t start = i;
    if (word_start(c) && !(c == '%' && (i + 1 >= line.size() ||
                                        !(std::isalnum(static_cast<unsigned char>(line[i + 1])) ||
                                          line[i + 1] == '_')))) {
      t.kind = TokKind::Word;
      ++i;  // the first character (possibly `%`)
      while (i < line.size() && word_char(line[i])) ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = TokKind::Number;
      while (i < line.size() &&
             (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '.' ||
              line[i] == '_' ||
              ((line[i] == '-' || line[i] == '+') && (line[i - 1] == 'e' || line[i - 1] == 'E') &&
               is_float_text(line.substr(start, i - start)))))
        ++i;
    } else if (c == '"') {
      t.kind = TokKind::String;
      ++i;
      while (i < line.size() && line[i] != '"') ++i;
      if (i >= line.size()) {
        diags.error(t.loc, "unterminated string");
        return false;
      }
      t.text = line.substr(start + 1, i - start - 1);
      ++i;
      out.push_back(t);
      continue;
    } else if (std::strchr("=,[]{}()+-*/%&|^~!<>@;:", c) && c != '\0') {
      t.kind = TokKind::Punct;
      ++i;
      if (i < line.size()) {
        const char d = line[i];
        if ((c == '<' && (d == '<' || d == '=')) || (c == '>' && (d == '>' || d == '=')) ||
            (c == '=' && d == '=') || (c == '!' && d == '=') || (c == '&' && d == '&') ||
            (c == '|' && d == '|'))
          ++i;
      }
    } else {
      diags.error(t.loc, std::string("unexpected character '") +
                             (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                          : std::string("?")) +
                             "'");
      return false;
    }
    t.text = line.substr(start, i - start);
    out.push_back(t);
  }
  Tok end;
  end.kind = TokKind::End;
  end.loc = Loc{lineno, uint32_t(line.size() + 1)};
  out.push_back(end);
  return true;
}

bool parse_number(std::string_view text, uint64_t& value) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'd')) {
    const size_t digits = text[1] == 'f' ? 8 : 16;
    if (text.size() != 2 + digits) return false;
    uint64_t v = 0;
    for (char c : text.substr(2)) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
      v = v * 16 + uint64_t(std::isdigit(static_cast<unsigned char>(c))
                                ? c - '0'
                                : (std::tolower(c) - 'a' + 10));
    }
    value = v;
    return true;
  }
  uint64_t scale = 1;
  if (!text.empty() && !(text.size() > 1 && (text[1] == 'x' || text[1] == 'X'))) {
    const char s = text.back();
    if (s == 'K') scale = 1ull << 10;
    if (s == 'M') scale = 1ull << 20;
    if (s == 'G') scale = 1ull << 30;
    if (scale != 1) text.remove_suffix(1);
  }
  uint64_t v = 0;
  if (!isa::parse_int_literal(text, v)) return false;
  if (scale != 1 && v > UINT64_MAX / scale) return false;
  value = v * scale;
  return true;
}

int Exprs::parse(const std::vector<Tok>& toks, size_t& pos, Diagnostics& diags) {
  return parse_binary(toks, pos, 0, diags);
}

int Exprs::parse_binary(const std::vector<Tok>& t, size_t& pos, int level, Diagnostics& d) {
  if (level == int(kLevels.size())) return parse_unary(t, pos, d);
  int lhs = parse_binary(t, pos, level + 1, d);
  while (lhs >= 0 && t[pos].kind == TokKind::Punct) {
    bool match = false;
    for (std::string_view op : kLevels[size_t(level)]) match |= t[pos].text == op;
    if (!match) break;
    Node n;
    n.kind = Node::Kind::Binary;
    n.name = std::string(t[pos].text);
    n.loc = t[pos].loc;
    ++pos;
    const int rhs = parse_binary(t, pos, level + 1, d);
    if (rhs < 0) return -1;
    n.args = {lhs, rhs};
    lhs = add(std::move(n));
  }
  return lhs;
}

int Exprs::parse_unary(const std::vector<Tok>& t, size_t& pos, Diagnostics& d) {
  if (depth_ >= kMaxExprDepth) {
    d.error(t[pos].loc, "expression nested more than " + std::to_string(kMaxExprDepth) + " deep");
    return -1;
  }
  ++depth_;
  const int id = parse_primary(t, pos, d);
  --depth_;
  return id;
}

int Exprs::parse_primary(const std::vector<Tok>& t, size_t& pos, Diagnostics& d) {
  const Tok& tok = t[pos];
  Node n;
  n.loc = tok.loc;
  if (tok.is("-") || tok.is("~") || tok.is("!") || tok.is("+")) {
    ++pos;
    const int a = parse_unary(t, pos, d);
    if (a < 0) return -1;
    if (tok.is("+")) return a;
    n.kind = Node::Kind::Unary;
    n.name = std::string(tok.text);
    n.args = {a};
    return add(std::move(n));
  }
  if (tok.is("(")) {
    ++pos;
    const int a = parse_binary(t, pos, 0, d);
    if (a < 0) return -1;
    if (!t[pos].is(")")) {
      d.error(t[pos].loc, "expected ')' in expression");
      return -1;
    }
    ++pos;
    return a;
  }
  if (tok.kind == TokKind::Number) {
    ++pos;
    if (is_float_text(tok.text)) {
      n.kind = Node::Kind::Float;
      char* end = nullptr;
      const std::string s(tok.text);
      n.fvalue = std::strtod(s.c_str(), &end);
      if (!end || *end) {
        d.error(tok.loc, "bad number '" + s + "'");
        return -1;
      }
      return add(std::move(n));
    }
    n.kind = Node::Kind::Num;
    if (!parse_number(tok.text, n.value)) {
      d.error(tok.loc, "bad number '" + std::string(tok.text) + "'");
      return -1;
    }
    return add(std::move(n));
  }
  if (tok.kind == TokKind::Word) {
    ++pos;
    if (t[pos].is("(")) {  // a function call
      n.kind = Node::Kind::Call;
      n.name = std::string(tok.text);
      ++pos;
      if (!t[pos].is(")")) {
        for (;;) {
          const int a = parse_binary(t, pos, 0, d);
          if (a < 0) return -1;
          n.args.push_back(a);
          if (t[pos].is(",")) {
            ++pos;
            continue;
          }
          break;
        }
      }
      if (!t[pos].is(")")) {
        d.error(t[pos].loc, "expected ')' after the arguments of '" + n.name + "'");
        return -1;
      }
      ++pos;
      static const char* const kFuncs[] = {
          "f32",        "f64",        "f16",        "bf16",      "shared_addr", "cluster_addr",
          "local_addr", "param_addr", "const_addr", "tmem_addr", "policy"};
      bool known = false;
      for (const char* f : kFuncs) known |= n.name == f;
      if (!known) {
        d.error(tok.loc, "unknown function '" + n.name + "'");
        return -1;
      }
      return add(std::move(n));
    }
    for (const VarName& v : kVars) {
      if (tok.text == v.name) {
        n.kind = Node::Kind::Var;
        n.var = v.var;
        return add(std::move(n));
      }
    }
    n.kind = Node::Kind::Name;
    n.name = std::string(tok.text);
    return add(std::move(n));
  }
  d.error(tok.loc, tok.kind == TokKind::End
                       ? std::string("expected an expression")
                       : "expected an expression, found '" + std::string(tok.text) + "'");
  return -1;
}

bool Exprs::eval_float(int id, const Env& env, double& out, std::string& err, Loc& loc) const {
  const Node& n = nodes_[size_t(id)];
  if (n.kind == Node::Kind::Float) {
    out = n.fvalue;
    return true;
  }
  if (n.kind == Node::Kind::Unary && n.name == "-") {
    if (!eval_float(n.args[0], env, out, err, loc)) return false;
    out = -out;
    return true;
  }
  if (n.kind == Node::Kind::Binary &&
      (n.name == "+" || n.name == "-" || n.name == "*" || n.name == "/")) {
    double a, b;
    if (!eval_float(n.args[0], env, a, err, loc) || !eval_float(n.args[1], env, b, err, loc))
      return false;
    out = n.name == "+" ? a + b : n.name == "-" ? a - b : n.name == "*" ? a * b : a / b;
    return true;
  }
  uint64_t v;
  if (!eval(id, env, v, err, loc)) return false;
  out = double(int64_t(v));
  return true;
}

bool Exprs::eval(int id, const Env& env, uint64_t& out, std::string& err, Loc& loc) const {
  const Node& n = nodes_[size_t(id)];
  auto fail = [&](std::string msg) {
    err = std::move(msg);
    loc = n.loc;
    return false;
  };
  switch (n.kind) {
    case Node::Kind::Num:
      out = n.value;
      return true;
    case Node::Kind::Float:
      return fail("a real number is only allowed inside f32(), f64(), f16(), bf16() or policy()");
    case Node::Kind::Var:
      switch (n.var) {
        case Var::Lane:
          out = env.lane;
          return true;
        case Var::Warp:
          out = env.warp;
          return true;
        case Var::Cta:
          out = env.cta;
          return true;
        case Var::Tid:
          out = env.warp * 32 + env.lane;
          return true;
        case Var::NCtaRank:
          out = env.cfg ? env.cfg->cluster_ctas : 1;
          return true;
        case Var::I:
          out = env.i;
          return true;
        case Var::Row:
          out = env.row;
          return true;
        case Var::Col:
          out = env.col;
          return true;
      }
      return false;
    case Node::Kind::Name: {
      if (env.symbols) {
        auto it = env.symbols->find(n.name);
        if (it != env.symbols->end()) {
          out = it->second;
          return true;
        }
      }
      return fail("undefined symbol '" + n.name + "' (define it with 'symbol " + n.name +
                  " = ...')");
    }
    case Node::Kind::Unary: {
      uint64_t a;
      if (!eval(n.args[0], env, a, err, loc)) return false;
      out = n.name == "-" ? uint64_t(0) - a : n.name == "~" ? ~a : uint64_t(a == 0);
      return true;
    }
    case Node::Kind::Binary: {
      uint64_t a, b;
      if (!eval(n.args[0], env, a, err, loc) || !eval(n.args[1], env, b, err, loc)) return false;
      const std::string& o = n.name;
      if ((o == "/" || o == "%") && b == 0) return fail("division by zero");
      if (o == "+")
        out = a + b;
      else if (o == "-")
        out = a - b;
      else if (o == "*")
        out = a * b;
      else if (o == "/")
        out = a / b;
      else if (o == "%")
        out = a % b;
      else if (o == "<<")
        out = b >= 64 ? 0 : a << b;
      else if (o == ">>")
        out = b >= 64 ? 0 : a >> b;
      else if (o == "&")
        out = a & b;
      else if (o == "|")
        out = a | b;
      else if (o == "^")
        out = a ^ b;
      else if (o == "==")
        out = a == b;
      else if (o == "!=")
        out = a != b;
      else if (o == "<")
        out = a < b;
      else if (o == "<=")
        out = a <= b;
      else if (o == ">")
        out = a > b;
      else if (o == ">=")
        out = a >= b;
      else if (o == "&&")
        out = a && b;
      else if (o == "||")
        out = a || b;
      return true;
    }
    case Node::Kind::Call:
      break;
  }
  // Functions.
  const std::string& f = n.name;
  auto arity = [&](size_t lo, size_t hi) { return n.args.size() >= lo && n.args.size() <= hi; };
  if (f == "f32" || f == "f64" || f == "f16" || f == "bf16") {
    if (!arity(1, 1)) return fail(f + "() takes one number");
    double x;
    if (!eval_float(n.args[0], env, x, err, loc)) return false;
    if (f == "f64") {
      std::memcpy(&out, &x, 8);
    } else if (f == "f32") {
      out = f32_bits(float(x));
    } else {
      out = f == "f16" ? f16_bits(float(x)) : bf16_bits(float(x));
    }
    return true;
  }
  if (f == "policy") {  // policy(evict_last, 0.25[, evict_first]): createpolicy.fractional
    if (!arity(1, 3)) return fail("policy() takes a priority, a fraction and a second priority");
    auto prio = [&](int a, golden::L2Priority& p) {
      const Node& m = nodes_[size_t(a)];
      for (auto q : {golden::L2Priority::Unchanged, golden::L2Priority::First,
                     golden::L2Priority::Last, golden::L2Priority::Normal}) {
        if (m.kind == Node::Kind::Name && m.name == golden::to_string(q)) {
          p = q;
          return true;
        }
      }
      err = "expected evict_last, evict_first, evict_normal or evict_unchanged";
      loc = m.loc;
      return false;
    };
    golden::L2Priority primary, secondary = golden::L2Priority::Unchanged;
    double fraction = 1.0;
    if (!prio(n.args[0], primary)) return false;
    if (n.args.size() > 1 && !eval_float(n.args[1], env, fraction, err, loc)) return false;
    if (n.args.size() > 2 && !prio(n.args[2], secondary)) return false;
    if (!(fraction > 0.0 && fraction <= 1.0)) return fail("policy fraction must be in (0, 1]");
    out = golden::encode_fractional_policy(primary, secondary, float(fraction));
    return true;
  }
  std::vector<uint64_t> v(n.args.size());
  for (size_t k = 0; k < n.args.size(); ++k)
    if (!eval(n.args[k], env, v[k], err, loc)) return false;
  if (!env.cfg) return fail(f + "() needs the configuration");
  const golden::AddressMap& m = env.cfg->map;
  if (f == "shared_addr" || f == "cluster_addr") {
    if (!arity(2, 2)) return fail(f + "(cta, offset) takes two arguments");
    const uint64_t rel = golden::shared_cluster_addr(*env.cfg, v[0], v[1]);
    out = f == "shared_addr" ? m.shared.base + rel : rel;
    return true;
  }
  if (f == "local_addr" || f == "param_addr" || f == "const_addr") {
    if (!arity(1, 1)) return fail(f + "(offset) takes one argument");
    out = (f == "local_addr"   ? m.local.base
           : f == "param_addr" ? m.param.base
                               : m.konst.base) +
          v[0];
    return true;
  }
  if (f == "tmem_addr") {
    if (!arity(2, 2)) return fail("tmem_addr(lane, column) takes two arguments");
    out = golden::TmemAddr{uint32_t(v[0]), uint32_t(v[1])}.encode();
    return true;
  }
  return fail("unknown function '" + f + "'");
}

}  // namespace stu::sts
