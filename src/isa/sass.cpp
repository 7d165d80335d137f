#include "stu/isa/sass.h"

#include "stu/isa/lexer.h"

namespace stu::isa {

unsigned bytes_of(SassSize s) {
  switch (s) {
    case SassSize::B8:
    case SassSize::U8:
    case SassSize::S8:
      return 1;
    case SassSize::B16:
    case SassSize::U16:
    case SassSize::S16:
      return 2;
    case SassSize::B32:
      return 4;
    case SassSize::B64:
      return 8;
    case SassSize::B128:
      return 16;
  }
  return 4;
}

std::string_view to_string(SassCop c) {
  static constexpr std::string_view kNames[] = {"WB", "CG", "CS", "WT"};
  return kNames[static_cast<int>(c)];
}

std::string_view to_string(SassSize s) {
  static constexpr std::string_view kNames[] = {"8",   "U8", "S8", "16", "U16",
                                                "S16", "32", "64", "128"};
  return kNames[static_cast<int>(s)];
}

namespace {

bool parse_reg(std::string_view w, uint8_t& r) {
  if (w == "RZ") {
    r = kRZ;
    return true;
  }
  if (w.size() < 2 || w[0] != 'R') return false;
  uint64_t v = 0;
  if (w[1] == '0' && w.size() > 2) return false;
  if (!parse_int_literal(w.substr(1), v) || v > 254) return false;
  r = static_cast<uint8_t>(v);
  return true;
}

bool parse_pred(std::string_view w, uint8_t& p) {
  if (w == "PT") {
    p = kPT;
    return true;
  }
  if (w.size() == 2 && w[0] == 'P' && w[1] >= '0' && w[1] <= '6') {
    p = static_cast<uint8_t>(w[1] - '0');
    return true;
  }
  return false;
}

std::string reg_name(uint8_t r) { return r == kRZ ? "RZ" : "R" + std::to_string(r); }
std::string pred_name(SassPred p) {
  return std::string(p.negated ? "!" : "") +
         (p.index == kPT ? "PT" : "P" + std::to_string(p.index));
}

}  // namespace

std::optional<SassSt> parse_sass_st(std::string_view text, Diagnostics& d, uint32_t line) {
  Lexer lx(text);
  SassSt s;
  auto at = [line](const Token& t) { return Loc{line, t.loc.col}; };
  Token t = lx.next();
  if (t.is('@')) {
    SassPred g;
    Token p = lx.next();
    if (p.is('!')) {
      g.negated = true;
      p = lx.next();
    }
    if (p.kind != TokKind::Word || !parse_pred(p.text, g.index)) {
      d.error(at(p), "expected a predicate P0..P6 or PT after '@'");
      return std::nullopt;
    }
    s.guard = g;
    t = lx.next();
  }
  s.loc = at(t);
  if (t.kind != TokKind::Word || t.text.substr(0, 2) != "ST" ||
      (t.text.size() > 2 && t.text[2] != '.')) {
    d.error(at(t), "expected a SASS 'ST' instruction");
    return std::nullopt;
  }
  // Modifiers.
  std::string_view w = t.text.substr(2);
  while (!w.empty()) {
    size_t next = w.find('.', 1);
    std::string_view m = w.substr(1, next == std::string_view::npos ? w.npos : next - 1);
    w = next == std::string_view::npos ? std::string_view() : w.substr(next);
    Loc mloc{line, s.loc.col};
    if (m == "E") {
      if (s.extended) {
        d.error(mloc, "duplicate modifier '.E'");
        return std::nullopt;
      }
      s.extended = true;
      continue;
    }
    bool found = false;
    for (int c = 0; c < 4 && !found; ++c) {
      if (m == to_string(static_cast<SassCop>(c))) {
        if (s.cop_written) {
          d.error(mloc, "more than one cache operator");
          return std::nullopt;
        }
        s.cop = static_cast<SassCop>(c);
        s.cop_written = found = true;
      }
    }
    for (int z = 0; z < 9 && !found; ++z) {
      if (m == to_string(static_cast<SassSize>(z))) {
        if (s.size_written) {
          d.error(mloc, "more than one size modifier");
          return std::nullopt;
        }
        s.size = static_cast<SassSize>(z);
        s.size_written = found = true;
      }
    }
    if (!found) {
      d.error(mloc, "unknown modifier '." + std::string(m) + "' for 'ST'");
      return std::nullopt;
    }
  }
  // Address.
  Token lb = lx.next();
  if (!lb.is('[')) {
    d.error(at(lb), "expected '[' to start the address");
    return std::nullopt;
  }
  Token b = lx.next();
  if (b.kind == TokKind::Word) {
    if (!parse_reg(b.text, s.ra)) {
      d.error(at(b), "expected a register R0..R254 or RZ, found '" + std::string(b.text) + "'");
      return std::nullopt;
    }
    s.has_ra = true;
    Token op = lx.next();
    if (op.is('+') || op.is('-')) {
      bool neg = op.is('-');
      Token n = lx.next();
      if (n.is('-')) {
        neg = !neg;
        n = lx.next();
      }
      uint64_t v = 0;
      if (n.kind != TokKind::Number || !parse_int_literal(n.text, v) ||
          v > (neg ? 0x80000000ull : 0x7fffffffull)) {
        d.error(at(n), "expected a signed 32-bit offset");
        return std::nullopt;
      }
      s.imm = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
      op = lx.next();
    }
    if (!op.is(']')) {
      d.error(at(op), "expected ']' to close the address");
      return std::nullopt;
    }
  } else if (b.kind == TokKind::Number) {
    uint64_t v = 0;
    if (!parse_int_literal(b.text, v) || v > UINT32_MAX) {
      d.error(at(b), "expected an unsigned 32-bit absolute address");
      return std::nullopt;
    }
    s.imm = static_cast<int64_t>(v);
    if (!lx.next().is(']')) {
      d.error(at(b), "expected ']' to close the address");
      return std::nullopt;
    }
  } else {
    d.error(at(b), "expected a register or an absolute address");
    return std::nullopt;
  }
  Token c = lx.next();
  Token rb = lx.next();
  if (!c.is(',') || rb.kind != TokKind::Word || !parse_reg(rb.text, s.rb)) {
    d.error(at(rb), "expected ', Rb' (the data register)");
    return std::nullopt;
  }
  Token n = lx.next();
  if (n.is(',')) {
    Token p = lx.next();
    if (p.is('!')) {
      s.plg.negated = true;
      p = lx.next();
    }
    if (p.kind != TokKind::Word || !parse_pred(p.text, s.plg.index)) {
      d.error(at(p), "expected the predicate Plg (P0..P6 or PT)");
      return std::nullopt;
    }
    s.plg_written = true;
    n = lx.next();
  }
  // Scheduling annotations: {&req_N} {&rdN} {?sched} in any order.
  while (n.is('&') || n.is('?')) {
    Token a = lx.next();
    if (a.kind != TokKind::Word && a.kind != TokKind::Number) {
      d.error(at(a), "malformed scheduling annotation");
      return std::nullopt;
    }
    n = lx.next();
  }
  if (n.is(';')) n = lx.next();
  if (n.kind != TokKind::End) {
    d.error(at(n), "unexpected text after the instruction");
    return std::nullopt;
  }
  return s;
}

std::string print(const SassSt& s) {
  std::string out;
  if (s.guard) out += "@" + pred_name(*s.guard) + " ";
  out += "ST";
  if (s.extended) out += ".E";
  if (s.cop_written) out += "." + std::string(to_string(s.cop));
  if (s.size_written) out += "." + std::string(to_string(s.size));
  out += " [";
  if (s.has_ra) {
    out += reg_name(s.ra);
    if (s.imm > 0) out += "+" + std::to_string(s.imm);
    if (s.imm < 0) out += "-" + std::to_string(-s.imm);
  } else {
    out += std::to_string(s.imm);
  }
  out += "], " + reg_name(s.rb);
  if (s.plg_written) out += ", " + pred_name(s.plg);
  out += ";";
  return out;
}

bool validate(const SassSt& s, Diagnostics& d) {
  size_t before = d.error_count();
  unsigned bytes = bytes_of(s.size);
  if (bytes == 8 && s.rb != kRZ && s.rb % 2 != 0) {
    d.error(s.loc,
            "'.64' data comes from an even register pair; R" + std::to_string(s.rb) + " is odd");
  }
  if (bytes == 16 && s.rb != kRZ && s.rb % 4 != 0) {
    d.error(s.loc, "'.128' data comes from an aligned register quad; R" + std::to_string(s.rb) +
                       " is not a multiple of 4");
  }
  if (bytes >= 8 && s.rb != kRZ && s.rb + bytes / 4 - 1 > 254) {
    d.error(s.loc, "data registers run past R254");
  }
  if (s.extended && s.has_ra && s.ra != kRZ && s.ra % 2 != 0) {
    d.error(s.loc, "'.E' takes the address from an even register pair; R" + std::to_string(s.ra) +
                       " is odd");
  }
  return d.error_count() == before;
}

}  // namespace stu::isa
