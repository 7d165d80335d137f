// The `.sts` runner: set-up steps and stores, in file order, on one model.
#include "runner.h"

#include <algorithm>

#include "stu/isa/lowering.h"

namespace stu::sts {

Runner::Runner(const Program& p, StoreModel& model, const RunOptions& o, Diagnostics& d,
               RunSummary& sum)
    : p_(p), o_(o), d_(d), sum_(sum), model_(model), m_(model.image()) {}
void Runner::run() {
  for (const Stmt& s : p_.stmts) step(s);
  check_unclaimed();
  if (o_.dump) dump(*o_.dump);
}
Env Runner::env(uint64_t lane) const {
  Env e;
  e.lane = lane;
  e.warp = warp_;
  e.cta = cta_;
  e.symbols = &symbols_;
  e.cfg = &p_.cfg;
  return e;
}
bool Runner::eval(int expr, const Env& e, uint64_t& v) {
  std::string err;
  Loc loc;
  if (p_.exprs.eval(expr, e, v, err, loc)) return true;
  fail(loc, err);
  return false;
}
void Runner::fail(Loc loc, const std::string& msg) {
  d_.error(loc, msg);
  ++sum_.failed;
}
bool Runner::kv_value(const Stmt& s, std::string_view key, uint64_t& v, uint64_t dflt) {
  const KV* kv = s.kv(key);
  if (!kv) {
    v = dflt;
    return true;
  }
  return eval(kv->expr, env(), v);
}
bool Runner::value(const std::string& name, unsigned lane, Loc loc, golden::RegValue& out) {
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
bool Runner::values32(const std::string& name, Loc loc, std::array<uint64_t, 32>& out) {
  for (unsigned l = 0; l < 32; ++l) {
    golden::RegValue v;
    if (!value(name, l, loc, v)) return false;
    out[l] = v.lo;
  }
  return true;
}
void Runner::check_unclaimed() {
  using V = StoreModel::FaultVerdict;
  if (have_last_ && !fault_claimed_ && !no_instruction_ &&
      model_.fault_seen(golden::FaultKind::None) == V::Disagrees)
    fail(last_loc_, "unexpected error: the store ended with " + model_.store_outcome() +
                        "; state it with 'expect fault lanes=all KIND'");
  fault_claimed_ = false;
  if (model_.fault_seen(golden::FaultKind::None) != V::PerLane) unclaimed_ = 0;  // not per lane
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
void Runner::step(const Stmt& s) {
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
    case StmtKind::Caches:
      return caches(s);
    case StmtKind::Fence:
      model_.fence(golden::WarpContext{cta_, warp_, mask_}, s.scope);
      if (o_.trace) {
        *o_.trace << "line " << s.loc.line << ": fence." << s.word << "." << isa::to_string(s.scope)
                  << "\n";
        trace_caches(*o_.trace);
      }
      return;
    case StmtKind::Expect:
      return expect(s);
  }
}
void Runner::alloc(const Stmt& s) {
  uint64_t base, size;
  if (!eval(s.exprs[0], env(), base) || !eval(s.exprs[1], env(), size)) return;
  const golden::AddressMap& map = p_.cfg.map;
  for (const golden::Window* w : {&map.shared, &map.local, &map.param, &map.konst}) {
    if (golden::range_valid(base, size) && golden::ranges_overlap(base, size, w->base, w->size))
      return fail(s.loc, "global allocation [" + hex(base) + ", +" + hex(size) +
                             ") overlaps a generic window (see docs/golden.md)");
  }
  if (!model_.host_alloc(base, size))
    fail(s.loc, "global allocation [" + hex(base) + ", +" + hex(size) +
                    ") is empty, wraps or overlaps another allocation");
}
bool Runner::dest_of(const MemLoc& ml, golden::Dest& d, uint64_t& off) {
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
bool Runner::tmem_rect(const MemLoc& ml, TmemRect& r) {
  uint64_t cta = cta_, lane, col, rows = 1, cols = 0, mask = 0xFFFFFFFFu;
  if ((ml.cta >= 0 && !eval(ml.cta, env(), cta)) || !eval(ml.lane, env(), lane) ||
      !eval(ml.col, env(), col) || (ml.rows >= 0 && !eval(ml.rows, env(), rows)) ||
      (ml.cols >= 0 && !eval(ml.cols, env(), cols)) ||
      (ml.mask >= 0 && !eval(ml.mask, env(), mask)))
    return false;
  r = TmemRect{uint32_t(cta), uint32_t(lane), uint32_t(col), uint32_t(rows), uint32_t(cols), mask};
  // No sums that could wrap: each bound is checked against what is left.
  if (cta >= p_.cfg.cluster_ctas || lane >= golden::kTmemLanes || col >= golden::kTmemColumns ||
      rows == 0 || rows > golden::kTmemLanes - lane || (ml.cols >= 0 && cols == 0) ||
      cols > golden::kTmemColumns - col) {
    fail(ml.loc, "tmem rectangle is empty or outside 128 lanes x 512 columns (or the cluster)");
    return false;
  }
  return true;
}
bool Runner::span_of(const Stmt& s, Span& sp) {
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
bool Runner::value_at(const Stmt& s, const Span& sp, size_t k, uint64_t& v) {
  Env e = env();
  e.i = k;
  if (sp.tmem) {
    e.row = k / sp.cols;
    e.col = k % sp.cols;
  }
  return eval(s.exprs.size() == 1 ? s.exprs[0] : s.exprs[k], e, v);
}
uint32_t& Runner::tmem_cell(const Span& sp, size_t k) {
  const size_t lane = sp.r.lane + k / sp.cols, col = sp.r.col + k % sp.cols;
  return m_.cta(sp.r.cta).tmem_cells()[lane * golden::kTmemColumns + col];
}
void Runner::write(const Stmt& s) {
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
    if (!model_.host_write(sp.d, sp.off + k * s.elem_bytes, b, s.elem_bytes))
      return fail(s.mem.loc, "write outside " + std::string(golden::to_string(sp.d.space)) +
                                 " memory at offset " + hex(sp.off + k * s.elem_bytes));
  }
}
void Runner::tmem_alloc(const Stmt& s) {
  uint64_t cta, cols, taddr = 0;
  if (!kv_value(s, "cta", cta, cta_) || !kv_value(s, "cols", cols, 0) ||
      !kv_value(s, "taddr", taddr, 0))
    return;
  if (cta >= p_.cfg.cluster_ctas) return fail(s.loc, "cta outside the cluster");
  if (cols > golden::kTmemColumns || taddr > 0xFFFFFFFFu)  // no silent 32-bit truncation
    return fail(s.loc, "tcgen05.alloc/dealloc: cols must be at most 512 and taddr 32 bits");
  if (s.kind == StmtKind::TmemDealloc) {
    if (!model_.tmem_dealloc(uint32_t(cta), uint32_t(taddr), uint32_t(cols)))
      fail(s.loc, "tcgen05.dealloc of " + hex(taddr) + " x " + std::to_string(cols) +
                      " columns does not match one live allocation");
    return;
  }
  const auto base = model_.tmem_alloc(uint32_t(cta), uint32_t(cols));
  if (const std::string e = model_.take_error(); !e.empty()) return fail(s.loc, e);
  if (!base)
    return fail(s.loc, golden::TmemAllocator::valid_count(uint32_t(cols))
                           ? "tcgen05.alloc of " + std::to_string(cols) + " columns: no free range"
                           : "tcgen05.alloc needs a power of two of columns in [32, 512]");
  if (const KV* name = s.kv("name")) symbols_[name->word] = *base;
  // tcgen05.alloc writes the allocated address to shared memory, as the instruction does.
  if (const KV* smem = s.kv("smem")) {
    uint64_t at;
    if (!eval(smem->expr, env(), at)) return;
    const uint8_t b[4] = {uint8_t(*base), uint8_t(*base >> 8), uint8_t(*base >> 16),
                          uint8_t(*base >> 24)};
    if (at % 4 || !model_.host_write(golden::Dest{MemSpace::Shared, uint16_t(cta), 0}, at, b, 4))
      fail(smem->loc, "tcgen05.alloc: smem=" + hex(at) +
                          " is not a 4-byte-aligned shared-memory offset of the CTA");
  }
}
void Runner::mbarrier(const Stmt& s) {
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
  const golden::FaultKind f = model_.host_mbarrier(uint32_t(cta), addr, op);
  if (f != golden::FaultKind::None)
    return fail(s.loc, "mbarrier " + w + ": " + std::string(golden::describe(f)));
}
uint32_t Runner::guard_mask(const std::string& reg, bool negated, Loc loc, bool& ok) {
  uint32_t m = 0;
  for (unsigned l = 0; l < 32 && ok; ++l) {
    golden::RegValue v;
    ok = value(reg, l, loc, v);
    if (ok && ((v.lo != 0) != negated)) m |= 1u << l;
  }
  return m;
}
bool Runner::immediate(const isa::Operand& o, uint64_t& v) {
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
bool Runner::source(const isa::Operand& o, const std::string& name, unsigned lane,
                    golden::RegValue& v) {
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
void Runner::begin_store(const Stmt& s) {
  check_unclaimed();
  fault_claimed_ = false;
  no_instruction_ = false;
  ++sum_.stores;
  last_loc_ = s.loc;
  have_last_ = true;
}
void Runner::ptx(const Stmt& s) {
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
  std::string why;
  if (!model_.supports(ins, why)) {
    fail(s.loc, why);
    have_last_ = false;
    return;
  }
  const golden::WarpContext ctx{cta_, warp_, active};
  if (isa::emits_no_store(ins, p_.target)) {
    last_.clear();  // ptxas emits no instruction for it: nothing reaches any model
    last_.order.async = true;
    no_instruction_ = true;
  } else {
    model_.execute(ins, ctx, ops_, last_);
  }
  after_store(s);
}
void Runner::sass(const Stmt& s) {
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
  model_.execute_sass(st, ctx, rf_, last_);
  after_store(s);
}
void Runner::after_store(const Stmt& s) {
  if (const std::string e = model_.take_error(); !e.empty()) fail(s.loc, e);
  if (const std::string n = model_.take_note(); !n.empty()) d_.note(s.loc, n);
  unclaimed_ = last_.fault_mask;
  if (!o_.trace) return;
  std::ostream& os = *o_.trace;
  os << "line " << s.loc.line << ": " << s.text << "\n  cta " << cta_ << " warp " << warp_
     << " mask " << hex(mask_, 8) << ": stored " << hex(last_.stored_mask, 8) << ", " << last_.bytes
     << " bytes";
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
    os << "  fault " << golden::to_string(k) << " on lanes " << hex(lanes, 8) << " (lane " << first
       << " at " << hex(last_.fault[first].addr) << ")\n";
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
  trace_caches(os);
}
void Runner::caches(const Stmt& s) {
  if (!model_.observes(Effect::Caches)) return;  // a GPU's caches: neither seen nor driven
  if (!need_caches(s)) return;
  model_.drain_caches(s.word == "flush");
  if (!o_.trace) return;
  *o_.trace << "line " << s.loc.line << ": " << s.word << "\n";
  trace_caches(*o_.trace);
}
void Runner::trace_caches(std::ostream& os) {
  const golden::HierarchyEvents* ev = model_.cache_events();
  if (!ev) return;
  for (const golden::L1Event& e : ev->l1) {
    os << "  l1 " << hex(e.line) << ": " << (e.hit ? "hit" : "miss");
    if (e.invalidated) os << ", invalidated";
    if (e.allocated) os << ", allocated";
    if (e.evicted) os << ", evicted " << hex(e.victim_line);
    if (e.wb.merged) os << "; write buffer: merged";
    if (e.wb.drained) os << "; write buffer: " << e.wb.drained << " left";
    os << "\n";
  }
  for (const golden::L2Write& w : ev->l2) {
    os << "  l2 " << hex(w.req.line) << ": " << (w.hit ? "hit" : "miss");
    if (w.allocated) os << ", allocated";
    if (w.evicted) os << ", evicted " << hex(w.victim_line);
    os << ", bytes " << w.req.bytes.count() << "\n";
  }
  for (const golden::DramWrite& d : ev->dram)
    os << "  dram " << hex(d.line) << ": " << golden::to_string(d.cause) << ", bytes "
       << d.bytes.count() << "\n";
}
RunSummary run(const Program& program, StoreModel& model, const RunOptions& opts,
               Diagnostics& diags) {
  RunSummary sum;
  sum.parsed = true;
  Runner(program, model, opts, diags, sum).run();
  return sum;
}

RunSummary run(std::string_view text, const RunOptions& opts, Diagnostics& diags) {
  Program program;
  if (!parse(text, program, diags)) return RunSummary{};
  GoldenModel model(program.cfg, program.caches);
  return run(program, model, opts, diags);
}

}  // namespace stu::sts
