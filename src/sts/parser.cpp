// The `.sts` parser: one line at a time into a Program (statements, expressions, config).
#include <algorithm>

#include "stu/golden/access.h"
#include "stu/golden/policy.h"
#include "stu/isa/parser.h"
#include "stu/isa/validator.h"
#include "stu/sts/program.h"

namespace stu::sts {

namespace {

// Keys whose value is a word rather than an expression.
bool word_key(std::string_view k) {
  return k == "name" || k == "space" || k == "sem" || k == "scope" || k == "cop" || k == "l1" ||
         k == "l2" || k == "policy" || k == "class" || k == "cause";
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
      if (ins->op == isa::Opcode::StBulk && !local.has_errors()) {
        local.error(ins->loc,
                    "'st.bulk' is checked but not executed by the golden model (it "
                    "stores no register data)");
      }
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
  bool error(Loc loc, const std::string& msg) {
    d_.error(loc, msg);
    return false;
  }
  // Cache statements and expectations need caches configured in the header.
  bool need_caches(const Tok& t, const std::string& what) {
    return p_.caches.has_value() ||
           error(t, "'" + what +
                        "' needs caches: configure them in the header ('cache l1 bytes=N ways=N', "
                        "'cache l2 ...', 'cache write_buffer entries=N')");
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
    return allowed_keys(s, std::vector<std::string_view>(keys));
  }
  bool allowed_keys(const Stmt& s, const std::vector<std::string_view>& keys) {
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
    if (key == "cache") return cache_config();
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

  // `cache l1|l2 [bytes=N] [ways=N]`, `cache write_buffer entries=N`: the first turns the
  // cache hierarchy on with the defaults of golden::HierarchyConfig.
  bool cache_config() {
    const Tok t = tok();
    std::string level;
    if (!word(level, "a cache level (l1, l2 or write_buffer)")) return false;
    if (level != "l1" && level != "l2" && level != "write_buffer")
      return error(t, "unknown cache level '" + level + "' (expected l1, l2 or write_buffer)");
    Stmt s;
    if (!kvs(s.kvs) || !expect_end()) return false;
    if (!(level == "write_buffer" ? allowed_keys(s, {"entries"})
                                  : allowed_keys(s, {"bytes", "ways"})))
      return false;
    if (!p_.caches) p_.caches.emplace();
    golden::HierarchyConfig& h = *p_.caches;
    for (const KV& kv : s.kvs) {
      bool ok = true;
      const uint64_t v = const_value(kv.expr, ok);
      if (!ok) return false;
      if (kv.key != "bytes" && v > 0xFFFFFFFFu)
        return error(kv.loc, level + " " + kv.key + ": value out of range");
      if (kv.key == "entries")
        h.write_buffer = unsigned(v);
      else if (kv.key == "ways")
        (level == "l1" ? h.l1 : h.l2).ways = uint32_t(v);
      else
        (level == "l1" ? h.l1 : h.l2).bytes = v;
    }
    // The error names its field: report it at that key (or at the level when left out).
    const std::string bad = level == "write_buffer" ? golden::WriteBuffer::check(h.write_buffer)
                            : level == "l1"         ? h.l1.check()
                                                    : h.l2.check();
    if (bad.empty()) return true;
    const KV* at = s.kv(bad.substr(0, bad.find(':')));
    return error(at ? at->loc : t.loc, "bad cache configuration: " + level + " " + bad);
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
        "target", "ptx",           "cluster",         "warps",     "shared",
        "local",  "param_func",    "kernel_param",    "const",     "fill",
        "window", "shared_stride", "sass_misaligned", "sass_regs", "cache"};
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
    } else if (kw == "drain" || kw == "flush") {
      s.kind = StmtKind::Caches;
      s.word = kw;
      ok = need_caches(first, kw) && expect_end();
    } else if (kw.rfind("fence.", 0) == 0) {
      ok = fence(kw, first, s);
    } else if (kw == "expect") {
      s.kind = StmtKind::Expect;
      ok = expectation(s);
    } else {
      d_.error(first.loc, "unknown statement '" + kw + "'");
      return;
    }
    if (ok) p_.stmts.push_back(std::move(s));
  }

  // `fence.{sc,acq_rel}.{cta,cluster,gpu,sys}` (an optional `;`): a fence of the warp that
  // `exec` selected.
  bool fence(const std::string& kw, const Tok& first, Stmt& s) {
    s.kind = StmtKind::Fence;
    const size_t a = kw.find('.'), b = kw.find('.', a + 1);
    const std::string sem = b == std::string::npos ? std::string() : kw.substr(a + 1, b - a - 1);
    const std::string scope = b == std::string::npos ? std::string() : kw.substr(b + 1);
    bool known = sem == "sc" || sem == "acq_rel";
    if (scope == "cta")
      s.scope = isa::Scope::Cta;
    else if (scope == "cluster")
      s.scope = isa::Scope::Cluster;
    else if (scope == "gpu")
      s.scope = isa::Scope::Gpu;
    else if (scope == "sys")
      s.scope = isa::Scope::Sys;
    else
      known = false;
    if (!known)
      return error(first,
                   "expected 'fence.sc.SCOPE' or 'fence.acq_rel.SCOPE' (SCOPE: cta, "
                   "cluster, gpu, sys), got '" +
                       kw + "'");
    s.word = sem;
    if (tok().is(";")) ++pos_;
    return expect_end();
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
      std::vector<std::string_view> keys;  // the one field list of a line request
      for (const golden::LineField& f : golden::line_fields()) keys.push_back(f.name);
      return kvs(s.kvs) && expect_end() && allowed_keys(s, keys);
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
    if (what == "l1" || what == "l2") {  // expect l1|l2 ADDR absent | [key=value ...]
      if (!need_caches(t, "expect " + what)) return false;
      const int e = expr();
      if (e < 0) return false;
      s.exprs.push_back(e);
      if (tok().is_word("absent")) {
        s.word2 = "absent";
        ++pos_;
        return expect_end();
      }
      if (!kvs(s.kvs) || !expect_end() ||
          !allowed_keys(s, {"valid_lo", "valid_hi", "dirty_lo", "dirty_hi", "sectors", "class"}))
        return false;
      const KV* c = s.kv("class");
      return !c || golden::evict_class_from_string(c->word) ||
             error(c->loc, "unknown eviction class '" + c->word + "' (first, normal or last)");
    }
    if (what == "write_buffer" || what == "dram_writes") {
      if (!need_caches(t, "expect " + what)) return false;
      const int e = expr();
      if (e < 0) return false;
      s.exprs.push_back(e);
      return expect_end();
    }
    if (what == "dram_write") {  // expect dram_write I [addr=] [bytemask_lo/hi=] [cause=]
      if (!need_caches(t, "expect " + what)) return false;
      const int e = expr();
      if (e < 0) return false;
      s.exprs.push_back(e);
      if (!kvs(s.kvs) || !expect_end() ||
          !allowed_keys(s, {"addr", "bytemask_lo", "bytemask_hi", "cause"}))
        return false;
      const KV* c = s.kv("cause");
      return !c || golden::dram_cause_from_string(c->word) ||
             error(c->loc, "unknown cause '" + c->word + "' (eviction, write_through or flush)");
    }
    return error(t, "unknown expectation '" + what + "'");
  }

  Program& p_;
  Diagnostics& d_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  bool body_started_ = false;
};

}  // namespace

bool parse(std::string_view text, Program& program, Diagnostics& diags) {
  const size_t errors_before = diags.error_count();
  Parser parser(program, diags);
  uint32_t lineno = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    parser.line(text.substr(start, end - start), lineno++);
    start = end + 1;
  }
  if (diags.error_count() != errors_before) return false;
  const std::string bad = program.cfg.check();
  if (!bad.empty()) {
    diags.error(Loc{1, 1}, "inconsistent configuration: " + bad);
    return false;
  }
  return true;
}

}  // namespace stu::sts
