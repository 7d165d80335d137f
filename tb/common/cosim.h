// The cosimulation harness shared by every RTL block (tb/<block>/): options, results, and the
// registry of blocks that `stu cosim` and the tb_<block> tests run.
//
// A block's cosimulation drives the Verilated block and the block's one golden function with
// the same seeded stimulus and compares every output transaction in order, field by field
// (docs/cosim.md). The DUT's side never comes from golden::execute or MachineState::apply.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stu::tb {

struct CosimOptions {
  uint64_t seed = 1;      // one run: everything random derives from it (stimulus, stalls, X)
  uint64_t txns = 10000;  // input transactions to drive
  double stall = 0.25;    // probability that a ready (output side) is low in a cycle
  double gap = 0.1;       // probability that no input is offered in a cycle
  // FST waveform: traced from cycle wave_from to wave_to when `wave` is set (on a failing
  // run the harness reruns the seed with a window around the mismatch).
  std::string wave;
  uint64_t wave_from = 0;
  uint64_t wave_to = ~uint64_t(0);
  bool rerun_for_wave = true;  // on a mismatch, rerun with a waveform of the window around it
  std::string wave_dir = ".";  // where that rerun's waveform goes
};

struct CosimResult {
  std::string block;
  uint64_t seed = 0;
  uint64_t txns = 0;     // input transactions driven
  uint64_t matched = 0;  // output transactions compared equal
  uint64_t cycles = 0;
  bool ok = false;
  std::string report;                   // on failure: the first-divergence report (docs/cosim.md)
  std::string wave;                     // the waveform written, if any
  uint64_t wave_from = 0, wave_to = 0;  // the cycles around the failure
  double seconds = 0;
};

// One block of the registry: `stu cosim --block NAME` and tb_<block> find it here.
struct BlockEntry {
  const char* name;    // the block's one name: rtl/stu_<name>.sv, tb/<name>/
  const char* rtl;     // the RTL module
  const char* golden;  // the golden function it is checked against
  bool in_all;         // run by `--block all` (the deliberately broken variant is not)
  std::function<CosimResult(const CosimOptions&)> run;
};
const std::vector<BlockEntry>& blocks();
const BlockEntry* find_block(const std::string& name);

// The command that reproduces a run (printed in every failure report).
std::string repro_command(const std::string& block, uint64_t seed, uint64_t txns);

}  // namespace stu::tb
