#include "sim_support.h"

#include <fstream>
#include <sstream>

namespace stu::sim {

bool resolve_config(const std::string& name_or_file, const std::string& mode, SimConfig& out,
                    std::string& why) {
  if (auto p = preset(name_or_file)) {
    out = *p;
  } else if (name_or_file.find('.') != std::string::npos ||
             name_or_file.find('/') != std::string::npos) {
    ConfigLoad l = load_config_file(name_or_file);
    if (!l.ok()) {
      // Every error, one per line; load_config_file already names the file in the messages
      // that have no key (a syntax error, an unreadable file).
      why.clear();
      for (const ConfigError& e : l.errors) {
        if (!why.empty()) why += "\n";
        why += e.key.empty() ? e.message : name_or_file + ": " + e.str();
      }
      return false;
    }
    out = l.config;
  } else {
    std::string names;
    for (const std::string& n : preset_names()) names += (names.empty() ? "" : ", ") + n;
    why = "unknown preset '" + name_or_file + "' (presets: " + names + "; or a .json file)";
    return false;
  }
  if (mode == "lt") out.sim.mode = SimMode::Lt;
  if (mode == "at") out.sim.mode = SimMode::At;
  return true;
}

std::string mismatch_text(const RunReport& r) {
  std::string s;
  for (const std::string& e : r.errors) s += (s.empty() ? "" : "\n") + e;
  if (r.mismatch) {
    if (!s.empty()) s += "\n";
    s += "golden-image check failed: " + r.mismatch->str() + "\n" + r.mismatch_context;
    if (!s.empty() && s.back() == '\n') s.pop_back();
  }
  return s;
}

sts::RunSummary run_sts_on_tlm(const sts::Program& program, const SimConfig& cfg,
                               const sts::RunOptions& opts, Diagnostics& diags, Stats* stats,
                               const CoreFactory& cores) {
  // The reference: the golden model, its own diagnostics set aside (they are the test's, and
  // the TLM run reports the same ones).
  sts::GoldenModel golden(program.cfg, program.caches);
  Diagnostics golden_diags;
  sts::RunOptions quiet;
  sts::run(program, golden, quiet, golden_diags);

  TlmModel tlm(cfg, program.cfg, program.caches, cores);
  sts::RunSummary s = sts::run(program, tlm, opts, diags);
  const RunReport r = tlm.finish(golden.image(), false);
  if (!r.ok) {
    diags.error(Loc{1, 1}, "tlm model: " + mismatch_text(r));
    ++s.failed;
  }
  if (stats) *stats = tlm.stats();
  return s;
}

}  // namespace stu::sim
