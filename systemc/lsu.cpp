#include "lsu.h"

#include <cmath>

#include <algorithm>

namespace stu::sim {

using golden::MemSpace;

StoreClass store_class_of(const golden::StoreResult& r, bool tcgen05, std::uint32_t cta) {
  if (tcgen05) return StoreClass::Tmem;
  if (r.order.mmio) return StoreClass::Mmio;
  for (const golden::LineRequest& l : r.lines) {
    switch (l.dest.space) {
      case MemSpace::Global:
        return StoreClass::Global;
      case MemSpace::Shared:
        return l.dest.cta == cta ? StoreClass::Shared : StoreClass::Dsmem;
      default:
        return StoreClass::Local;
    }
  }
  return StoreClass::Global;
}

Lsu::Lsu(const sc_core::sc_module_name& name, SimContext& ctx, MBarrierUnit& mbu, Feed feed)
    : sc_module(name),
      out("out", ctx.tb, *ctx.agenda,
          [this](tlm::tlm_generic_payload& tr, Cycle c) { ack_at(tr, c); }),
      ctx_(ctx),
      mbu_(mbu),
      feed_(std::move(feed)),
      sms_(ctx.cfg.gpu.sms),
      warps_(std::size_t(ctx.cfg.gpu.sms) * kWarpSlots) {
  for (SmState& s : sms_) {
    s.issue = Calendar(double(ctx.cfg.lsu.issue_width), calendar_window_bins(ctx.cfg));
    s.instr = Calendar(double(ctx.cfg.sm.issue_per_clk), calendar_window_bins(ctx.cfg));
  }
  qk_.reset();
  SC_HAS_PROCESS(Lsu);
  SC_THREAD(main);
}

Cycle Lsu::last_cycle() const { return max_cursor_; }

Cycle Lsu::warp_issue_cycles(float instructions) const {
  const double per = double(ctx_.cfg.sm.warp_issue_per_clk);
  return Cycle(std::ceil(double(instructions) / (per > 0 ? per : 1.0)));
}

Lsu::WarpState& Lsu::warp(const PlannedOp& op) {
  return warps_[warp_key(op, std::uint32_t(sms_.size()))];
}

void Lsu::wait_until(Cycle c) {
  const Cycle now = ctx_.tb.now();
  if (c > now) wait(ctx_.tb.time(c - now));
}

void Lsu::main() {
  qk_.reset();  // the local quantum from this model's global quantum (TlmModel::activate)
  for (;;) {
    PlannedOp op;
    if (!feed_(op)) {
      if (finished_) break;
      if (ctx_.cfg.sim.mode == SimMode::Lt) qk_.sync();
      waiting_for_feed_ = true;
      wait(more_);
      waiting_for_feed_ = false;
      continue;
    }
    if (ctx_.cfg.sim.mode == SimMode::Lt) {
      issue_lt(op);
    } else {
      issue_at(op);
    }
    ++ops_done_;
  }
  if (ctx_.cfg.sim.mode == SimMode::Lt) {
    qk_.sync();
  } else {
    for (SmState& s : sms_) finish_wait_at(s);
  }
  waiting_for_feed_ = true;
  ended_ = true;
  // The process parks here instead of returning. Debian's SystemC 2.3.4 announces a
  // coroutine switch to AddressSanitizer in yield() but not in abort(), the switch out of a
  // process that ends: the sanitizer build then went on taking the ended process's stack
  // for the main thread's, and LeakSanitizer's check at exit read that stack after SystemC
  // had unmapped it ("Tracer caught signal 11"). A parked process leaves by yield(), and
  // nothing here is left to unwind: the loop's locals are gone.
  for (;;) wait(parked_);
}

void Lsu::build(const PlannedOp& op, std::vector<tlm::tlm_generic_payload*>& txns,
                StoreClass& cls) {
  txns.clear();
  const std::uint64_t instr = next_instr_++;
  auto fresh = [&]() -> tlm::tlm_generic_payload& {
    tlm::tlm_generic_payload& p = ctx_.pool.acquire();
    StoreExtension& x = store_ext(p);
    x = StoreExtension{};
    x.cta = op.ctx.cta;
    x.warp = op.ctx.warp;
    x.instr_id = instr;
    x.sm = op.sm % std::uint32_t(sms_.size());
    txns.push_back(&p);
    return p;
  };
  if (op.kind == OpKind::MbarArrive) {
    cls = StoreClass::Shared;
    tlm::tlm_generic_payload& p = fresh();
    p.set_address(op.mbar_offset);
    p.set_data_length(0);
    p.set_byte_enable_length(0);
    StoreExtension& x = store_ext(p);
    x.dest = golden::Dest{MemSpace::Shared, std::uint16_t(op.ctx.cta), 0};
    x.mbar_op = StoreExtension::MbarOp::Arrive;
    x.mbar_offset = op.mbar_offset;
    x.mbar_bytes = op.tx_bytes;
    return;
  }
  const golden::StoreResult& r = *op.res;
  cls = store_class_of(r, op.tcgen05, op.ctx.cta);
  bool release_point = r.order.release;
  // st.async: each barrier's complete-tx bytes go with the last line of its CTA.
  std::vector<std::size_t> last_of_cta;
  if (!r.mbar.empty()) {
    last_of_cta.assign(64, ~std::size_t(0));
    for (std::size_t i = 0; i < r.lines.size(); ++i)
      if (r.lines[i].dest.space == MemSpace::Shared) last_of_cta[r.lines[i].dest.cta % 64] = i;
  }
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    const golden::LineRequest& l = r.lines[i];
    // One request for the line; for a .mmio store one for each lane's bytes. Its lanes go one
    // at a time, each a request of its own through the L1 and to the L2: an H200 counts a
    // 32-lane st.mmio of 4-byte lanes as 32 L1 sectors and about 48 L2 requests (1.5 a lane, as
    // every request), where a weak store of the same lanes makes 4 and 6 (device run 13 of
    // 2026-11-27, warps_mmio_1 and _32). The lanes' accesses are naturally aligned scalars;
    // lanes that wrote the same bytes make one request, which carries the line's lane mask.
    const unsigned lane_bytes =
        r.order.mmio && op.lane_bytes && op.lane_bytes < golden::kLineBytes ? op.lane_bytes : 0;
    const unsigned step = lane_bytes ? lane_bytes : golden::kLineBytes;
    tlm::tlm_generic_payload* last = nullptr;
    for (unsigned at = 0; at < golden::kLineBytes; at += step) {
      golden::LineByteMask m = l.bytes;
      if (lane_bytes) {
        golden::LineByteMask lane;
        lane.set_range(at, lane_bytes);
        m.lo &= lane.lo;
        m.hi &= lane.hi;
        if (m.empty()) continue;
      }
      tlm::tlm_generic_payload& p = fresh();
      last = &p;
      set_line(p, l.line, m, l.data.data());
      StoreExtension& x = store_ext(p);
      x.order = r.order;
      x.cache = r.cache;
      x.lane_mask = l.lane_mask;
      x.store_class = cls;
      x.dest = l.dest;
      if (l.dest.space == MemSpace::Global && release_point) {
        x.release_point = true;
        release_point = false;
      }
    }
    if (!r.mbar.empty() && l.dest.space == MemSpace::Shared && last_of_cta[l.dest.cta % 64] == i) {
      StoreExtension& x = store_ext(*last);
      std::uint32_t bytes = 0;
      for (const golden::MbarEvent& e : r.mbar) {
        if (e.cta != l.dest.cta) continue;
        if (!x.has_mbar) x.mbar_offset = e.offset;
        if (e.offset == x.mbar_offset) bytes += e.bytes;
        x.has_mbar = true;
      }
      x.mbar_bytes = bytes;
    }
  }
  for (const golden::TmemWrite& w : r.tmem) {
    tlm::tlm_generic_payload& p = fresh();
    golden::LineByteMask m;
    std::array<std::uint8_t, golden::kLineBytes> bytes{};
    for (unsigned c = 0; c < 32; ++c) {
      if (!((w.col_mask >> c) & 1)) continue;
      for (unsigned b = 0; b < 4; ++b) {
        m.set(4 * c + b);
        bytes[4 * c + b] = std::uint8_t(w.data[c] >> (8 * b));
      }
    }
    set_line(p, (std::uint64_t(w.lane) << 16) | w.col, m, bytes.data());
    StoreExtension& x = store_ext(p);
    x.dest = golden::Dest{MemSpace::Tmem, w.cta, 0};
    x.store_class = StoreClass::Tmem;
  }
}

namespace {
// How long a .mmio store holds its SM's .mmio path: its own cycles, then one lane at a time.
Cycle mmio_cycles(const LsuConfig& c, std::uint32_t active) {
  return Cycle(c.mmio_cycles_per_store) +
         Cycle(c.mmio_cycles_per_lane) * __builtin_popcount(active);
}

void count_instruction(Stats& s, StoreClass cls, const PlannedOp& op) {
  switch (cls) {
    case StoreClass::Global:
    case StoreClass::Mmio:
      s.add(Metric::InstGlobalSt);
      s.add(Metric::L1GlobalRequests);
      break;
    case StoreClass::Shared:
    case StoreClass::Dsmem:
      if (op.kind == OpKind::Store) s.add(Metric::InstSharedSt);
      break;
    case StoreClass::Local:
      s.add(Metric::InstLocalSt);
      break;
    case StoreClass::Tmem:
      s.add(Metric::InstTmemSt);
      break;
  }
  if (op.res && op.res->order.async && !op.tcgen05) s.add(Metric::InstAsyncSt);
  if (op.res) s.add(Metric::BytesStored, double(op.res->bytes));
}
}  // namespace

std::optional<isa::Scope> Lsu::fence_before(const PlannedOp& op) {
  if (op.kind != OpKind::Store || !op.res || !op.res->order.release || op.fenced)
    return std::nullopt;
  return op.res->order.scope.value_or(isa::Scope::Gpu);
}

Cycle Lsu::fence_lt(SmState& s, const WarpState& w, isa::Scope scope, Cycle t) {
  const FenceConfig& f = ctx_.cfg.fence;
  if (scope == isa::Scope::Cta) return t + f.cta_cycles;  // ordered within the SM
  const Cycle start = std::max(t, s.fence_free);
  s.fence_free = start + f.interval;
  // Every earlier store of the warp acknowledged, and what they pushed out of the L1 at the L2.
  const Cycle drained = std::max({start, w.last_ack, w.visible});
  Cycle done = drained + f.gpu_cycles;
  if (scope == isa::Scope::Sys) done = std::max(done, start + f.sys_cycles);
  return done;
}

void Lsu::issue_lt(const PlannedOp& op) {
  SmState& s = sms_[op.sm % sms_.size()];
  WarpState& w = warp(op);
  Stats& st = ctx_.stats;
  // A warp that its own fence holds issues when the fence ends, and the SM goes on with its
  // other warps meanwhile: the SM's cursor does not follow the warp there.
  const Cycle sm_t = std::max(s.cursor, ctx_.tb.now());
  Cycle t = std::max(sm_t, w.ready);
  const bool held = t > sm_t;
  // The op's instructions take the SM's issue slots; the warp alone issues them no faster
  // than sm.warp_issue_per_clk (the end of that is the warp's own wait, not the SM's).
  Cycle own = t;
  if (op.instructions > 0) {
    own = t + warp_issue_cycles(op.instructions);
    t = s.instr.book(t, double(op.instructions));
  }
  if (op.kind != OpKind::Store) t = std::max(t, own);
  if (op.kind == OpKind::MbarWait) {
    const Cycle c = mbu_.phase_done(op.ctx.cta, op.mbar_offset, op.parity);
    if (c == kLater) {
      errors_.push_back("warp " + std::to_string(op.ctx.warp) + " of CTA " +
                        std::to_string(op.ctx.cta) + " waits for the phase of parity " +
                        std::to_string(op.parity) + " of the mbarrier at shared offset " +
                        std::to_string(op.mbar_offset) +
                        ", which no earlier operation of the workload completes");
    } else if (c > t) {
      st.add(Metric::LsuStallOrdering, double(c - t));
      t = c;
    }
    s.cursor = t;
    w.ready = t;
    return;
  }
  if (op.kind == OpKind::TmemWait) {
    if (w.tmem_ack > t) {
      st.add(Metric::LsuStallOrdering, double(w.tmem_ack - t));
      t = w.tmem_ack;
    }
    s.cursor = t;
    w.ready = t;
    return;
  }
  if (op.kind == OpKind::Fence) {
    const Cycle done = fence_lt(s, w, op.scope, t);
    st.add(Metric::LsuStallOrdering, double(done - t));
    ctx_.record(Event::FenceDone, 0, op.ctx.warp, 0, done);
    w.ready = done;
    if (!held) s.cursor = t;
    max_cursor_ = std::max(max_cursor_, done);
    return;
  }
  s.acks.take_due(t);
  if (s.acks.size() >= ctx_.cfg.lsu.outstanding_stores) {
    const Cycle c = s.acks.earliest();
    s.acks.take_earliest();
    st.add(Metric::LsuStallOutstanding, double(c - t));
    t = c;
  }
  const Cycle before_warp = t;  // what the SM waited for; the rest is the warp's own
  t = std::max(t, own);
  if (const auto scope = fence_before(op)) {
    const Cycle done = fence_lt(s, w, *scope, t);
    st.add(Metric::LsuStallOrdering, double(done - t));
    ctx_.record(Event::FenceDone, 0, op.ctx.warp, 0, done);
    t = done;
  }
  if (op.res && op.res->order.mmio) {  // one lane at a time, one .mmio store after another
    const Cycle start = std::max(t, s.mmio_free);
    s.mmio_free = start + mmio_cycles(ctx_.cfg.lsu, op.ctx.active);
    t = start;
  }
  const bool global = op.kind == OpKind::Store && op.res && !op.tcgen05 &&
                      store_class_of(*op.res, false, op.ctx.cta) == StoreClass::Global;
  if (global) t = std::max(t, w.store_free);
  const bool warp_waited = t > before_warp;
  t = s.issue.book(t, 1.0);
  if (global) w.store_free = t + ctx_.cfg.lsu.warp_store_cycles;
  StoreClass cls = StoreClass::Global;
  build(op, txns_, cls);
  count_instruction(st, cls, op);
  const std::uint64_t instr = txns_.empty() ? 0 : store_ext(*txns_.front()).instr_id;
  ctx_.record(Event::Issue, instr, op.ctx.warp, 0, t);
  Cycle ack = t;
  for (tlm::tlm_generic_payload* p : txns_) {
    StoreExtension& x = store_ext(*p);
    x.issue_cycle = t;
    ack = std::max(ack, out.lt(*p, t));
    w.visible = std::max<Cycle>(w.visible, x.visible_cycle);
    p->release();
  }
  if (op.res && op.res->order.mmio)  // acknowledged after its last lane went
    ack = std::max(ack, s.mmio_free);
  ctx_.record(Event::Ack, instr, op.ctx.warp, 0, ack);
  if (op.tcgen05) {
    w.tmem_ack = std::max(w.tmem_ack, ack);
  } else {
    s.acks.add(ack);
    w.last_ack = std::max(w.last_ack, ack);
  }
  // A store that wrote nothing (every lane faulted or inactive) has no latency to count.
  if (op.kind == OpKind::Store && !txns_.empty()) st.lat(cls).add(ack - t);
  w.ready = t;
  if (!held) s.cursor = warp_waited ? before_warp : t;
  max_cursor_ = std::max(max_cursor_, ack);
  s.active = true;
  // The quantum keeper follows the slowest active SM: simulated time never passes an SM's
  // cursor, so no SM is dragged forward by another that ran ahead (recomputed every 64 ops).
  if ((++lt_ops_ & 63) == 0) {
    Cycle slowest = ~Cycle(0);
    for (const SmState& x : sms_)
      if (x.active) slowest = std::min(slowest, x.cursor);
    const sc_core::sc_time now = ctx_.tb.stamp();
    const sc_core::sc_time local = ctx_.tb.time(slowest);
    qk_.set(local > now ? local - now : sc_core::SC_ZERO_TIME);
    if (qk_.need_sync()) qk_.sync();
  }
}

void Lsu::fence_at(SmState& s, WarpState& w, isa::Scope scope) {
  const FenceConfig& f = ctx_.cfg.fence;
  if (scope == isa::Scope::Cta) {  // ordered within the SM
    wait(ctx_.tb.time(f.cta_cycles));
    return;
  }
  const Cycle start = std::max(ctx_.tb.now(), s.fence_free);
  s.fence_free = start + f.interval;
  wait_until(start);
  while (w.outstanding) wait(acked_);  // every earlier store of the warp acknowledged
  Cycle done = ctx_.tb.now() + f.gpu_cycles;
  if (scope == isa::Scope::Sys) done = std::max(done, start + f.sys_cycles);
  wait_until(done);
}

void Lsu::start_fence_at(SmState& s, WarpState& w, isa::Scope scope, std::uint16_t log_warp) {
  const FenceConfig& f = ctx_.cfg.fence;
  const Cycle now = ctx_.tb.now();
  w.fence_start = now;
  w.fence_warp = log_warp;
  w.fence_sys = scope == isa::Scope::Sys;
  if (scope == isa::Scope::Cta) {  // ordered within the SM: its cycles, no wait
    end_fence(w, now, now + f.cta_cycles);
    return;
  }
  w.fence_start = std::max(now, s.fence_free);
  s.fence_free = w.fence_start + f.interval;
  if (w.outstanding == 0)
    end_fence(w, w.fence_start, 0);
  else
    w.fencing = true;  // ack_at ends it when the warp's last earlier store is acknowledged
}

void Lsu::end_fence(WarpState& w, Cycle drained, Cycle done) {
  const FenceConfig& f = ctx_.cfg.fence;
  if (done == 0) {
    done = std::max(drained, w.fence_start) + f.gpu_cycles;
    if (w.fence_sys) done = std::max(done, w.fence_start + f.sys_cycles);
  }
  w.fencing = false;
  w.fence_done = done;
  ctx_.stats.add(Metric::LsuStallOrdering, double(done - w.fence_start));
  ctx_.record(Event::FenceDone, 0, w.fence_warp, 0, done);
  max_cursor_ = std::max(max_cursor_, done);
}

void Lsu::finish_wait_at(SmState& s) {
  if (!s.wait) return;
  const SmState::PendingWait pw = *s.wait;
  for (;;) {
    const Cycle c = mbu_.phase_done(pw.cta, pw.offset, pw.parity);
    if (c != kLater) {
      s.cursor = std::max(s.cursor, c);
      break;
    }
    wait(mbu_.changed());
  }
  s.wait.reset();
  ctx_.stats.add(Metric::LsuStallOrdering, double(s.cursor - pw.start));
  max_cursor_ = std::max(max_cursor_, s.cursor);
}

void Lsu::issue_at(const PlannedOp& op) {
  SmState& s = sms_[op.sm % sms_.size()];
  WarpState& w = warp(op);
  Stats& st = ctx_.stats;
  finish_wait_at(s);
  wait_until(s.cursor);
  // The warp's own fence ends first; the SM's other warps went on meanwhile.
  while (w.fencing) wait(acked_);
  const Cycle warp_from = std::max(w.issued, w.fence_done);
  // The SM issued the op's instructions from its previous op's on (not from when this one
  // thread came to it): SMs issue side by side. The warp issued them from its own previous op
  // on, no faster than sm.warp_issue_per_clk, while the SM's other warps issued theirs.
  if (op.instructions > 0) {
    const Cycle from = std::max(s.instr_done, warp_from);
    s.instr_done = s.instr.book(from, double(op.instructions));
    wait_until(std::max(s.instr_done, from + warp_issue_cycles(op.instructions)));
  } else {
    wait_until(warp_from);
  }
  w.issued = ctx_.tb.now();
  const Cycle start = ctx_.tb.now();
  if (op.kind == OpKind::MbarWait) {  // the SM's next op waits for the phase (finish_wait_at)
    s.wait = SmState::PendingWait{op.ctx.cta, op.mbar_offset, op.parity, start};
    s.cursor = start;
    return;
  }
  if (op.kind == OpKind::TmemWait) {
    while (w.tmem_outstanding) wait(acked_);
    st.add(Metric::LsuStallOrdering, double(ctx_.tb.now() - start));
    s.cursor = ctx_.tb.now();
    return;
  }
  if (op.kind == OpKind::Fence) {  // the warp waits for it, not the LSU: its next op will
    start_fence_at(s, w, op.scope, op.ctx.warp);
    return;
  }
  while (s.outstanding >= ctx_.cfg.lsu.outstanding_stores) wait(acked_);
  const Cycle after_limit = ctx_.tb.now();
  st.add(Metric::LsuStallOutstanding, double(after_limit - start));
  if (const auto scope = fence_before(op)) {
    fence_at(s, w, *scope);
    ctx_.record(Event::FenceDone, 0, op.ctx.warp, 0, ctx_.tb.now());
  }
  st.add(Metric::LsuStallOrdering, double(ctx_.tb.now() - after_limit));
  if (op.res && op.res->order.mmio) {  // one lane at a time, one .mmio store after another
    const Cycle first = std::max(ctx_.tb.now(), s.mmio_free);
    s.mmio_free = first + mmio_cycles(ctx_.cfg.lsu, op.ctx.active);
    wait_until(first);
  }
  const bool global = op.kind == OpKind::Store && op.res && !op.tcgen05 &&
                      store_class_of(*op.res, false, op.ctx.cta) == StoreClass::Global;
  if (global) wait_until(w.store_free);
  wait_until(s.issue.book(ctx_.tb.now(), 1.0));
  const Cycle t = ctx_.tb.now();
  if (global) w.store_free = t + ctx_.cfg.lsu.warp_store_cycles;
  StoreClass cls = StoreClass::Global;
  build(op, txns_, cls);
  count_instruction(st, cls, op);
  std::size_t si;
  if (free_slots_.empty()) {
    si = slots_.size();
    slots_.emplace_back();
  } else {
    si = free_slots_.back();
    free_slots_.pop_back();
  }
  Slot& slot = slots_[si];
  slot = Slot{};
  slot.remaining = unsigned(txns_.size());
  slot.issued = t;
  slot.cls = cls;
  slot.warp = &w;
  slot.sm = &s;
  slot.tmem = op.tcgen05;
  slot.counted = op.kind == OpKind::Store;
  slot.instr = txns_.empty() ? 0 : store_ext(*txns_.front()).instr_id;
  ctx_.record(Event::Issue, slot.instr, op.ctx.warp, 0, t);
  s.cursor = t;
  if (txns_.empty()) {  // wrote nothing (every lane faulted or inactive): no latency to count
    free_slots_.push_back(si);
    return;
  }
  ++outstanding_total_;
  if (op.tcgen05) {
    ++w.tmem_outstanding;
  } else {
    ++s.outstanding;
    ++w.outstanding;
  }
  for (tlm::tlm_generic_payload* p : txns_) {
    store_ext(*p).issue_cycle = t;
    route_of(*p).tag = si;
    out.at(*p);
  }
}

void Lsu::ack_at(tlm::tlm_generic_payload& tr, Cycle c) {
  Slot& slot = slots_[route_of(tr).tag];
  tr.release();
  if (--slot.remaining) return;
  if (slot.counted) ctx_.stats.lat(slot.cls).add(c - slot.issued);
  ctx_.record(Event::Ack, slot.instr, 0, 0, c);
  max_cursor_ = std::max(max_cursor_, c);
  if (slot.tmem) {
    --slot.warp->tmem_outstanding;
  } else {
    --slot.sm->outstanding;
    if (--slot.warp->outstanding == 0 && slot.warp->fencing)
      end_fence(*slot.warp, std::max(c, ctx_.tb.now()), 0);
  }
  --outstanding_total_;
  free_slots_.push_back(std::size_t(&slot - slots_.data()));
  acked_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace stu::sim
