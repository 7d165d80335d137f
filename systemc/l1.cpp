#include "l1.h"

#include <cstring>

namespace stu::sim {

L1::L1(const sc_core::sc_module_name& name, SimContext& ctx, unsigned sm,
       std::unique_ptr<L1Core> core)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 64),
      to_xbar(
          "to_xbar", ctx.tb, *ctx.agenda,
          [this](tlm::tlm_generic_payload& tr, Cycle c) { ack(tr, c); }, [this] { pump(); }),
      ctx_(ctx),
      sm_(sm),
      core_(std::move(core)),
      tags_(double(ctx.cfg.l1.tag_lookups_per_clk), calendar_window_bins(ctx.cfg)),
      data_(double(ctx.cfg.l1.bytes_per_clk), calendar_window_bins(ctx.cfg)) {
  SC_HAS_PROCESS(L1);
  SC_METHOD(pump);  // only for drain(); otherwise called where entries may leave
  sensitive << pump_ev_;
  dont_initialize();
}

// The eager policy needs a core that can let one entry go (the RTL block drains only whole).
bool L1::eager() const {
  return ctx_.cfg.l1.write_buffer_policy == WbPolicy::Eager && core_->can_pop();
}

bool L1::scoped(const StoreExtension& x) {
  return x.order.strong && x.order.scope && *x.order.scope != isa::Scope::Cta;
}

void L1::will_serve(const tlm::tlm_generic_payload& tr) const { core_->prefetch(tr.get_address()); }

Cycle L1::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  StoreExtension& x = store_ext(tr);
  const golden::LineByteMask m = x.bytes;
  const std::uint8_t* data = tr.get_data_ptr();
  const std::uint8_t* be = tr.get_byte_enable_ptr();
  const unsigned sectors = m.sector_count();
  const Cycle t1 = data_.book(tags_.book(t, 1.0), double(sectors) * golden::kSectorBytes);
  const Cycle done = t1 + ctx_.cfg.l1.hit_latency;
  occupied_until_ = t1;
  ctx_.record(Event::L1Write, x.instr_id, x.warp, tr.get_address(), t1);
  if (x.dest.space != golden::MemSpace::Global) {  // local, .param::func: stay in the SM
    ctx_.stats.add(Metric::L1LocalSectors, sectors);
    for (unsigned i = 0; i < golden::kLineBytes; ++i)
      if (be[i] == TLM_BYTE_ENABLED) ctx_.image.write(x.dest, tr.get_address() + i, &data[i], 1);
    return done;
  }
  if (ctx_.global_image == GlobalImage::Written) {
    ctx_.image.global().write_line(tr.get_address(), m, data);
    golden::LineByteMask& taken = ctx_.global_taken[tr.get_address()];
    taken = golden::LineByteMask{taken.lo | m.lo, taken.hi | m.hi};
  }
  golden::LineRequest req;
  req.dest = x.dest;
  req.line = tr.get_address();
  req.bytes = m;
  req.sector_mask = m.sectors();
  std::memcpy(req.data.data(), data, golden::kLineBytes);
  leaving_.clear();
  const L1Result r = core_->store(req, x.cache, x.order, x.release_point, leaving_);
  ctx_.stats.add(Metric::L1GlobalSectors, sectors);
  if (r.hit) ctx_.stats.add(Metric::L1SectorHits, sectors);
  if (r.merged) ctx_.stats.add(Metric::WbMerges);
  const bool strong_entry = x.order.strong || x.order.mmio;  // never merges
  const bool wait_l2 = eager() && scoped(x);
  if (mode_ == SimMode::Lt) {
    Cycle sent = send(leaving_, t1, x);
    if (eager()) sent = std::max(sent, eager_lt(t1, wait_l2, x));
    if (last_out_ack_) x.visible_cycle = last_out_ack_ + ctx_.cfg.l1.hit_latency;
    // The L2's acknowledgement comes back through the L1 pipeline to the LSU.
    if ((x.release_point && scoped(x)) || wait_l2)
      return std::max(done, sent + ctx_.cfg.l1.hit_latency);
    // A store that found the buffer full waits until the oldest entry has left: how the
    // crossbar, the L2 and DRAM push back.
    return leaving_.empty() ? done : std::max(done, last_depart_ + ctx_.cfg.l1.hit_latency);
  }
  // AT. Every non-mergeable entry has a place in strong_ (the store that waits for it, or
  // null), in buffer order, so the acknowledgement of its entry can answer the store.
  send(leaving_, t1, x);  // older entries: their places in strong_ come first
  if (strong_entry) strong_.push_back(wait_l2 ? &tr : nullptr);
  // A release waits for the entries its drain pushed out; a scoped strong store for its own
  // entry; any store while the entries that left the buffer cannot move on (it is full).
  // (A scoped release store's own entry leaves after every earlier one is acknowledged, so
  // waiting for it covers the release too; each store is answered exactly once.)
  Cycle answer = done;
  if (wait_l2) {
    answer = kLater;
  } else if (x.release_point && scoped(x) && in_flight_ + out_.size() > 0) {
    releases_.push_back(&tr);
    answer = kLater;
  } else if (out_.size() > ctx_.cfg.l1.write_buffer_entries) {
    stalled_.push_back(&tr);
    answer = kLater;
  }
  // Then the entries that may leave go now (after the checks above, which see the buffer as
  // this store left it).
  if (!out_.empty() || eager()) pump();
  return answer;
}

Cycle L1::eager_lt(Cycle t, bool all, const StoreExtension& from) {
  Cycle last = t;
  const auto free_by = [&](Cycle c) {
    return port_free_ <= c && (taken_.size() < kCredits || taken_.front() <= c);
  };
  while (core_->wb_entries() && (all || free_by(t))) {
    leaving_.clear();
    if (!core_->pop_oldest(leaving_)) break;
    last = std::max(last, send(leaving_, std::max(t, port_free_), from));
  }
  return last;
}

Cycle L1::send(std::vector<golden::WbEntry>& leaving, Cycle t, const StoreExtension& from) {
  Cycle last = t;
  for (const golden::WbEntry& e : leaving) {
    tlm::tlm_generic_payload& d = ctx_.pool.acquire();
    StoreExtension& x = store_ext(d);
    x = StoreExtension{};
    set_line(d, e.line, e.bytes, e.data.data());
    x.sm = sm_;
    x.dest = golden::Dest{};
    x.l2 = e.l2;
    x.mergeable = e.mergeable;
    // AT: a release store's own entry leaves after every earlier entry is acknowledged (the
    // LSU's fence waited for the warp's acknowledgements only).
    x.release_point = !e.mergeable && from.release_point && scoped(from);
    x.instr_id = 0;  // an entry may hold several stores, and leaves after later ones
    (void)from;
    x.warp = from.warp;
    RouteExtension& route = route_of(d);
    route.tag = 0;
    if (!e.mergeable && mode_ == SimMode::At && !strong_.empty()) {
      route.tag = reinterpret_cast<std::uint64_t>(strong_.front());
      strong_.pop_front();
    }
    ctx_.stats.add(Metric::WbEntriesOut);
    const unsigned sectors = e.bytes.sector_count();
    if (mode_ == SimMode::Lt) {
      // The port moves one entry after another; an entry needs a credit (the slice took
      // the entry write_buffer_entries before it). No entry waits for the earlier ones'
      // acknowledgements: relaxed strong stores pipeline (H200, docs/tlm.md), and the fence
      // before a release store waited for what its warp had pushed out (Lsu::fence_lt).
      Cycle at = std::max(t, port_free_);
      if (taken_.size() >= kCredits) {
        at = std::max(at, taken_.front());
        taken_.pop_front();
      }
      ctx_.record(Event::WbOut, x.instr_id, x.warp, e.line, at);
      port_free_ = at + (sectors * golden::kSectorBytes + ctx_.cfg.xbar.bytes_per_clk - 1) /
                            ctx_.cfg.xbar.bytes_per_clk;
      last_depart_ = std::max(last_depart_, at);
      const Cycle c = to_xbar.lt(d, at);
      // Taken by the slice: the acknowledgement less the slice's time and the way back.
      const Cycle back = ctx_.cfg.l2.hit_latency - ctx_.cfg.l1.hit_latency - ctx_.cfg.xbar.latency;
      taken_.push_back(std::max(at, c > back ? c - back : 0));
      last_out_ack_ = std::max(last_out_ack_, c);
      last = std::max(last, c);
      d.release();
    } else {
      out_.push_back(&d);
    }
  }
  return last;
}

void L1::pump() {
  if (pumping_) return;  // called back from inside the loop below (END_REQ): the loop goes on
  pumping_ = true;
  pump_loop();
  pumping_ = false;
}

void L1::pump_loop() {
  for (;;) {
    if (to_xbar.queued() != 0) return;  // one at a time: the crossbar paces it
    if (out_.empty()) {
      if (!eager()) return;
      leaving_.clear();
      if (!core_->pop_oldest(leaving_)) return;
      StoreExtension none;
      none.sm = sm_;
      send(leaving_, tb_.now(), none);
      continue;
    }
    tlm::tlm_generic_payload* d = out_.front();
    const StoreExtension& x = store_ext(*d);
    if (x.release_point && in_flight_ > 0) return;  // a release: after the earlier ones
    out_.pop_front();
    if (ctx_.hints && !out_.empty()) prefetch(out_.front());  // the next to leave
    ++in_flight_;
    ctx_.record(Event::WbOut, x.instr_id, x.warp, d->get_address(), tb_.now());
    to_xbar.at(*d);
  }
}

void L1::ack(tlm::tlm_generic_payload& tr, Cycle c) {
  const Cycle back = std::max(c, tb_.now()) + ctx_.cfg.l1.hit_latency;  // through the L1 again
  if (const std::uint64_t waiting = route_of(tr).tag)
    respond(*reinterpret_cast<tlm::tlm_generic_payload*>(waiting), back);
  tr.release();
  --in_flight_;
  if (in_flight_ + out_.size() == 0) {
    for (tlm::tlm_generic_payload* r : releases_) respond(*r, back);
    releases_.clear();
  }
  while (!stalled_.empty() && out_.size() <= ctx_.cfg.l1.write_buffer_entries) {
    respond(*stalled_.front(), tb_.now() + ctx_.cfg.l1.hit_latency);
    stalled_.pop_front();
  }
  pump();  // the next entry may leave
}

Cycle L1::drain(Cycle t) {
  leaving_.clear();
  core_->drain(leaving_);
  StoreExtension none;
  none.sm = sm_;
  const Cycle c = send(leaving_, t, none);
  // Called between simulation runs: the entries leave from the pump's process.
  if (mode_ == SimMode::At && !out_.empty()) pump_ev_.notify(sc_core::SC_ZERO_TIME);
  return c;
}

}  // namespace stu::sim
