// stu cosim: constrained-random cosimulation of the RTL blocks against their golden functions.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.h"
#include "cosim.h"
#include "fcov.h"

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
  std::string shard;       // I/N
  std::string regression;  // a regression list file
  std::vector<std::string> merge;
  std::string coverage;  // functional coverage counts go here
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

// The block (or block:variant) a name selects, or nullptr with the reason on stderr.
const tb::BlockEntry* select(const std::string& block, const std::string& variant,
                             const std::string& where) {
  if (const tb::BlockEntry* b = tb::find_block(block, variant)) return b;
  const tb::RegistryBlock* r = tb::find_registry_block(block);
  std::cerr << where << "error: ";
  if (r && !variant.empty()) {
    std::string vs;
    for (const std::string& v : r->variants) vs += (vs.empty() ? "" : ", ") + v;
    std::cerr << "block '" << block << "' has no test variant '" << variant << "' ("
              << (vs.empty() ? "it has none" : "variants: " + vs) << ")\n";
  } else if (r && !r->through.empty()) {
    std::string via;
    for (const std::string& t : r->through) via += (via.empty() ? "" : ", ") + t;
    std::cerr << "block '" << block << "' (" << r->module
              << ") has no bench of its own: it is verified inside " << via
              << " (stu cosim --block " << r->through.front() << ")\n";
  } else {
    std::string names;
    for (const tb::BlockEntry& e : tb::blocks())
      if (e.in_all) names += " " + e.name;
    std::cerr << "unknown block '" << block << "' (blocks:" << names << ", all)\n";
  }
  return nullptr;
}

// One run: a block (or variant) on one seed.
struct Job {
  const tb::BlockEntry* block;
  uint64_t seed;
  uint64_t txns;
};

// A regression list (tests/regress/*.txt): one line per block,
//   BLOCK [variant=V] [seeds=N] [first=S] [txns=T]      (defaults: 1 seed from 1, 10000 txns)
// or `all ...` for every block of `--block all`; '#' starts a comment. Its jobs, in order.
bool read_regression(const std::string& path, std::vector<Job>& jobs) {
  std::string text, why;
  if (!read_file(path, text, why)) {
    std::cerr << "stu: error: " << why << "\n";
    return false;
  }
  std::istringstream in(text);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    const std::string where = path + ":" + std::to_string(n) + ":1: ";
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string block, w;
    if (!(words >> block)) continue;
    std::string variant;
    uint64_t seeds = 1, first = 1, txns = 10000;
    while (words >> w) {
      const std::size_t eq = w.find('=');
      const std::string key = w.substr(0, eq == std::string::npos ? 0 : eq);
      const std::string val = eq == std::string::npos ? "" : w.substr(eq + 1);
      char* end = nullptr;
      const unsigned long long v = std::strtoull(val.c_str(), &end, 10);
      const bool number = !val.empty() && *end == 0 && val[0] != '-';
      if (key == "variant" && !val.empty()) {
        variant = val;
      } else if (key == "seeds" && number && v >= 1) {
        seeds = v;
      } else if (key == "first" && number) {
        first = v;
      } else if (key == "txns" && number && v >= 1) {
        txns = v;
      } else {
        std::cerr << where << "error: '" << w
                  << "' is not variant=V, seeds=N, first=S or txns=T (N, T at least 1)\n";
        return false;
      }
    }
    std::vector<const tb::BlockEntry*> bs;
    if (block == "all" && variant.empty()) {
      for (const tb::BlockEntry& b : tb::blocks())
        if (b.in_all) bs.push_back(&b);
    } else if (const tb::BlockEntry* b = select(block, variant, where)) {
      bs.push_back(b);
    } else {
      return false;
    }
    for (const tb::BlockEntry* b : bs)
      for (uint64_t i = 0; i < seeds; ++i) jobs.push_back(Job{b, first + i, txns});
  }
  if (jobs.empty()) {
    std::cerr << path << ": error: the regression list names no block\n";
    return false;
  }
  return true;
}

// `--merge`: the cases of every report, one summary, a merged report; 1 when any failed.
int merge(const CosimArgs& a) {
  std::vector<JunitCase> all;
  for (const std::string& f : a.merge) {
    std::string why;
    if (!read_junit(f, all, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
  }
  std::sort(all.begin(), all.end(),
            [](const JunitCase& x, const JunitCase& y) { return x.name < y.name; });
  std::size_t failures = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i && all[i].name == all[i - 1].name)
      std::cerr << "stu: warning: case '" << all[i].name << "' is in more than one report\n";
    if (!all[i].ok) {
      ++failures;
      std::cerr << "FAILED " << all[i].name << ": " << all[i].message << "\n";
    }
  }
  std::cout << "cosim merge: " << all.size() << " cases from " << a.merge.size() << " reports, "
            << failures << " failed\n";
  if (!a.junit.empty() && !write_junit(a.junit, "stu cosim", "cosim", all)) {
    std::cerr << "stu: error: cannot write '" << a.junit << "': " << std::strerror(errno) << "\n";
    return kUsage;
  }
  return failures ? kFinding : kOk;
}

int run_cosim(const CosimArgs& a) {
  if (!tb::registry_error().empty()) {
    std::cerr << "stu: error: " << tb::registry_error() << "\n";
    return kUsage;
  }
  if (!a.merge.empty()) return merge(a);
  std::vector<Job> jobs;
  const bool listed = !a.regression.empty();
  if (listed) {
    if (!read_regression(a.regression, jobs)) return kUsage;
  } else {
    std::vector<const tb::BlockEntry*> todo;
    if (a.block == "all" && a.variant.empty()) {
      for (const tb::BlockEntry& b : tb::blocks())
        if (b.in_all) todo.push_back(&b);
    } else if (const tb::BlockEntry* b = select(a.block, a.variant, "stu: ")) {
      todo.push_back(b);
    } else {
      return kUsage;
    }
    for (const tb::BlockEntry* b : todo)
      for (uint64_t i = 0; i < a.seeds; ++i) jobs.push_back(Job{b, a.seed + i, a.txns});
  }
  // --shard I/N: the jobs whose place in the whole list is I modulo N.
  uint64_t shard = 0, shards = 1;
  if (!a.shard.empty()) {
    char* end = nullptr;
    shard = std::strtoull(a.shard.c_str(), &end, 10);
    shards = *end == '/' ? std::strtoull(end + 1, &end, 10) : 0;
    if (*end || shards == 0 || shard >= shards || a.shard[0] == '-') {
      std::cerr << "stu: error: --shard '" << a.shard << "': expected I/N with 0 <= I < N\n";
      return kUsage;
    }
    std::vector<Job> mine;
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (i % shards == shard) mine.push_back(jobs[i]);
    jobs = std::move(mine);
  }
  if (!a.wave.empty() && jobs.size() != 1) {
    std::cerr << "stu: error: --wave traces one run: give one --block and one seed\n";
    return kUsage;
  }
  // A plain run stops a block at its first divergence (the one to look at); a regression or a
  // shard runs every job, so that shards and the whole list give the same cases.
  const bool every_job = listed || shards > 1;
  const bool tty = isatty(STDERR_FILENO) && !a.quiet;
  std::vector<JunitCase> junit;
  bool failed = false;
  struct Tally {
    uint64_t matched = 0, cycles = 0, txns = 0, ran = 0, first = ~uint64_t(0);
    double seconds = 0;
    bool ok = true;
  };
  std::vector<std::pair<const tb::BlockEntry*, Tally>> tallies;  // in order of first job
  tb::Coverage coverage;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const Job& job = jobs[j];
    auto it = std::find_if(tallies.begin(), tallies.end(),
                           [&](const auto& t) { return t.first == job.block; });
    if (it == tallies.end()) it = tallies.insert(tallies.end(), {job.block, Tally{}});
    Tally& t = it->second;
    if (!t.ok && !every_job) continue;
    tb::CosimOptions o;
    o.seed = job.seed;
    o.txns = job.txns;
    o.stall = a.stall;
    o.wave = a.wave;
    o.wave_dir = a.wave_dir;
    if (!a.coverage.empty()) o.coverage = &coverage;
    if (tty)
      std::cerr << "\rcosim " << job.block->name << ": seed " << o.seed << " (" << j + 1 << "/"
                << jobs.size() << ")" << std::flush;
    const tb::CosimResult r = job.block->run(o);
    ++t.ran;
    t.first = std::min(t.first, job.seed);
    t.matched += r.matched;
    t.cycles += r.cycles;
    t.txns += r.txns;
    t.seconds += r.seconds;
    if (!a.junit.empty()) {
      JunitCase c;
      c.name = job.block->name + " seed " + std::to_string(o.seed);
      c.ok = r.ok;
      c.seconds = r.seconds;
      c.message = r.ok ? "" : r.report.substr(0, r.report.find('\n'));
      c.details = r.report;
      junit.push_back(std::move(c));
    }
    if (!r.ok) {
      if (tty) std::cerr << "\r\033[K";
      std::cerr << r.report << "\n";
      t.ok = false;
    }
  }
  if (tty) std::cerr << "\r\033[K" << std::flush;
  for (const auto& [b, t] : tallies) {
    failed |= !t.ok;
    std::cout << "cosim " << b->name << ": ";
    if (t.ok)
      std::cout << t.matched << " transactions matched";
    else
      std::cout << "FAILED (" << t.matched << " transactions matched"
                << (every_job ? ", some seeds failed" : " before the mismatch") << ")";
    std::cout << " (" << t.txns << " in, " << t.ran << (t.ran == 1 ? " seed" : " seeds") << " from "
              << t.first << ", " << t.cycles << " cycles, "
              << per_second(double(t.matched), t.seconds) << " transactions/s)\n";
  }
  if (shards > 1)
    std::cout << "cosim shard " << shard << "/" << shards << ": " << jobs.size() << " runs\n";
  if (!a.junit.empty() && !write_junit(a.junit, "stu cosim", "cosim", junit)) {
    std::cerr << "stu: error: cannot write '" << a.junit << "': " << std::strerror(errno) << "\n";
    return kUsage;
  }
  if (!a.coverage.empty()) {
    const tb::Coverage::Summary c = coverage.summary();
    std::string why;
    if (!write_file(a.coverage, coverage.write(), why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
    std::cout << "cosim coverage: " << c.hit << " of " << c.legal << " legal bins hit ("
              << c.illegal_hit << " illegal bins hit), written to " << a.coverage
              << " (stu coverage reports it)\n";
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
  sub->add_option("--regression", args->regression,
                  "run a regression list (tests/regress/smoke.txt, nightly.txt): every seed of "
                  "every line, none skipped after a failure")
      ->type_name("FILE");
  sub->add_option("--shard", args->shard,
                  "run only the runs (block, seed) whose place in the whole list is I modulo N")
      ->type_name("I/N");
  sub->add_option("--merge", args->merge,
                  "merge these JUnit reports (of shards) into one summary, and into --junit; "
                  "exit 1 when a case failed")
      ->type_name("JUNIT...")
      ->expected(1, -1);
  sub->add_option("--coverage", args->coverage,
                  "count functional coverage (every block's points and crosses) into FILE; "
                  "stu coverage merges and reports such files")
      ->type_name("FILE");
  sub->add_flag("-q,--quiet", args->quiet, "no progress line");
  return {sub, [args] { return run_cosim(*args); }};
}

}  // namespace stu::cli
