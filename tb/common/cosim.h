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

class Coverage;  // fcov.h

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
  // Functional coverage (fcov.h): when set, the run counts its block's points into it.
  Coverage* coverage = nullptr;
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

// One entry of the block registry, rtl/blocks.json (embedded at build time): the one list of
// blocks that CMake (what is Verilated), `stu cosim`, `stu sim --rtl`, `stu blocks` (the docs
// table) and the registry_consistent test read (docs/adding-a-block.md).
struct RegistryBlock {
  std::string name;    // the block's one name: rtl/stu_<name>.sv, tb/<name>/
  std::string module;  // the RTL module (rtl/<module>.sv)
  std::string golden, harness, harness_note, transactions, tlm;  // the docs table's columns
  std::vector<std::string> through;    // verified inside these blocks (no harness of its own)
  bool cosim = false;                  // `stu cosim --block <name>` runs its bench
  bool sim_rtl = false;                // `stu sim --rtl <name>` puts it in the TLM model's loop
  std::vector<std::string> variants;   // test variants (`stu cosim --block B --variant V`)
  std::vector<std::string> verilated;  // the Verilated model classes (V<module> or a prefix)
};
const std::vector<RegistryBlock>& registry();
// Why the embedded registry could not be read ("" when it was): a build defect.
const std::string& registry_error();
const RegistryBlock* find_registry_block(const std::string& name);

// What `stu cosim` runs: a registered block's bench, or one of its test variants'.
struct BlockEntry {
  std::string name;     // "coalescer", or "coalescer:broken" for a variant
  std::string rtl;      // the RTL module (and the variant's defines)
  std::string golden;   // the golden function it is checked against
  bool in_all = false;  // run by `--block all` (test variants are not)
  std::function<CosimResult(const CosimOptions&)> run;
};
// The registry's cosim blocks (their order), then their variants.
const std::vector<BlockEntry>& blocks();
const BlockEntry* find_block(const std::string& name, const std::string& variant = "");
// The benches compiled into this program, as registry names ("block" or "block:variant"): the
// registry_consistent test holds them against the registry.
std::vector<std::string> bench_names();

// The command that reproduces a run (printed in every failure report); `block` may name a
// variant ("coalescer:broken" → --block coalescer --variant broken).
std::string repro_command(const std::string& block, uint64_t seed, uint64_t txns);
// A run's name in a file name (':' → '_').
std::string file_name_of(const std::string& block);

}  // namespace stu::tb
