#include "stu/isa/parser.h"

#include "stu/isa/const_expr.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace stu::isa {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

struct QualEntry {
  QualFamily family;
  uint8_t value;
};

template <typename E>
void add_family(std::unordered_map<std::string_view, QualEntry, NameHash>& m, QualFamily f) {
  for (int i = 0;; ++i) {
    std::string_view name = to_string(static_cast<E>(i));
    if (name == "?") break;
    m.emplace(name, QualEntry{f, static_cast<uint8_t>(i)});
  }
}

// Every qualifier word of the store family (spelling without the dot). Built once from the
// enum tables; immutable afterwards.
const std::unordered_map<std::string_view, QualEntry, NameHash>& qualifier_table() {
  static const auto* const table = [] {
    auto* m = new std::unordered_map<std::string_view, QualEntry, NameHash>();
    add_family<Sem>(*m, QualFamily::Sem);
    add_family<Scope>(*m, QualFamily::Scope);
    add_family<Space>(*m, QualFamily::Space);
    add_family<CacheOp>(*m, QualFamily::CacheOp);
    add_family<L1Evict>(*m, QualFamily::L1Evict);
    add_family<L2Evict>(*m, QualFamily::L2Evict);
    add_family<Vec>(*m, QualFamily::Vec);
    add_family<DataType>(*m, QualFamily::Type);
    add_family<TmemShape>(*m, QualFamily::Shape);
    m->emplace("mmio", QualEntry{QualFamily::Mmio, 0});
    m->emplace("L2::cache_hint", QualEntry{QualFamily::CacheHint, 0});
    m->emplace("mbarrier::complete_tx::bytes", QualEntry{QualFamily::Completion, 0});
    m->emplace("sync", QualEntry{QualFamily::Sync, 0});
    m->emplace("aligned", QualEntry{QualFamily::Aligned, 0});
    m->emplace("unpack::16b", QualEntry{QualFamily::Unpack, 0});
    static const std::string_view kNums[] = {"x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"};
    for (unsigned i = 0; i < 8; ++i) {
      m->emplace(kNums[i], QualEntry{QualFamily::Num, static_cast<uint8_t>(1u << i)});
    }
    return m;
  }();
  return *table;
}

// One operand as written, before it is given a role.
// The brace list (at most one per instruction) is parsed straight into Instruction::src.
struct RawOperand {
  enum class Kind { Address, Braced, Scalar } kind = Kind::Scalar;
  Address addr;
  Operand scalar;
  std::optional<uint64_t> int_value;  // a scalar integer constant expression, evaluated
  Loc loc;
};
constexpr size_t kMaxOperands = 4;  // one more than any form takes, to diagnose extras

class StoreParser {
 public:
  StoreParser(Lexer& lx, Diagnostics& d, OpcodeCache* cache) : lx_(lx), d_(d), cache_(cache) {}

  bool parse(const Token& opcode, const Guard& guard, Instruction& out) {
    bool ok = decode_opcode(opcode, out);
    out.loc = opcode.loc;
    out.guard = guard;
    end_loc_ = Loc{opcode.loc.line, opcode.loc.col + static_cast<uint32_t>(opcode.text.size())};
    // ptxas also takes qualifiers written apart from the opcode: `st .global .u32`.
    while (lx_.peek().kind == TokKind::Word && lx_.peek().text[0] == '.' &&
           !lx_.peek().first_on_line) {
      Token more = take();
      ok = parse_qualifiers(more, 0, out) && ok;
    }
    if (!ok) return fail_skip();
    RawOperand ops[kMaxOperands];
    size_t n = 0;
    if (!parse_operands(ops, n, out)) return fail_skip_done();
    return assign(ops, n, out);
  }

 private:
  // ---- opcode and qualifiers ----
  // The opcode word, from the cache when it was decoded before (the same fields and
  // qualifiers; columns re-based on this token).
  bool decode_opcode(const Token& tok, Instruction& out) {
    if (cache_) {
      if (const Instruction* hit = cache_->find(tok.text)) {
        out = *hit;
        for (Qualifier& q : out.quals) q.loc = col(tok, q.loc.col);
        return true;
      }
    }
    out.reset();
    const size_t before = d_.all().size();
    const bool ok = parse_opcode(tok, out);
    if (ok && cache_ && d_.all().size() == before) {
      Instruction decoded = out;
      for (Qualifier& q : decoded.quals) q.loc = Loc{0, q.loc.col - tok.loc.col};
      cache_->add(tok.text, decoded);
    }
    return ok;
  }

  bool parse_opcode(const Token& tok, Instruction& out) {
    std::string_view w = tok.text;
    size_t head = 2;  // "st"
    out.op = Opcode::St;
    if (w.compare(0, 10, "tcgen05.st") == 0) {
      out.op = Opcode::Tcgen05St;
      head = 10;
    } else if (w.compare(0, 7, "st.bulk") == 0 && (w.size() == 7 || w[7] == '.')) {
      out.op = Opcode::StBulk;
      head = 7;
    } else if (w.compare(0, 8, "st.async") == 0 && (w.size() == 8 || w[8] == '.')) {
      out.op = Opcode::StAsync;
      head = 8;
      out.quals.push_back(Qualifier{QualFamily::Async, 0, col(tok, 2)});
    }
    return parse_qualifiers(tok, head, out);
  }

  // The `.q1.q2...` part of a word, starting at `pos` (a '.').
  bool parse_qualifiers(const Token& tok, size_t pos, Instruction& out) {
    std::string_view w = tok.text;
    bool ok = true;
    while (pos < w.size()) {
      // w[pos] == '.' (store_opcode_of guarantees the first one)
      size_t start = pos + 1;
      size_t dot = w.find('.', start);
      size_t stop = dot == std::string_view::npos ? w.size() : dot;
      std::string_view q = w.substr(start, stop - start);
      Loc qloc = col(tok, pos);
      if (q.empty()) {
        d_.error(qloc, "empty qualifier in '" + std::string(w) + "'");
        ok = false;
      } else if (!classify(q, qloc, out)) {
        d_.error(qloc, "unknown qualifier '." + std::string(q) + "' for '" +
                           std::string(to_string(out.op)) + "'");
        ok = false;
      }
      pos = stop;
    }
    return ok;
  }

  static Loc col(const Token& tok, size_t offset) {
    return Loc{tok.loc.line, tok.loc.col + static_cast<uint32_t>(offset)};
  }

  template <typename E, typename F>
  static bool set_first(std::optional<E>& field, F value) {
    if (!field) field = value;
    return true;
  }

  bool classify(std::string_view q, Loc loc, Instruction& out) {
    const auto& table = qualifier_table();
    auto it = table.find(q);
    if (it == table.end()) return false;
    const QualFamily f = it->second.family;
    const uint8_t v = it->second.value;
    out.quals.push_back(Qualifier{f, v, loc});
    switch (f) {
      case QualFamily::Type:
        return set_first(out.type, static_cast<DataType>(v));
      case QualFamily::Space:
        return set_first(out.space, static_cast<Space>(v));
      case QualFamily::Vec:
        return set_first(out.vec, static_cast<Vec>(v));
      case QualFamily::Sem:
        return set_first(out.sem, static_cast<Sem>(v));
      case QualFamily::Scope:
        return set_first(out.scope, static_cast<Scope>(v));
      case QualFamily::CacheOp:
        return set_first(out.cop, static_cast<CacheOp>(v));
      case QualFamily::L1Evict:
        return set_first(out.l1, static_cast<L1Evict>(v));
      case QualFamily::L2Evict:
        return set_first(out.l2, static_cast<L2Evict>(v));
      case QualFamily::Shape:
        return set_first(out.shape, static_cast<TmemShape>(v));
      case QualFamily::Mmio:
        out.mmio = true;
        return true;
      case QualFamily::CacheHint:
        out.cache_hint = true;
        return true;
      case QualFamily::Completion:
        out.complete_tx = true;
        return true;
      case QualFamily::Sync:
        out.sync = true;
        return true;
      case QualFamily::Aligned:
        out.aligned = true;
        return true;
      case QualFamily::Unpack:
        out.unpack16 = true;
        return true;
      case QualFamily::Num:
        if (out.num == 0) out.num = v;
        return true;
      case QualFamily::Async:
        return true;
    }
    return false;
  }

  // ---- operands ----
  bool parse_operands(RawOperand* ops, size_t& n, Instruction& out) {
    Token t = lx_.peek();
    if (t.is(';')) {
      lx_.next();
      return true;
    }
    for (;;) {
      if (n == kMaxOperands) {
        d_.error(lx_.peek().loc, "too many operands for '" + std::string(to_string(out.op)) + "'");
        return false;
      }
      if (!parse_operand(ops[n], out)) return false;
      ++n;
      Token sep = lx_.peek();
      if (sep.is(',')) {
        lx_.next();
        continue;
      }
      if (sep.is(';')) {
        lx_.next();
        return true;
      }
      if (sep.kind == TokKind::End || sep.first_on_line) {
        d_.error(end_loc_, "expected ';' at the end of the instruction");
        missing_semicolon_ = true;
        return false;
      }
      d_.error(sep.loc, "expected ',' or ';' before " + describe(sep));
      return false;
    }
  }

  static std::string describe(const Token& t) {
    if (t.kind == TokKind::End) return "end of file";
    if (t.kind == TokKind::Invalid) return "invalid character";
    std::string s(t.text.substr(0, 40));
    return quote(s);
  }

  Token take() {
    Token t = lx_.next();
    last_was_semicolon_ = t.is(';');
    end_loc_ = Loc{t.loc.line, t.loc.col + static_cast<uint32_t>(t.text.size())};
    return t;
  }

  bool expect_operand_token(const Token& t) {
    if (t.kind == TokKind::End) {
      d_.error(end_loc_, "expected an operand");
      return false;
    }
    return true;
  }

  bool parse_scalar(Operand& o, std::optional<uint64_t>* int_value = nullptr) {
    const Token& head = lx_.peek();
    if (head.kind == TokKind::Word && head.text[0] == '%') {  // a register: the usual case
      const Token t = take();
      o.loc = t.loc;
      o.kind = Operand::Kind::Register;
      o.text.assign(t.text.data(), t.text.size());
      return true;
    }
    if (starts_const_expr(head)) {  // an immediate: a literal or a constant expression
      ConstExpr e;
      if (!parse_const_expr(lx_, ConstUse::Source, d_, e)) return false;
      end_loc_ = e.end;
      if (int_value && e.kind == ConstExpr::Kind::Int) *int_value = e.value;
      o.loc = e.loc;
      o.kind = Operand::Kind::Immediate;
      if (e.single && !e.negated) {
        o.text.assign(e.literal.data(), e.literal.size());
      } else {
        o.text = e.immediate_text();
      }
      return true;
    }
    Token t = take();
    if (!expect_operand_token(t)) return false;
    o.loc = t.loc;
    if (t.kind == TokKind::Word && t.text[0] != '.') {
      o.kind = t.text == "_" ? Operand::Kind::Sink : Operand::Kind::Register;
      o.text = std::string(t.text);  // constructed inline and moved: cheaper than assign()
      return true;
    }
    d_.error(t.loc, "expected a register or an immediate, found " + describe(t));
    return false;
  }

  bool parse_operand(RawOperand& op, Instruction& out) {
    Token t = lx_.peek();
    op.loc = t.loc;
    if (t.is('[')) {
      op.kind = RawOperand::Kind::Address;
      return parse_address(op.addr);
    }
    if (t.is('{')) {
      take();
      op.kind = RawOperand::Kind::Braced;
      Token c = lx_.peek();
      if (c.is('}')) {
        d_.error(c.loc, "empty vector operand");
        return false;
      }
      if (out.src_braced) {
        d_.error(t.loc, "only one brace-list operand is allowed");
        return false;
      }
      out.src_braced = true;
      for (;;) {
        out.src.emplace_back();
        if (!parse_scalar(out.src.back())) return false;
        Token s = take();
        if (s.is(',')) continue;
        if (s.is('}')) return true;
        d_.error(s.loc, "expected ',' or '}' in vector operand, found " + describe(s));
        return false;
      }
    }
    op.kind = RawOperand::Kind::Scalar;
    if (!parse_scalar(op.scalar, &op.int_value)) return false;
    // `X+N`, `X+(N*2)` (a constant expression added to a register or symbol; ptxas).
    if (lx_.peek().is('+') && op.scalar.kind == Operand::Kind::Register) {
      take();
      int64_t sum = 0;
      if (!offset_expr(ConstUse::Source, sum)) return false;
      op.scalar.has_addend = true;
      op.scalar.addend = sum;
    }
    return true;
  }

  // An integer constant expression (an address offset, or the constant added to a source).
  bool offset_expr(ConstUse use, int64_t& value) {
    ConstExpr e;
    if (!parse_const_expr(lx_, use, d_, e)) return false;
    end_loc_ = e.end;
    if (e.kind != ConstExpr::Kind::Int) {
      d_.error(e.loc, "integer constant expression expected, found " + quote(e.literal));
      return false;
    }
    value = e.as_signed();
    return true;
  }

  bool parse_address(Address& a) {
    Token lb = take();
    a.loc = lb.loc;
    const Token& b = lx_.peek();
    if (starts_const_expr(b)) {  // `[8]`, `[+8]`, `[-(4*2)]` (ptxas: only for .local)
      a.base = Address::Base::Immediate;
      a.has_offset = true;
      if (!offset_expr(ConstUse::Address, a.offset)) return false;
    } else if (b.kind == TokKind::Word && b.text != "_" && b.text[0] != '.') {
      Token base = take();
      a.base = base.text[0] == '%' ? Address::Base::Register : Address::Base::Symbol;
      a.name.assign(base.text.data(), base.text.size());
      const Token& s = lx_.peek();
      if (s.is('-')) {
        d_.error(s.loc, "syntax error: a negative address offset is written '+-N' (e.g. '[" +
                            a.name + "+-4]')");
        return false;
      }
      if (s.is('+')) {
        take();
        if (!offset_expr(ConstUse::Address, a.offset)) return false;
        a.has_offset = true;
      }
    } else {
      Token bad = take();
      d_.error(bad.loc,
               "expected a register, variable or immediate address, found " + describe(bad));
      return false;
    }
    Token rb = take();
    if (!rb.is(']')) {
      d_.error(rb.loc, "expected ']' to close the address, found " + describe(rb));
      return false;
    }
    return true;
  }

  // ---- roles ----
  static bool scalar_like(const RawOperand& o) { return o.kind == RawOperand::Kind::Scalar; }

  // immHalfSplitoff: an integer constant expression, any 64-bit value (ptxas 13.0).
  bool split_offset(const RawOperand& o, Instruction& out) {
    if (!o.int_value || o.scalar.has_addend) {
      d_.error(o.scalar.loc, "immHalfSplitoff must be an integer immediate");
      return false;
    }
    out.split_off = SplitOffset{*o.int_value, o.scalar.loc};
    return true;
  }

  bool assign(RawOperand* ops, size_t n, Instruction& out) {
    const char* form = nullptr;
    auto mismatch = [&](Loc loc) {
      d_.error(loc, std::string("operands do not match '") + std::string(to_string(out.op)) +
                        "': expected " + form);
      return false;
    };
    Loc where = n ? ops[0].loc : end_loc_;
    switch (out.op) {
      case Opcode::St:
        form = "[a], b{, cache-policy}";
        if (n < 2 || n > 3) return mismatch(n > 3 ? ops[3].loc : where);
        break;
      case Opcode::StAsync:
        form = "[a], b{, [mbar]}";
        if (n < 2 || n > 3) return mismatch(n > 3 ? ops[3].loc : where);
        if (n == 3 && ops[2].kind != RawOperand::Kind::Address) return mismatch(ops[2].loc);
        break;
      case Opcode::StBulk:
        form = "[a], size, initval";
        if (n != 3) return mismatch(n > 3 ? ops[3].loc : n == 0 ? where : ops[n - 1].loc);
        if (ops[0].kind != RawOperand::Kind::Address) return mismatch(ops[0].loc);
        for (size_t i = 1; i < 3; ++i) {
          if (!scalar_like(ops[i])) return mismatch(ops[i].loc);
        }
        out.addr = std::move(ops[0].addr);
        out.src.push_back(std::move(ops[1].scalar));
        out.src.push_back(std::move(ops[2].scalar));
        return true;
      case Opcode::Tcgen05St: {
        bool split = out.shape == TmemShape::S16x32bx2;
        form = split ? "[taddr], immHalfSplitoff, {r...}" : "[taddr], {r...}";
        if (n != (split ? 3u : 2u)) {
          return mismatch(n > 3 ? ops[3].loc : n == 0 ? where : ops[n - 1].loc);
        }
        break;
      }
    }
    if (ops[0].kind != RawOperand::Kind::Address) return mismatch(ops[0].loc);
    out.addr = std::move(ops[0].addr);
    size_t src_index = 1;
    if (out.op == Opcode::Tcgen05St && out.shape == TmemShape::S16x32bx2) {
      if (!scalar_like(ops[1])) return mismatch(ops[1].loc);
      if (!split_offset(ops[1], out)) return false;
      src_index = 2;
    }
    RawOperand& src = ops[src_index];
    if (src.kind == RawOperand::Kind::Address) return mismatch(src.loc);
    if (out.src_braced && src.kind != RawOperand::Kind::Braced) return mismatch(src.loc);
    if (src.kind == RawOperand::Kind::Scalar) out.src.push_back(std::move(src.scalar));
    if (out.op == Opcode::St && n == 3) {
      if (!scalar_like(ops[2])) return mismatch(ops[2].loc);
      out.policy = std::move(ops[2].scalar);
    }
    if (out.op == Opcode::StAsync && n == 3) out.mbar = std::move(ops[2].addr);
    return true;
  }

  bool fail_skip() {
    if (!last_was_semicolon_) skip_statement(lx_, true);
    return false;
  }
  bool fail_skip_done() {
    if (!missing_semicolon_ && !last_was_semicolon_) skip_statement(lx_, true);
    return false;
  }

  Lexer& lx_;
  Diagnostics& d_;
  OpcodeCache* cache_;
  Loc end_loc_;
  bool missing_semicolon_ = false;
  bool last_was_semicolon_ = false;
};

}  // namespace

std::optional<Opcode> store_opcode_of(std::string_view w) {
  if (w.size() >= 2 && w[0] == 's' && w[1] == 't' && (w.size() == 2 || w[2] == '.')) {
    if (w.compare(2, 6, ".async") == 0 && (w.size() == 8 || w[8] == '.')) return Opcode::StAsync;
    // st.bulk (bulk zero-initialisation, PTX 8.6): checked, but it stores no register data.
    if (w.compare(2, 5, ".bulk") == 0 && (w.size() == 7 || w[7] == '.')) return Opcode::StBulk;
    return Opcode::St;
  }
  if (w.compare(0, 10, "tcgen05.st") == 0 && (w.size() == 10 || w[10] == '.')) {
    return Opcode::Tcgen05St;
  }
  return std::nullopt;
}

bool parse_store(Lexer& lx, const Token& opcode, const Guard& guard, Instruction& out,
                 Diagnostics& diags, OpcodeCache* cache) {
  StoreParser p(lx, diags, cache);
  return p.parse(opcode, guard, out);
}

// Base names (the part before the first '.') of every PTX ISA 9.0 instruction.
bool is_ptx_opcode(std::string_view word) {
  static const std::unordered_set<std::string_view> kOpcodes = {
      "abs",
      "activemask",
      "add",
      "addc",
      "alloca",
      "and",
      "applypriority",
      "atom",
      "bar",
      "barrier",
      "bfe",
      "bfi",
      "bfind",
      "bmsk",
      "bra",
      "brev",
      "brkpt",
      "brx",
      "call",
      "clz",
      "clusterlaunchcontrol",
      "cnot",
      "copysign",
      "cos",
      "cp",
      "createpolicy",
      "cvt",
      "cvta",
      "discard",
      "div",
      "dp2a",
      "dp4a",
      "elect",
      "ex2",
      "exit",
      "fence",
      "fma",
      "fns",
      "getctarank",
      "griddepcontrol",
      "isspacep",
      "istypep",
      "ld",
      "ldmatrix",
      "ldu",
      "lg2",
      "lop3",
      "mad",
      "mad24",
      "madc",
      "mapa",
      "match",
      "max",
      "mbarrier",
      "membar",
      "min",
      "mma",
      "mov",
      "movmatrix",
      "mul",
      "mul24",
      "multimem",
      "nanosleep",
      "neg",
      "not",
      "or",
      "pmevent",
      "popc",
      "prefetch",
      "prefetchu",
      "prmt",
      "rcp",
      "red",
      "redux",
      "rem",
      "ret",
      "rsqrt",
      "sad",
      "selp",
      "set",
      "setmaxnreg",
      "setp",
      "shf",
      "shfl",
      "shl",
      "shr",
      "sin",
      "slct",
      "sqrt",
      "st",
      "stackrestore",
      "stacksave",
      "stmatrix",
      "sub",
      "subc",
      "suld",
      "suq",
      "sured",
      "sust",
      "szext",
      "tanh",
      "tcgen05",
      "tensormap",
      "testp",
      "tex",
      "tld4",
      "trap",
      "txq",
      "vabsdiff",
      "vabsdiff2",
      "vabsdiff4",
      "vadd",
      "vadd2",
      "vadd4",
      "vavrg2",
      "vavrg4",
      "vmad",
      "vmax",
      "vmax2",
      "vmax4",
      "vmin",
      "vmin2",
      "vmin4",
      "vote",
      "vset",
      "vset2",
      "vset4",
      "vshl",
      "vshr",
      "vsub",
      "vsub2",
      "vsub4",
      "wgmma",
      "wmma",
      "xor",
  };
  return kOpcodes.count(word.substr(0, word.find('.'))) != 0;
}

Token skip_statement(Lexer& lx, bool stop_at_new_line) {
  int depth = 0;
  for (;;) {
    Token t = lx.peek();
    if (t.kind == TokKind::End) return t;
    if (stop_at_new_line && t.first_on_line && depth == 0) return t;
    lx.next();
    if (t.kind != TokKind::Punct) continue;
    char c = t.text[0];
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      if (depth > 0) --depth;
    } else if (c == ';' && depth == 0) {
      return t;
    }
  }
}

std::optional<Instruction> parse_instruction(std::string_view text, Diagnostics& diags,
                                             uint32_t line) {
  std::string buf(text);
  // Accept a missing trailing ';'.
  size_t last = buf.find_last_not_of(" \t\r\n");
  if (last == std::string::npos) {
    diags.error(Loc{line, 1}, "empty instruction");
    return std::nullopt;
  }
  if (buf[last] != ';' && buf.find("//") == std::string::npos) buf.insert(last + 1, ";");
  Lexer lx(buf);
  Token t = lx.next();
  Guard g;
  if (t.is('@')) {
    g.loc = t.loc;
    Token r = lx.next();
    if (r.is('!')) {
      g.negated = true;
      r = lx.next();
    }
    if (r.kind != TokKind::Word) {
      diags.error(Loc{line, r.loc.col}, "expected a predicate register after '@'");
      return std::nullopt;
    }
    g.reg = std::string(r.text);
    t = lx.next();
  }
  if (t.kind != TokKind::Word || !store_opcode_of(t.text)) {
    diags.error(Loc{line, t.loc.col}, "not a store-family instruction");
    return std::nullopt;
  }
  Instruction ins;
  Diagnostics local;
  bool ok = parse_store(lx, t, g, ins, local);
  for (const Diagnostic& d : local.all()) {
    diags.add(d.severity, Loc{line + d.loc.line - 1, d.loc.col}, d.message);
  }
  if (!ok) return std::nullopt;
  Token rest = lx.next();
  if (rest.kind != TokKind::End) {
    diags.error(Loc{line, rest.loc.col}, "unexpected text after the instruction");
    return std::nullopt;
  }
  auto fix = [line](Loc& l) {
    if (l.line) l.line = line + l.line - 1;
  };
  fix(ins.loc);
  fix(ins.guard.loc);
  fix(ins.addr.loc);
  for (auto& q : ins.quals) fix(q.loc);
  for (auto& o : ins.src) fix(o.loc);
  if (ins.policy) fix(ins.policy->loc);
  if (ins.mbar) fix(ins.mbar->loc);
  if (ins.split_off) fix(ins.split_off->loc);
  return ins;
}

}  // namespace stu::isa
