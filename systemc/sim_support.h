// What the `stu` subcommands need from the TLM model: the configuration named on the command
// line, and a `.sts` test on the TLM model with the golden-image check (stu run --on tlm,
// stu sim --workload FILE.sts).
#pragma once

#include <iosfwd>
#include <string>

#include "sim_config.h"
#include "stats.h"
#include "stu/diag.h"
#include "stu/sts/program.h"
#include "stu/sts/sts.h"
#include "tlm_model.h"

namespace stu::sim {

// `name_or_file`: a preset (a100, h100, h200, b200) or a JSON file; `mode`: "lt", "at" or empty
// (the configuration's). False with `why` ("unknown preset 'x' (presets: ...)", or every error
// of the configuration, one per line, each "FILE: key: message") when it cannot.
bool resolve_config(const std::string& name_or_file, const std::string& mode, SimConfig& out,
                    std::string& why);

// Runs `program` on the golden model and on the TLM model (its expectations checked on the
// TLM model, reported to `diags`), then the golden-image check; a difference is an error at
// line 1 of the test naming the first differing location, both values and the stores that
// wrote its line. `stats` (optional) receives the TLM model's statistics.
sts::RunSummary run_sts_on_tlm(const sts::Program& program, const SimConfig& cfg,
                               const sts::RunOptions& opts, Diagnostics& diags,
                               Stats* stats = nullptr, const CoreFactory& cores = {});

// The report of a failed golden-image check (several lines, no trailing newline).
std::string mismatch_text(const RunReport& r);

}  // namespace stu::sim
