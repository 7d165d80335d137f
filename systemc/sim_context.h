// What every module of one TLM model shares: the configuration, the clock, the statistics,
// the model's own memory image (each module writes the space it owns, with its own byte-
// enable merge), the payload pool and an optional timestamp log (ordering tests, traces).
// One SimContext per model instance: nothing is global.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "payload.h"
#include "sim_config.h"
#include "stats.h"
#include "stu/golden/state.h"
#include "timing.h"

namespace stu::sim {

enum class Event : std::uint8_t {
  Issue,        // the LSU sends the instruction's first transaction
  L1Write,      // the L1 (or the local-memory path) takes a line
  WbOut,        // a write-buffer entry leaves toward the L2 (entries carry no instruction id:
                // one may hold several stores, and leaves after later ones)
  L2Write,      // an L2 slice writes a line (what arrived from the write buffer)
  DramWrite,    // the DRAM model writes a line
  SharedWrite,  // shared memory (own CTA or DSMEM) writes a line
  TmemWrite,    // tensor memory writes one lane's run
  MbarUpdate,   // a barrier takes a complete-tx or an arrive
  MbarPhase,    // a barrier's phase completes
  Ack,          // the LSU receives an instruction's last acknowledgement
  FenceDone,    // a warp's fence (fence.*, or the one before a release store) ends
};
const char* event_name(Event e);

struct LogEntry {
  Event event;
  std::uint64_t instr = 0;  // the LSU's instruction id (0 when not known at that point)
  std::uint32_t warp = 0;
  std::uint64_t addr = 0;  // line address, barrier offset or TMEM address
  Cycle cycle = 0;
};

// Whether the L1 also writes each global store's bytes into the model's image (the memory as
// the stores left the SM). A `.sts` run needs it: its expectations read the image, and DRAM
// holds only what was written back. A workload run does not: its global memory is checked
// once, where it ends up (DRAM after the drain and flush, every byte against the golden
// model), so a second copy of every touched line would only cost host time and memory.
enum class GlobalImage : std::uint8_t { Written, NotWritten };

struct SimContext {
  const SimConfig& cfg;
  const Timebase& tb;
  Stats& stats;
  golden::MachineState& image;
  PayloadPool& pool;
  std::vector<LogEntry>* log = nullptr;  // set to record every event (tests, --trace)
  class Agenda* agenda = nullptr;        // the stages' timed queue (set by the Agenda itself)
  GlobalImage global_image = GlobalImage::Written;
  // With GlobalImage::Written (a `.sts` run): the global bytes the L1s took, per line, which
  // must all reach DRAM by the end (missing_in_dram).
  std::unordered_map<std::uint64_t, golden::LineByteMask> global_taken;
  // Where the global bytes go past the L1s: the L2 slices' lines and DRAM's memory (the DRAM
  // model's; set by the model before it makes the slices).
  class DataPlane* data = nullptr;
  // Where the L2 slices' sets lie in host memory, for host-speed hints (set by the model).
  const struct L2Hints* l2_hints = nullptr;
  // Host-speed hints (prefetches, the agenda's look-ahead, the model's L2 set hints): no
  // effect on any result, which a test checks by turning them off (TlmModel::set_hints).
  bool hints = true;

  void record(Event e, std::uint64_t instr, std::uint32_t warp, std::uint64_t addr, Cycle c) {
    if (log) log->push_back(LogEntry{e, instr, warp, addr, c});
  }
};

// How many 16-cycle bins each bandwidth Calendar remembers: four LT quanta of cycles (loosely
// timed SMs issue within one quantum of the slowest, so bookings come that far out of time
// order, plus the queueing behind them), at least 4096 cycles and at most 65536.
std::size_t calendar_window_bins(const SimConfig& c);

// Writes the enabled bytes of a line payload at `offset` of a flat array of `size` bytes
// (shared memory); false when any enabled byte lies outside.
bool write_enabled(std::uint8_t* base, std::uint64_t size, std::uint64_t offset,
                   const tlm::tlm_generic_payload& p);

}  // namespace stu::sim
