// The `.sts` directed-test runner: parse every line first (syntax errors stop the test before
// anything runs), then execute the statements in order against one golden MachineState.
#include "stu/sts/sts.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "expr.h"
#include "stu/golden/executor.h"
#include "stu/isa/parser.h"
#include "stu/isa/printer.h"
#include "stu/isa/sass.h"
#include "stu/isa/target.h"
#include "stu/isa/validator.h"

namespace stu::sts {

namespace {

using golden::MemSpace;
using isa::Loc;

std::string hex(uint64_t v, int digits = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

// --- statements -------------------------------------------------------------------------------

struct KV {
  std::string key;
  int expr = -1;     // value as an expression
  std::string word;  // value as a word (sem=release, lanes=all, policy="...")
  Loc loc;
};

// A location in memory or TMEM named by `SPACE {key=value} [ADDR]`.
struct MemLoc {
  MemSpace space = MemSpace::Global;
  bool generic = false;
  int cta = -1, thread = -1, addr = -1;                      // memory
  int lane = -1, col = -1, rows = -1, cols = -1, mask = -1;  // tmem
  Loc loc;
};

enum class StmtKind : uint8_t {
  Alloc,
  Write,
  TmemAlloc,
  TmemDealloc,
  Mbar,
  Symbol,
  Reg,
  Exec,
  Ptx,
  Sass,
  Expect
};

struct Stmt {
  StmtKind kind = StmtKind::Exec;
  Loc loc;
  std::string word;   // mbarrier op, expect kind, register or symbol name
  std::string word2;  // expect fault: the fault kind
  std::vector<int> exprs;
  std::vector<KV> kvs;
  MemLoc mem;
  unsigned elem_bytes = 4;
  int repeat = -1;  // xN
  bool reg_hi = false, reg_list = false;
  std::string text;  // store lines: the source text (for traces)
  isa::Instruction ins;
  isa::SassSt sass;

  const KV* kv(std::string_view key) const {
    for (const KV& k : kvs)
      if (k.key == key) return &k;
    return nullptr;
  }
};

struct Program {
  golden::ModelConfig cfg;
  isa::Target target{100, isa::Target::Suffix::Arch};
  isa::PtxVersion version = isa::kPtxasMaxVersion;
  Exprs exprs;
  std::vector<Stmt> stmts;
};

// Keys whose value is a word rather than an expression.
bool word_key(std::string_view k) {
  return k == "name" || k == "space" || k == "sem" || k == "scope" || k == "cop" || k == "l1" ||
         k == "l2" || k == "policy";
}

class Parser {
 public:
  Parser(Program& p, Diagnostics& d) : p_(p), d_(d) {}

  void line(std::string_view raw, uint32_t lineno) {
    std::string_view text = strip_comment(raw);
    size_t b = text.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return;
    // A store line: PTX (st, st.async, tcgen05.st) or SASS ST, with an optional guard.
    std::string_view rest = text.substr(b);
    if (rest[0] == '@') {
      size_t sp = rest.find_first_of(" \t");
      rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp);
      rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
    }
    std::string_view op = rest.substr(0, rest.find_first_of(" \t["));
    if (op == "ST" || op.substr(0, 3) == "ST.") return sass_line(text, lineno);
    if (isa::store_opcode_of(op)) return ptx_line(text, lineno);
    if (!tokenize(text, lineno, toks_, d_)) return;
    pos_ = 0;
    statement();
  }

 private:
  static std::string_view strip_comment(std::string_view s) {
    bool str = false;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '"') str = !str;
      if (str) continue;
      if (s[i] == '#' || (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/'))
        return s.substr(0, i);
    }
    return s;
  }

  void begin_body() { body_started_ = true; }

  void ptx_line(std::string_view text, uint32_t lineno) {
    begin_body();
    Diagnostics local;
    auto ins = isa::parse_instruction(text, local, lineno);
    if (ins) {
      isa::CheckContext ctx{p_.target, p_.version, nullptr};
      isa::validate(*ins, ctx, local);
    }
    for (const Diagnostic& dg : local.all()) d_.add(dg.severity, dg.loc, dg.message);
    if (!ins || local.has_errors()) return;
    Stmt s;
    s.kind = StmtKind::Ptx;
    s.loc = ins->loc;
    s.ins = std::move(*ins);
    s.text = std::string(text.substr(text.find_first_not_of(" \t")));
    p_.stmts.push_back(std::move(s));
  }

  void sass_line(std::string_view text, uint32_t lineno) {
    begin_body();
    Diagnostics local;
    auto st = isa::parse_sass_st(text, local, lineno);
    if (st) isa::validate(*st, local);
    for (const Diagnostic& dg : local.all()) d_.add(dg.severity, dg.loc, dg.message);
    if (!st || local.has_errors()) return;
    Stmt s;
    s.kind = StmtKind::Sass;
    s.loc = st->loc;
    s.sass = *st;
    s.text = std::string(text.substr(text.find_first_not_of(" \t")));
    p_.stmts.push_back(std::move(s));
  }

  const Tok& tok() const { return toks_[pos_]; }
  bool at_end() const { return tok().kind == TokKind::End; }

  bool error(const Tok& t, const std::string& msg) {
    d_.error(t.loc, msg);
    return false;
  }
  bool expect_end() {
    if (at_end()) return true;
    return error(tok(), "unexpected '" + std::string(tok().text) + "' at the end of the statement");
  }
  int expr() { return p_.exprs.parse(toks_, pos_, d_); }
  bool word(std::string& out, const char* what) {
    if (tok().kind != TokKind::Word) return error(tok(), std::string("expected ") + what);
    out = std::string(tok().text);
    ++pos_;
    return true;
  }
  bool punct(const char* p) {
    if (!tok().is(p)) return error(tok(), std::string("expected '") + p + "'");
    ++pos_;
    return true;
  }
  // key=value pairs (as many as follow).
  bool kvs(std::vector<KV>& out) {
    while (tok().kind == TokKind::Word && toks_[pos_ + 1].is("=")) {
      KV kv;
      kv.key = std::string(tok().text);
      kv.loc = tok().loc;
      pos_ += 2;
      if (word_key(kv.key) || (kv.key == "lanes" && tok().is_word("all"))) {
        if (tok().kind != TokKind::Word && tok().kind != TokKind::String)
          return error(tok(), "expected a word after '" + kv.key + "='");
        kv.word = std::string(tok().text);
        ++pos_;
      } else {
        kv.expr = expr();
        if (kv.expr < 0) return false;
      }
      out.push_back(std::move(kv));
    }
    return true;
  }
  bool allowed_keys(const Stmt& s, std::initializer_list<std::string_view> keys) {
    for (const KV& kv : s.kvs) {
      bool ok = false;
      for (std::string_view k : keys) ok |= kv.key == k;
      if (!ok) {
        std::string list;
        for (std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        d_.error(kv.loc, "unknown key '" + kv.key + "' (expected " + list + ")");
        return false;
      }
    }
    return true;
  }
  // A comma-separated list of expressions.
  bool expr_list(std::vector<int>& out) {
    for (;;) {
      const int e = expr();
      if (e < 0) return false;
      out.push_back(e);
      if (!tok().is(",")) return true;
      ++pos_;
    }
  }
  uint64_t const_value(int e, bool& ok) {
    uint64_t v = 0;
    std::string err;
    Loc loc;
    Env env;
    env.cfg = &p_.cfg;
    if (e < 0 || !p_.exprs.eval(e, env, v, err, loc)) {
      if (e >= 0) d_.error(loc, err);
      ok = false;
    }
    return v;
  }

  // --- header -----------------------------------------------------------------------------
  bool config(const std::string& key) {
    if (body_started_)
      return error(toks_[0],
                   "'" + key + "' configures the machine and must come before set-up and stores");
    golden::ModelConfig& c = p_.cfg;
    if (key == "target") {
      const Tok t = tok();
      std::string w;
      if (!word(w, "a target such as sm_100a")) return false;
      auto tg = isa::Target::parse(w);
      if (!tg) return error(t, "unknown target '" + w + "'");
      p_.target = *tg;
      return expect_end();
    }
    if (key == "ptx") {
      const Tok t = tok();
      auto v = isa::PtxVersion::parse(t.text);
      if (t.kind != TokKind::Number || !v)
        return error(t, "expected a PTX ISA version such as 8.8");
      ++pos_;
      p_.version = *v;
      return expect_end();
    }
    if (key == "sass_misaligned") {
      std::string w;
      const Tok t = tok();
      if (!word(w, "'force' or 'fault'")) return false;
      if (w != "force" && w != "fault") return error(t, "expected 'force' or 'fault'");
      c.sass_misalign =
          w == "force" ? golden::MisalignMode::ForceAlign : golden::MisalignMode::Fault;
      return expect_end();
    }
    if (key == "window") {
      std::string name;
      const Tok t = tok();
      if (!word(name, "a window name (shared, local, param, const)")) return false;
      golden::Window* w = name == "shared"  ? &c.map.shared
                          : name == "local" ? &c.map.local
                          : name == "param" ? &c.map.param
                          : name == "const" ? &c.map.konst
                                            : nullptr;
      if (!w)
        return error(t, "unknown window '" + name + "' (expected shared, local, param or const)");
      bool ok = true;
      w->base = const_value(expr(), ok);
      if (ok && !at_end()) w->size = const_value(expr(), ok);
      return ok && expect_end();
    }
    bool ok = true;
    const Tok t = tok();
    const uint64_t v = const_value(expr(), ok);
    if (!ok || !expect_end()) return false;
    // Counts are range-checked before they are narrowed (ModelConfig::check() does the rest).
    if ((key == "cluster" || key == "warps") && v > 0xFFFF) return error(t, "value out of range");
    if (key == "sass_regs" && v > 255) return error(t, "sass_regs is at most 255");
    if (key == "cluster")
      c.cluster_ctas = uint32_t(v);
    else if (key == "warps")
      c.warps_per_cta = uint32_t(v);
    else if (key == "shared")
      c.shared_bytes = v;
    else if (key == "local")
      c.local_bytes = v;
    else if (key == "param_func")
      c.param_func_bytes = v;
    else if (key == "kernel_param")
      c.kernel_param_bytes = v;
    else if (key == "const")
      c.const_bytes = v;
    else if (key == "shared_stride")
      c.map.shared_cta_stride = v;
    else if (key == "sass_regs")
      c.sass_regs = uint32_t(v);
    else if (key == "fill") {
      if (v > 255) return error(t, "fill is one byte (0..255)");
      c.fill = uint8_t(v);
    }
    return true;
  }

  // --- locations --------------------------------------------------------------------------
  bool mem_loc(MemLoc& m) {
    m.loc = tok().loc;
    std::string sp;
    if (!word(sp,
              "a space (global, shared, local, param_func, kernel_param, const, generic, tmem)"))
      return false;
    std::vector<KV> keys;
    if (!kvs(keys)) return false;
    auto take = [&](const char* k, int& dst) {
      for (const KV& kv : keys)
        if (kv.key == k) dst = kv.expr;
    };
    for (const KV& kv : keys) {
      static const char* const kKnown[] = {"cta", "thread", "lane", "col", "rows", "cols", "mask"};
      bool known = false;
      for (const char* k : kKnown) known |= kv.key == k;
      if (!known) return error(toks_[0], "unknown key '" + kv.key + "' in a location");
    }
    take("cta", m.cta);
    take("thread", m.thread);
    if (sp == "tmem") {
      m.space = MemSpace::Tmem;
      take("lane", m.lane);
      take("col", m.col);
      take("rows", m.rows);
      take("cols", m.cols);
      take("mask", m.mask);
      if (m.lane < 0 || m.col < 0) return error(toks_[0], "a tmem location needs lane= and col=");
      return true;
    }
    if (sp == "global")
      m.space = MemSpace::Global;
    else if (sp == "shared")
      m.space = MemSpace::Shared;
    else if (sp == "local")
      m.space = MemSpace::Local;
    else if (sp == "param_func")
      m.space = MemSpace::ParamFunc;
    else if (sp == "kernel_param")
      m.space = MemSpace::KernelParam;
    else if (sp == "const")
      m.space = MemSpace::Const;
    else if (sp == "generic")
      m.generic = true;
    else
      return error(toks_[pos_ - 1 - 2 * keys.size()], "unknown space '" + sp + "'");
    m.addr = expr();
    return m.addr >= 0;
  }

  // `TYPE [xN] = values` of write/expect on memory; `[xN] = values` on tmem.
  bool values(Stmt& s) {
    if (s.mem.space != MemSpace::Tmem) {
      const Tok t = tok();
      std::string ty;
      if (!word(ty, "an element type (b8, u16, s32, f32, b64, ...)")) return false;
      auto dt = isa::from_string<isa::DataType>(ty);
      if (!dt || isa::bits_of(*dt) < 8 || isa::bits_of(*dt) > 64)
        return error(
            t, "element type '" + ty + "' is not one of b8..b64, u8..u64, s8..s64, f16, f32, f64");
      s.elem_bytes = isa::bytes_of(*dt);
    }
    if (tok().kind == TokKind::Word && tok().text.size() > 1 && tok().text[0] == 'x') {
      uint64_t n = 0;
      if (!parse_number(tok().text.substr(1), n) || n == 0 || n > (1u << 20))
        return error(tok(), "repeat count must be x1 .. x1048576");
      s.repeat = int(n);
      ++pos_;
    }
    if (!punct("=")) return false;
    if (!expr_list(s.exprs)) return false;
    if (s.repeat > 0 && s.exprs.size() != 1 && s.exprs.size() != size_t(s.repeat))
      return error(toks_[0], "x" + std::to_string(s.repeat) + " needs one expression of 'i' or " +
                                 std::to_string(s.repeat) + " values");
    return expect_end();
  }

  // --- statements -------------------------------------------------------------------------
  void statement() {
    const Tok first = tok();
    std::string kw;
    if (!word(kw, "a statement (see docs/sts-format.md)")) return;
    static const char* const kConfig[] = {
        "target", "ptx",           "cluster",         "warps",    "shared",
        "local",  "param_func",    "kernel_param",    "const",    "fill",
        "window", "shared_stride", "sass_misaligned", "sass_regs"};
    for (const char* c : kConfig) {
      if (kw == c) {
        config(kw);
        return;
      }
    }
    begin_body();
    Stmt s;
    s.loc = first.loc;
    bool ok = false;
    if (kw.rfind("createpolicy.", 0) == 0) {
      ok = createpolicy(kw, first, s);
    } else if (kw == "alloc") {
      s.kind = StmtKind::Alloc;
      std::string sp;
      const Tok t = tok();
      ok = word(sp, "'global'") && (sp == "global" || error(t, "only global memory is allocated"));
      ok = ok && expr_list(s.exprs) &&
           (s.exprs.size() == 2 || error(first, "alloc global takes BASE, SIZE")) && expect_end();
    } else if (kw == "write") {
      s.kind = StmtKind::Write;
      ok = mem_loc(s.mem) && values(s);
    } else if (kw == "tmem_alloc" || kw == "tmem_dealloc") {
      s.kind = kw == "tmem_alloc" ? StmtKind::TmemAlloc : StmtKind::TmemDealloc;
      ok = kvs(s.kvs) && expect_end();
      ok = ok && (kw == "tmem_alloc" ? allowed_keys(s, {"cta", "cols", "name", "smem"})
                                     : allowed_keys(s, {"cta", "taddr", "cols"}));
      ok = ok && (s.kv("cols") || error(first, kw + " needs cols="));
      ok = ok && (kw == "tmem_alloc" || s.kv("taddr") || error(first, "tmem_dealloc needs taddr="));
    } else if (kw == "mbarrier") {
      s.kind = StmtKind::Mbar;
      const Tok t = tok();
      ok = word(s.word, "an mbarrier operation");
      if (ok && s.word != "init" && s.word != "expect_tx" && s.word != "complete_tx" &&
          s.word != "arrive" && s.word != "arrive_expect_tx")
        ok = error(t, "unknown mbarrier operation '" + s.word +
                          "' (init, expect_tx, complete_tx, arrive, arrive_expect_tx)");
      ok = ok && kvs(s.kvs) && expect_end() && allowed_keys(s, {"cta", "addr", "count", "bytes"});
      ok = ok && (s.kv("addr") || error(first, "mbarrier needs addr= (its shared-memory offset)"));
    } else if (kw == "symbol") {
      s.kind = StmtKind::Symbol;
      ok = word(s.word, "a symbol name") && punct("=") && expr_list(s.exprs) &&
           (s.exprs.size() == 1 || error(first, "a symbol has one value")) && expect_end();
    } else if (kw == "reg") {
      s.kind = StmtKind::Reg;
      ok = word(s.word, "a register name");
      if (ok && s.word.size() > 3 && s.word.compare(s.word.size() - 3, 3, ".hi") == 0) {
        s.reg_hi = true;
        s.word.resize(s.word.size() - 3);
      }
      ok = ok && punct("=");
      if (ok && tok().is("[")) {
        ++pos_;
        s.reg_list = true;
        ok = expr_list(s.exprs) && punct("]") &&
             (s.exprs.size() == 32 || error(first, "a register list gives all 32 lanes (" +
                                                       std::to_string(s.exprs.size()) + " given)"));
      } else if (ok) {
        const int e = expr();
        ok = e >= 0;
        s.exprs.push_back(e);
      }
      ok = ok && expect_end();
    } else if (kw == "exec") {
      s.kind = StmtKind::Exec;
      ok = kvs(s.kvs) && expect_end() && allowed_keys(s, {"cta", "warp", "mask"});
    } else if (kw == "expect") {
      s.kind = StmtKind::Expect;
      ok = expectation(s);
    } else {
      d_.error(first.loc, "unknown statement '" + kw + "'");
      return;
    }
    if (ok) p_.stmts.push_back(std::move(s));
  }

  // `createpolicy.fractional.L2::<primary>{.L2::<secondary>}.b64 REG{, FRACTION};` sets REG to
  // the policy value in the layout the model decodes (docs/golden.md).
  bool createpolicy(const std::string& kw, const Tok& first, Stmt& s) {
    using golden::L2Priority;
    std::vector<std::string> q;
    for (size_t a = kw.find('.'); a != std::string::npos;) {
      const size_t b = kw.find('.', a + 1);
      q.push_back(kw.substr(a + 1, b == std::string::npos ? b : b - a - 1));
      a = b;
    }
    auto prio = [](const std::string& w, L2Priority& p) {
      for (L2Priority c :
           {L2Priority::Unchanged, L2Priority::First, L2Priority::Last, L2Priority::Normal})
        if (w == "L2::" + std::string(golden::to_string(c))) return p = c, true;
      return false;
    };
    L2Priority primary = L2Priority::Normal, secondary = L2Priority::Unchanged;
    const bool shape = q.size() >= 3 && q.front() == "fractional" && q.back() == "b64" &&
                       prio(q[1], primary) &&
                       (q.size() == 3 || (q.size() == 4 && prio(q[2], secondary)));
    if (!shape ||
        (q.size() == 4 && secondary != L2Priority::First && secondary != L2Priority::Unchanged))
      return error(
          first,
          "only 'createpolicy.fractional.L2::<priority>{.L2::evict_first|evict_unchanged}.b64 "
          "REG{, FRACTION}' is modelled (range policies are opaque values: set the register)");
    s.kind = StmtKind::Reg;
    if (!word(s.word, "the destination register")) return false;
    double fraction = 1.0;
    if (tok().is(",")) {
      ++pos_;
      const Tok f = tok();
      char* end = nullptr;
      const std::string text(f.text);
      fraction = std::strtod(text.c_str(), &end);
      if (f.kind != TokKind::Number || !end || *end || !(fraction > 0.0 && fraction <= 1.0))
        return error(f, "the fraction must be a number in (0, 1]");
      ++pos_;
    }
    if (tok().is(";")) ++pos_;
    if (!expect_end()) return false;
    s.exprs.push_back(p_.exprs.constant(
        golden::encode_fractional_policy(primary, secondary, float(fraction)), first.loc));
    return true;
  }

  bool expectation(Stmt& s) {
    const Tok t = tok();
    std::string what;
    if (!word(what, "what to expect")) return false;
    static const char* const kSpaces[] = {"global",       "shared", "local",   "param_func",
                                          "kernel_param", "const",  "generic", "tmem"};
    for (const char* sp : kSpaces) {
      if (what == sp) {
        --pos_;
        s.word = "memory";
        return mem_loc(s.mem) && values(s);
      }
    }
    s.word = what;
    if (what == "faults") {
      std::string none;
      const Tok n = tok();
      return word(none, "'none'") && (none == "none" || error(n, "expected 'none'")) &&
             expect_end();
    }
    if (what == "fault") {
      if (!kvs(s.kvs) || !allowed_keys(s, {"lane", "lanes"})) return false;
      if (!s.kv("lane") && !s.kv("lanes"))
        return error(t, "expect fault needs lane=N or lanes=MASK|all");
      const Tok k = tok();
      if (!word(s.word2, "a fault kind")) return false;
      if (!golden::fault_from_string(s.word2) || s.word2 == "none")
        return error(k, "unknown fault kind '" + s.word2 + "' (see docs/golden.md)");
      return expect_end();
    }
    if (what == "lines" || what == "sectors" || what == "bytes" || what == "tmem_writes" ||
        what == "mbar_events" || what == "stored" || what == "forced_align") {
      const int e = expr();
      if (e < 0) return false;
      s.exprs.push_back(e);
      return expect_end();
    }
    if (what == "line") {
      const int e = expr();
      if (e < 0) return false;
      s.exprs.push_back(e);
      return kvs(s.kvs) && expect_end() &&
             allowed_keys(s, {"space", "cta", "thread", "addr", "sectors", "lanes", "nbytes",
                              "bytemask_lo", "bytemask_hi"});
    }
    if (what == "mbarrier") {
      return kvs(s.kvs) && expect_end() &&
             allowed_keys(s, {"cta", "addr", "phase", "pending", "expected", "tx"}) &&
             (s.kv("addr") || error(t, "expect mbarrier needs addr="));
    }
    if (what == "order") {
      return kvs(s.kvs) && expect_end() &&
             allowed_keys(s, {"sem", "scope", "strong", "release", "mmio", "volatile", "async"});
    }
    if (what == "cache") {
      return kvs(s.kvs) && expect_end() && allowed_keys(s, {"cop", "l1", "l2", "policy"});
    }
    return error(t, "unknown expectation '" + what + "'");
  }

  Program& p_;
  Diagnostics& d_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  bool body_started_ = false;
};

// --- execution --------------------------------------------------------------------------------

struct RegDef {
  std::vector<int> lo;  // one expression, or 32 (a list)
  std::vector<int> hi;
};

class Runner {
 public:
  Runner(const Program& p, const RunOptions& o, Diagnostics& d, RunSummary& sum)
      : p_(p), o_(o), d_(d), sum_(sum), m_(p.cfg) {}

  void run() {
    for (const Stmt& s : p_.stmts) step(s);
    check_unclaimed();
    if (o_.dump) dump(*o_.dump);
  }

 private:
  Env env(uint64_t lane = 0) const {
    Env e;
    e.lane = lane;
    e.warp = warp_;
    e.cta = cta_;
    e.symbols = &symbols_;
    e.cfg = &p_.cfg;
    return e;
  }
  bool eval(int expr, const Env& e, uint64_t& v) {
    std::string err;
    Loc loc;
    if (p_.exprs.eval(expr, e, v, err, loc)) return true;
    fail(loc, err);
    return false;
  }
  void fail(Loc loc, const std::string& msg) {
    d_.error(loc, msg);
    ++sum_.failed;
  }
  bool kv_value(const Stmt& s, std::string_view key, uint64_t& v, uint64_t dflt) {
    const KV* kv = s.kv(key);
    if (!kv) {
      v = dflt;
      return true;
    }
    return eval(kv->expr, env(), v);
  }

  // The value of a register (or symbol) operand for one lane.
  bool value(const std::string& name, unsigned lane, Loc loc, golden::RegValue& out) {
    auto it = regs_.find(name);
    if (it == regs_.end()) {
      auto sym = symbols_.find(name);
      if (sym != symbols_.end()) {
        out = golden::RegValue{sym->second, 0};
        return true;
      }
      fail(loc,
           "register or symbol '" + name + "' has no value (set it with 'reg " + name + " = ...')");
      return false;
    }
    const RegDef& r = it->second;
    const Env e = env(lane);
    out = golden::RegValue{};
    if (!eval(r.lo.size() == 32 ? r.lo[lane] : r.lo[0], e, out.lo)) return false;
    if (!r.hi.empty() && !eval(r.hi.size() == 32 ? r.hi[lane] : r.hi[0], e, out.hi)) return false;
    return true;
  }
  bool values32(const std::string& name, Loc loc, std::array<uint64_t, 32>& out) {
    for (unsigned l = 0; l < 32; ++l) {
      golden::RegValue v;
      if (!value(name, l, loc, v)) return false;
      out[l] = v.lo;
    }
    return true;
  }

  void check_unclaimed() {
    for (unsigned l = 0; l < 32; ++l) {
      if (!(unclaimed_ >> l & 1)) continue;
      const golden::Fault& f = last_.fault[l];
      fail(last_loc_, "unexpected fault on lane " + std::to_string(l) + ": " +
                          std::string(golden::to_string(f.kind)) + " at " + hex(f.addr) + " (" +
                          std::string(golden::describe(f.kind)) +
                          "); state it with 'expect fault lane=" + std::to_string(l) + " " +
                          std::string(golden::to_string(f.kind)) + "'");
    }
    unclaimed_ = 0;
  }

  void step(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Alloc:
        return alloc(s);
      case StmtKind::Write:
        return write(s);
      case StmtKind::TmemAlloc:
      case StmtKind::TmemDealloc:
        return tmem_alloc(s);
      case StmtKind::Mbar:
        return mbarrier(s);
      case StmtKind::Symbol: {
        uint64_t v;
        if (eval(s.exprs[0], env(), v)) symbols_[s.word] = v;
        return;
      }
      case StmtKind::Reg: {
        RegDef& r = regs_[s.word];
        if (s.reg_hi) {
          r.hi = s.exprs;
        } else {
          r.lo = s.exprs;
          r.hi.clear();
        }
        if (s.reg_hi && r.lo.empty()) fail(s.loc, "set '" + s.word + "' before its .hi half");
        return;
      }
      case StmtKind::Exec: {
        uint64_t cta, warp, mask;
        if (!kv_value(s, "cta", cta, cta_) || !kv_value(s, "warp", warp, warp_) ||
            !kv_value(s, "mask", mask, mask_))
          return;
        if (cta >= p_.cfg.cluster_ctas)
          return fail(s.loc, "cta " + std::to_string(cta) + " is outside the cluster of " +
                                 std::to_string(p_.cfg.cluster_ctas));
        if (warp >= p_.cfg.warps_per_cta)
          return fail(s.loc, "warp " + std::to_string(warp) + " is outside the CTA's " +
                                 std::to_string(p_.cfg.warps_per_cta) + " warps");
        if (mask > 0xFFFFFFFFull) return fail(s.loc, "mask has more than 32 bits");
        cta_ = uint16_t(cta);
        warp_ = uint16_t(warp);
        mask_ = uint32_t(mask);
        return;
      }
      case StmtKind::Ptx:
        return ptx(s);
      case StmtKind::Sass:
        return sass(s);
      case StmtKind::Expect:
        return expect(s);
    }
  }

  void alloc(const Stmt& s) {
    uint64_t base, size;
    if (!eval(s.exprs[0], env(), base) || !eval(s.exprs[1], env(), size)) return;
    const golden::AddressMap& map = p_.cfg.map;
    for (const golden::Window* w : {&map.shared, &map.local, &map.param, &map.konst}) {
      // [base, base + size) and [w.base, w.base + w.size) intersect (no wrap: add() refuses it).
      if (size && w->size && base < w->base + w->size && w->base < base + size &&
          base + size > base)
        return fail(s.loc, "global allocation [" + hex(base) + ", +" + hex(size) +
                               ") overlaps a generic window (see docs/golden.md)");
    }
    if (!m_.allocations().add(base, size))
      fail(s.loc, "global allocation [" + hex(base) + ", +" + hex(size) +
                      ") is empty, wraps or overlaps another allocation");
  }

  // The destination of a memory location.
  bool dest_of(const MemLoc& ml, golden::Dest& d, uint64_t& off) {
    uint64_t cta = cta_, thread = 0, addr;
    if (ml.cta >= 0 && !eval(ml.cta, env(), cta)) return false;
    if (ml.thread >= 0 && !eval(ml.thread, env(), thread)) return false;
    if (!eval(ml.addr, env(), addr)) return false;
    if (cta >= p_.cfg.cluster_ctas || thread >= p_.cfg.threads_per_cta()) {
      fail(ml.loc, "cta " + std::to_string(cta) + " / thread " + std::to_string(thread) +
                       " is outside the configured cluster");
      return false;
    }
    if (ml.generic) {
      const golden::ThreadId who{uint16_t(cta), uint16_t(thread / 32), uint8_t(thread % 32)};
      golden::Resolved r = golden::resolve_generic(p_.cfg, addr, who);
      if (r.fault) {
        fail(ml.loc, "generic address " + hex(addr) +
                         " does not resolve: " + std::string(golden::describe(r.fault.kind)));
        return false;
      }
      d = r.dest;
      off = r.offset;
      return true;
    }
    d = golden::Dest{ml.space, uint16_t(cta), uint32_t(thread)};
    if (ml.space == MemSpace::Global || ml.space == MemSpace::KernelParam ||
        ml.space == MemSpace::Const)
      d.cta = 0, d.thread = 0;
    if (ml.space == MemSpace::Shared) d.thread = 0;
    off = addr;
    return true;
  }

  struct TmemRect {
    uint32_t cta, lane, col, rows, cols;
    uint64_t mask;
  };
  bool tmem_rect(const MemLoc& ml, TmemRect& r) {
    uint64_t cta = cta_, lane, col, rows = 1, cols = 0, mask = 0xFFFFFFFFu;
    if ((ml.cta >= 0 && !eval(ml.cta, env(), cta)) || !eval(ml.lane, env(), lane) ||
        !eval(ml.col, env(), col) || (ml.rows >= 0 && !eval(ml.rows, env(), rows)) ||
        (ml.cols >= 0 && !eval(ml.cols, env(), cols)) ||
        (ml.mask >= 0 && !eval(ml.mask, env(), mask)))
      return false;
    r = TmemRect{uint32_t(cta),  uint32_t(lane), uint32_t(col),
                 uint32_t(rows), uint32_t(cols), mask};
    // No sums that could wrap: each bound is checked against what is left.
    if (cta >= p_.cfg.cluster_ctas || lane >= golden::kTmemLanes || col >= golden::kTmemColumns ||
        rows == 0 || rows > golden::kTmemLanes - lane || (ml.cols >= 0 && cols == 0) ||
        cols > golden::kTmemColumns - col) {
      fail(ml.loc, "tmem rectangle is empty or outside 128 lanes x 512 columns (or the cluster)");
      return false;
    }
    return true;
  }

  // The cells (a TMEM rectangle, row-major) or elements (consecutive memory) a write or
  // memory expectation names, and how many values it takes.
  struct Span {
    bool tmem = false;
    TmemRect r{};
    size_t cols = 0;  // tmem: columns of the rectangle
    golden::Dest d;
    uint64_t off = 0;
    size_t count = 0;
  };
  bool span_of(const Stmt& s, Span& sp) {
    const size_t given = s.repeat > 0 ? size_t(s.repeat) : s.exprs.size();
    if (s.mem.space == MemSpace::Tmem && !s.mem.generic) {
      sp.tmem = true;
      if (!tmem_rect(s.mem, sp.r)) return false;
      sp.cols = sp.r.cols ? sp.r.cols : given / sp.r.rows;
      sp.count = sp.r.rows * sp.cols;
      if (sp.cols == 0 || sp.r.col + sp.cols > golden::kTmemColumns) {
        fail(s.mem.loc, "tmem rectangle: columns out of range (0 or past column 511)");
        return false;
      }
      if (s.exprs.size() != 1 && s.exprs.size() != sp.count) {
        fail(s.loc, std::to_string(s.exprs.size()) + " values for " + std::to_string(sp.count) +
                        " tmem cells");
        return false;
      }
      return true;
    }
    sp.count = given;
    return dest_of(s.mem, sp.d, sp.off);
  }
  // Value k of the statement: its own expression, or the one expression evaluated with
  // i = k (memory) or row/col (tmem).
  bool value_at(const Stmt& s, const Span& sp, size_t k, uint64_t& v) {
    Env e = env();
    e.i = k;
    if (sp.tmem) {
      e.row = k / sp.cols;
      e.col = k % sp.cols;
    }
    return eval(s.exprs.size() == 1 ? s.exprs[0] : s.exprs[k], e, v);
  }
  uint32_t& tmem_cell(const Span& sp, size_t k) {
    const size_t lane = sp.r.lane + k / sp.cols, col = sp.r.col + k % sp.cols;
    return m_.cta(sp.r.cta).tmem_cells()[lane * golden::kTmemColumns + col];
  }

  void write(const Stmt& s) {
    Span sp;
    if (!span_of(s, sp)) return;
    for (size_t k = 0; k < sp.count; ++k) {
      uint64_t v;
      if (!value_at(s, sp, k, v)) return;
      if (sp.tmem) {
        tmem_cell(sp, k) = uint32_t(v);
        continue;
      }
      uint8_t b[8];
      for (unsigned i = 0; i < s.elem_bytes; ++i) b[i] = uint8_t(v >> (8 * i));
      if (!m_.write(sp.d, sp.off + k * s.elem_bytes, b, s.elem_bytes))
        return fail(s.mem.loc, "write outside " + std::string(golden::to_string(sp.d.space)) +
                                   " memory at offset " + hex(sp.off + k * s.elem_bytes));
    }
  }

  void tmem_alloc(const Stmt& s) {
    uint64_t cta, cols, taddr = 0;
    if (!kv_value(s, "cta", cta, cta_) || !kv_value(s, "cols", cols, 0) ||
        !kv_value(s, "taddr", taddr, 0))
      return;
    if (cta >= p_.cfg.cluster_ctas) return fail(s.loc, "cta outside the cluster");
    if (cols > golden::kTmemColumns || taddr > 0xFFFFFFFFu)  // no silent 32-bit truncation
      return fail(s.loc, "tcgen05.alloc/dealloc: cols must be at most 512 and taddr 32 bits");
    golden::TmemAllocator& a = m_.cta(uint32_t(cta)).tmem_alloc;
    if (s.kind == StmtKind::TmemDealloc) {
      if (!a.dealloc(uint32_t(taddr), uint32_t(cols)))
        fail(s.loc, "tcgen05.dealloc of " + hex(taddr) + " x " + std::to_string(cols) +
                        " columns does not match one live allocation");
      return;
    }
    auto base = a.alloc(uint32_t(cols));
    if (!base)
      return fail(s.loc,
                  golden::TmemAllocator::valid_count(uint32_t(cols))
                      ? "tcgen05.alloc of " + std::to_string(cols) + " columns: no free range"
                      : "tcgen05.alloc needs a power of two of columns in [32, 512]");
    if (const KV* name = s.kv("name")) symbols_[name->word] = *base;
    // tcgen05.alloc writes the allocated address to shared memory, as the instruction does.
    if (const KV* smem = s.kv("smem")) {
      uint64_t at;
      if (!eval(smem->expr, env(), at)) return;
      const uint8_t b[4] = {uint8_t(*base), uint8_t(*base >> 8), uint8_t(*base >> 16),
                            uint8_t(*base >> 24)};
      if (at % 4 || !m_.write(golden::Dest{MemSpace::Shared, uint16_t(cta), 0}, at, b, 4))
        fail(smem->loc, "tcgen05.alloc: smem=" + hex(at) +
                            " is not a 4-byte-aligned shared-memory offset of the CTA");
    }
  }

  void mbarrier(const Stmt& s) {
    uint64_t cta, addr, count, bytes;
    if (!kv_value(s, "cta", cta, cta_) || !kv_value(s, "addr", addr, 0) ||
        !kv_value(s, "count", count, 1) || !kv_value(s, "bytes", bytes, 0))
      return;
    if (cta >= p_.cfg.cluster_ctas || addr % 8 || p_.cfg.shared_bytes < 8 ||
        addr > p_.cfg.shared_bytes - 8)
      return fail(s.loc, "mbarrier at " + hex(addr) + " in CTA " + std::to_string(cta) +
                             " is not an 8-byte-aligned shared-memory location");
    using K = golden::MbarOpKind;
    const std::string& w = s.word;
    const golden::MbarOp op{w == "init"          ? K::Init
                            : w == "expect_tx"   ? K::ExpectTx
                            : w == "complete_tx" ? K::CompleteTx
                            : w == "arrive"      ? K::Arrive
                                                 : K::ArriveExpectTx,
                            uint32_t(w == "init" || w == "arrive" ? count : bytes)};
    if ((w == "init" || w == "arrive") ? count > 0xFFFFFFFFull : bytes > 0xFFFFFFFFull)
      return fail(s.loc, "mbarrier count out of range");
    const golden::MbarStep st = golden::mbar_step(m_.mbar(uint32_t(cta), addr), op);
    if (st.fault != golden::FaultKind::None)
      return fail(s.loc, "mbarrier " + w + ": " + std::string(golden::describe(st.fault)));
    m_.set_mbar(uint32_t(cta), addr, st.next);
  }

  // --- stores ---------------------------------------------------------------------------------
  uint32_t guard_mask(const std::string& reg, bool negated, Loc loc, bool& ok) {
    uint32_t m = 0;
    for (unsigned l = 0; l < 32 && ok; ++l) {
      golden::RegValue v;
      ok = value(reg, l, loc, v);
      if (ok && ((v.lo != 0) != negated)) m |= 1u << l;
    }
    return m;
  }

  bool immediate(const isa::Operand& o, uint64_t& v) {
    std::string_view t = o.text;
    const bool neg = !t.empty() && t[0] == '-';
    if (neg) t.remove_prefix(1);
    if (!parse_number(t, v)) {
      fail(o.loc, "immediate '" + o.text + "' is not an integer or a 0f/0d bit pattern");
      return false;
    }
    if (neg) v = uint64_t(0) - v;
    return true;
  }

  bool source(const isa::Operand& o, const std::string& name, unsigned lane, golden::RegValue& v) {
    if (o.kind == isa::Operand::Kind::Sink) {
      v = {};
      return true;
    }
    if (o.kind == isa::Operand::Kind::Immediate) {
      v = {};
      if (!immediate(o, v.lo)) return false;
    } else if (!value(name, lane, o.loc, v)) {
      return false;
    }
    if (o.has_addend) v.lo += uint64_t(o.addend);
    return true;
  }

  void begin_store(const Stmt& s) {
    check_unclaimed();
    ++sum_.stores;
    last_loc_ = s.loc;
    have_last_ = true;
  }

  void ptx(const Stmt& s) {
    begin_store(s);
    const isa::Instruction& ins = s.ins;
    bool ok = true;
    uint32_t active = mask_;
    if (ins.guard.present())
      active &= guard_mask(ins.guard.reg, ins.guard.negated, ins.guard.loc, ok);
    ops_.addr.fill(0);
    if (ok && ins.addr.base != isa::Address::Base::Immediate)
      ok = values32(ins.addr.name, ins.addr.loc, ops_.addr);
    // Source elements: the brace list, or the components .x .y .z .w of a vector register.
    const bool tc = ins.op == isa::Opcode::Tcgen05St;
    const unsigned elems = tc ? unsigned(ins.src.size()) : ins.vec_lanes();
    ops_.src.assign(size_t(elems) * 32, golden::RegValue{});
    static const char* const kComp[] = {".x", ".y", ".z", ".w"};
    for (unsigned e = 0; e < elems && ok; ++e) {
      const bool comp = ins.src.size() == 1 && elems > 1;
      if (comp && e >= 4) {
        fail(ins.src[0].loc, "a vector register has at most 4 components");
        ok = false;
        break;
      }
      if (ins.src.empty()) break;
      const isa::Operand& o = comp ? ins.src[0] : ins.src[std::min<size_t>(e, ins.src.size() - 1)];
      const std::string name = comp ? o.text + kComp[e] : o.text;
      for (unsigned l = 0; l < 32 && ok; ++l) ok = source(o, name, l, ops_.src[e * 32 + l]);
    }
    if (ok && ins.policy) {
      for (unsigned l = 0; l < 32 && ok; ++l) {
        golden::RegValue v;
        ok = source(*ins.policy, ins.policy->text, l, v);
        ops_.policy[l] = v.lo;
      }
    }
    if (ok && ins.mbar && ins.mbar->base != isa::Address::Base::Immediate)
      ok = values32(ins.mbar->name, ins.mbar->loc, ops_.mbar);
    if (!ok) {
      have_last_ = false;
      return;
    }
    const golden::WarpContext ctx{cta_, warp_, active};
    golden::execute(m_, ins, ctx, ops_, last_, scratch_);
    after_store(s);
  }

  void sass(const Stmt& s) {
    begin_store(s);
    // Registers R0..R254 and predicates P0..P6 are read from the .sts registers of that name.
    auto reg_of = [&](unsigned r, unsigned lane, uint32_t& v) {
      if (r >= 255) return v = 0, true;
      golden::RegValue rv;
      const std::string name = "R" + std::to_string(r);
      if (!regs_.count(name)) return v = 0, true;  // unset registers read as zero
      if (!value(name, lane, s.loc, rv)) return false;
      v = uint32_t(rv.lo);
      return true;
    };
    const isa::SassSt& st = s.sass;
    std::vector<unsigned> regs;
    if (!st.absolute()) {
      regs.push_back(st.ra);
      if (st.extended) regs.push_back(st.ra + 1u);
    }
    for (unsigned k = 0; k < (isa::bytes_of(st.size) + 3) / 4; ++k) regs.push_back(st.rb + k);
    for (unsigned r : regs) {
      for (unsigned l = 0; l < 32; ++l) {
        uint32_t v;
        if (!reg_of(r, l, v)) {
          have_last_ = false;
          return;
        }
        rf_.write(l, r, v);
      }
    }
    for (unsigned p = 0; p < 7; ++p) {
      const std::string name = "P" + std::to_string(p);
      if (!regs_.count(name)) continue;
      for (unsigned l = 0; l < 32; ++l) {
        golden::RegValue v;
        if (!value(name, l, s.loc, v)) {
          have_last_ = false;
          return;
        }
        rf_.set_pred(l, p, v.lo != 0);
      }
    }
    const golden::WarpContext ctx{cta_, warp_, mask_};
    golden::execute_sass(m_, st, ctx, rf_, last_, scratch_);
    after_store(s);
  }

  void after_store(const Stmt& s) {
    unclaimed_ = last_.fault_mask;
    if (!o_.trace) return;
    std::ostream& os = *o_.trace;
    os << "line " << s.loc.line << ": " << s.text << "\n  cta " << cta_ << " warp " << warp_
       << " mask " << hex(mask_, 8) << ": stored " << hex(last_.stored_mask, 8) << ", "
       << last_.bytes << " bytes";
    if (last_.forced_align_mask) os << ", forced alignment " << hex(last_.forced_align_mask, 8);
    os << "\n";
    // Faults grouped by kind: the lanes, and the first lane's address.
    uint32_t left = last_.fault_mask;
    while (left) {
      const unsigned first = unsigned(__builtin_ctz(left));
      const golden::FaultKind k = last_.fault[first].kind;
      uint32_t lanes = 0;
      for (uint32_t m = left; m; m &= m - 1) {
        const unsigned l = unsigned(__builtin_ctz(m));
        if (last_.fault[l].kind == k) lanes |= 1u << l;
      }
      os << "  fault " << golden::to_string(k) << " on lanes " << hex(lanes, 8) << " (lane "
         << first << " at " << hex(last_.fault[first].addr) << ")\n";
      left &= ~lanes;
    }
    for (size_t i = 0; i < last_.lines.size(); ++i)
      os << "  line " << i << ": " << golden::to_string(last_.lines[i]) << "\n";
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < last_.tmem.size() && i < kShown; ++i) {
      const golden::TmemWrite& w = last_.tmem[i];
      os << "  tmem cta " << w.cta << " lane " << w.lane << " col " << w.col << " mask "
         << hex(w.col_mask, 8) << "\n";
    }
    if (last_.tmem.size() > kShown)
      os << "  ... " << last_.tmem.size() - kShown << " more tmem runs, last at lane "
         << last_.tmem.back().lane << " col " << last_.tmem.back().col << "\n";
    for (const golden::MbarEvent& e : last_.mbar)
      os << "  mbarrier cta " << e.cta << " " << hex(e.offset) << ": complete_tx " << e.bytes
         << (e.phase_completed ? " (phase completed)" : "") << "\n";
  }

  // --- expectations -----------------------------------------------------------------------
  bool need_last(const Stmt& s) {
    if (have_last_) return true;
    fail(s.loc, sum_.stores
                    ? "expectation about the last store, which did not run (see the error above)"
                    : "expectation about the last store, but no store has executed");
    return false;
  }

  void expect(const Stmt& s) {
    ++sum_.expectations;
    const std::string& w = s.word;
    if (w == "memory") return expect_memory(s);
    if (w == "mbarrier") return expect_mbarrier(s);
    if (!need_last(s)) return;
    if (w == "faults") {
      if (last_.fault_mask) {
        const unsigned l = unsigned(__builtin_ctz(last_.fault_mask));
        fail(s.loc, "expected no faults, but " +
                        std::to_string(__builtin_popcount(last_.fault_mask)) +
                        " lane(s) faulted, first lane " + std::to_string(l) + ": " +
                        std::string(golden::to_string(last_.fault[l].kind)));
        unclaimed_ = 0;
      }
      return;
    }
    if (w == "fault") return expect_fault(s);
    if (w == "line") return expect_line(s);
    if (w == "order") return expect_order(s);
    if (w == "cache") return expect_cache(s);
    uint64_t want;
    if (!eval(s.exprs[0], env(), want)) return;
    uint64_t got = 0;
    if (w == "lines")
      got = last_.lines.size();
    else if (w == "sectors")
      for (const auto& l : last_.lines) got += unsigned(__builtin_popcount(l.sector_mask));
    else if (w == "bytes")
      got = last_.bytes;
    else if (w == "tmem_writes")
      got = last_.tmem.size();
    else if (w == "mbar_events")
      got = last_.mbar.size();
    else if (w == "stored")
      got = last_.stored_mask;
    else if (w == "forced_align")
      got = last_.forced_align_mask;
    if (got != want)
      fail(s.loc,
           "expectation failed: " + w + ": expected " + num(want, w) + ", actual " + num(got, w));
  }
  static std::string num(uint64_t v, const std::string& what) {
    return what == "stored" || what == "forced_align" ? hex(v, 8) : std::to_string(v);
  }

  void expect_fault(const Stmt& s) {
    uint32_t lanes = 0;
    if (const KV* kv = s.kv("lane")) {
      uint64_t l;
      if (!eval(kv->expr, env(), l)) return;
      if (l >= 32) return fail(kv->loc, "lane must be 0..31");
      lanes = 1u << l;
    }
    if (const KV* kv = s.kv("lanes")) {
      uint64_t m = last_.fault_mask | last_.stored_mask;
      if (kv->word != "all" && !eval(kv->expr, env(), m)) return;
      lanes |= uint32_t(m);
    }
    const golden::FaultKind want = *golden::fault_from_string(s.word2);
    for (unsigned l = 0; l < 32; ++l) {
      if (!(lanes >> l & 1)) continue;
      const golden::FaultKind got = last_.fault[l].kind;
      if (got != want) {
        fail(s.loc, "expectation failed: fault on lane " + std::to_string(l) + ": expected " +
                        s.word2 + ", actual " + std::string(golden::to_string(got)));
        unclaimed_ &= ~lanes;
        return;
      }
    }
    unclaimed_ &= ~lanes;
  }

  // The field comparisons of one expectation: each key the statement gives is compared with
  // the actual value; every difference is reported in one message.
  class FieldDiffs {
   public:
    FieldDiffs(Runner& r, const Stmt& s) : r_(r), s_(s) {}
    enum class As : uint8_t { Dec, Hex, Signed };
    void number(const char* key, uint64_t got, As as = As::Dec) {
      const KV* kv = s_.kv(key);
      uint64_t want;
      if (!kv || !r_.eval(kv->expr, r_.env(), want) || want == got) return;
      add(key, text(want, as), text(got, as));
    }
    void flag(const char* key, bool got) {
      const KV* kv = s_.kv(key);
      uint64_t want;
      if (kv && r_.eval(kv->expr, r_.env(), want) && (want != 0) != got)
        add(key, std::to_string(want != 0), std::to_string(got));
    }
    void word(const char* key, const std::string& got) {
      const KV* kv = s_.kv(key);
      if (kv && kv->word != got) add(key, kv->word, got);
    }
    void report(const std::string& what) {
      if (!diffs_.empty()) r_.fail(s_.loc, "expectation failed: " + what + ": " + diffs_);
    }

   private:
    static std::string text(uint64_t v, As as) {
      return as == As::Hex      ? hex(v)
             : as == As::Signed ? std::to_string(int64_t(v))
                                : std::to_string(v);
    }
    void add(const char* key, const std::string& want, const std::string& got) {
      diffs_ +=
          (diffs_.empty() ? "" : ", ") + std::string(key) + " expected " + want + ", actual " + got;
    }
    Runner& r_;
    const Stmt& s_;
    std::string diffs_;
  };

  void expect_line(const Stmt& s) {
    uint64_t idx;
    if (!eval(s.exprs[0], env(), idx)) return;
    if (idx >= last_.lines.size())
      return fail(s.loc, "expectation failed: line " + std::to_string(idx) + " does not exist (" +
                             std::to_string(last_.lines.size()) + " line requests)");
    const golden::LineRequest& r = last_.lines[idx];
    using As = FieldDiffs::As;
    FieldDiffs f(*this, s);
    f.word("space", std::string(golden::to_string(r.dest.space)));
    f.number("cta", r.dest.cta);
    f.number("thread", r.dest.thread);
    f.number("addr", r.line, As::Hex);
    f.number("sectors", r.sector_mask, As::Hex);
    f.number("lanes", r.lane_mask, As::Hex);
    f.number("nbytes", r.bytes.count());
    f.number("bytemask_lo", r.bytes.lo, As::Hex);
    f.number("bytemask_hi", r.bytes.hi, As::Hex);
    f.report("line " + std::to_string(idx));
  }

  void expect_order(const Stmt& s) {
    const golden::Ordering& o = last_.order;
    FieldDiffs f(*this, s);
    f.word("sem", o.mmio ? "mmio" : std::string(isa::to_string(o.sem)));
    f.word("scope", o.scope ? std::string(isa::to_string(*o.scope)) : "none");
    f.flag("strong", o.strong);
    f.flag("release", o.release);
    f.flag("mmio", o.mmio);
    f.flag("volatile", o.is_volatile);
    f.flag("async", o.async);
    f.report("order");
  }

  void expect_cache(const Stmt& s) {
    const golden::CacheAttrs& c = last_.cache;
    FieldDiffs f(*this, s);
    f.word("cop", c.cop ? std::string(isa::to_string(*c.cop)) : "none");
    f.word("l1", c.l1 ? std::string(isa::to_string(*c.l1)) : "none");
    f.word("l2", c.l2 ? std::string(isa::to_string(*c.l2)) : "none");
    f.word("policy", c.has_policy ? c.policy.str() : "none");
    f.report("cache");
  }

  void expect_mbarrier(const Stmt& s) {
    uint64_t cta, addr;
    if (!kv_value(s, "cta", cta, cta_) || !kv_value(s, "addr", addr, 0)) return;
    if (cta >= p_.cfg.cluster_ctas || p_.cfg.shared_bytes < 8 || addr > p_.cfg.shared_bytes - 8)
      return fail(s.loc, "mbarrier location outside shared memory");
    const golden::MbarState st = m_.mbar(uint32_t(cta), addr);
    using As = FieldDiffs::As;
    FieldDiffs f(*this, s);
    f.number("phase", st.phase);
    f.number("pending", st.pending);
    f.number("expected", st.expected);
    f.number("tx", uint64_t(int64_t(st.tx)), As::Signed);
    f.report("mbarrier cta " + std::to_string(cta) + " " + hex(addr));
  }

  void expect_memory(const Stmt& s) {
    Span sp;
    if (!span_of(s, sp)) return;
    size_t bad = 0;
    std::string first;
    const uint64_t mask = sp.tmem             ? sp.r.mask
                          : s.elem_bytes == 8 ? ~uint64_t(0)
                                              : ((uint64_t(1) << (8 * s.elem_bytes)) - 1);
    const int digits = sp.tmem ? 8 : int(2 * s.elem_bytes);
    for (size_t k = 0; k < sp.count; ++k) {
      uint64_t want, got = 0;
      if (!value_at(s, sp, k, want)) return;
      std::string where;
      if (sp.tmem) {
        got = tmem_cell(sp, k);
        where = "tmem cta " + std::to_string(sp.r.cta) + " lane " +
                std::to_string(sp.r.lane + k / sp.cols) + " col " +
                std::to_string(sp.r.col + k % sp.cols);
      } else {
        uint8_t b[8] = {};
        if (!m_.read(sp.d, sp.off + k * s.elem_bytes, b, s.elem_bytes))
          return fail(s.mem.loc, "expectation reads outside " +
                                     std::string(golden::to_string(sp.d.space)) +
                                     " memory at offset " + hex(sp.off + k * s.elem_bytes));
        for (unsigned i = 0; i < s.elem_bytes; ++i) got |= uint64_t(b[i]) << (8 * i);
        where = std::string(golden::to_string(sp.d.space)) + " " + hex(sp.off + k * s.elem_bytes) +
                " (element " + std::to_string(k) + ")";
      }
      if ((want & mask) != (got & mask) && bad++ == 0)
        first = where + ": expected " + hex(want & mask, digits) + ", actual " +
                hex(got & mask, digits);
    }
    if (bad)
      fail(s.loc, "expectation failed: " + first + " (" + std::to_string(bad) + " of " +
                      std::to_string(sp.count) + (sp.tmem ? " cells" : " elements") + " differ)");
  }

  // --- dump -------------------------------------------------------------------------------
  void rows(std::ostream& os, const uint8_t* data, size_t n, uint64_t base, int width) {
    const uint8_t fill = p_.cfg.fill;
    for (size_t r = 0; r < n; r += 16) {
      bool all_fill = true;
      for (size_t i = r; i < r + 16 && i < n; ++i) all_fill &= data[i] == fill;
      if (all_fill) continue;
      os << hex(base + r, width) << ":";
      for (size_t i = r; i < r + 16 && i < n; ++i) {
        char b[4];
        std::snprintf(b, sizeof b, " %02x", data[i]);
        os << b;
      }
      os << "\n";
    }
  }

  void dump_sparse(std::ostream& os, const golden::SparseMemory& mem, const char* name) {
    for (uint64_t pn : mem.page_numbers()) {
      const uint64_t key = pn << golden::SparseMemory::kPageBits;
      const uint32_t cta = uint32_t(key >> 56), thread = uint32_t((key >> 40) & 0xFFFF);
      os << "[" << name << " cta=" << cta << " thread=" << thread << "]\n";
      rows(os, mem.page(pn), golden::SparseMemory::kPageBytes, key & ((uint64_t(1) << 40) - 1), 8);
    }
  }

  void dump(std::ostream& os) {
    os << "# stu memory image: rows of 16 bytes that differ from the fill byte "
       << hex(p_.cfg.fill, 2) << "\n";
    os << "[global]\n";
    for (uint64_t pn : m_.global().page_numbers())
      rows(os, m_.global().page(pn), golden::SparseMemory::kPageBytes,
           pn << golden::SparseMemory::kPageBits, 16);
    for (uint32_t c = 0; c < p_.cfg.cluster_ctas; ++c) {
      os << "[shared cta=" << c << "]\n";
      rows(os, m_.cta(c).shared.data(), m_.cta(c).shared.size(), 0, 8);
    }
    dump_sparse(os, m_.local(), "local");
    dump_sparse(os, m_.param_func(), "param_func");
    os << "[kernel_param]\n";
    rows(os, m_.kernel_param().data(), m_.kernel_param().size(), 0, 8);
    os << "[const]\n";
    rows(os, m_.const_bank().data(), m_.const_bank().size(), 0, 8);
    for (uint32_t c = 0; c < p_.cfg.cluster_ctas; ++c) {
      const golden::CtaState& cs = m_.cta(c);
      if (cs.tmem.empty()) continue;
      os << "[tmem cta=" << c << " allocated-units=" << hex(cs.tmem_alloc.unit_mask(), 4) << "]\n";
      for (uint32_t lane = 0; lane < golden::kTmemLanes; ++lane)
        for (uint32_t col = 0; col < golden::kTmemColumns; col += 8) {
          const uint32_t* p = cs.tmem.data() + lane * golden::kTmemColumns + col;
          bool zero = true;
          for (int i = 0; i < 8; ++i) zero &= p[i] == 0;
          if (zero) continue;
          os << "lane " << lane << " col " << col << ":";
          for (int i = 0; i < 8; ++i) os << " " << hex(p[i], 8);
          os << "\n";
        }
    }
  }

  const Program& p_;
  const RunOptions& o_;
  Diagnostics& d_;
  RunSummary& sum_;
  golden::MachineState m_;
  std::map<std::string, RegDef, std::less<>> regs_;
  std::map<std::string, uint64_t, std::less<>> symbols_;
  uint16_t cta_ = 0, warp_ = 0;
  uint32_t mask_ = 0xFFFFFFFFu;
  golden::WarpOperands ops_;
  golden::SassRegisterFile rf_;
  golden::StoreResult last_;
  golden::Scratch scratch_;
  bool have_last_ = false;
  uint32_t unclaimed_ = 0;
  Loc last_loc_;
};

}  // namespace

RunSummary run(std::string_view text, const RunOptions& opts, Diagnostics& diags) {
  RunSummary sum;
  Program prog;
  {
    Parser parser(prog, diags);
    uint32_t lineno = 1;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      parser.line(text.substr(start, end - start), lineno++);
      start = end + 1;
    }
  }
  if (diags.has_errors()) return sum;
  const std::string bad = prog.cfg.check();
  if (!bad.empty()) {
    diags.error(isa::Loc{1, 1}, "inconsistent configuration: " + bad);
    return sum;
  }
  sum.parsed = true;
  Runner(prog, opts, diags, sum).run();
  return sum;
}

}  // namespace stu::sts
