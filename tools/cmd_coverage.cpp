// stu coverage: merge functional-coverage files (stu cosim --coverage) and report the legal
// bins hit, the holes and any illegal bin hit.
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.h"
#include "fcov.h"

namespace stu::cli {
namespace {

struct CoverageArgs {
  std::vector<std::string> files;
  std::string out;
  double goal = 100.0;
  bool holes = true;
};

std::string percent(size_t hit, size_t of) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << (of ? 100.0 * double(hit) / double(of) : 100.0)
    << " %";
  return s.str();
}

int run_coverage(const CoverageArgs& a) {
  tb::Coverage all;
  for (const std::string& f : a.files) {
    std::string text, why;
    if (!read_file(f, text, why)) {
      std::cerr << "stu: error: cannot read '" << f << "': " << why << "\n";
      return kUsage;
    }
    tb::Coverage one;
    if (!tb::Coverage::read(text, one, why)) {
      std::cerr << f << ":" << why << "\n";
      return kUsage;
    }
    if (!all.merge(one, why)) {
      std::cerr << f << ": error: " << why << "\n";
      return kUsage;
    }
  }
  size_t illegal_hit = 0;
  std::cout << std::left << std::setw(46) << "point" << std::right << std::setw(12) << "legal hit"
            << std::setw(10) << "%"
            << "\n";
  for (const auto& p : all.points()) {
    size_t legal = 0, hit = 0;
    for (size_t i = 0; i < p->size(); ++i) {
      if (!p->illegal(i).empty()) continue;
      ++legal;
      hit += p->count(i) > 0;
    }
    std::cout << std::left << std::setw(46) << p->name() << std::right << std::setw(12)
              << (std::to_string(hit) + "/" + std::to_string(legal)) << std::setw(10)
              << percent(hit, legal) << "\n";
  }
  std::ostringstream holes, illegal;
  size_t n_holes = 0;
  for (const auto& p : all.points()) {
    for (size_t i = 0; i < p->size(); ++i) {
      if (p->illegal(i).empty() && p->count(i) == 0) {
        ++n_holes;
        holes << "  " << p->name() << ": " << p->bin_name(i) << "\n";
      }
      if (!p->illegal(i).empty() && p->count(i) > 0) {
        ++illegal_hit;
        illegal << "error: illegal bin hit " << p->count(i) << " times: " << p->name() << ": "
                << p->bin_name(i) << " (declared impossible: " << p->illegal(i) << ")\n";
      }
    }
  }
  const tb::Coverage::Summary s = all.summary();
  if (a.holes && n_holes) std::cout << "\nholes (" << n_holes << "):\n" << holes.str();
  std::cerr << illegal.str();
  std::cout << "\ncoverage: " << s.hit << " of " << s.legal << " legal bins hit ("
            << percent(s.hit, s.legal) << "), " << n_holes << " holes, " << s.illegal
            << " illegal bins declared, " << illegal_hit << " hit; goal " << a.goal << " %\n";
  if (!a.out.empty()) {
    std::string why;
    if (!write_file(a.out, all.write(), why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
  }
  return illegal_hit || s.percent() + 1e-9 < a.goal ? kFinding : kOk;
}

}  // namespace

Command add_coverage(CLI::App& app) {
  auto args = std::make_shared<CoverageArgs>();
  CLI::App* sub = app.add_subcommand(
      "coverage", "merge functional-coverage files of stu cosim --coverage and report them");
  sub->footer(
      "Adds the counts of every file (runs, seeds, shards), prints each point's legal bins hit, "
      "the holes (legal bins never hit) and every illegal bin that was hit (declared impossible: "
      "an error). Exit status: 0 when no illegal bin was hit and the legal bins hit reach "
      "--goal percent, 1 otherwise, 2 on a usage or I/O error. See docs/verification.md.");
  sub->add_option("files", args->files, "coverage files of stu cosim --coverage")
      ->required()
      ->type_name("FILE");
  sub->add_option("-o,--out", args->out, "also write the merged counts to FILE")->type_name("FILE");
  sub->add_option("--goal", args->goal, "the percentage of legal bins that must be hit (100)")
      ->type_name("PERCENT")
      ->check(CLI::Range(0.0, 100.0));
  sub->add_flag("!--no-holes", args->holes, "do not list the holes");
  return {sub, [args] { return run_coverage(*args); }};
}

}  // namespace stu::cli
