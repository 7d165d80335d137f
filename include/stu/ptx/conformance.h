// Agreement of `stu check` with recorded ptxas verdicts.
//
// A conformance file is a complete PTX module in which every case line ends with the verdict
// ptxas 13.0 gave that line when it was generated (scripts/gen_conformance.py):
//   st.global.u32 [%rd1], %r1;  // ptxas: ok
//   st.global.relaxed.cg.u32 [%rd1], %r1;  // ptxas: error: <ptxas message>
//   st.global.u32.v2 [%rd1], {%r1, %r2};  // ptxas: warning: <ptxas message>
// The whole file is checked in one run, so recovery after errors is exercised too.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stu::ptx {

struct CaseOutcome {
  uint32_t line = 0;
  bool ptxas_error = false;  // ptxas rejected the line
  bool stu_error = false;    // stu reported an error on the line
  std::string text;          // the case line without its verdict comment
  std::string ptxas_message;
  std::string stu_message;  // first stu error on the line
};

// Cases are the store-family lines (and lines whose opcode is not a PTX instruction at all):
// what `stu check` validates. Lines of other, known PTX instructions in a corpus are
// controls that stu passes over: they are counted apart (`other_lines`) and not scored.
struct ConformanceReport {
  size_t cases = 0;
  size_t other_lines = 0;
  size_t ptxas_crashed = 0;   // ptxas crashed on the line: no verdict, not scored
  size_t ptxas_warnings = 0;  // cases ptxas accepted with a warning
  size_t warned_too = 0;      // ... on which stu also warned
  size_t agree = 0;
  size_t false_errors = 0;   // stu rejects what ptxas accepts
  size_t missed_errors = 0;  // stu accepts what ptxas rejects
  std::vector<CaseOutcome> disagreements;
  std::vector<std::string> stray;  // stu errors on lines that are not cases (prologue)

  double agreement() const { return cases ? static_cast<double>(agree) / cases : 1.0; }
  void merge(const ConformanceReport& o);
};

ConformanceReport run_conformance(std::string_view module_text);

// Runs every `.ptx` file named, or found in a named folder (sorted), and merges the
// reports; each disagreement's text is prefixed with `file:line: `. Returns false (with
// `error` set) when a file cannot be read: a partial corpus gives no meaningful figure.
bool run_conformance_paths(const std::vector<std::string>& paths, ConformanceReport& report,
                           size_t& files, std::string& error);

}  // namespace stu::ptx
