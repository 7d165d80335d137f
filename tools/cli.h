// Shared pieces of the `stu` subcommands (tools/cmd_*.cpp): exit statuses, reading inputs,
// printing diagnostics, and how a subcommand plugs into the command line.
//
// Adding a subcommand: write tools/cmd_<name>.cpp with `Command add_<name>(CLI::App& app)`,
// which declares the subcommand, its options and help, and returns the function that runs it;
// list it in kCommands (tools/main.cpp). Options belong to the subcommand that declares them,
// so an option of another subcommand is a usage error that names it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "stu/diag.h"
#include "stu/ptx/module.h"

namespace stu::cli {

// Exit statuses, the same for every subcommand.
constexpr int kOk = 0;       // success
constexpr int kFinding = 1;  // an error in the input, a mismatch, a failed expectation
constexpr int kUsage = 2;    // usage or I/O error

// A declared subcommand: its CLI11 node and what runs it once the command line is parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Reads a file ('-': standard input); false with `why` filled when it cannot be read.
bool read_file(const std::string& path, std::string& out, std::string& why);
// Writes `text` to a file ('-': standard output); false with "cannot write 'PATH': reason".
bool write_file(const std::string& path, const std::string& text, std::string& why);

// Prints diagnostics as FILE:LINE:COL: severity: message, at most `max_errors` errors
// (0: all), then a note of how many were left out.
void print_diags(const Diagnostics& d, const std::string& file, size_t max_errors);
// "stu: error: LINE" on stderr for each line of `text`.
void print_error_lines(const std::string& text);

// The bytes of one input: a read-only mapping of a regular file (no copy, pages faulted in
// ahead), or a copy when the input cannot be mapped (standard input, a pipe, an empty file).
class InputText {
 public:
  InputText() = default;
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;
  ~InputText();
  // False with `why` filled when the input cannot be read.
  bool open(const std::string& path, std::string& why);
  std::string_view view() const { return map_ ? std::string_view(map_, size_) : copy_; }

 private:
  const char* map_ = nullptr;
  size_t size_ = 0;
  std::string copy_;
};

// Runs `fn(path, text)` on every input; an unreadable one is reported and skipped (the others
// are still processed). `fn` returns true when it found an error. Returns the exit status.
int for_each_input(const std::vector<std::string>& files,
                   const std::function<bool(const std::string&, std::string_view)>& fn);

// Common options.
CLI::Option* add_files(CLI::App& app, std::vector<std::string>& files, const char* what);
CLI::Option* add_max_errors(CLI::App& app, size_t& max_errors);
// --target and --ptx-version: validate for these instead of the module's directives.
void add_target_options(CLI::App& app, ptx::CheckOptions& check);

bool ends_with(const std::string& s, const char* suffix);

// JUnit XML: one test case per input.
struct JunitCase {
  std::string name;
  bool ok = false;
  std::string message;  // the first error
  std::string details;  // every diagnostic
  double seconds = 0;
  bool skipped = false;  // read_junit: a <skipped> case (ctest's status "notrun"/"disabled")
};
bool write_junit(const std::string& path, const std::string& suite, const std::string& classname,
                 const std::vector<JunitCase>& cases);
// Reads the test cases of a JUnit report as write_junit writes them (one <testsuite>, its
// <testcase> elements, a <failure message="..."> body when failed); false with `why`
// ("FILE: not a JUnit report ...") otherwise.
bool read_junit(const std::string& path, std::vector<JunitCase>& cases, std::string& why);

// The subcommands.
Command add_check(CLI::App& app);
Command add_lower(CLI::App& app);
Command add_conformance(CLI::App& app);
Command add_run(CLI::App& app);
Command add_tmem_map(CLI::App& app);
Command add_trace(CLI::App& app);
Command add_cosim(CLI::App& app);      // only where the RTL is built (STU_HAVE_COSIM)
Command add_blocks(CLI::App& app);     // likewise
Command add_coverage(CLI::App& app);   // likewise
Command add_testplan(CLI::App& app);   // likewise
Command add_sim(CLI::App& app);        // only where SystemC is built (STU_HAVE_SYSTEMC)
Command add_correlate(CLI::App& app);  // likewise

}  // namespace stu::cli
