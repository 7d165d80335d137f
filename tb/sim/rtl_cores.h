// RTL in the loop of the TLM model (`stu sim --rtl BLOCK,...`): adapters that drive a
// Verilated (--cc) block as the TLM module's core (systemc/cores.h). The same workloads
// still pass the golden-image check.
#pragma once

#include <string>
#include <vector>

#include "tlm_model.h"

namespace stu::tb {

// The blocks that can run in the loop: those the registry (rtl/blocks.json) marks sim_rtl
// ("l1_wpath", "l2_wslice", "mbarrier", "coalescer"); each has its adapter here.
const std::vector<std::string>& sim_rtl_blocks();

// A factory with the named blocks' RTL cores; false with `error` naming an unknown block
// ("unknown RTL block 'x' (blocks: ...)").
bool rtl_core_factory(const std::vector<std::string>& blocks, sim::CoreFactory& out,
                      std::string& error);

}  // namespace stu::tb
