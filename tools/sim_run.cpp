// One run of the TLM model on a workload (sim_run.h).
#include "sim_run.h"

#include <cstdio>

#include "sim_support.h"

namespace stu::cli {

SimOutcome run_workload(sim::Workload& wl, sim::Workload& ref, const sim::SimConfig& cfg,
                        const sim::CoreFactory& cores, bool tty, std::optional<bool> plan_thread) {
  SimOutcome o;
  sim::TlmModel model(cfg, wl.model_config(), std::nullopt, cores);
  if (plan_thread) model.set_plan_thread(*plan_thread);
  golden::MachineState gold(ref.model_config());
  std::string e;
  if (!wl.setup(model.image(), e) || !ref.setup(gold, e)) {
    o.report = "set-up: " + e;
    return o;
  }
  const std::uint64_t total = wl.size_hint();
  sim::TlmModel::Progress progress;
  if (tty) {
    progress = [total](std::uint64_t done) {
      if (total) {
        const unsigned pct = unsigned(100.0 * double(done) / double(total));
        const unsigned bar = pct / 4;
        std::fprintf(stderr, "\r[%-25s] %3u%% %llu ops", std::string(bar, '#').c_str(), pct,
                     static_cast<unsigned long long>(done));
      } else {
        std::fprintf(stderr, "\r%llu ops", static_cast<unsigned long long>(done));
      }
    };
  }
  const sim::RunReport r = model.run_checked(wl, ref, gold, progress);
  if (tty) std::fprintf(stderr, "\r%60s\r", "");
  o.ok = r.ok;
  o.stats = model.stats();
  if (!r.ok) o.report = sim::mismatch_text(r);
  return o;
}

}  // namespace stu::cli
