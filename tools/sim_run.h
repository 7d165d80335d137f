// One run of the TLM model on a workload, with the golden-image check: shared by `stu sim` and
// `stu correlate` (built where SystemC is).
#pragma once

#include <optional>
#include <string>

#include "stats.h"
#include "tlm_model.h"
#include "workload.h"

namespace stu::cli {

struct SimOutcome {
  bool ok = false;
  sim::Stats stats;
  std::string report;  // the failure text
};

// Runs `wl` on a TLM model of `cfg` and `ref` (a second instance of the same workload) on the
// golden model, then compares their final memory. `tty`: a progress bar on stderr.
// `plan_thread`: the workload planned ahead on a second thread or not (TlmModel::
// set_plan_thread); unset: the model's default (on with two host cores or more).
SimOutcome run_workload(sim::Workload& wl, sim::Workload& ref, const sim::SimConfig& cfg,
                        const sim::CoreFactory& cores, bool tty,
                        std::optional<bool> plan_thread = std::nullopt);

}  // namespace stu::cli
