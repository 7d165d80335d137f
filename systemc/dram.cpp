#include "dram.h"

namespace stu::sim {

Dram::Dram(const sc_core::sc_module_name& name, SimContext& ctx)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 4 * ctx.cfg.dram.banks),
      ctx_(ctx),
      bw_(bytes_per_cycle(ctx.cfg.dram.gbytes_per_s, ctx.cfg.clock), calendar_window_bins(ctx.cfg)),
      accesses_(double(ctx.cfg.dram.accesses_per_clk), calendar_window_bins(ctx.cfg)),
      banks_(ctx.cfg.dram.banks,
             Calendar(2.0 * bytes_per_cycle(ctx.cfg.dram.gbytes_per_s, ctx.cfg.clock) /
                          double(ctx.cfg.dram.banks),
                      calendar_window_bins(ctx.cfg))),
      latency_(ctx.cfg.dram.latency - ctx.cfg.l2.hit_latency) {
  for (const Calendar& c : banks_) bank_bins_.push_back({c.bins(), c.full_bits()});
  banks_window_ = banks_.front().window_bins();
}

void Dram::preload(const golden::SparseMemory& m) {
  for (std::uint64_t n : m.page_numbers())
    mem_.write(n << golden::SparseMemory::kPageBits, m.page(n), golden::SparseMemory::kPageBytes);
}

Cycle Dram::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  const golden::LineByteMask m = x.bytes;
  const std::uint8_t* data = tr.get_data_ptr();
  const std::uint64_t line = tr.get_address() & ~std::uint64_t(golden::kLineBytes - 1);
  // Bursts: every burst-sized chunk with an enabled byte moves whole. A chunk enabled only in
  // part is read first where DRAM writes whole bursts (dram.partial_writes): a read, then the
  // write, on the same bank.
  const unsigned burst = ctx_.cfg.dram.burst_bytes;
  unsigned bursts = 0, partial = 0;
  for (unsigned b = 0; b < golden::kLineBytes; b += burst) {
    const unsigned n = m.count_range(b, b + burst);
    bursts += n != 0;
    partial += n != 0 && n != burst;
  }
  const unsigned reads =
      ctx_.cfg.dram.partial_writes == PartialWrite::ReadModifyWrite ? partial : 0;
  const double bytes = double(bursts) * burst;
  const double read_bytes = double(reads) * burst;
  // The bytes on the channels, and the line's accesses (its write, and its fill read if any).
  const Cycle t1 = std::max(bw_.book(t, bytes + read_bytes), accesses_.book(t, reads ? 2.0 : 1.0));
  const Cycle t2 = banks_[bank_of(line)].book(t1, bytes + read_bytes);
  occupied_until_ = t2;
  mem_.write_line(line, m, data);
  if (keep_log_) {
    golden::DramWrite d;
    d.line = line;
    d.bytes = m;
    for (unsigned i = 0; i < golden::kLineBytes; ++i) d.data[i] = m.test(i) ? data[i] : 0;
    d.cause = x.dram_cause;
    log_.push_back(d);
  }
  if (keep_log_) {  // a .sts test compares the bytes DRAM received
    golden::LineByteMask& w = written_[line];
    w.lo |= m.lo;
    w.hi |= m.hi;
  }
  ctx_.stats.add(Metric::DramBytesWrite, bytes);
  ctx_.stats.add(Metric::DramSectorsWrite, double(m.sector_count()));
  if (reads) {
    ctx_.stats.add(Metric::DramBytesRead, read_bytes);
    ctx_.stats.add(Metric::DramSectorsRead, read_bytes / golden::kSectorBytes);
  }
  const Cycle done = t2 + latency_;
  ctx_.record(Event::DramWrite, x.instr_id, x.warp, line, t2);
  return done;
}

}  // namespace stu::sim
