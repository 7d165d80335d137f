#include "stu/isa/validator.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "stu/isa/gates.h"
#include "stu/isa/lexer.h"
#include "stu/isa/space_rules.h"

namespace stu::isa {
namespace {

std::string q(std::string_view s) { return "'." + std::string(s) + "'"; }

std::string qual_name(const Qualifier& qu) {
  switch (qu.family) {
    case QualFamily::Sem:
      return q(to_string(static_cast<Sem>(qu.value)));
    case QualFamily::Mmio:
      return q("mmio");
    case QualFamily::Scope:
      return q(to_string(static_cast<Scope>(qu.value)));
    case QualFamily::Space:
      return q(to_string(static_cast<Space>(qu.value)));
    case QualFamily::CacheOp:
      return q(to_string(static_cast<CacheOp>(qu.value)));
    case QualFamily::L1Evict:
      return q(to_string(static_cast<L1Evict>(qu.value)));
    case QualFamily::L2Evict:
      return q(to_string(static_cast<L2Evict>(qu.value)));
    case QualFamily::CacheHint:
      return q("L2::cache_hint");
    case QualFamily::Vec:
      return q(to_string(static_cast<Vec>(qu.value)));
    case QualFamily::Type:
      return q(to_string(static_cast<DataType>(qu.value)));
    case QualFamily::Async:
      return q("async");
    case QualFamily::Completion:
      return q("mbarrier::complete_tx::bytes");
    case QualFamily::Sync:
      return q("sync");
    case QualFamily::Aligned:
      return q("aligned");
    case QualFamily::Shape:
      return q(to_string(static_cast<TmemShape>(qu.value)));
    case QualFamily::Num:
      return q("x" + std::to_string(qu.value));
    case QualFamily::Unpack:
      return q("unpack::16b");
  }
  return "?";
}

const char* family_name(QualFamily f) {
  switch (f) {
    case QualFamily::Sem:
      return "memory-ordering";
    case QualFamily::Scope:
      return "scope";
    case QualFamily::Space:
      return "state-space";
    case QualFamily::CacheOp:
      return "cache-operator";
    case QualFamily::L1Evict:
      return "L1 eviction-priority";
    case QualFamily::L2Evict:
      return "L2 eviction-priority";
    case QualFamily::Vec:
      return "vector";
    case QualFamily::Type:
      return "type";
    case QualFamily::Shape:
      return "shape";
    case QualFamily::Num:
      return "'.num'";
    default:
      return "";
  }
}

class Validator {
 public:
  Validator(const Instruction& ins, const CheckContext& ctx, Diagnostics& d)
      : ins_(ins),
        ctx_(ctx),
        d_(d),
        errors_before_(d.error_count()),
        bans_(ins.space ? space_violations(ins, *ins.space) : SpaceViolations{}) {}

  bool run() {
    check_families();
    switch (ins_.op) {
      case Opcode::St:
        check_st();
        break;
      case Opcode::StAsync:
        check_st_async();
        break;
      case Opcode::Tcgen05St:
        check_tcgen05();
        break;
      case Opcode::StBulk:
        check_st_bulk();
        break;
    }
    return d_.error_count() == errors_before_;
  }

 private:
  // ---------------------------------------------------------------- helpers
  void error(Loc loc, std::string msg) { d_.error(loc, std::move(msg)); }
  void warning(Loc loc, std::string msg) { d_.warning(loc, std::move(msg)); }
  std::string opname() const { return "'" + std::string(to_string(ins_.op)) + "'"; }
  Loc at(QualFamily f) const { return ins_.qual_loc(f); }
  const Target& target() const { return ctx_.target; }
  PtxVersion version() const { return ctx_.version; }

  // Version gate: error when the module's PTX ISA version is older than `need`.
  // `what` is a string or a callable producing one (built only when the gate fails).
  template <typename What>
  static std::string describe(const What& what) {
    if constexpr (std::is_invocable_v<What>) {
      return what();
    } else {
      return std::string(what);
    }
  }
  template <typename What>
  bool need_version(PtxVersion need, Loc loc, const What& what) {
    if (version() >= need) return true;
    error(loc, describe(what) + " requires PTX ISA " + need.str() + " or later (module is " +
                   version().str() + ")");
    return false;
  }
  template <typename What>
  bool need_sm(unsigned sm, Loc loc, const What& what) {
    if (target().sm >= sm) return true;
    error(loc, describe(what) + " requires sm_" + std::to_string(sm) + " or higher (target is " +
                   target().str() + ")");
    return false;
  }
  // A feature's gates (isa/gates.h): the PTX ISA version, then the target. `what` names the
  // feature as written when it is one of several (`'.relaxed'`); by default the table's name.
  template <typename What>
  void require(Feature f, Loc loc, const What& what) {
    const Gate& g = gate(f);
    need_version(g.ptx, loc, what);
    if (g.sm) need_sm(g.sm, loc, what);
  }
  void require(Feature f, Loc loc) { require(f, loc, gate(f).name); }

  // ---------------------------------------------------------------- qualifier families
  bool allowed(QualFamily f) const {
    switch (ins_.op) {
      case Opcode::St:
        return f == QualFamily::Sem || f == QualFamily::Mmio || f == QualFamily::Scope ||
               f == QualFamily::Space || f == QualFamily::CacheOp || f == QualFamily::L1Evict ||
               f == QualFamily::L2Evict || f == QualFamily::CacheHint || f == QualFamily::Vec ||
               f == QualFamily::Type;
      case Opcode::StAsync:
        return f == QualFamily::Async || f == QualFamily::Sem || f == QualFamily::Mmio ||
               f == QualFamily::Scope || f == QualFamily::Space || f == QualFamily::Completion ||
               f == QualFamily::Vec || f == QualFamily::Type;
      case Opcode::Tcgen05St:
        return f == QualFamily::Sync || f == QualFamily::Aligned || f == QualFamily::Shape ||
               f == QualFamily::Num || f == QualFamily::Unpack || f == QualFamily::Type;
      case Opcode::StBulk:
        return f == QualFamily::Sem || f == QualFamily::Space;
    }
    return false;
  }

  void check_families() {
    const auto& qs = ins_.quals;
    for (size_t i = 0; i < qs.size(); ++i) {
      if (!allowed(qs[i].family)) {
        error(qs[i].loc, "qualifier " + qual_name(qs[i]) + " is not valid for " + opname());
        continue;
      }
      for (size_t j = 0; j < i; ++j) {
        if (qs[j].family != qs[i].family) continue;
        if (qs[j].value == qs[i].value) {
          // ptxas 13.0 accepts tcgen05.st's '.sync' written more than once (no other).
          if (qs[i].family == QualFamily::Sync) break;
          error(qs[i].loc, "duplicate qualifier " + qual_name(qs[i]));
        } else {
          error(qs[i].loc, std::string("conflicting ") + family_name(qs[i].family) +
                               " qualifiers " + qual_name(qs[j]) + " and " + qual_name(qs[i]));
        }
        break;
      }
    }
    if (!ins_.type && ins_.op != Opcode::StBulk) {
      error(ins_.loc, "missing type qualifier for " + opname());
    }
    // ptxas warns ("Vector Type not specified properly") unless the vector qualifier is
    // immediately followed by the type.
    for (size_t i = 0; i < qs.size(); ++i) {
      if (qs[i].family != QualFamily::Vec) continue;
      if (static_cast<Vec>(qs[i].value) == Vec::V8) break;  // ptxas is silent for .v8
      if (i + 1 >= qs.size() || qs[i + 1].family != QualFamily::Type) {
        warning(qs[i].loc, "vector qualifier " + qual_name(qs[i]) +
                               " should be written immediately before the type");
      }
      break;
    }
  }

  // ---------------------------------------------------------------- st
  void check_st() {
    const Sem sem = ins_.effective_sem();
    const bool strong_sem = ins_.sem == Sem::Relaxed || ins_.sem == Sem::Release;
    const std::optional<Space> sp = ins_.space;

    // Memory ordering and scope.
    auto sem_name = [&] { return q(to_string(*ins_.sem)); };
    if (ins_.sem) require(Feature::Semantics, at(QualFamily::Sem), sem_name);
    if (ins_.sem && *ins_.sem != Sem::Volatile) {
      require(Feature::StrongSemantics, at(QualFamily::Sem), sem_name);
    }
    if (ins_.mmio) {
      if (ins_.sem != Sem::Relaxed) {
        error(at(QualFamily::Mmio),
              "'.mmio' must be combined with '.relaxed' ('st.mmio.relaxed.sys')");
      }
      if (ins_.scope && ins_.scope != Scope::Sys) {
        error(at(QualFamily::Scope), "'.mmio' requires scope '.sys'");
      }
      if (bans_.has(SpaceRule::Mmio)) {
        error(at(QualFamily::Space), "'.mmio' is allowed only on '.global' or generic addresses");
      }
      require(Feature::Mmio, at(QualFamily::Mmio));
    }
    if (strong_sem && !ins_.scope) {
      error(at(QualFamily::Sem),
            q(to_string(*ins_.sem)) + " requires a scope ('.cta', '.cluster', '.gpu' or '.sys')");
    }
    if (ins_.scope) {
      if (!strong_sem) {
        error(at(QualFamily::Scope),
              "scope " + q(to_string(*ins_.scope)) + " requires '.relaxed' or '.release'");
      }
      require(Feature::Scope, at(QualFamily::Scope));
      if (*ins_.scope == Scope::Cluster) require(Feature::ClusterScope, at(QualFamily::Scope));
    }
    if ((strong_sem || sem == Sem::Volatile) && ins_.cop) {
      error(
          at(QualFamily::CacheOp),
          q(to_string(sem)) + " cannot be combined with cache operator " + q(to_string(*ins_.cop)));
    }
    if (bans_.has(SpaceRule::Strong) || bans_.has(SpaceRule::Volatile)) {
      error(at(QualFamily::Space),
            q(to_string(sem)) + " is not allowed on state space " + q(to_string(*sp)));
    } else if (sp && sem == Sem::Volatile) {
      if (effective(*sp) == Space::Local) {
        // PTX ISA 9.1 allows it; ptxas 13.0 (which stops at PTX 9.0) rejects it.
        require(Feature::VolatileLocal, at(QualFamily::Space));
      }
    }

    check_space_gates();

    // ptxas: strong volatile/mmio stores take no cache hints and mmio stores no vectors.
    if (sem == Sem::Volatile || ins_.mmio) {
      const char* who = ins_.mmio ? "'.mmio'" : "'.volatile'";
      if (ins_.l1) {
        error(at(QualFamily::L1Evict), q(to_string(*ins_.l1)) + " cannot be combined with " + who);
      }
      if (ins_.l2 && ins_.mmio) {
        error(at(QualFamily::L2Evict), q(to_string(*ins_.l2)) + " cannot be combined with " + who);
      }
      if (ins_.cache_hint) {
        error(at(QualFamily::CacheHint),
              std::string("'.L2::cache_hint' cannot be combined with ") + who);
      }
    }
    if (ins_.mmio && ins_.vec) {
      error(at(QualFamily::Vec),
            "'.mmio' cannot be combined with vector " + q(to_string(*ins_.vec)));
    }

    // Cache operators and eviction priorities.
    if (ins_.cop) {
      require(Feature::CacheOperator, at(QualFamily::CacheOp));
      if (ins_.l1) {  // ptxas accepts a cache operator with an L2 eviction priority
        error(at(QualFamily::CacheOp), "cache operator " + q(to_string(*ins_.cop)) +
                                           " cannot be combined with an L1 eviction priority");
      }
    }
    if (ins_.l1) {
      auto what = [&] { return q(to_string(*ins_.l1)); };
      require(Feature::L1Eviction, at(QualFamily::L1Evict), what);
      if (bans_.has(SpaceRule::L1Evict)) {
        error(at(QualFamily::L1Evict),
              what() + " cannot be applied to state space " + q(to_string(*sp)));
      }
    }
    if (ins_.l2) {
      auto what = [&] { return q(to_string(*ins_.l2)); };
      require(Feature::L2Eviction, at(QualFamily::L2Evict), what);
      if (!ins_.is_256bit_vector()) {
        error(at(QualFamily::L2Evict),
              what() + " requires a 256-bit vector ('.v8' of 32-bit or '.v4' of 64-bit elements)");
      }
    }
    if (ins_.cache_hint) {
      require(Feature::CacheHint, at(QualFamily::CacheHint));
      if (bans_.has(SpaceRule::CacheHint)) {
        error(at(QualFamily::CacheHint),
              "'.L2::cache_hint' is allowed only on '.global' or generic addresses");
      }
      if (!ins_.policy) {
        error(at(QualFamily::CacheHint), "'.L2::cache_hint' requires a cache-policy operand");
      }
    } else if (ins_.policy) {
      error(ins_.policy->loc, "a cache-policy operand requires '.L2::cache_hint'");
    }
    if (ins_.policy) check_policy(*ins_.policy);

    check_vector_and_type();
    check_address(ins_.addr, sp, "address");
    check_sources(/*allow_sinks=*/ins_.is_256bit_vector());
    check_param_guard();
  }

  void check_space_gates() {
    if (!ins_.space) {
      require(Feature::GenericAddressing, ins_.loc);
      return;
    }
    Space s = *ins_.space;
    Loc loc = at(QualFamily::Space);
    switch (s) {
      case Space::Const:
        error(loc, "stores to '.const' are illegal");
        break;
      case Space::ParamEntry:
        error(loc, "'.param::entry' is read-only: kernel parameters cannot be stored to");
        break;
      case Space::ParamFunc:
        require(Feature::ParamFunc, loc);
        break;
      case Space::SharedCta:
        require(Feature::SharedCta, loc);
        break;
      case Space::SharedCluster:
        require(Feature::SharedCluster, loc);
        break;
      default:
        break;
    }
  }

  void check_vector_and_type() {
    if (!ins_.type) return;
    const DataType t = *ins_.type;
    const Loc tloc = at(QualFamily::Type);
    const TypeKind k = kind_of(t);
    if (k == TypeKind::Pred || t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 ||
        t == DataType::BF16x2) {
      error(tloc, "type " + q(to_string(t)) + " is not valid for " + opname() +
                      " (store .f16 data with '.b16' and .f16x2 with '.b32')");
      return;
    }
    if (t == DataType::B128) {
      require(Feature::B128, tloc);
      if (ins_.scope == Scope::Sys) require(Feature::B128Sys, tloc);
      if (ins_.vec) error(at(QualFamily::Vec), "'.b128' cannot be used with a vector qualifier");
    }
    if (!ins_.vec) return;
    const Vec v = *ins_.vec;
    const Loc vloc = at(QualFamily::Vec);
    const unsigned total = bits_of(t) * lanes_of(v);
    if (total > 128 && t != DataType::B128) {
      if (!ins_.is_256bit_vector()) {
        error(vloc, "vector " + q(to_string(v)) + " of " + q(to_string(t)) + " is " +
                        std::to_string(total) +
                        " bits; at most 128 bits, or 256 bits as "
                        "'.v8' of 32-bit or '.v4' of 64-bit elements");
        return;
      }
      auto what = [&] {
        return "'." + std::string(to_string(v)) + "." + std::string(to_string(t)) + "'";
      };
      require(Feature::Vector256, vloc, what);
      if (bans_.has(SpaceRule::Wide256)) {
        error(vloc, what() + " is allowed only on '.global' or generic addresses");
      }
    } else if (v == Vec::V8) {
      // ptxas accepts .v8 of 8/16-bit elements on every space; the ISA text does not.
      warning(vloc,
              "PTX ISA: '.v8' is defined only for 32-bit types on '.global' (ptxas "
              "accepts " +
                  q(to_string(t)) + ")");
    }
  }

  // ---------------------------------------------------------------- operands
  const Symbol* lookup(const std::string& name) const {
    return ctx_.symbols ? ctx_.symbols->find(name) : nullptr;
  }

  void check_policy(const Operand& p) {
    if (p.kind == Operand::Kind::Sink) {
      error(p.loc, "the cache-policy operand cannot be a sink '_'");
      return;
    }
    if (p.kind == Operand::Kind::Immediate && literal_of(p.text) != Literal::Int) {
      error(p.loc, "the cache-policy operand must be a 64-bit integer, not '" + p.text + "'");
      return;
    }
    if (p.kind != Operand::Kind::Register || !ctx_.symbols) return;
    const Symbol* s = lookup(p.text);
    if (!s) {
      error(p.loc, "undeclared register '" + p.text + "'");
    } else if (s->kind != Symbol::Kind::Register || bits_of(s->type) != 64 ||
               kind_of(s->type) == TypeKind::Float) {
      error(p.loc, "the cache-policy operand must be a 64-bit integer register ('" + p.text +
                       "' is ." + std::string(to_string(s->type)) + ")");
    }
  }

  // The address operand (also taddr and mbar).
  void check_address(const Address& a, std::optional<Space> space, const char* role) {
    // ptxas does not range-check address offsets or immediate addresses (they wrap).
    if (a.base == Address::Base::Immediate) {
      if (ins_.op != Opcode::St || !space || *space != Space::Local) {
        error(a.loc,
              std::string("an immediate ") + role + " is accepted only with '.local' (ptxas)");
      }
      return;
    }
    if (!ctx_.symbols) return;
    const Symbol* s = lookup(a.name);
    if (!s) {
      error(Loc{a.loc.line, a.loc.col + 1}, "undeclared identifier '" + a.name + "'");
      return;
    }
    if (s->kind == Symbol::Kind::Function) {
      error(Loc{a.loc.line, a.loc.col + 1}, "'" + a.name + "' is a function, not an address");
      return;
    }
    if (s->kind == Symbol::Kind::Register && s->special) {
      error(Loc{a.loc.line, a.loc.col + 1},
            "special register '" + a.name + "' cannot be used as an " + role);
      return;
    }
    if (s->kind == Symbol::Kind::Register) {
      unsigned b = bits_of(s->type);
      TypeKind k = kind_of(s->type);
      if (k == TypeKind::Float || k == TypeKind::Pred || s->vec_lanes != 1 || b > 64) {
        error(Loc{a.loc.line, a.loc.col + 1}, std::string(role) + " register '" + a.name +
                                                  "' must be a 32- or 64-bit integer register");
      } else if (b < 32 && (ins_.op == Opcode::StAsync || ins_.op == Opcode::StBulk) &&
                 &a == &ins_.addr) {
        error(Loc{a.loc.line, a.loc.col + 1}, std::string(role) + " register '" + a.name + "' of " +
                                                  opname() + " must be 32 or 64 bits wide");
      } else if (b < 32 && (!space || effective(*space) == Space::Global)) {
        warning(Loc{a.loc.line, a.loc.col + 1}, std::to_string(b) + "-bit " + role + " register '" +
                                                    a.name +
                                                    "' is zero-extended (ptxas accepts it)");
      } else if (b == 32 && ins_.op == Opcode::St &&
                 (!space || effective(*space) == Space::Global)) {
        error(Loc{a.loc.line, a.loc.col + 1},
              std::string("a 32-bit ") + role + " register ('" + a.name +
                  "') makes a 32-bit global/generic address: 32-bit addressing is not supported "
                  "with '.address_size 64' (ptxas 13.0)");
      }
      return;
    }
    // A variable: its space must agree with the instruction's.
    Loc nloc{a.loc.line, a.loc.col + 1};
    if (s->space && ins_.op == Opcode::St && is_param(*s->space) && space && is_param(*space) &&
        s->param_role == Symbol::ParamRole::Input) {
      error(nloc, "illegal to write to function input parameter '" + a.name + "'");
      return;
    }
    if (!space && s->space && (ins_.op == Opcode::St || ins_.op == Opcode::StBulk) &&
        (is_param(*s->space) || *s->space == Space::Const)) {
      error(nloc, "state space mismatch: '" + a.name + "' is in " + q(to_string(*s->space)) +
                      ", which a generic address cannot store to");
      return;
    }
    // ptxas 13.0 rejects a variable as the address of st.bulk.shared::cta (its own
    // lowering fails: "Argument 1 of instruction 'add': must be register").
    if (ins_.op == Opcode::StBulk && space && s->space &&
        effective(*s->space) == effective(*space)) {
      error(nloc, "'st.bulk.shared::cta' takes a register address, not the variable '" + a.name +
                      "' (ptxas 13.0)");
      return;
    }
    if (space && s->space && ins_.op != Opcode::Tcgen05St) {
      Space vs = effective(*s->space);
      Space is = effective(*space);
      bool ok = vs == is || (is == Space::SharedCluster && vs == Space::SharedCta) ||
                (is_param(vs) && is_param(is));
      if (!ok) {
        error(Loc{a.loc.line, a.loc.col + 1}, "variable '" + a.name + "' is in state space " +
                                                  q(to_string(*s->space)) + ", not " +
                                                  q(to_string(*space)));
      }
    }
    if (s->space && *s->space == Space::Const && ins_.op == Opcode::St) {
      error(Loc{a.loc.line, a.loc.col + 1},
            "variable '" + a.name + "' is in '.const': stores to '.const' are illegal");
    }
  }

  // Relaxed type checking for a source register of instruction type `t`.
  bool source_type_ok(DataType t, DataType r, bool any_size = false) const {
    unsigned tb = bits_of(t), rb = bits_of(r);
    TypeKind tk = kind_of(t), rk = kind_of(r);
    if (rk == TypeKind::Pred) return false;
    if (any_size) {  // kind only: any register for .bN, no float for .uN/.sN, bits/float for .fN
      if (tk == TypeKind::Bits) return true;
      const bool packed = r == DataType::F16x2 || r == DataType::BF16x2;
      if (tk == TypeKind::Float) return rk == TypeKind::Bits || (rk == TypeKind::Float && !packed);
      return rk != TypeKind::Float || packed;
    }
    if (rb < tb) return false;
    switch (tk) {
      case TypeKind::Bits:
        if (t == DataType::B128) return rb == 128;
        return true;
      case TypeKind::Unsigned:
      case TypeKind::Signed:
        // Packed half pairs count as bits here (ptxas), scalar halves do not.
        return rk != TypeKind::Float || r == DataType::F16x2 || r == DataType::BF16x2;
      case TypeKind::Float:
        if (rk == TypeKind::Float) return r == t;  // the same float type (.f16x2 is not .f32)
        // ptxas takes integer registers for a float type inside a brace list only, and
        // signed/unsigned ones only of the type's width ({%s64, %s64} is not a .v2.f32).
        return rk == TypeKind::Bits || (ins_.src_braced && ins_.src.size() > 1 && rb == tb);
      default:
        return false;
    }
  }

  // How many source elements a form takes (ptxas's rules, looser than the ISA text for
  // st.async: its mbarrier form infers the vector from a brace list of 1, 2 or 4).
  enum class SourceShape { St, AsyncMbarrier, AsyncRelease };

  void check_sources(bool allow_sinks, SourceShape shape = SourceShape::St) {
    const unsigned lanes = ins_.vec_lanes();
    const bool vector = ins_.vec.has_value();
    const size_t n = ins_.src.size();
    if (n == 0) return;
    const Loc loc = ins_.src[0].loc;
    if (shape == SourceShape::AsyncRelease && ins_.src_braced) {
      error(loc, "a brace-list (vector) source is not allowed in the release form of 'st.async'");
      return;
    }
    if (vector && !ins_.src_braced && !(shape == SourceShape::AsyncMbarrier && n == 1)) {
      error(loc, "vector " + q(to_string(*ins_.vec)) + " source must be a brace list of " +
                     std::to_string(lanes) + " registers");
      return;
    }
    if (ins_.src_braced) {
      bool ok = vector ? n == lanes : n == 1;
      if (shape == SourceShape::AsyncMbarrier && !vector) {
        // ptxas infers .v2/.v4 from the list, except for bit types.
        bool bits = ins_.type && kind_of(*ins_.type) == TypeKind::Bits;
        ok = n == 1 || (!bits && (n == 2 || n == 4));
      }
      if (!ok) {
        error(loc,
              std::string("argument vector size mismatch: ") +
                  (vector ? "vector " + q(to_string(*ins_.vec)) : std::string("a scalar store")) +
                  " takes " + std::to_string(vector ? lanes : 1) + " source element" +
                  (vector && lanes > 1 ? "s" : "") + ", found " + std::to_string(n));
        return;
      }
    }
    // Elements: each register is declared; a brace list gets one type (ptxas): registers of
    // one width, no float mixed with a signed/unsigned integer (immediates count: `1` is an
    // integer, `1.0`/`0f...`/`0d...` floats), and a bit-typed register makes the whole list
    // bit-typed. That type is then checked against the instruction type.
    const Symbol* first_reg = nullptr;
    std::string_view first_name;
    DataType combined = DataType::B32;
    Loc combined_loc = loc;
    // Element classes: bit-typed registers mix with anything of their width; integers
    // (registers or literals) do not mix with floats (registers or literals), and two
    // different float register types do not mix either.
    // ptxas reads the list left to right: an integer element after a float one (or the
    // reverse) is an error, but a bit-typed register in between makes the list bit-typed and
    // ends the conflict ({%fd6, %rd11, -1} is accepted, {%fd6, -1} is not).
    enum class Run { None, Bits, Int, Float };
    Run run = Run::None;
    bool mixed = false;
    auto element = [&](Run e) {
      if (e == Run::Bits || run == Run::None || run == Run::Bits) {
        run = e;
      } else if (e != run) {
        mixed = true;
      }
    };
    std::optional<DataType> float_reg;
    bool two_float_types = false;
    const Operand* last_imm = nullptr;
    for (const Operand& o : ins_.src) {
      if (o.kind == Operand::Kind::Sink) {
        if (!allow_sinks) {
          error(o.loc,
                "the sink '_' is allowed only in '.v8' of 32-bit or '.v4' of 64-bit "
                "sources");
        }
        continue;
      }
      if (o.kind == Operand::Kind::Immediate || is_address_constant(o)) {
        if (ins_.op == Opcode::Tcgen05St) {
          error(o.loc, "'tcgen05.st' takes registers only, not '" + o.text + "'");
          return;
        }
        bool is_float = o.kind == Operand::Kind::Immediate && literal_of(o.text) != Literal::Int;
        element(is_float ? Run::Float : Run::Int);
        // A function's address fits any type (ptxas); literals and var+N are typed below.
        // ptxas types a list of immediates by its last one: `{0d.., 0f..}` is a .b32 list.
        if (!is_function(o)) last_imm = &o;
        continue;
      }
      const Symbol* r = source_symbol(o);
      if (!r) continue;
      TypeKind k = kind_of(r->type);
      if (k == TypeKind::Float) {
        if (float_reg && *float_reg != r->type) two_float_types = true;
        float_reg = r->type;
      }
      element(k == TypeKind::Bits ? Run::Bits : k == TypeKind::Float ? Run::Float : Run::Int);
      if (!first_reg) {
        first_reg = r;
        first_name = o.text;
        combined = r->type;
        combined_loc = o.loc;
        continue;
      }
      if (bits_of(first_reg->type) != bits_of(r->type)) {
        error(o.loc, "incompatible elements of vector expression: '" + std::string(first_name) +
                         "' is ." + std::string(to_string(first_reg->type)) + ", '" + o.text +
                         "' is ." + std::string(to_string(r->type)));
        return;
      }
      if (k == TypeKind::Bits) combined = r->type;
    }
    // Only when every element is a sink: without a symbol table (`.sts` lines) registers
    // are untyped, and a leading sink must not be taken for an all-sink list.
    if (!first_reg && !last_imm && ins_.src_braced && n > 0 &&
        std::all_of(ins_.src.begin(), ins_.src.end(),
                    [](const Operand& o) { return o.kind == Operand::Kind::Sink; })) {
      error(loc, "every element is a sink '_': the vector's element type cannot be inferred");
      return;
    }
    if (two_float_types || mixed) {
      error(loc, std::string("vector elements of different types are not allowed in '") +
                     std::string(to_string(ins_.op)) + "'");
      return;
    }
    if (first_reg) {
      // `%r3+1`: ptxas computes the sum in the register's width and extends it, so only the
      // kind of the register is checked, not its size (ptxas 13.0).
      const bool addend = n == 1 && !ins_.src_braced && ins_.src[0].has_addend;
      check_source_type(first_reg, combined, n > 1 ? std::string_view("the vector") : first_name,
                        combined_loc, addend);
    } else if (last_imm) {
      check_immediate_type(*last_imm);
    }
  }

  enum class Literal { Int, Decimal, F32, F64 };
  static Literal literal_of(const std::string& t) {
    std::string_view v = t;
    if (!v.empty() && v[0] == '-') v.remove_prefix(1);
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'f' || v[1] == 'F')) return Literal::F32;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'd' || v[1] == 'D')) return Literal::F64;
    bool hex = v.size() > 1 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    if (!hex && (v.find('.') != std::string_view::npos ||
                 v.find_first_of("eE") != std::string_view::npos)) {
      return Literal::Decimal;
    }
    return Literal::Int;
  }

  // An immediate source (ptxas): integers for integer and bit types; `0f` (32-bit) and `0d`
  // (64-bit) floats for float or bit types of their width; a decimal float for any float
  // type and for 64-bit bit types.
  void check_immediate_type(const Operand& o) {
    if (!ins_.type || ins_.op == Opcode::Tcgen05St) return;
    DataType t = *ins_.type;
    TypeKind k = kind_of(t);
    unsigned b = bits_of(t);
    bool ok = false;
    Literal lit = o.kind == Operand::Kind::Immediate ? literal_of(o.text) : Literal::Int;
    switch (lit) {
      case Literal::Int:
        ok = k != TypeKind::Float;
        break;
      case Literal::Decimal:
        ok = k == TypeKind::Float || (k == TypeKind::Bits && b == 64);
        break;
      case Literal::F32:  // a float type takes either width (ptxas converts); bits only 32
        ok = k == TypeKind::Float || (k == TypeKind::Bits && b == 32);
        break;
      case Literal::F64:
        ok = k == TypeKind::Float || (k == TypeKind::Bits && b == 64);
        break;
    }
    if (!ok) {
      error(o.loc, "immediate '" + o.text + "' does not match instruction type ." +
                       std::string(to_string(t)));
    }
  }

  // A function name, or `var+N`, as a source: an integer constant (its address) for ptxas.
  bool is_address_constant(const Operand& o) const {
    if (o.kind != Operand::Kind::Register || !ctx_.symbols || ins_.src_braced) return false;
    const Symbol* s = lookup(o.text);
    return s && (s->kind == Symbol::Kind::Function ||
                 (s->kind == Symbol::Kind::Variable && o.has_addend));
  }

  bool is_function(const Operand& o) const {
    if (o.kind != Operand::Kind::Register || !ctx_.symbols) return false;
    const Symbol* s = lookup(o.text);
    return s && s->kind == Symbol::Kind::Function;
  }

  // The declared register behind a source operand (nullptr, diagnosed, when it is not one).
  const Symbol* source_symbol(const Operand& o) {
    if (!ctx_.symbols || !ins_.type) return nullptr;
    const Symbol* s = lookup(o.text);
    if (!s) {
      error(o.loc, "undeclared register '" + o.text + "'");
      return nullptr;
    }
    // ptxas 13.0 takes a scalar variable or parameter in a brace list as an element of its
    // declared type ({p, gvar}), but not an array (gbuf) and not outside braces.
    if (ins_.src_braced && s->kind == Symbol::Kind::Variable && !s->is_array) return s;
    if (s->kind != Symbol::Kind::Register) {
      error(o.loc, ins_.src_braced ? "illegal expression '" + o.text + "' in a vector operand"
                                   : "source operand '" + o.text + "' must be a register");
      return nullptr;
    }
    if (s->special && !ins_.src_braced) {
      error(o.loc, "special register '" + o.text + "' cannot be the source of a store");
      return nullptr;
    }
    return s;
  }

  // Relaxed type check of a source of type `type` (a register, or a whole brace list).
  // Returns whether the source passed (an error is reported when it did not).
  bool check_source_type(const Symbol* s, DataType type, std::string_view what, Loc loc,
                         bool any_size = false) {
    DataType t = *ins_.type;
    bool ok = s->vec_lanes == 1 && source_type_ok(t, type, any_size);
    // st.async takes no wider source, but `%r+N` is computed and extended (ptxas 13.0).
    if (ins_.op == Opcode::StAsync && !any_size) ok = ok && bits_of(type) == bits_of(t);
    if (ins_.op == Opcode::Tcgen05St) {
      t = DataType::B32;
      ok = s->vec_lanes == 1 && bits_of(type) == 32 && kind_of(type) != TypeKind::Pred;
    }
    if (!ok) {
      std::string name =
          what == "the vector" ? std::string(what) : "source register '" + std::string(what) + "'";
      error(loc, name + " of type ." + std::string(to_string(type)) +
                     " does not match instruction type ." + std::string(to_string(t)) +
                     " (relaxed type-checking rules)");
    }
    return ok;
  }

  void check_param_guard() {
    if (!ins_.guard.present() || !ins_.space || !is_param(*ins_.space)) return;
    // ptxas rejects a predicated st.param for a call argument but accepts it for the
    // function's own return parameter.
    if (ins_.addr.base == Address::Base::Immediate || !ctx_.symbols) return;
    const Symbol* s = lookup(ins_.addr.name);
    if (s && s->param_role == Symbol::ParamRole::CallArg) {
      error(ins_.guard.loc, "'st.param' that passes call arguments cannot be predicated");
    }
  }

  // ---------------------------------------------------------------- st.async
  void check_st_async() {
    Loc loc = ins_.loc;
    const bool release = ins_.is_async_release();
    // ptxas attaches the release form's gates (PTX 8.7, sm_100) to the keywords '.release',
    // '.global' and '.mmio', not to the form: `st.async.u32 [a], b;` (no [mbar], no scope)
    // needs only the base gates. The release gates imply the base ones: report only those.
    if (!release_keyword()) {
      require(Feature::StAsync, loc);
    }
    // '.cluster' scope names the shared::cluster window (ptxas: an error, on either form).
    if (ins_.scope == Scope::Cluster && ins_.space && *ins_.space != Space::SharedCluster) {
      error(at(QualFamily::Scope),
            "scope '.cluster' requires state space '.shared::cluster' (found " +
                q(to_string(*ins_.space)) + ")");
      return;
    }
    if (ins_.sem && *ins_.sem != Sem::Weak && *ins_.sem != Sem::Release) {
      error(at(QualFamily::Sem), q(to_string(*ins_.sem)) + " is not valid for 'st.async'");
    }
    if (ins_.sem == Sem::Weak && ins_.scope) {
      error(at(QualFamily::Scope),
            "'.weak' cannot be combined with scope " + q(to_string(*ins_.scope)));
    }
    if (ins_.type) {
      DataType t = *ins_.type;
      TypeKind k = kind_of(t);
      if (k == TypeKind::Pred || bits_of(t) > 64 || t == DataType::F16 || t == DataType::F16x2 ||
          t == DataType::BF16 || t == DataType::BF16x2) {
        error(at(QualFamily::Type), "type " + q(to_string(t)) + " is not valid for 'st.async'");
      }
    }
    if (ins_.mmio && ins_.sem != Sem::Release) {
      error(at(QualFamily::Mmio), "'.mmio' requires '.release' for 'st.async'");
    }
    if (release) {
      check_st_async_release();
      check_sources(false, SourceShape::AsyncRelease);
    } else {
      check_st_async_mbarrier();
      check_sources(false, SourceShape::AsyncMbarrier);
    }
  }

  void check_st_async_mbarrier() {
    if (ins_.sem == Sem::Release) return;
    if (!ins_.complete_tx) {
      error(ins_.loc, "'st.async' to shared memory requires '.mbarrier::complete_tx::bytes'");
    }
    if (ins_.scope && *ins_.scope != Scope::Cluster) {
      error(at(QualFamily::Scope), "'st.async' with an mbarrier allows only scope '.cluster'");
    }
    if (bans_.has(SpaceRule::AsyncForm)) {
      error(at(QualFamily::Space),
            "'st.async' with an mbarrier requires '.shared::cluster' (found " +
                q(to_string(*ins_.space)) + ")");
    } else if (ins_.space && *ins_.space != Space::SharedCluster) {
      warning(at(QualFamily::Space),
              "PTX ISA: the state space of 'st.async' with an mbarrier "
              "must be '.shared::cluster' (ptxas accepts " +
                  q(to_string(*ins_.space)) + ")");
    }
    if (ins_.type && bits_of(*ins_.type) < 32 && ins_.mbar) {
      error(at(QualFamily::Type), "'st.async' with an mbarrier requires a 32- or 64-bit type");
    }
    if (ins_.vec && !ins_.mbar) {
      error(at(QualFamily::Vec),
            "a vector qualifier is not allowed in 'st.async' without an "
            "[mbar] operand (ptxas)");
    } else if (ins_.vec) {
      if (*ins_.vec == Vec::V8) {
        error(at(QualFamily::Vec), "'.v8' is not valid for 'st.async'");
      } else if (ins_.type && bits_of(*ins_.type) * lanes_of(*ins_.vec) > 128) {
        error(at(QualFamily::Vec), "'st.async' vectors are at most 128 bits");
      }
    }
    if (!ins_.mbar) {
      warning(ins_.addr.loc,
              "PTX ISA: 'st.async' with '.mbarrier::complete_tx::bytes' takes an "
              "[mbar] operand (ptxas accepts it missing)");
    } else {
      check_address(*ins_.mbar, ins_.space, "mbarrier address");
    }
    check_address(ins_.addr, ins_.space, "address");
  }

  bool release_keyword() const {
    return ins_.sem == Sem::Release || ins_.space == Space::Global || ins_.mmio;
  }
  // `st.async{.weak}{.shared{::cta}}{.completion}.type [a], b;`: no [mbar], no scope and no
  // release keyword. ptxas accepts it with the base gates and emits no store for it.
  bool async_without_target() const {
    return !ins_.mbar && !ins_.scope && !release_keyword() &&
           (!ins_.space || *ins_.space == Space::Shared || *ins_.space == Space::SharedCta);
  }

  void check_st_async_release() {
    if (async_without_target()) {
      warning(ins_.loc,
              "PTX ISA: 'st.async' without an [mbar] operand, a scope or '.release' is not a "
              "defined form (ptxas accepts it and emits no store)");
      if (ins_.vec) {
        error(at(QualFamily::Vec),
              "a vector qualifier is not allowed in 'st.async' without an "
              "[mbar] operand (ptxas)");
      }
      check_address(ins_.addr, ins_.space, "address");
      return;
    }
    if (release_keyword()) {
      require(Feature::StAsyncRelease, ins_.loc);
    }
    if (ins_.complete_tx) {
      error(at(QualFamily::Completion),
            "'.mbarrier::complete_tx::bytes' cannot be used with the release form of 'st.async'");
    }
    if (!ins_.scope) {
      if (ins_.sem == Sem::Release)
        error(at(QualFamily::Sem), "'.release' requires a scope ('.gpu' or '.sys')");
    } else if (*ins_.scope != Scope::Gpu && *ins_.scope != Scope::Sys) {
      error(at(QualFamily::Scope), "the release form of 'st.async' allows scope '.gpu' or '.sys'");
    }
    // A scoped st.async takes no `%r+N` source (ptxas 13.0: a syntax error at the '+').
    if (ins_.scope && !ins_.src_braced && ins_.src.size() == 1 && ins_.src[0].has_addend) {
      error(ins_.src[0].loc, "'st.async' with a scope takes no source with an added constant ('" +
                                 ins_.src[0].text + "+...')");
    }
    // The ISA text requires '.sys' with '.mmio'; ptxas 13.0 accepts '.gpu' too.
    if (ins_.mmio && ins_.scope && *ins_.scope != Scope::Sys) {
      warning(at(QualFamily::Mmio), "PTX ISA: '.mmio' requires scope '.sys' (ptxas accepts " +
                                        q(to_string(*ins_.scope)) + ")");
    }
    if (!ins_.sem) {
      warning(ins_.loc,
              "PTX ISA: the release form of 'st.async' is written with '.release' "
              "(ptxas accepts it missing)");
    }
    if (bans_.has(SpaceRule::AsyncForm)) {
      error(at(QualFamily::Space), "the release form of 'st.async' requires '.global' (found " +
                                       q(to_string(*ins_.space)) + ")");
    }
    if (ins_.vec) {
      error(at(QualFamily::Vec),
            "a vector qualifier is not allowed in the release form of "
            "'st.async' (or without an [mbar] operand)");
    }
    if (ins_.mbar) {
      const Symbol* mv =
          ins_.mbar->base == Address::Base::Symbol ? lookup(ins_.mbar->name) : nullptr;
      if (ins_.space != Space::Global) {
        error(ins_.mbar->loc,
              "an [mbar] operand makes 'st.async' the shared::cluster form, "
              "which cannot be '.release' (ptxas)");
      } else if (ins_.type && bits_of(*ins_.type) < 32) {
        error(ins_.mbar->loc, "the release form of 'st.async' takes no [mbar] operand");
      } else if (mv && mv->space && *mv->space != Space::Global) {
        error(ins_.mbar->loc, "state space mismatch: '" + ins_.mbar->name + "' is in " +
                                  q(to_string(*mv->space)) + ", the store is '.global'");
      } else {
        warning(ins_.mbar->loc,
                "PTX ISA: the release form of 'st.async' takes no [mbar] "
                "operand (ptxas 13.0 accepts it for 32/64-bit types on some "
                "targets and crashes on others)");
      }
    }
    check_address(ins_.addr, ins_.space, "address");
  }

  // ---------------------------------------------------------------- st.bulk
  // st.bulk{.weak}{.shared::cta} [a], size, initval (PTX 8.6, sm_100; ptxas 13.0 probes in
  // tests/conformance/families): size a 64-bit integer register or an immediate multiple of
  // 8 in [0, 16 MiB]; initval the integer 0.
  static constexpr int64_t kBulkMaxBytes = 16 * 1024 * 1024;

  void check_st_bulk() {
    require(Feature::StBulk, ins_.loc);
    if (ins_.sem && *ins_.sem != Sem::Weak) {
      error(at(QualFamily::Sem),
            q(to_string(*ins_.sem)) + " is not valid for 'st.bulk' (only '.weak')");
    }
    if (ins_.space && *ins_.space != Space::SharedCta) {
      error(at(QualFamily::Space),
            "'st.bulk' takes state space '.shared::cta' or none "
            "(generic), not " +
                q(to_string(*ins_.space)));
    } else {
      check_address(ins_.addr, ins_.space, "address");
    }
    if (ins_.src.size() != 2) return;
    check_bulk_size(ins_.src[0]);
    const Operand& init = ins_.src[1];
    int64_t v = 0;
    if (!integer_immediate(init, v) || v != 0) {
      error(init.loc, "the initval of 'st.bulk' must be the integer 0, not '" + init.text + "'");
    }
  }

  void check_bulk_size(const Operand& o) {
    if (o.kind == Operand::Kind::Immediate) {
      int64_t v = 0;
      if (!integer_immediate(o, v)) {
        error(o.loc, "the size of 'st.bulk' must be an integer, not '" + o.text + "'");
      } else if (v % 8 != 0) {
        error(o.loc,
              "the size of 'st.bulk' must be a multiple of 8 (found " + std::to_string(v) + ")");
      } else if (v < 0 || v > kBulkMaxBytes) {
        error(o.loc,
              "the size of 'st.bulk' must be in [0, 16777216] (found " + std::to_string(v) + ")");
      }
      return;
    }
    if (o.kind == Operand::Kind::Sink) {
      error(o.loc, "the size of 'st.bulk' is a register or an immediate, not '_'");
      return;
    }
    if (!ctx_.symbols) return;
    const Symbol* s = lookup(o.text);
    if (!s) {
      error(o.loc, "undeclared register '" + o.text + "'");
      return;
    }
    const TypeKind k = s->kind == Symbol::Kind::Register ? kind_of(s->type) : TypeKind::Pred;
    if (s->kind != Symbol::Kind::Register || s->vec_lanes != 1 || bits_of(s->type) != 64 ||
        k == TypeKind::Float || k == TypeKind::Pred) {
      error(o.loc, "the size register '" + o.text +
                       "' of 'st.bulk' must be a 64-bit integer "
                       "register");
    }
  }

  // The value of an integer immediate (as written, or the decimal of an expression).
  static bool integer_immediate(const Operand& o, int64_t& v) {
    if (o.kind != Operand::Kind::Immediate || o.has_addend || literal_of(o.text) != Literal::Int)
      return false;
    std::string_view t = o.text;
    const bool neg = !t.empty() && t[0] == '-';
    if (neg) t.remove_prefix(1);
    uint64_t u = 0;
    bool overflow = false;
    if (!parse_int_literal_wrapping(t, u, overflow)) return false;
    v = static_cast<int64_t>(neg ? uint64_t(0) - u : u);
    return true;
  }

  // ---------------------------------------------------------------- tcgen05.st
  void check_tcgen05() {
    Loc loc = ins_.loc;
    const Target& t = target();
    bool arch_ok = t.has_arch_specific(100) || t.has_arch_specific(101) ||
                   t.has_arch_specific(110) || t.has_arch_specific(103);
    if (t.suffix == Target::Suffix::Family)
      arch_ok = t.has_family_specific(100) || t.has_family_specific(110);
    if (!arch_ok) {
      error(loc,
            "'tcgen05.st' requires an sm_100a/sm_101a/sm_103a/sm_110a target or an "
            "sm_100f/sm_110f family target (target is " +
                t.str() + ")");
    } else {
      require(Feature::Tcgen05St, loc);
      if (t.suffix == Target::Suffix::Family) {
        require(Feature::Tcgen05StFamily, loc,
                [&] { return "'tcgen05.st' on family target " + t.str(); });
      }
    }
    if (!ins_.sync) error(loc, "'tcgen05.st' requires '.sync'");
    if (!ins_.aligned) {
      warning(loc, "PTX ISA: '.aligned' is mandatory for 'tcgen05.st' (ptxas accepts it missing)");
    }
    if (!ins_.shape) {
      error(loc,
            "'tcgen05.st' requires a shape ('.32x32b', '.16x64b', '.16x128b', '.16x256b' "
            "or '.16x32bx2')");
      return;
    }
    if (!ins_.num) {
      error(loc, "'tcgen05.st' requires a repeat count '.num' ('.x1' ... '.x128')");
      return;
    }
    if (ins_.num > max_num(*ins_.shape)) {
      error(at(QualFamily::Num), "'.x" + std::to_string(ins_.num) + "' is not valid with shape " +
                                     q(to_string(*ins_.shape)) + " (at most '.x" +
                                     std::to_string(max_num(*ins_.shape)) + "')");
      return;
    }
    if (ins_.type && *ins_.type != DataType::B32) {
      error(at(QualFamily::Type), "'tcgen05.st' requires type '.b32'");
    }
    const unsigned need = ins_.tmem_regs();
    if (!ins_.src_braced) {
      error(ins_.src.empty() ? loc : ins_.src[0].loc,
            "'tcgen05.st' source must be a brace list of " + std::to_string(need) + " registers");
    } else if (ins_.src.size() != need) {
      error(ins_.src[0].loc, "'tcgen05.st." + std::string(to_string(*ins_.shape)) + ".x" +
                                 std::to_string(ins_.num) + "' needs " + std::to_string(need) +
                                 " registers, found " + std::to_string(ins_.src.size()));
    } else {
      // Immediates may stand for registers (ptxas), but not all of them.
      // At least one element must carry a 32-bit type: a register or a `0f` literal.
      bool typed = false;
      for (const Operand& o : ins_.src) {
        typed |= o.kind == Operand::Kind::Register ||
                 (o.kind == Operand::Kind::Immediate && literal_of(o.text) == Literal::F32);
      }
      if (!typed) {
        error(ins_.src[0].loc,
              "'tcgen05.st' needs a register (or a 0f literal) in its source "
              "list to type it");
      }
      // ptxas 13.0: a packed-half register does not mix with signed/unsigned ones.
      bool packed = false, integer = false;
      const Symbol* passed = nullptr;  // the last declaration whose register passed
      for (const Operand& o : ins_.src) {
        if (o.kind == Operand::Kind::Sink) {
          error(o.loc, "the sink '_' is not allowed in 'tcgen05.st'");
        } else if (o.kind == Operand::Kind::Register) {
          const Symbol* r = source_symbol(o);
          // Registers of one `%r<N>` declaration share its Symbol: the same checks, passed.
          if (!r || r == passed) continue;
          if (check_source_type(r, r->type, o.text, o.loc)) passed = r;
          packed |= r->type == DataType::F16x2 || r->type == DataType::BF16x2;
          integer |= kind_of(r->type) == TypeKind::Signed || kind_of(r->type) == TypeKind::Unsigned;
        }
      }
      if (packed && integer) {
        error(ins_.src[0].loc,
              "vector elements of different types are not allowed in 'tcgen05.st'");
      }
    }
    // taddr: a 32-bit register.
    const Address& a = ins_.addr;
    if (a.base == Address::Base::Immediate) {
      error(a.loc, "taddr must be a 32-bit register, not an immediate address");
      return;
    }
    if (!ctx_.symbols) return;
    const Symbol* s = lookup(a.name);
    if (!s) {
      error(Loc{a.loc.line, a.loc.col + 1}, "undeclared identifier '" + a.name + "'");
    } else if (s->kind != Symbol::Kind::Register || bits_of(s->type) != 32 ||
               kind_of(s->type) == TypeKind::Float) {
      error(Loc{a.loc.line, a.loc.col + 1}, "taddr '" + a.name + "' must be a 32-bit register");
    }
  }

  const Instruction& ins_;
  const CheckContext& ctx_;
  Diagnostics& d_;
  size_t errors_before_;
  const SpaceViolations bans_;  // the space rules the written state space breaks
};

}  // namespace

bool validate(const Instruction& ins, const CheckContext& ctx, Diagnostics& diags) {
  return Validator(ins, ctx, diags).run();
}

}  // namespace stu::isa
