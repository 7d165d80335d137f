#include <string>
#include <vector>

#include "blocks.h"
#include "cosim.h"
#include "harness.h"

namespace stu::tb {

const std::vector<BlockEntry>& blocks() {
  static const std::vector<BlockEntry> kBlocks = {
      {"store_align", "stu_store_align", "golden::store_align", true,
       [](const CosimOptions& o) { return run_with_wave("store_align", o, cosim_store_align); }},
      {"addr_resolve", "stu_addr_resolve", "golden::resolve_generic / resolve_space", true,
       [](const CosimOptions& o) { return run_with_wave("addr_resolve", o, cosim_addr_resolve); }},
      {"mbarrier", "stu_mbarrier", "golden::mbar_step", true,
       [](const CosimOptions& o) { return run_with_wave("mbarrier", o, cosim_mbarrier); }},
      {"coalescer", "stu_coalescer", "golden::coalesce", true,
       [](const CosimOptions& o) { return run_with_wave("coalescer", o, cosim_coalescer); }},
      {"tmem_wdp", "stu_tmem_wdp", "golden::tmem_write", true,
       [](const CosimOptions& o) { return run_with_wave("tmem_wdp", o, cosim_tmem_wdp); }},
      {"l1_wpath", "stu_l1_wpath",
       "golden::l1_store_action, SectoredCache as the L1, WriteBuffer "
       "(MemoryHierarchy::store_line)",
       true, [](const CosimOptions& o) { return run_with_wave("l1_wpath", o, cosim_l1_wpath); }},
      {"l2_wslice", "stu_l2_wslice", "golden::SectoredCache (write, flush) as an L2 slice", true,
       [](const CosimOptions& o) { return run_with_wave("l2_wslice", o, cosim_l2_wslice); }},
      // The top, through the `stu run --on rtl` model, against the warp executor (one
      // transaction: one warp store).
      {"store_unit", "stu_store_unit", "golden::execute / execute_sass", true,
       [](const CosimOptions& o) { return run_with_wave("store_unit", o, cosim_store_unit); }},
      // A deliberately broken coalescer (STU_BROKEN_KEY_NO_THREAD: the line key leaves out the
      // thread, so two threads' local lines merge), to show and test the failure report
      // (docs/cosim.md).
      {"coalescer_broken", "stu_coalescer (-DSTU_BROKEN_KEY_NO_THREAD)", "golden::coalesce", false,
       [](const CosimOptions& o) {
         return run_with_wave("coalescer_broken", o, cosim_coalescer_broken);
       }},
  };
  return kBlocks;
}

const BlockEntry* find_block(const std::string& name) {
  for (const BlockEntry& b : blocks())
    if (name == b.name) return &b;
  return nullptr;
}

std::string repro_command(const std::string& block, uint64_t seed, uint64_t txns) {
  return "stu cosim --block " + block + " --seed " + std::to_string(seed) + " --txns " +
         std::to_string(txns);
}

}  // namespace stu::tb
