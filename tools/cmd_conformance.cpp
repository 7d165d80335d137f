// stu conformance: agreement of `stu check` with the ptxas verdicts recorded in a corpus.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.h"
#include "stu/ptx/conformance.h"

namespace stu::cli {
namespace {

struct ConformanceArgs {
  std::vector<std::string> files;
  size_t show = 20;
};

int run_conformance(const ConformanceArgs& o) {
  ptx::ConformanceReport total;
  size_t files = 0;
  std::string why;
  if (!ptx::run_conformance_paths(o.files, total, files, why)) {
    std::cerr << "stu: error: " << why << "\n";
    return kUsage;
  }
  for (size_t i = 0; i < total.disagreements.size() && i < o.show; ++i) {
    const auto& c = total.disagreements[i];
    std::cout << (c.stu_error ? "stu rejects, ptxas accepts: " : "stu accepts, ptxas rejects: ")
              << c.text << "\n    ptxas: " << (c.ptxas_error ? c.ptxas_message : "ok")
              << "\n    stu:   " << (c.stu_error ? c.stu_message : "ok") << "\n";
  }
  for (size_t i = 0; i < total.stray.size() && i < o.show; ++i) {
    std::cout << "error outside the cases: " << total.stray[i] << "\n";
  }
  std::printf(
      "%zu files, %zu store-family cases: %zu agree (%.3f %%), %zu false errors, "
      "%zu missed errors, %zu errors outside cases; not scored: %zu lines of other "
      "instructions, %zu on which ptxas crashed\n",
      files, total.cases, total.agree, 100.0 * total.agreement(), total.false_errors,
      total.missed_errors, total.stray.size(), total.other_lines, total.ptxas_crashed);
  std::printf("ptxas warned on %zu accepted cases; stu warned on %zu of them\n",
              total.ptxas_warnings, total.warned_too);
  return total.disagreements.empty() && total.stray.empty() ? kOk : kFinding;
}

}  // namespace

Command add_conformance(CLI::App& app) {
  auto args = std::make_shared<ConformanceArgs>();
  CLI::App* sub = app.add_subcommand(
      "conformance", "score 'stu check' against the ptxas verdicts of a conformance corpus");
  sub->footer(
      "Compares 'stu check' with the ptxas verdicts recorded in conformance corpus files "
      "(tests/conformance/*/*.ptx, or a directory of them); exit 1 on any disagreement. The "
      "format is described in tests/conformance/README.md.");
  sub->add_option("files", args->files, "corpus files or directories")->type_name("PATH");
  sub->add_option("--show", args->show, "list at most N disagreements (default 20)")
      ->type_name("N");
  return {sub, [args] { return run_conformance(*args); }};
}

}  // namespace stu::cli
