#include "shared_mem.h"

namespace stu::sim {

SharedMem::SharedMem(const sc_core::sc_module_name& name, SimContext& ctx)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 64),
      to_mbar("to_mbar", ctx.tb, *ctx.agenda,
              [this](tlm::tlm_generic_payload& tr, Cycle c) { mbar_ack(tr, c); }),
      ctx_(ctx),
      banks_(ctx.cfg.gpu.sms, Banks(calendar_window_bins(ctx.cfg))),
      dsmem_(ctx.cfg.gpu.sms,
             Calendar(double(ctx.cfg.dsmem.bytes_per_clk), calendar_window_bins(ctx.cfg))) {
  SC_HAS_PROCESS(SharedMem);
  SC_METHOD(release_due);
  sensitive << timer_;
  dont_initialize();
}

void SharedMem::release_due() {
  const Cycle now = ctx_.tb.now();
  Cycle next = kLater;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].first <= now) {
      to_mbar.at(*pending_[i].second);
    } else {
      next = std::min(next, pending_[i].first);
      pending_[keep++] = pending_[i];
    }
  }
  pending_.resize(keep);
  if (next != kLater) timer_.notify(ctx_.tb.time(next - now));
}

Cycle SharedMem::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  StoreExtension& x = store_ext(tr);
  if (x.mbar_op == StoreExtension::MbarOp::Arrive) {
    const Cycle c = to_barrier(x, x.mbar_bytes, StoreExtension::MbarOp::Arrive, t, &tr);
    return mode_ == SimMode::At ? kLater : c;
  }
  const std::uint32_t cta = x.dest.cta;
  if (cta >= ctx_.image.config().cluster_ctas) {
    errors_.push_back("shared store to CTA " + std::to_string(cta) + " outside the cluster");
    return t;
  }
  const golden::LineByteMask m = x.bytes;
  Cycle t1;
  if (cta != x.cta) {  // DSMEM: through the cluster network
    t1 = dsmem_[x.sm % dsmem_.size()].book(t, double(m.count())) + ctx_.cfg.dsmem.latency;
    ctx_.stats.add(Metric::DsmemBytes, m.count());
  } else {
    Banks& b = banks_[x.sm % banks_.size()];  // the issuing SM's: the CTA lives there
    if (b.instr != x.instr_id) {
      b.instr = x.instr_id;
      b.lines.fill(0);
      b.wavefronts = 0;
    }
    const unsigned nbanks = std::min<unsigned>(64, ctx_.cfg.shared.banks);
    const unsigned bb = ctx_.cfg.shared.bank_bytes;
    unsigned worst = 0;
    // Banks are interleaved by bank_bytes over the line; the line touches bank k when any byte
    // of a word that maps to k is written.
    std::array<bool, 64> used{};
    const std::uint64_t addr = tr.get_address();
    if (addr % bb == 0) {  // word by word (bb divides 64: a word never straddles the halves)
      const std::uint64_t word_bits = bb >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bb) - 1;
      for (unsigned i = 0; i < golden::kLineBytes; i += bb)
        if (((i < 64 ? m.lo >> i : m.hi >> (i - 64)) & word_bits) != 0)
          used[((addr + i) / bb) % nbanks] = true;
    } else {
      for (unsigned i = 0; i < golden::kLineBytes; ++i)
        if (m.test(i)) used[((addr + i) / bb) % nbanks] = true;
    }
    for (unsigned k = 0; k < nbanks; ++k)
      if (used[k]) worst = std::max<unsigned>(worst, ++b.lines[k]);
    const unsigned extra = worst > b.wavefronts ? worst - b.wavefronts : 0;
    if (b.wavefronts > 0 && extra > 0) ctx_.stats.add(Metric::SharedConflicts, extra);
    b.wavefronts += extra;
    ctx_.stats.add(Metric::SharedWavefronts, extra);
    t1 = b.pipe.book(t, double(extra ? extra : 0.0));
  }
  occupied_until_ = t1;
  t1 += ctx_.cfg.shared.latency;
  golden::CtaState& c = ctx_.image.cta(cta);
  if (!write_enabled(c.shared.data(), c.shared.size(), tr.get_address(), tr)) {
    errors_.push_back("shared store beyond CTA " + std::to_string(cta) + "'s shared memory");
  }
  ctx_.record(Event::SharedWrite, x.instr_id, x.warp, tr.get_address(), t1);
  if (x.has_mbar) {
    const Cycle c2 = to_barrier(x, x.mbar_bytes, StoreExtension::MbarOp::CompleteTx, t1, nullptr);
    (void)c2;
  }
  return t1;
}

Cycle SharedMem::to_barrier(const StoreExtension& x, std::uint32_t bytes, StoreExtension::MbarOp op,
                            Cycle t, tlm::tlm_generic_payload* waiting) {
  tlm::tlm_generic_payload& d = ctx_.pool.acquire();
  d.set_address(x.mbar_offset);
  d.set_data_length(0);
  d.set_byte_enable_length(0);
  StoreExtension& dx = store_ext(d);
  dx = x;
  dx.bytes = golden::LineByteMask{};
  dx.mbar_op = op;
  dx.mbar_bytes = bytes;
  route_of(d).tag = reinterpret_cast<std::uint64_t>(waiting);
  if (mode_ == SimMode::Lt) {
    const Cycle c = to_mbar.lt(d, t);
    d.release();
    return c;
  }
  ++mbar_outstanding_;
  // AT: the request leaves when the data is written (t), not before.
  const Cycle now = ctx_.tb.now();
  if (t > now) {
    // Deliver at t: the Sender sends at once, so delay the payload through a timed event.
    pending_.push_back({t, &d});
    timer_.notify(ctx_.tb.time(t - now));
  } else {
    to_mbar.at(d);
  }
  return t;
}

void SharedMem::mbar_ack(tlm::tlm_generic_payload& tr, Cycle c) {
  --mbar_outstanding_;
  if (const std::uint64_t waiting = route_of(tr).tag)
    respond(*reinterpret_cast<tlm::tlm_generic_payload*>(waiting), c);
  tr.release();
}

}  // namespace stu::sim
