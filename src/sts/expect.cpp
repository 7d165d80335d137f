// The `.sts` expectations: each compares what the model did (its last store's effects, its
// memory, TMEM and mbarrier image) with what the test states, and reports every difference.
#include "runner.h"

namespace stu::sts {

bool Runner::need_last(const Stmt& s) {
  if (have_last_) return true;
  fail(s.loc, sum_.stores
                  ? "expectation about the last store, which did not run (see the error above)"
                  : "expectation about the last store, but no store has executed");
  return false;
}
// What an expectation reads (for models that cannot observe everything).
Effect effect_of(const Stmt& s) {
  const std::string& w = s.word;
  if (w == "memory")
    return s.mem.space == MemSpace::Tmem && !s.mem.generic ? Effect::Tmem : Effect::Memory;
  if (w == "mbarrier") return Effect::Mbarrier;
  if (w == "l1" || w == "l2" || w == "dram_write" || w == "write_buffer" || w == "dram_writes")
    return Effect::Caches;
  if (w == "faults" || w == "fault") return Effect::Faults;
  if (w == "cache") return Effect::CacheAttrs;
  return Effect::Store;
}

void Runner::expect(const Stmt& s) {
  ++sum_.expectations;
  const std::string& w = s.word;
  if (!model_.observes(effect_of(s))) {
    ++sum_.not_observable;
    d_.note(s.loc, "not observable on " + std::string(model_.name()) + ": expect " + w);
    unclaimed_ = 0;
    return;
  }
  if (w == "memory") return expect_memory(s);
  if (w == "mbarrier") return expect_mbarrier(s);
  if (w == "l1" || w == "l2") return expect_cache_line(s);
  if (w == "dram_write") return expect_dram_write(s);
  if (w == "write_buffer" || w == "dram_writes") {
    uint64_t want;
    if (!need_caches(s) || !eval(s.exprs[0], env(), want)) return;
    const std::vector<golden::DramWrite>* log = model_.dram_writes();
    const uint64_t got = w == "write_buffer" ? model_.write_buffer_entries()
                         : log               ? log->size()
                                             : 0;
    if (got != want)
      fail(s.loc, "expectation failed: " + w + ": expected " + std::to_string(want) + ", actual " +
                      std::to_string(got));
    return;
  }
  if (!need_last(s)) return;
  if (w == "faults") {
    if (whole_store_fault(s, golden::FaultKind::None, "no faults")) return;
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
bool Runner::whole_store_fault(const Stmt& s, golden::FaultKind want, const std::string& what) {
  using V = StoreModel::FaultVerdict;
  if (no_instruction_) return false;  // no model ran it: the per-lane check of the empty result
  const V v = model_.fault_seen(want);
  if (v == V::PerLane) return false;
  fault_claimed_ = true;
  if (v == V::Unobservable) {
    ++sum_.not_observable;
    d_.note(s.loc, "not observable on " + std::string(model_.name()) + ": expect " + what +
                       " (no " + std::string(model_.name()) + " error tells it apart)");
  } else if (v == V::Disagrees) {
    const std::string e = model_.store_outcome();
    fail(s.loc,
         "expectation failed: " + what + ": the store ended with " + (e.empty() ? "no error" : e));
  }
  return true;
}
std::string Runner::num(uint64_t v, const std::string& what) {
  return what == "stored" || what == "forced_align" ? hex(v, 8) : std::to_string(v);
}
void Runner::expect_fault(const Stmt& s) {
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
  if (whole_store_fault(s, want, "fault " + s.word2)) return;
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
void Runner::expect_line(const Stmt& s) {
  uint64_t idx;
  if (!eval(s.exprs[0], env(), idx)) return;
  if (idx >= last_.lines.size())
    return fail(s.loc, "expectation failed: line " + std::to_string(idx) + " does not exist (" +
                           std::to_string(last_.lines.size()) + " line requests)");
  const golden::LineRequest& r = last_.lines[idx];
  using As = FieldDiffs::As;
  FieldDiffs f(*this, s);
  for (const golden::LineField& field : golden::line_fields()) {  // the one field list
    const uint64_t got = field.get(r);
    switch (field.format) {
      case golden::LineField::Format::Space:
        f.word(field.name, golden::format_line_field(field, got));
        break;
      case golden::LineField::Format::Hex:
        f.number(field.name, got, As::Hex);
        break;
      case golden::LineField::Format::Dec:
        f.number(field.name, got);
        break;
    }
  }
  f.report("line " + std::to_string(idx));
}
void Runner::expect_order(const Stmt& s) {
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
void Runner::expect_cache(const Stmt& s) {
  const golden::CacheAttrs& c = last_.cache;
  FieldDiffs f(*this, s);
  f.word("cop", c.cop ? std::string(isa::to_string(*c.cop)) : "none");
  f.word("l1", c.l1 ? std::string(isa::to_string(*c.l1)) : "none");
  f.word("l2", c.l2 ? std::string(isa::to_string(*c.l2)) : "none");
  f.word("policy", c.has_policy ? c.policy.str() : "none");
  f.report("cache");
}
bool Runner::need_caches(const Stmt& s) {
  if (model_.has_caches()) return true;
  fail(s.loc, model_.no_caches_reason());
  return false;
}
void Runner::expect_cache_line(const Stmt& s) {
  uint64_t addr;
  if (!need_caches(s) || !eval(s.exprs[0], env(), addr)) return;
  if (addr % golden::kLineBytes)
    return fail(s.loc, hex(addr) + " is not a line address (a multiple of 128)");
  const golden::CacheLookup l =
      model_.cache_line(s.word == "l1" ? CacheLevel::L1 : CacheLevel::L2, addr);
  const std::string what = s.word + " " + hex(addr);
  if (s.word2 == "absent") {
    if (l.hit)
      fail(s.loc, "expectation failed: " + what + ": expected absent, actual present (set " +
                      std::to_string(l.set) + " way " + std::to_string(l.way) + ")");
    return;
  }
  if (!l.hit)
    return fail(s.loc, "expectation failed: " + what + ": expected present, actual absent");
  using As = FieldDiffs::As;
  FieldDiffs f(*this, s);
  f.number("valid_lo", l.valid.lo, As::Hex);
  f.number("valid_hi", l.valid.hi, As::Hex);
  f.number("dirty_lo", l.dirty.lo, As::Hex);
  f.number("dirty_hi", l.dirty.hi, As::Hex);
  f.number("sectors", l.valid.sectors(), As::Hex);
  f.word("class", std::string(golden::to_string(l.cls)));
  f.report(what);
}
void Runner::expect_dram_write(const Stmt& s) {
  uint64_t idx;
  if (!need_caches(s) || !eval(s.exprs[0], env(), idx)) return;
  const std::vector<golden::DramWrite>* log = model_.dram_writes();
  const size_t n = log ? log->size() : 0;
  if (idx >= n)
    return fail(s.loc, "expectation failed: dram_write " + std::to_string(idx) +
                           " does not exist (" + std::to_string(n) + " DRAM writes)");
  const golden::DramWrite& d = (*log)[idx];
  using As = FieldDiffs::As;
  FieldDiffs f(*this, s);
  f.number("addr", d.line, As::Hex);
  f.number("bytemask_lo", d.bytes.lo, As::Hex);
  f.number("bytemask_hi", d.bytes.hi, As::Hex);
  f.word("cause", std::string(golden::to_string(d.cause)));
  f.report("dram_write " + std::to_string(idx));
}
void Runner::expect_mbarrier(const Stmt& s) {
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
void Runner::expect_memory(const Stmt& s) {
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
      first =
          where + ": expected " + hex(want & mask, digits) + ", actual " + hex(got & mask, digits);
  }
  if (bad)
    fail(s.loc, "expectation failed: " + first + " (" + std::to_string(bad) + " of " +
                    std::to_string(sp.count) + (sp.tmem ? " cells" : " elements") + " differ)");
}
}  // namespace stu::sts
