// `.sts` directed tests: a small text format in which a verification engineer sets up
// memory, registers, TMEM and mbarriers, executes PTX store-family or SASS `ST` lines on a
// chosen CTA/warp/active mask, and states the expected effects (docs/sts-format.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

#include "stu/diag.h"
#include "stu/sts/model.h"
#include "stu/sts/program.h"

namespace stu::sts {

struct RunOptions {
  std::ostream* trace = nullptr;  // when set: each store's faults and transactions
  std::ostream* dump = nullptr;   // when set: the final memory image (hex, per space)
};

struct RunSummary {
  bool parsed = false;        // no syntax error (otherwise nothing was executed)
  size_t stores = 0;          // store instructions executed
  size_t expectations = 0;    // expectations checked
  size_t failed = 0;          // expectations (and unexpected faults, runtime errors) failed
  size_t not_observable = 0;  // expectations the model cannot observe (a GPU: line requests...)
  bool ok() const { return parsed && failed == 0; }
};

// Runs a parsed test on `model` (whose image must start as the program's configuration).
// Runtime errors and failed expectations are reported to `diags` as errors with their line
// and column.
RunSummary run(const Program& program, StoreModel& model, const RunOptions& opts,
               Diagnostics& diags);

// Parses and runs one test on the golden model. Syntax errors, runtime errors and failed
// expectations are reported to `diags` as errors with their line and column; warnings of the ISA
// validator as warnings.
RunSummary run(std::string_view text, const RunOptions& opts, Diagnostics& diags);

}  // namespace stu::sts
