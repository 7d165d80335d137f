// stu cosim: constrained-random cosimulation of the RTL blocks against their golden functions.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.h"
#include "cosim.h"

namespace stu::cli {
namespace {

struct CosimArgs {
  std::string block = "all";
  std::string variant;
  uint64_t seed = 1;
  uint64_t seeds = 1;
  uint64_t txns = 10000;
  double stall = 0.25;
  std::string wave;
  std::string wave_dir = ".";
  std::string junit;
  bool quiet = false;
};

std::string per_second(double n, double s) {
  char b[32];
  const double r = s > 0 ? n / s : 0;
  if (r >= 1e6)
    std::snprintf(b, sizeof b, "%.2f M", r / 1e6);
  else
    std::snprintf(b, sizeof b, "%.0f k", r / 1e3);
  return b;
}

int run_cosim(const CosimArgs& a) {
  if (!tb::registry_error().empty()) {
    std::cerr << "stu: error: " << tb::registry_error() << "\n";
    return kUsage;
  }
  std::vector<const tb::BlockEntry*> todo;
  if (a.block == "all" && a.variant.empty()) {
    for (const tb::BlockEntry& b : tb::blocks())
      if (b.in_all) todo.push_back(&b);
  } else if (const tb::BlockEntry* b = tb::find_block(a.block, a.variant)) {
    todo.push_back(b);
  } else {
    const tb::RegistryBlock* r = tb::find_registry_block(a.block);
    if (r && !a.variant.empty()) {
      std::string vs;
      for (const std::string& v : r->variants) vs += (vs.empty() ? "" : ", ") + v;
      std::cerr << "stu: error: block '" << a.block << "' has no test variant '" << a.variant
                << "' (" << (vs.empty() ? "it has none" : "variants: " + vs) << ")\n";
    } else if (r && !r->through.empty()) {
      std::string via;
      for (const std::string& t : r->through) via += (via.empty() ? "" : ", ") + t;
      std::cerr << "stu: error: block '" << a.block << "' (" << r->module
                << ") has no bench of its own: it is verified inside " << via
                << " (stu cosim --block " << r->through.front() << ")\n";
    } else {
      std::string names;
      for (const tb::BlockEntry& e : tb::blocks())
        if (e.in_all) names += " " + e.name;
      std::cerr << "stu: error: unknown block '" << a.block << "' (blocks:" << names << ", all)\n";
    }
    return kUsage;
  }
  if (!a.wave.empty() && (todo.size() != 1 || a.seeds != 1)) {
    std::cerr << "stu: error: --wave traces one run: give one --block and one seed\n";
    return kUsage;
  }
  const bool tty = isatty(STDERR_FILENO) && !a.quiet;
  std::vector<JunitCase> junit;
  bool failed = false;
  for (const tb::BlockEntry* b : todo) {
    uint64_t matched = 0, cycles = 0, txns = 0, ran = 0;
    double seconds = 0;
    bool block_ok = true;
    for (uint64_t i = 0; i < a.seeds; ++i) {
      tb::CosimOptions o;
      o.seed = a.seed + i;
      o.txns = a.txns;
      o.stall = a.stall;
      o.wave = a.wave;
      o.wave_dir = a.wave_dir;
      if (tty)
        std::cerr << "\rcosim " << b->name << ": seed " << o.seed << " (" << i + 1 << "/" << a.seeds
                  << ")" << std::flush;
      const tb::CosimResult r = b->run(o);
      ++ran;
      matched += r.matched;
      cycles += r.cycles;
      txns += r.txns;
      seconds += r.seconds;
      if (!a.junit.empty()) {
        JunitCase c;
        c.name = std::string(b->name) + " seed " + std::to_string(o.seed);
        c.ok = r.ok;
        c.seconds = r.seconds;
        c.message = r.ok ? "" : r.report.substr(0, r.report.find('\n'));
        c.details = r.report;
        junit.push_back(std::move(c));
      }
      if (!r.ok) {
        if (tty) std::cerr << "\r\033[K";
        std::cerr << r.report << "\n";
        block_ok = false;
        break;  // the first divergence of a block is the one to look at
      }
    }
    if (tty) std::cerr << "\r\033[K" << std::flush;
    failed |= !block_ok;
    std::cout << "cosim " << b->name << ": ";
    if (block_ok)
      std::cout << matched << " transactions matched";
    else
      std::cout << "FAILED (" << matched << " transactions matched before the mismatch)";
    std::cout << " (" << txns << " in, " << ran << (ran == 1 ? " seed" : " seeds") << " from "
              << a.seed << ", " << cycles << " cycles, " << per_second(double(matched), seconds)
              << " transactions/s)\n";
  }
  if (!a.junit.empty() && !write_junit(a.junit, "stu cosim", "cosim", junit)) {
    std::cerr << "stu: error: cannot write '" << a.junit << "': " << std::strerror(errno) << "\n";
    return kUsage;
  }
  return failed ? kFinding : kOk;
}

}  // namespace

Command add_cosim(CLI::App& app) {
  auto args = std::make_shared<CosimArgs>();
  CLI::App* sub = app.add_subcommand(
      "cosim", "cosimulate RTL blocks against their golden functions (constrained random)");
  std::string names;
  for (const tb::BlockEntry& b : tb::blocks()) {
    const std::size_t colon = b.name.find(':');
    const std::string shown = colon == std::string::npos
                                  ? b.name
                                  : b.name.substr(0, colon) + " --variant " +
                                        b.name.substr(colon + 1) + " (a test variant)";
    names += "\n  " + shown + ": " + b.rtl + " against " + b.golden;
  }
  sub->footer(
      "Drives each block and its golden function with the same seeded stimulus, with random "
      "back-pressure and X-initialisation, and compares every output transaction in order. On "
      "the first mismatch: the seed, the transaction, both sides field by field, the last 32 "
      "matches, the command that reproduces it and an FST waveform around it. The blocks are "
      "those of the registry rtl/blocks.json with a bench (stu blocks lists them all). See "
      "docs/cosim.md.\nBlocks:" +
      names);
  sub->add_option("--block", args->block, "a block name, or 'all' (default)")->type_name("NAME");
  sub->add_option("--variant", args->variant,
                  "a test variant of the block (e.g. --block coalescer --variant broken)")
      ->type_name("V");
  sub->add_option("--seed", args->seed, "the first seed (default 1)")->type_name("S");
  sub->add_option("--seeds", args->seeds, "run seeds S .. S+N-1 (default 1)")
      ->type_name("N")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  sub->add_option("--txns", args->txns, "input transactions per seed (default 10000)")
      ->type_name("N")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  sub->add_option("--stall", args->stall,
                  "probability that an output ready is low in a cycle (default 0.25)")
      ->type_name("P")
      ->check(CLI::Range(0.0, 0.95));
  sub->add_option("--wave", args->wave,
                  "trace the whole run into this FST file (one block, one seed)")
      ->type_name("FILE");
  sub->add_option("--wave-dir", args->wave_dir,
                  "where a failing run's waveform (a window around the mismatch) goes (default .)")
      ->type_name("DIR");
  sub->add_option("--junit", args->junit, "also write a JUnit XML report, one case per seed")
      ->type_name("FILE");
  sub->add_flag("-q,--quiet", args->quiet, "no progress line");
  return {sub, [args] { return run_cosim(*args); }};
}

}  // namespace stu::cli
