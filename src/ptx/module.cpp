#include "stu/ptx/module.h"

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "func_directives.h"
#include "store_jobs.h"
#include "stu/isa/lexer.h"
#include "stu/isa/parser.h"
#include "stu/isa/validator.h"
#include "symbols.h"

namespace stu::ptx {
namespace {

using isa::Lexer;
using isa::Loc;
using isa::Symbol;
using isa::Token;
using isa::TokKind;

std::string show(const Token& t) {
  if (t.kind == TokKind::End) return "end of file";
  if (t.kind == TokKind::Invalid) {
    char buf[8];
    snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(t.text[0]));
    return std::string("invalid character ") + buf;
  }
  return "'" + std::string(t.text.substr(0, 40)) + (t.text.size() > 40 ? "...'" : "'");
}

bool is_directive(const Token& t) { return t.kind == TokKind::Word && t.text[0] == '.'; }

std::optional<isa::Space> space_directive(std::string_view w) {
  if (w == ".global") return isa::Space::Global;
  if (w == ".shared") return isa::Space::Shared;
  if (w == ".local") return isa::Space::Local;
  if (w == ".const") return isa::Space::Const;
  if (w == ".param") return isa::Space::Param;
  return std::nullopt;
}

// Linkage prefixes written before a module-scope declaration.
struct Linkage {
  bool is_extern = false;
  Token common;  // `.common`, when written
};

class Reader {
 public:
  Reader(std::string_view text, Diagnostics& d, const CheckOptions& o, const StoreVisitor& v)
      : lx_(text), text_(text), d_(d), opts_(o), visit_(v) {
    // Stores are checked on several threads only when nobody watches them one by one.
    const unsigned threads = o.threads != 0 ? o.threads : std::thread::hardware_concurrency();
    if (threads > 1 && !v) jobs_ = std::make_unique<StoreJobs>(text, symbols_, threads);
    stats_.lines = 1;
    // memchr scans a line per call (vectorized); a byte-at-a-time loop cost 2 % of a check.
    const char* const end = text.data() + text.size();
    for (const char* p = text.data();
         p != end && (p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)))); ++p) {
      ++stats_.lines;
    }
  }

  CheckStats run() {
    declare_special_registers();
    for (;;) {
      Token t = lx_.next();
      if (t.kind == TokKind::End) break;
      top_level(t);
    }
    flush();
    if (lx_.saw_unterminated_comment()) {
      diag().error(lx_.unterminated_loc(), "unterminated comment");
    }
    if (!have_version_ && !opts_.version) diag().error(Loc{1, 1}, "missing '.version' directive");
    if (!have_target_ && !opts_.target) diag().error(Loc{1, 1}, "missing '.target' directive");
    stats_.target = ctx_.target;
    stats_.version = ctx_.version;
    stats_.has_target = have_target_ || opts_.target.has_value();
    stats_.has_version = have_version_ || opts_.version.has_value();
    return stats_;
  }

  // A job's parse ended where the reader did not expect: the caller must check the module
  // again on one thread (the diagnostics and statistics of this run are not the right ones).
  bool mismatched() const { return mismatch_; }

 private:
  // PTX special registers (predefined, read-only): usable as source operands.
  void declare_special_registers() {
    // Typed as bits: ptxas lets them join any vector of their width.
    Symbol u32;
    u32.type = isa::DataType::B32;
    u32.special = true;
    Symbol u64;
    u64.type = isa::DataType::B64;
    u64.special = true;
    static const char* const k32[] = {"%laneid",
                                      "%warpid",
                                      "%nwarpid",
                                      "%smid",
                                      "%nsmid",
                                      "%clock",
                                      "%lanemask_eq",
                                      "%lanemask_le",
                                      "%lanemask_lt",
                                      "%lanemask_ge",
                                      "%lanemask_gt",
                                      "%total_smem_size",
                                      "%aggr_smem_size",
                                      "%dynamic_smem_size",
                                      "%is_explicit_cluster",
                                      "%cluster_ctarank",
                                      "%cluster_nctarank",
                                      "%current_graph_exec",
                                      "%reserved_smem_offset_begin",
                                      "%reserved_smem_offset_end",
                                      "%reserved_smem_offset_cap"};
    for (const char* n : k32) symbols_.declare(n, u32);
    static const char* const k64[] = {"%clock64", "%gridid", "%globaltimer", "%globaltimer_lo",
                                      "%globaltimer_hi"};
    for (const char* n : k64) symbols_.declare(n, u64);
    // Vector-valued ones: %tid.x, %ntid.y, %ctaid.z, %nctaid.x, %clusterid.x, ...
    static const char* const kVec[] = {"%tid",           "%ntid",          "%ctaid",
                                       "%nctaid",        "%clusterid",     "%nclusterid",
                                       "%cluster_ctaid", "%cluster_nctaid"};
    for (const char* base : kVec) {
      for (const char* c : {".x", ".y", ".z", ".w"}) {
        special_names_.push_back(std::string(base) + c);
      }
      special_names_.push_back(base);  // the whole vector (e.g. mov.u32 %r, %tid.x only)
    }
    for (const std::string& s : special_names_) symbols_.declare(s, u32);
    symbols_.declare_range("%pm", 8, u32);
    symbols_.declare_range("%envreg", 32, u32);
  }

  // ------------------------------------------------------------------ module level
  void top_level(const Token& t) {
    flush();  // the target, the version and module-scope names may change
    if (t.kind != TokKind::Word || !is_directive(t)) {
      diag().error(t.loc, "unexpected " + show(t) + " at module scope");
      if (!t.is(';')) isa::skip_statement(lx_, true);
      return;
    }
    std::string_view w = t.text;
    if (w == ".version") return version_directive(t);
    if (w == ".target") return target_directive(t);
    if (w == ".address_size") return address_size_directive(t);
    if (w == ".file") return skip_line();
    if (w == ".loc") {
      diag().error(t.loc, "'.loc' is allowed only inside a function body");
      return skip_line();
    }
    if (w == ".section") return skip_section(t);
    if (is_func_header_directive(w)) {
      diag().error(t.loc, show(t) + " belongs in a function header, not at module scope");
      isa::skip_statement(lx_, true);
      return;
    }
    if (w == ".visible" || w == ".extern" || w == ".weak" || w == ".common") {
      // Linkage prefixes: iterate (not recurse) so a hostile run of them cannot overflow.
      Linkage link;
      Token n = t;
      while (n.kind == TokKind::Word && (n.text == ".visible" || n.text == ".extern" ||
                                         n.text == ".weak" || n.text == ".common")) {
        link.is_extern |= n.text == ".extern";
        if (n.text == ".common") link.common = n;
        n = lx_.next();
      }
      if (n.kind == TokKind::End) {
        diag().error(t.loc, "unexpected end of file after " + show(t));
        return;
      }
      if (link.common.kind == TokKind::Word && n.kind == TokKind::Word && n.text != ".global") {
        diag().error(link.common.loc,
                     "'.common' applies only to '.global' variables, not " + show(n));
      }
      if (n.is_word(".entry") || n.is_word(".func")) {
        seen_declaration_ = true;
        return function(n, false, link.is_extern);
      }
      if (auto sp = space_directive(n.text); sp && n.kind == TokKind::Word) {
        return module_declaration(n, *sp, link.is_extern);
      }
      return top_level(n);
    }
    if (w == ".entry" || w == ".func") {
      seen_declaration_ = true;
      return function(t);
    }
    if (auto sp = space_directive(w)) return module_declaration(t, *sp, false);
    if (w == ".pragma" || w == ".alias" || w == ".tex" || w == ".surfref" || w == ".texref" ||
        w == ".samplerref") {
      isa::skip_statement(lx_, false);
      return;
    }
    diag().error(t.loc, "unknown directive " + show(t) + " at module scope");
    isa::skip_statement(lx_, true);
  }

  // A variable at module scope: not `.param`, not `.local` (ptxas 13.0 with the ABI).
  void module_declaration(const Token& t, isa::Space sp, bool is_extern) {
    seen_declaration_ = true;
    if (sp == isa::Space::Param) {
      diag().error(t.loc, "parameter variables cannot be declared at module scope");
    } else if (sp == isa::Space::Local) {
      diag().error(t.loc,
                   "module-scope '.local' variables are not allowed with the ABI "
                   "(ptxas 13.0); declare them in a function body");
    }
    declaration(t, sp, false, is_extern);
  }

  void skip_line() {
    while (true) {
      Token n = lx_.peek();
      if (n.kind == TokKind::End || n.first_on_line) return;
      lx_.next();
    }
  }

  void skip_section(const Token& t) {
    // .section name { ... }  (debug sections: skip the balanced block)
    int depth = 0;
    while (true) {
      Token n = lx_.next();
      if (n.kind == TokKind::End) {
        diag().error(t.loc, "unterminated '.section' block");
        return;
      }
      if (n.is('{')) ++depth;
      if (n.is('}') && --depth <= 0) return;
    }
  }

  void version_directive(const Token& t) {
    Token v = lx_.next();
    auto pv = v.kind == TokKind::Number ? isa::PtxVersion::parse(v.text) : std::nullopt;
    if (!pv) {
      diag().error(v.loc,
                   "expected a PTX ISA version like '8.8' after '.version', found " + show(v));
      skip_line();
      return;
    }
    if (have_version_) diag().error(t.loc, "duplicate '.version' directive");
    have_version_ = true;
    if (*pv < isa::ptx(1, 0) || isa::kStuMaxVersion < *pv) {
      diag().error(v.loc, "unsupported PTX ISA version " + pv->str() + " (stu knows up to " +
                              isa::kStuMaxVersion.str() + ")");
    } else if (isa::kPtxasMaxVersion < *pv) {
      diag().warning(v.loc, "PTX ISA " + pv->str() + " is newer than ptxas 13.0 supports (" +
                                isa::kPtxasMaxVersion.str() + "); rules follow the ISA text");
    }
    if (!opts_.version) ctx_.version = *pv;
    if (opts_.version) ctx_.version = *opts_.version;
  }

  void target_directive(const Token& t) {
    if (!have_version_ && !opts_.version) {
      diag().error(t.loc, "'.target' must follow the '.version' directive");
    }
    bool first = true;
    while (true) {
      Token n = lx_.peek();
      if (n.kind == TokKind::End || (n.first_on_line && !first)) break;
      if (!first) {
        if (!n.is(',')) break;
        lx_.next();
        n = lx_.peek();
      }
      lx_.next();
      if (n.kind != TokKind::Word) {
        diag().error(n.loc, "expected a target name, found " + show(n));
        skip_line();
        break;
      }
      if (first) {
        // `.target compute_90a` names the same target as sm_90a (a virtual architecture).
        std::string_view name = n.text;
        std::string sm;
        if (name.substr(0, 8) == "compute_") {
          sm = "sm_" + std::string(name.substr(8));
          name = sm;
        }
        auto tg = isa::Target::parse(name);
        if (!tg || !tg->known()) {
          diag().error(n.loc, "unknown target '" + std::string(n.text) + "'");
        } else {
          if (have_target_) diag().error(t.loc, "duplicate '.target' directive");
          have_target_ = true;
          if (!opts_.target) ctx_.target = *tg;
          check_target_version(*tg, n.loc);
        }
      } else if (n.text != "texmode_unified" && n.text != "texmode_independent" &&
                 n.text != "debug" && n.text != "map_f64_to_f32") {
        diag().error(n.loc, "unknown target option '" + std::string(n.text) + "'");
      }
      first = false;
    }
    if (opts_.target) ctx_.target = *opts_.target;
  }

  void check_target_version(const isa::Target& tg, Loc loc) {
    auto need = tg.min_version();
    if (need && have_version_ && ctx_.version < *need && !opts_.version) {
      diag().error(loc, "target " + tg.str() + " requires PTX ISA " + need->str() +
                            " or later (module is " + ctx_.version.str() + ")");
    }
  }

  void address_size_directive(const Token& t) {
    if (seen_declaration_) {
      diag().error(t.loc, "'.address_size' must come before every function and variable");
    }
    Token v = lx_.next();
    if (v.kind != TokKind::Number || (v.text != "64" && v.text != "32")) {
      diag().error(v.loc, "expected '32' or '64' after '.address_size', found " + show(v));
      skip_line();
      return;
    }
    if (v.text == "32") diag().error(v.loc, "'.address_size 32' is not supported by ptxas 13.0");
  }

  // ------------------------------------------------------------------ declarations
  // Parses `<space> {attributes} name{<N>}{[dims]}{= init} {, name ...} ;` after the space
  // directive token `t`. `is_reg` for `.reg`.
  void declaration(const Token& t, isa::Space space, bool is_reg, bool is_extern = false) {
    Symbol sym;
    sym.kind = is_reg ? Symbol::Kind::Register : Symbol::Kind::Variable;
    if (!is_reg) sym.space = space;
    if (space == isa::Space::Param && symbols_.depth() > 0) {
      sym.param_role = Symbol::ParamRole::CallArg;
    }
    bool have_type = false;
    while (true) {
      Token a = lx_.peek();
      if (!is_directive(a)) break;
      lx_.next();
      std::string_view w = a.text.substr(1);
      if (w == "align") {
        Token n = lx_.next();
        if (n.kind != TokKind::Number) {
          diag().error(n.loc, "expected an alignment after '.align', found " + show(n));
          recover_statement();
          return;
        }
      } else if (auto ty = isa::from_string<isa::DataType>(w)) {
        if (is_reg && (*ty == isa::DataType::BF16 || *ty == isa::DataType::BF16x2)) {
          diag().error(a.loc, "'." + std::string(w) + "' is not a register type (use .b16/.b32)");
        }
        sym.type = *ty;
        have_type = true;
      } else if (auto v = isa::from_string<isa::Vec>(w)) {
        sym.vec_lanes = static_cast<uint8_t>(isa::lanes_of(*v));
      } else if (w == "ptr" || w == "global" || w == "shared" || w == "local" || w == "const") {
        // pointer attributes of kernel parameters: `.ptr .global .align 16`
      } else if (w == "attribute") {  // `.global .attribute(.managed) .u32 x;`
        if (space != isa::Space::Global || is_reg) {
          diag().error(a.loc,
                       "'.attribute' applies only to '.global' variables (found " + show(t) + ")");
        }
        if (!skip_parenthesised(a)) return;
      } else if (w == "texref" || w == "samplerref" || w == "surfref") {
        sym.type = isa::DataType::B64;  // opaque handles
        have_type = true;
      } else if (w == "b1" || w == "u1") {
        sym.type = isa::DataType::Pred;
        have_type = true;
      } else {
        diag().error(a.loc, "unexpected " + show(a) + " in declaration");
        recover_statement();
        return;
      }
    }
    if (!have_type) {
      diag().error(t.loc, "declaration has no type");
      recover_statement();
      return;
    }
    while (true) {
      Token n = lx_.next();
      if (n.kind != TokKind::Word || is_directive(n)) {
        diag().error(n.loc, "expected a name in declaration, found " + show(n));
        if (!n.is(';')) recover_statement();
        return;
      }
      Token p = lx_.peek();
      if (p.is('<')) {
        lx_.next();
        Token c = lx_.next();
        uint64_t count = 0;
        Token gt = lx_.next();
        if (c.kind != TokKind::Number || !isa::parse_int_literal(c.text, count) || !gt.is('>') ||
            count > 0x7fffffff) {
          diag().error(c.loc, "expected '<count>' in register range declaration");
          recover_statement();
          return;
        }
        symbols_.declare_range(n.text, static_cast<uint32_t>(count), sym);
      } else {
        if (symbols_.depth() > 0 && symbols_.declared_here(n.text)) {
          diag().error(n.loc, "'" + std::string(n.text) + "' is already declared in this scope");
        }
        Symbol one = sym;
        one.is_array = lx_.peek().is('[');
        symbols_.declare(n.text, one);
      }
      // array dimensions
      while (lx_.peek().is('[')) {
        lx_.next();
        Token x = lx_.next();
        if (x.is(']')) continue;
        Token rb = lx_.next();
        if (x.kind != TokKind::Number || !rb.is(']')) {
          diag().error(x.loc, "expected an array size");
          recover_statement();
          return;
        }
      }
      Token s = lx_.peek();
      if (s.is('=')) {
        if (is_extern) {
          diag().error(s.loc, "no initial value is allowed for the external symbol '" +
                                  std::string(n.text) + "'");
        } else if (is_reg || space == isa::Space::Shared || space == isa::Space::Local ||
                   space == isa::Space::Param) {
          diag().error(s.loc, "no initial value is allowed for '" + std::string(n.text) +
                                  "' in state space " + show(t));
        }
        lx_.next();
        skip_initializer();
        s = lx_.peek();
      }
      if (s.is(',')) {
        lx_.next();
        continue;
      }
      if (s.is(';')) {
        lx_.next();
        return;
      }
      diag().error(s.loc, "expected ';' after declaration, found " + show(s));
      if (!s.first_on_line) recover_statement();
      return;
    }
  }

  void skip_initializer() {
    int depth = 0;
    while (true) {
      Token n = lx_.peek();
      if (n.kind == TokKind::End) return;
      if (depth == 0 && (n.is(',') || n.is(';'))) return;
      lx_.next();
      if (n.is('{')) ++depth;
      if (n.is('}')) --depth;
    }
  }

  void recover_statement() { isa::skip_statement(lx_, true); }

  // After `.attribute`: a balanced `( ... )`, e.g. `(.managed)` or `(.unified(0x1, 0x2))`.
  bool skip_parenthesised(const Token& what) {
    if (!lx_.peek().is('(')) {
      diag().error(what.loc, "expected '(' after " + show(what));
      recover_statement();
      return false;
    }
    int depth = 0;
    while (true) {
      Token n = lx_.next();
      if (n.kind == TokKind::End || n.is(';')) {
        diag().error(what.loc, "unbalanced parentheses after " + show(what));
        return false;
      }
      if (n.is('(')) ++depth;
      if (n.is(')') && --depth == 0) return true;
    }
  }

  // ------------------------------------------------------------------ functions
  // `.entry name (params) perf* { body }` or `.func (rets) name (params) perf* { body } | ;`
  // Inside a body only a prototype (`;`) is allowed: `prototype_only`.
  void function(const Token& kw, bool prototype_only = false, bool is_extern = false) {
    const bool is_entry = kw.text == ".entry";
    symbols_.push_scope();  // parameters
    Token n = lx_.next();
    if (!is_entry && n.is_word(".attribute")) {  // `.func .attribute(.unified(a, b)) f(...)`
      if (!skip_parenthesised(n)) return abandon_function();
      n = lx_.next();
    }
    bool has_returns = false;
    if (!is_entry && n.is('(')) {
      if (!param_list(/*entry=*/false, /*returns=*/true)) return abandon_function();
      has_returns = true;
      n = lx_.next();
    }
    if (n.kind != TokKind::Word || is_directive(n)) {
      diag().error(n.loc, "expected a function name after " + show(kw) + ", found " + show(n));
      return abandon_function();
    }
    Token p = lx_.peek();
    if (p.is('(')) {
      lx_.next();
      if (!param_list(is_entry, false)) return abandon_function();
    }
    // The name is visible inside its own body (recursion, its address as an operand).
    Symbol f;
    f.kind = Symbol::Kind::Function;
    module_symbol(n.text, f);
    // performance directives, up to the body or ';'
    const FuncHeader header{is_entry, has_returns, n.text};
    FuncDirectives directives(header, ctx_.target, ctx_.version, diag());
    while (true) {
      Token t = lx_.peek();
      if (t.is('{') || t.is(';')) directives.finish(t.loc);
      if (t.is('{') && prototype_only) {
        diag().error(t.loc, "a function cannot be defined inside a function body (only declared)");
        symbols_.pop_scope();
        recover_statement();
        return;
      }
      if (t.is('{')) {
        if (is_extern) {
          diag().error(t.loc, "function '" + std::string(n.text) +
                                  "' is declared '.extern' and cannot have a body here");
        }
        lx_.next();
        ++stats_.functions;
        body(t);
        symbols_.pop_scope();
        return;
      }
      if (t.is(';')) {
        lx_.next();
        symbols_.pop_scope();
        return;
      }
      if (t.kind == TokKind::End) {
        diag().error(n.loc,
                     "unexpected end of file in the declaration of '" + std::string(n.text) + "'");
        symbols_.pop_scope();
        return;
      }
      if (is_directive(t)) {
        lx_.next();
        directives.directive(lx_, t);
        continue;
      }
      diag().error(
          t.loc, "unexpected " + show(t) + " in the declaration of '" + std::string(n.text) + "'");
      return abandon_function();
    }
  }

  // Declares a name at module scope while an inner scope is open.
  void module_symbol(std::string_view name, const Symbol& sym) {
    symbols_.declare_global(name, sym);
  }

  void abandon_function() {
    symbols_.pop_scope();
    // Resynchronise at the next module-level directive or after a balanced body.
    int depth = 0;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == TokKind::End) return;
      if (depth == 0 && t.first_on_line && is_directive(t) &&
          (t.text == ".entry" || t.text == ".func" || t.text == ".visible" || t.text == ".global" ||
           t.text == ".extern" || t.text == ".weak")) {
        return;
      }
      lx_.next();
      if (t.is('{')) ++depth;
      if (t.is('}') && --depth <= 0) {
        depth = 0;
        return;
      }
    }
  }

  // After '(' : `.param .type name{[N]} {, ...} )`. Returns false on a syntax error.
  bool param_list(bool entry, bool returns) {
    if (lx_.peek().is(')')) {
      lx_.next();
      return true;
    }
    while (true) {
      Token sp = lx_.next();
      Symbol sym;
      if (sp.is_word(".param")) {
        sym.kind = Symbol::Kind::Variable;
        sym.space = entry ? isa::Space::ParamEntry : isa::Space::ParamFunc;
        sym.param_role = returns ? Symbol::ParamRole::Return : Symbol::ParamRole::Input;
      } else if (sp.is_word(".reg")) {
        sym.kind = Symbol::Kind::Register;
      } else {
        diag().error(sp.loc, "expected '.param' or '.reg' in parameter list, found " + show(sp));
        return false;
      }
      bool have_type = false;
      Token n = lx_.next();
      while (is_directive(n)) {
        std::string_view w = n.text.substr(1);
        if (w == "align") {
          lx_.next();
        } else if (auto ty = isa::from_string<isa::DataType>(w)) {
          sym.type = *ty;
          have_type = true;
        } else if (auto v = isa::from_string<isa::Vec>(w)) {
          sym.vec_lanes = static_cast<uint8_t>(isa::lanes_of(*v));
        } else if (w == "texref" || w == "samplerref" || w == "surfref") {
          sym.type = isa::DataType::B64;  // opaque handles
          have_type = true;
        }
        n = lx_.next();
      }
      if (!have_type) {
        diag().error(n.loc, "parameter has no type");
        return false;
      }
      if (n.kind != TokKind::Word) {
        diag().error(n.loc, "expected a parameter name, found " + show(n));
        return false;
      }
      symbols_.declare(n.text, sym);
      while (lx_.peek().is('[')) {
        lx_.next();
        Token x = lx_.next();
        if (x.is(']')) continue;
        if (!lx_.next().is(']')) {
          diag().error(x.loc, "expected ']' in parameter array size");
          return false;
        }
      }
      Token s = lx_.next();
      if (s.is(',')) continue;
      if (s.is(')')) return true;
      diag().error(s.loc, "expected ',' or ')' in parameter list, found " + show(s));
      return false;
    }
  }

  // Body after '{' (the function scope is already pushed for parameters).
  void body(const Token& open) {
    symbols_.push_scope();
    open_braces_.clear();
    open_braces_.push_back(open.loc);
    last_inner_open_ = Loc{};
    while (!open_braces_.empty()) {
      Token t = lx_.next();
      if (t.kind == TokKind::End) {
        // Report the innermost unclosed '{' (a stray one in the body, or the body's own).
        if (open_braces_.size() > 1) {
          diag().error(open_braces_.back(), "this '{' is never closed");
        } else if (last_inner_open_.line != 0) {
          // The body's own '}' was taken by an inner block: most likely that block's '{' is
          // the one without a partner.
          diag().error(last_inner_open_,
                       "unexpected end of file: the function body is not closed; "
                       "this '{' is probably the one without a '}'");
        } else {
          diag().error(open_braces_.back(),
                       "unexpected end of file: missing '}' for this function "
                       "body");
        }
        break;
      }
      if (t.is('{')) {
        flush();
        symbols_.push_scope();
        open_braces_.push_back(t.loc);
        continue;
      }
      if (t.is('}')) {
        flush();
        symbols_.pop_scope();
        if (open_braces_.size() > 1) last_inner_open_ = open_braces_.back();
        open_braces_.pop_back();
        continue;
      }
      statement(t);
    }
    flush();
    while (!open_braces_.empty()) {
      symbols_.pop_scope();
      open_braces_.pop_back();
    }
  }

  void statement(const Token& t) {
    if (t.is(';')) {
      diag().error(t.loc, "empty statement (a stray ';')");
      return;
    }
    if (t.is('@')) return guarded(t);
    if (t.kind != TokKind::Word) {
      diag().error(t.loc, "unexpected " + show(t));
      recover_statement();
      return;
    }
    if (is_directive(t)) return body_directive(t);
    Token p = lx_.peek();
    if (p.is(':')) {  // label
      lx_.next();
      return;
    }
    instruction(t, isa::Guard{});
  }

  void guarded(const Token& at) {
    isa::Guard g;
    g.loc = at.loc;
    Token r = lx_.next();
    if (r.is('!')) {
      g.negated = true;
      r = lx_.next();
    }
    if (r.kind != TokKind::Word || is_directive(r)) {
      diag().error(r.loc, "expected a predicate register after '@', found " + show(r));
      recover_statement();
      return;
    }
    const Symbol* s = names_.find(r.text);
    if (!s && isa::is_ptx_opcode(r.text)) {
      // `@ st.global...`: the predicate is missing; check the instruction all the same.
      diag().error(r.loc,
                   "expected a predicate register after '@', found the instruction " + show(r));
      instruction(r, isa::Guard{});
      return;
    }
    g.reg = std::string(r.text);
    Token op = lx_.next();
    if (op.kind != TokKind::Word || is_directive(op)) {
      diag().error(op.loc, "expected an instruction after the guard, found " + show(op));
      recover_statement();
      return;
    }
    if (isa::store_opcode_of(op.text)) {
      if (!s) {
        diag().error(r.loc, "undeclared predicate '" + g.reg + "'");
      } else if (s->kind != Symbol::Kind::Register || s->type != isa::DataType::Pred) {
        diag().error(r.loc, "guard '" + g.reg + "' is not a '.pred' register");
      }
    }
    instruction(op, g);
  }

  void body_directive(const Token& t) {
    flush();  // declarations and nested functions change the names in scope
    std::string_view w = t.text;
    if (w == ".reg") return declaration(t, isa::Space::Local, true);
    if (auto sp = space_directive(w)) return declaration(t, *sp, false);
    if (w == ".loc") return skip_line();
    if (w == ".file") {
      diag().error(t.loc, "'.file' is allowed only at module scope");
      return skip_line();
    }
    if (is_func_header_directive(w)) {
      diag().error(t.loc, show(t) + " belongs in the function header, before its body");
      isa::skip_statement(lx_, true);
      return;
    }
    // Label-list declarations (`L: .branchtargets A, B;`, `L: .calltargets f, g;`) and the
    // other statements of a body that store nothing: skipped to their ';' (lists may span
    // lines).
    if (w == ".pragma" || w == ".callprototype" || w == ".branchtargets" || w == ".calltargets" ||
        w == ".alias") {
      isa::skip_statement(lx_, false);
      return;
    }
    // A function prototype, with or without a linkage prefix (an indirect call's target).
    if (w == ".func") return function(t, /*prototype_only=*/true);
    if (w == ".extern" || w == ".visible" || w == ".weak") {
      Token n = lx_.peek();
      if (n.is_word(".func")) {
        lx_.next();
        return function(n, /*prototype_only=*/true);
      }
      if (auto sp = space_directive(n.text); sp && n.kind == TokKind::Word) {
        // ptxas 13.0: a syntax error (linkage belongs to module-scope variables).
        diag().error(t.loc, show(t) + " is not allowed on a variable declared in a function body");
        lx_.next();
        return declaration(n, *sp, false);
      }
    }
    diag().error(t.loc, "unknown directive " + show(t) + " in function body");
    isa::skip_statement(lx_, false);  // to its ';', so a list over several lines is one error
  }

  void instruction(const Token& op, const isa::Guard& g) {
    ++stats_.instructions;
    auto store = isa::store_opcode_of(op.text);
    if (!store) {
      if (!isa::is_ptx_opcode(op.text)) {
        std::string_view base = op.text.substr(0, op.text.find('.'));
        diag().error(op.loc, "unknown instruction '" + std::string(base) + "'");
      }
      return skip_other(op);
    }
    ++stats_.stores;
    if (jobs_) {
      // A one-line store is checked by the next free thread; the reader goes on after its ';'.
      const isa::Lexer::State after = lx_.resume_point();
      if (auto end = simple_statement_end(text_, after.pos)) {
        if (jobs_->empty()) jobs_->set_target(ctx_.target, ctx_.version);
        jobs_->add(StoreJob{op, g, after, *end});
        lx_.restore(isa::Lexer::State{*end, after.line_start, after.line, after.line});
        return;
      }
      flush();  // any other store is parsed here, in order
    }
    if (!isa::parse_store(lx_, op, g, ins_, d_, &opcodes_)) {
      ++stats_.invalid_stores;
      return;
    }
    ctx_.symbols = &names_;
    bool ok = isa::validate(ins_, ctx_, d_);
    if (!ok) ++stats_.invalid_stores;
    if (visit_) visit_(ins_, ok, ctx_.target, names_);
  }

  // Every store handed to other threads is checked and its diagnostics are in d_, in order.
  void flush() {
    if (!jobs_ || jobs_->empty()) return;
    StoreJobs::Drained r = jobs_->drain(d_);
    stats_.invalid_stores += r.invalid;
    mismatch_ = mismatch_ || r.mismatch;
  }
  // The diagnostics of the reader itself come after those of every earlier store.
  Diagnostics& diag() {
    flush();
    return d_;
  }

  // A non-store instruction: skipped through its ';'. A missing ';' is noticed when a '}' or
  // a new line that starts with a store, a directive or a label comes first.
  void skip_other(const Token& op) {
    int depth = 0;
    bool after_comma = false;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == TokKind::End) {
        diag().error(op.loc, "unexpected end of file: missing ';' after this instruction");
        return;
      }
      // A new line that starts a statement (not a continuation after ',' or inside brackets)
      // means the ';' is missing.
      if (depth == 0 && t.first_on_line && !after_comma &&
          (t.is('}') || t.is('@') ||
           (t.kind == TokKind::Word && (is_directive(t) || isa::is_ptx_opcode(t.text))))) {
        diag().error(op.loc, "missing ';' at the end of this instruction");
        return;
      }
      after_comma = t.is(',');
      if (depth == 0 && t.is('}')) {
        diag().error(t.loc, "unexpected '}' inside an instruction");
        lx_.next();
        continue;
      }
      lx_.next();
      if (t.kind != TokKind::Punct) continue;
      char c = t.text[0];
      if (c == '{' || c == '[' || c == '(') ++depth;
      if ((c == '}' || c == ']' || c == ')') && depth > 0) --depth;
      if (c == ';' && depth == 0) return;
    }
  }

  Lexer lx_;
  std::string_view text_;
  Diagnostics& d_;
  const CheckOptions& opts_;
  const StoreVisitor& visit_;
  SymbolTable symbols_;
  CachedSymbols names_{symbols_};    // the reader's own lookups (other threads have theirs)
  std::unique_ptr<StoreJobs> jobs_;  // null: every store is checked on this thread
  bool mismatch_ = false;
  isa::CheckContext ctx_{isa::Target{100, isa::Target::Suffix::Arch}, isa::kPtxasMaxVersion,
                         nullptr};
  bool have_version_ = false;
  bool have_target_ = false;
  bool seen_declaration_ = false;
  isa::OpcodeCache opcodes_;  // decoded opcode words of this text  // a function or variable (then
                              // no more .address_size)
  CheckStats stats_;
  isa::Instruction ins_;  // reused for every store (keeps its buffers)
  std::vector<Loc> open_braces_;
  std::vector<std::string> special_names_;  // owns the names the symbol table views
  Loc last_inner_open_;
};

}  // namespace

CheckStats check_module(std::string_view text, Diagnostics& diags, const CheckOptions& opts,
                        const StoreVisitor& visit) {
  if (opts.threads != 1 && !visit) {
    Diagnostics mine;
    CheckStats stats;
    bool mismatched = false;
    {
      Reader r(text, mine, opts, visit);
      stats = r.run();
      mismatched = r.mismatched();
    }
    if (!mismatched) {
      diags.append(std::move(mine));
      return stats;
    }
    // A store the reader misjudged (a broken statement): the one-thread answer is the answer.
  }
  CheckOptions one = opts;
  one.threads = 1;
  Reader r(text, diags, one, visit);
  return r.run();
}

}  // namespace stu::ptx
