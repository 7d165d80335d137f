// stu check: validate the store-family instructions of PTX modules (or the SASS `ST` lines of a
// .sass listing) against the module's target and PTX ISA version.
#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.h"
#include "stu/isa/sass.h"

namespace stu::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> files;
  ptx::CheckOptions check;
  bool stats = false;
  bool quiet = false;
  size_t max_errors = 0;
};

// SASS listing: one ST per line; blank lines and // comments skipped.
size_t check_sass(std::string_view text, Diagnostics& d) {
  std::istringstream in{std::string(text)};
  std::string line;
  uint32_t n = 0;
  size_t count = 0;
  while (std::getline(in, line)) {
    ++n;
    auto c = line.find("//");
    if (c != std::string::npos) line.erase(c);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++count;
    if (auto s = isa::parse_sass_st(line, d, n)) isa::validate(*s, d);
  }
  return count;
}

int run_check(const CheckArgs& o) {
  return for_each_input(o.files, [&](const std::string& f, std::string_view text) {
    Diagnostics d;
    auto t0 = std::chrono::steady_clock::now();
    if (ends_with(f, ".sass")) {
      size_t n = check_sass(text, d);
      print_diags(d, f, o.max_errors);
      if (!o.quiet) {
        std::cout << f << ": " << n << " SASS stores, " << d.error_count() << " errors, "
                  << d.warning_count() << " warnings\n";
      }
      return d.has_errors();
    }
    ptx::CheckStats s = ptx::check_module(text, d, o.check);
    auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_diags(d, f, o.max_errors);
    if (!o.quiet) {
      std::cout << f << ": " << (s.has_target ? s.target.str() : "no target") << ", PTX "
                << (s.has_version ? s.version.str() : "?") << ": " << s.stores << " stores ("
                << s.invalid_stores << " invalid) in " << s.instructions << " instructions, "
                << d.error_count() << " errors, " << d.warning_count() << " warnings\n";
    }
    if (o.stats) {
      std::cout << f << ": " << s.lines << " lines, " << text.size() << " bytes, " << s.functions
                << " functions, " << secs * 1e3 << " ms, "
                << (secs > 0 ? static_cast<double>(s.stores) / secs : 0.0) << " stores/s\n";
    }
    return d.has_errors();
  });
}

}  // namespace

Command add_check(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* sub = app.add_subcommand(
      "check", "validate the stores of PTX modules (or SASS listings) as ptxas 13.0 does");
  sub->footer(
      "Validates the store-family instructions (st, st.async, tcgen05.st) of PTX modules against "
      "the module's target and PTX ISA version, as ptxas 13.0 does; a .sass file is read as a "
      "listing of SASS ST lines. Diagnostics: FILE:LINE:COL: error: message (docs/check.md).");
  add_files(*sub, args->files, "PTX modules (.ptx) or SASS listings (.sass); '-' is stdin");
  add_target_options(*sub, args->check);
  sub->add_option("-j,--jobs", args->check.threads,
                  "threads that check stores (0: one per hardware thread; the output does not "
                  "depend on it)")
      ->type_name("N")
      ->check(CLI::Range(0u, 1024u));
  sub->add_flag("--stats", args->stats, "print per-file counts and throughput");
  add_max_errors(*sub, args->max_errors);
  sub->add_flag("-q,--quiet", args->quiet, "print diagnostics only, no summary line");
  return {sub, [args] { return run_check(*args); }};
}

}  // namespace stu::cli
