#include "tensor_mem.h"

namespace stu::sim {

TensorMem::TensorMem(const sc_core::sc_module_name& name, SimContext& ctx)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 64),
      ctx_(ctx),
      per_sm_(ctx.cfg.gpu.sms,
              Calendar(bytes_per_cycle(ctx.cfg.tmem.write_gbytes_per_s, ctx.cfg.clock),
                       calendar_window_bins(ctx.cfg))) {}

Cycle TensorMem::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  const std::uint8_t* data = tr.get_data_ptr();
  const std::uint8_t* be = tr.get_byte_enable_ptr();
  const std::uint32_t lane = std::uint32_t(tr.get_address() >> 16);
  const std::uint32_t col = std::uint32_t(tr.get_address() & 0xFFFF);
  unsigned cells = 0;
  std::uint32_t* row =
      ctx_.image.cta(x.dest.cta).tmem_cells() + std::size_t(lane) * golden::kTmemColumns + col;
  for (unsigned i = 0; i < 32; ++i) {
    if (be[4 * i] != TLM_BYTE_ENABLED) continue;
    std::uint32_t v = 0;
    for (unsigned b = 0; b < 4; ++b) v |= std::uint32_t(data[4 * i + b]) << (8 * b);
    row[i] = v;
    ++cells;
  }
  ctx_.stats.add(Metric::TmemBytes, 4.0 * cells);
  const Cycle t1 = per_sm_[x.sm % per_sm_.size()].book(t, 4.0 * cells) + kLatency;
  occupied_until_ = t1 - kLatency;
  ctx_.record(Event::TmemWrite, x.instr_id, x.warp, tr.get_address(), t1);
  return t1;
}

}  // namespace stu::sim
