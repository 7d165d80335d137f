// The RTL store unit as a `.sts` model (`stu run --on rtl`): each warp store is decoded by the
// front end, driven through the Verilated rtl/stu_store_unit.sv, and its line requests are
// written into a memory image the harness keeps (a MachineState used as memory only: set-up
// steps write it, expectations read it). Faults, stored and forced-down lanes, line requests,
// mbarrier events and the narrowed scope come from the RTL; the RTL's mbarrier reads and writes
// and its global allocation checks are answered from the image. Nothing here calls
// golden::execute or MachineState::apply. With caches configured, the cache state comes from
// the Verilated cache blocks (never from golden::MemoryHierarchy, SectoredCache or WriteBuffer).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "stu/golden/cache.h"
#include "stu/golden/config.h"
#include "stu/sts/model.h"

namespace stu::tb {

// The RTL model, with the clock cycles it has simulated (for the speed figure).
class RtlStoreModel : public sts::StoreModel {
 public:
  virtual uint64_t cycles() const = 0;
};

// How the Verilated models start: the seed of their X-randomisation (--x-assign/--x-initial
// unique: every register that escapes reset takes a value drawn from it), and an optional FST
// waveform of the cycles [from, to] of the top (the cosimulation's failure rerun).
struct RtlTrace {
  std::string path;  // empty: no waveform
  uint64_t from = 0;
  uint64_t to = ~uint64_t(0);
  uint64_t x_seed = 1;
};

std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const RtlTrace* trace = nullptr);
// With caches (the test's `cache` header lines): the global line requests of every store also
// go through the Verilated rtl/stu_l1_wpath.sv and rtl/stu_l2_wslice.sv (Vstu_l1_wpath_max,
// Vstu_l2_wslice_max, configured to the test's geometry), whose state cache expectations read
// by the blocks' debug ports. A geometry beyond the blocks' maxima leaves the model without
// caches (no_caches_reason says why). The waveform does not include the cache blocks.
std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const golden::HierarchyConfig& caches,
                                              const RtlTrace* trace = nullptr);

}  // namespace stu::tb
