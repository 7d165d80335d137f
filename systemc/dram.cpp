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
  const DramConfig& d = ctx.cfg.dram;
  if (d.read_write_gbytes_per_s) rw_scale_ = double(d.gbytes_per_s) / d.read_write_gbytes_per_s;
  if (d.pair_accesses_per_clk) recent_pairs_.assign(kRecentPairs, ~std::uint64_t(0));
  banks_window_ = banks_.front().window_bins();
}

void Dram::preload(const golden::SparseMemory& m) {
  data_.stop_behind();
  golden::SparseMemory& mem = data_.memory();
  for (std::uint64_t n : m.page_numbers())
    mem.write(n << golden::SparseMemory::kPageBits, m.page(n), golden::SparseMemory::kPageBytes);
}

double Dram::access_cost(std::uint64_t line) {
  const DramConfig& d = ctx_.cfg.dram;
  if (d.pair_accesses_per_clk == 0) return 1.0;
  // The 256-byte pair the line belongs to, in a direct-mapped table of recent pairs.
  const std::uint64_t pair = line >> 8;
  std::uint64_t& slot = recent_pairs_[pair & (recent_pairs_.size() - 1)];
  const bool partner_open = slot == pair;
  slot = pair;
  return partner_open ? double(d.accesses_per_clk) / double(d.pair_accesses_per_clk) : 1.0;
}

Cycle Dram::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  const golden::LineByteMask m = x.bytes;
  const std::uint8_t* data = tr.get_data_ptr();
  const std::uint64_t line = tr.get_address() & ~std::uint64_t(golden::kLineBytes - 1);
  // The traffic: the bytes, less the sectors whose traffic an earlier TrafficOnly transaction
  // had (l2.partial_lines).
  golden::LineByteMask moved = m;
  if (const std::uint8_t paid = x.dram_paid_sectors) {
    const golden::LineByteMask off = sector_byte_mask(paid);
    moved.lo &= ~off.lo;
    moved.hi &= ~off.hi;
  }
  // Bursts: every burst-sized chunk with an enabled byte moves whole. A chunk enabled only in
  // part is read first where DRAM writes whole bursts (dram.partial_writes): a read, then the
  // write, on the same bank.
  const unsigned burst = ctx_.cfg.dram.burst_bytes;
  unsigned bursts = 0, partial = 0;
  if (burst == golden::kSectorBytes) {  // a burst a sector: its 32 enable bits at once
    const std::uint32_t w[4] = {std::uint32_t(moved.lo), std::uint32_t(moved.lo >> 32),
                                std::uint32_t(moved.hi), std::uint32_t(moved.hi >> 32)};
    for (const std::uint32_t s : w) {
      bursts += s != 0;
      partial += s != 0 && s != ~0u;
    }
  } else {
    for (unsigned b = 0; b < golden::kLineBytes; b += burst) {
      const unsigned n = moved.count_range(b, b + burst);
      bursts += n != 0;
      partial += n != 0 && n != burst;
    }
  }
  const unsigned reads =
      ctx_.cfg.dram.partial_writes == PartialWrite::ReadModifyWrite ? partial : 0;
  const double bytes = double(bursts) * burst;
  const double read_bytes = double(reads) * burst;
  // The bytes on the channels (reads and writes together at dram.read_write_gbytes_per_s where
  // set: the bus turnarounds of mixed traffic), and the line's accesses (its write, and its
  // fill read if any).
  Cycle t2 = t;
  if (bursts) {
    const double on_bus = reads ? (bytes + read_bytes) * rw_scale_ : bytes;
    const double accesses = (reads ? 2.0 : 1.0) * access_cost(line);
    const Cycle t1 = std::max(bw_.book(t, on_bus), accesses_.book(t, accesses));
    t2 = banks_[bank_of(line)].book(t1, bytes + read_bytes);
    occupied_until_ = t2;
  }
  if (x.dram_data == DramData::TrafficOnly) {
    ctx_.stats.add(Metric::DramBytesWrite, bytes);
    ctx_.stats.add(Metric::DramSectorsWrite, double(moved.sector_count()));
    ctx_.stats.add(Metric::DramBytesRead, read_bytes);
    ctx_.stats.add(Metric::DramSectorsRead, read_bytes / golden::kSectorBytes);
    return t2 + latency_;
  }
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
  ctx_.stats.add(Metric::DramSectorsWrite, double(moved.sector_count()));
  if (reads) {
    ctx_.stats.add(Metric::DramBytesRead, read_bytes);
    ctx_.stats.add(Metric::DramSectorsRead, read_bytes / golden::kSectorBytes);
  }
  const Cycle done = t2 + latency_;
  ctx_.record(Event::DramWrite, x.instr_id, x.warp, line, t2);
  return done;
}

}  // namespace stu::sim
