// The RTL store path as a `.sts` model (`stu run --on rtl`): each warp store goes in as its
// static fields and operand registers, through the Verilated rtl/stu_store_path.sv (the store
// unit with its L1 write path and L2 slice), and its line requests are written into a memory
// image the harness keeps (a MachineState used as memory only: set-up steps write it,
// expectations read it). Faults, stored and forced-down lanes, line requests, TMEM runs,
// mbarrier events, the byte count, the ordering, the decoded cache policy, the TMEM allocation
// and every cache event come from the RTL; the RTL's mbarrier reads and writes and its global
// allocation checks are answered from the image. Nothing here calls golden::execute,
// MachineState::apply or a golden decision function (tests/style/rtl_harness_decisions.sh).
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
  // The next store returns as soon as its status is taken, with the caches still at work (its
  // last lines in the L1, its write-buffer entries on their way to the L2), and the
  // drain_caches() that must follow is given while they are: its cache events and DRAM writes
  // then include the store's last ones. (The cosimulation's drains and flushes, half of them.)
  virtual void leave_caches_busy() = 0;

  // A pipelined front end (the cosimulation): the next operation is offered to the unit from
  // the cycle after the current one is taken and waits there, valid and unchanged, while the
  // unit is busy, as an SM's next instruction waits at the unit's input. Call one of these
  // before execute(), execute_sass() or drain_caches(); the call after that must be the
  // operation offered. The current operation then returns as soon as its status is taken (a
  // command: as soon as it is no longer busy), with the caches still at work as after
  // leave_caches_busy(). A store is offered behind a store, a command behind a store or a
  // command; a store behind a command is not (its results would come inside the command).
  // offer_next and offer_next_sass return false, and offer nothing, for a store that does not
  // reach the unit (no active lane, nothing stored, an instruction the decoder rejects).
  virtual bool offer_next(const isa::Instruction& ins, const golden::WarpContext& ctx,
                          const golden::WarpOperands& ops) = 0;
  virtual bool offer_next_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                               const golden::SassRegisterFile& rf) = 0;
  virtual void offer_next_command(bool flush) = 0;
};

// The memory side the top talks to. With seed 0 (`stu run --on rtl`): the allocation and
// mbarrier-read ports are answered in the cycle they ask, the status and mbarrier-write ports
// are always ready, and the request, event and TMEM ports follow a fixed back-pressure pattern.
// With a seed (the cosimulation): every answer waits 0 to max_latency cycles (drawn per
// request), and every output port's ready is low with probability `stall` in each cycle, all
// drawn from the seed.
struct RtlEnvironment {
  uint64_t seed = 0;
  unsigned max_latency = 0;
  double stall = 0.0;
};

// How the Verilated models start and run: the seed of their X-randomisation
// (--x-assign/--x-initial unique: every register that escapes reset takes a value drawn from
// it), an optional FST waveform of the cycles [from, to] of the top (the cosimulation's failure
// rerun), and the memory side's behaviour.
struct RtlTrace {
  std::string path;  // empty: no waveform
  uint64_t from = 0;
  uint64_t to = ~uint64_t(0);
  uint64_t x_seed = 1;
  RtlEnvironment env;
  // false: the configuration registers keep their reset values (which are golden
  // ModelConfig's defaults); the model's configuration must then be the default one.
  bool configure = true;
};

std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const RtlTrace* trace = nullptr);
// With caches (the test's `cache` header lines): the store path with its caches
// (Vstu_store_path, configured to the test's geometry), whose state cache expectations read by
// its debug ports; without, Vstu_store_path_nocache. A geometry beyond the caches' maxima leaves
// the model without caches (no_caches_reason says why).
std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const golden::HierarchyConfig& caches,
                                              const RtlTrace* trace = nullptr);

}  // namespace stu::tb
