// stu correlate: the correlation suite (gpu/suite.txt) on the TLM model, held against what a GPU
// measured for the same experiments (gpu/store_bench.cu's JSON lines and, optionally, Nsight
// Compute's counters), with a ratchet that fails when the model moves away from silicon
// (docs/correlate.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "cli.h"
#include "sim_run.h"
#include "sim_support.h"
#include "stu/correlate/suite.h"

namespace stu::cli {
namespace {

struct CorrelateArgs {
  std::string suite = "gpu/suite.txt";
  std::vector<std::string> measured;  // later files' figures replace earlier ones
  std::vector<std::string> ncu;       // each with the --ncu-launches at its position
  std::vector<std::string> ncu_launches;
  std::string config = "h200";
  std::string mode;
  std::vector<std::string> only;
  std::string baseline;
  std::string write_baseline;
  std::uint64_t max_warps = 4u << 20;
  bool quiet = false;
};

// What silicon measured for one experiment.
struct Measured {
  std::string figure;  // bandwidth, throughput, latency, cycles_per_warp_store, cycles_per_512B
  std::string unit;
  double value = 0;
};

// One compared figure.
struct Row {
  std::string experiment, figure, note;
  double silicon = 0, model = 0;
  bool compared = false;  // both sides have the figure
  double ratio() const { return silicon != 0 ? model / silicon : 0; }
};

// How the model runs an experiment: a generator and its parameters, and how to turn the run's
// statistics into the figure silicon measured. Empty `generator` and a `why` when it cannot.
struct ModelRun {
  std::string generator;
  sim::GenParams params;
  std::uint64_t full_warps = 0;  // the experiment's size; params.warps may be less (--max-warps)
  std::string why;
};

std::uint64_t size_param(const correlate::Experiment& e, const char* key, const char* fallback,
                         std::string& why) {
  std::uint64_t v = 0;
  if (!correlate::parse_size(e.get(key, fallback), v))
    why = "line " + std::to_string(e.line) + ": " + key + "='" + e.get(key) + "' is not a size";
  return v;
}

ModelRun plan_run(const correlate::Experiment& e, std::uint32_t sms, std::uint64_t max_warps) {
  ModelRun m;
  m.params.sms = sms;
  std::string why;
  if (e.kernel == "stream") {
    const std::uint64_t lane = size_param(e, "lane", "4", why);
    const std::uint64_t footprint = size_param(e, "footprint", "8M", why);
    const std::uint64_t repeat = size_param(e, "repeat", "1", why);
    m.generator = "stream";
    m.params.width = std::uint32_t(lane);
    m.params.footprint = footprint;
    m.full_warps = lane ? footprint * repeat / (32 * lane) : 0;
  } else if (e.kernel == "strided") {
    const std::uint64_t stride = size_param(e, "stride", "4", why);
    const std::uint64_t count = size_param(e, "count", "16M", why);
    if (!e.get("tail").empty()) {
      m.why = "silicon only: tail= keeps the kernel alive for Nsight Compute's counters";
      return m;
    }
    m.generator = "strided";
    m.params.width = 4;
    m.params.stride = stride;
    m.params.footprint = stride * count;
    m.full_warps = count / 32;
  } else if (e.kernel == "chain") {
    // One thread (warps absent), or W whole warps of one SM; each iteration the op (stores to
    // a new line, fences) as store_bench's k_chain / k_warps do.
    if (!e.get("tail").empty()) {
      m.why = "silicon only: tail= keeps the kernel alive for Nsight Compute's counters";
      return m;
    }
    const std::uint64_t w = e.get("warps").empty() ? 0 : size_param(e, "warps", "1", why);
    const std::uint64_t count = size_param(e, "count", "4096", why);
    m.generator = "sm_chain";
    m.params.op = e.get("op", "st");
    m.params.cta_warps = std::uint32_t(std::max<std::uint64_t>(w, 1));
    m.params.lanes = w ? 32 : 1;
    m.params.sms = 1;
    m.full_warps = count * m.params.cta_warps;  // iterations of all warps
  } else if (e.kernel == "shared") {
    const std::uint64_t stride = size_param(e, "stride", "1", why);
    m.generator = "bank_conflict";  // one SM's shared memory: the figure is per SM
    m.params.sms = 1;
    m.params.stride = 4 * stride;  // words to bytes
    m.full_warps = 32 * 64;        // 32 warps; a rate: 64 stores each
  } else if (e.kernel == "async") {
    // One 2-CTA cluster: warp 0 of CTA 0 sends count x 512 bytes with st.async into CTA 1.
    const std::uint64_t clusters = size_param(e, "clusters", "1", why);
    if (clusters != 1) {
      m.why =
          "no model experiment: the model runs one cluster (" + std::to_string(clusters) + " here)";
      return m;
    }
    m.generator = "dsmem_pair";
    m.params.sms = 2;
    m.full_warps = size_param(e, "count", "2000", why);
  } else {
    m.why = "no model experiment for kernel '" + e.kernel + "'";
    return m;
  }
  if (!why.empty()) {
    m.generator.clear();
    m.why = why;
    return m;
  }
  m.params.warps = std::min(m.full_warps, max_warps);
  return m;
}

// The model's value of the figure silicon measured. A run of part of the experiment's warps
// (--max-warps) stands for all of them at its rate; the launch is paid once.
double model_figure(const correlate::Experiment& e, const ModelRun& m, const sim::Stats& s) {
  const double scale =
      m.params.warps && m.full_warps > m.params.warps ? double(m.full_warps) / m.params.warps : 1;
  const double secs =
      s.core_mhz > 0 ? (double(s.cycles) * scale + double(s.launch_cycles)) / (s.core_mhz * 1e6)
                     : 0;
  if (e.kernel == "stream") return secs > 0 ? s.get(sim::Metric::BytesStored) * scale / secs : 0;
  if (e.kernel == "strided") return secs > 0 ? double(m.params.warps) * 32 * scale / secs : 0;
  if (e.kernel == "chain")  // cycles an iteration (one thread) or a warp store (W warps)
    return m.params.warps ? double(s.cycles) / double(m.params.warps) : 0;
  if (e.kernel == "shared")  // cycles per warp store on the SM
    return s.warp_ops ? double(s.cycles) / double(s.warp_ops) : 0;
  if (e.kernel == "async")  // cycles per 512-byte st.async, the arrive and the wait included
    return m.params.warps ? double(s.cycles) / double(m.params.warps) : 0;
  return 0;
}

// Nsight Compute's counters the model also counts, with ncu's meaning.
std::vector<std::pair<std::string, double>> model_counters(const sim::Stats& s) {
  using sim::Metric;
  return {
      {"dram__bytes_write.sum", s.dram_bytes_in_run},      // during the kernel, not the final flush
      {"dram__bytes_read.sum", s.dram_read_bytes_in_run},  // fill reads, in the kernel
      {"lts__t_sectors_op_write.sum", s.get(Metric::L2Sectors)},
      {"lts__t_requests_op_write.sum", s.get(Metric::L2Requests)},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", s.get(Metric::L1GlobalSectors)},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", s.get(Metric::L1GlobalRequests)},
      // from the grid's start: without the launch (gpu.launch_cycles), which CUDA events see
      {"gpu__time_duration.sum", s.seconds() * 1e9},
  };
}

// gpu/store_bench's output: one JSON object a line (the first describes the device).
bool read_measured(const std::string& path, std::map<std::string, Measured>& out,
                   std::string& device, std::string& why) {
  std::string text;
  if (!read_file(path, text, why)) return false;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      why = path + ":" + std::to_string(n) + ": not a JSON object";
      return false;
    }
    if (j.contains("device")) {
      device = j.value("device", "") + ", " + std::to_string(j.value("sms", 0)) + " SMs";
      continue;
    }
    if (!j.contains("name") || !j.contains("value") || !j["value"].is_number()) {
      why = path + ":" + std::to_string(n) + ": expected \"name\" and a numeric \"value\"";
      return false;
    }
    out[j["name"].get<std::string>()] =
        Measured{j.value("figure", ""), j.value("unit", ""), j["value"].get<double>()};
  }
  return true;
}

// Nsight Compute's --csv rows, named by store_bench --ncu's "launch N NAME" lines.
bool read_ncu(const std::string& csv_path, const std::string& launches_path,
              std::map<std::string, std::map<std::string, double>>& out, std::string& why) {
  std::string csv, launches;
  if (!read_file(csv_path, csv, why) || !read_file(launches_path, launches, why)) return false;
  std::map<int, std::string> names;
  std::istringstream ln(launches);
  for (std::string l; std::getline(ln, l);) {
    int id = 0;
    char name[256] = {};
    if (std::sscanf(l.c_str(), "launch %d %255s", &id, name) == 2) names[id] = name;
  }
  auto fields = [](const std::string& l) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (char c : l) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        f.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    f.push_back(cur);
    return f;
  };
  std::istringstream in(csv);
  std::vector<std::string> header;
  int col_id = -1, col_metric = -1, col_value = -1;
  for (std::string l; std::getline(in, l);) {
    if (l.empty() || l[0] != '"') continue;  // ncu's own ==PROF== lines, the program's output
    const std::vector<std::string> f = fields(l);
    if (header.empty()) {
      header = f;
      for (int i = 0; i < int(f.size()); ++i) {
        if (f[i] == "ID") col_id = i;
        if (f[i] == "Metric Name") col_metric = i;
        if (f[i] == "Metric Value") col_value = i;
      }
      if (col_id < 0 || col_metric < 0 || col_value < 0) {
        why = csv_path + ": not Nsight Compute --csv output (no ID, Metric Name, Metric Value)";
        return false;
      }
      continue;
    }
    if (int(f.size()) <= std::max({col_id, col_metric, col_value})) continue;
    const auto it = names.find(std::atoi(f[size_t(col_id)].c_str()));
    if (it == names.end()) continue;
    std::string v;
    for (char c : f[size_t(col_value)])
      if (c != ',') v += c;
    out[it->second][f[size_t(col_metric)]] = std::atof(v.c_str());
  }
  return true;
}

// NAME FIGURE RATIO lines.
bool read_baseline(const std::string& path, std::map<std::string, double>& out, std::string& why) {
  std::string text;
  if (!read_file(path, text, why)) return false;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream w(line);
    std::string exp, fig;
    double ratio = 0;
    if (!(w >> exp)) continue;
    if (!(w >> fig >> ratio) || ratio <= 0) {
      why = path + ":" + std::to_string(n) + ": expected EXPERIMENT FIGURE RATIO (a ratio > 0)";
      return false;
    }
    out[exp + " " + fig] = ratio;
  }
  return true;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

int run_correlate(const CorrelateArgs& a) {
  std::string why, text;
  if (!read_file(a.suite, text, why)) {
    std::cerr << "stu: error: " << why << "\n";
    return kUsage;
  }
  std::vector<std::string> errors;
  const std::vector<correlate::Experiment> suite = correlate::parse_suite(text, errors);
  for (const std::string& e : errors) std::cerr << a.suite << ":" << e << "\n";
  if (!errors.empty()) return kFinding;
  for (const std::string& name : a.only) {
    bool found = false;
    for (const auto& e : suite) found = found || e.name == name;
    if (!found) {
      std::cerr << "stu: error: --only: no experiment '" << name << "' in " << a.suite << "\n";
      return kUsage;
    }
  }
  std::map<std::string, Measured> measured;
  std::string device;
  for (const std::string& path : a.measured) {
    if (!read_measured(path, measured, device, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
  }
  std::map<std::string, std::map<std::string, double>> ncu;
  for (std::size_t i = 0; i < a.ncu.size(); ++i) {
    if (!read_ncu(a.ncu[i], a.ncu_launches[i], ncu, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
  }
  std::map<std::string, double> baseline;
  if (!a.baseline.empty() && !read_baseline(a.baseline, baseline, why)) {
    std::cerr << "stu: error: " << why << "\n";
    return kUsage;
  }
  sim::SimConfig cfg;
  if (!sim::resolve_config(a.config, a.mode, cfg, why)) {
    print_error_lines(why);
    return kUsage;
  }
  const std::string mode = cfg.sim.mode == sim::SimMode::Lt ? "lt" : "at";
  if (!a.quiet)
    std::cout << "silicon: " << (device.empty() ? a.measured.front() : device)
              << "; model: " << a.config << " (" << mode << ")\n";

  std::vector<Row> rows;
  bool failed = false;
  for (const correlate::Experiment& e : suite) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), e.name) == a.only.end())
      continue;
    const auto mit = measured.find(e.name);
    Row row{e.name, mit != measured.end() ? mit->second.figure : "-", "", 0, 0, false};
    if (mit == measured.end()) {
      row.note = "not measured";
      rows.push_back(row);
      continue;
    }
    row.silicon = mit->second.value;
    ModelRun m = plan_run(e, cfg.gpu.sms, a.max_warps);
    // The kernel's instructions a warp op, where ncu counted them: the workload's own
    // description (what the SM must issue), not a figure of the model's. A warp op is a warp
    // store (ncu's global store instructions), or for a chain each `+`-joined part of an
    // iteration (a fence-only chain stores nothing).
    if (const auto nit = ncu.find(e.name); nit != ncu.end()) {
      const auto all = nit->second.find("smsp__inst_executed.sum");
      const auto st = nit->second.find("smsp__inst_executed_op_global_st.sum");
      double ops = st != nit->second.end() ? st->second : 0;
      if (e.kernel == "chain") {
        const std::string op = e.get("op", "st");
        ops = double(m.full_warps) * double(1 + std::count(op.begin(), op.end(), '+'));
      }
      if (all != nit->second.end() && ops > 0) m.params.instructions = all->second / ops;
    }
    if (m.generator.empty()) {
      row.note = m.why;
      rows.push_back(row);
      continue;
    }
    auto wl = sim::make_generator(m.generator, m.params, why);
    auto ref = wl ? sim::make_generator(m.generator, m.params, why) : nullptr;
    if (!wl || !ref) {
      row.note = "the model cannot run it: " + why;
      rows.push_back(row);
      failed = true;
      continue;
    }
    const SimOutcome o = run_workload(*wl, *ref, cfg, {}, false);
    if (!o.ok) {
      std::cerr << e.name << ": error: " << o.report << "\n";
      failed = true;
      continue;
    }
    row.model = model_figure(e, m, o.stats);
    row.compared = true;
    if (m.params.warps < m.full_warps)
      row.note = "model ran " + std::to_string(m.params.warps) + " of " +
                 std::to_string(m.full_warps) + " warps (--max-warps)";
    rows.push_back(row);
    const auto nit = ncu.find(e.name);
    if (nit == ncu.end() || m.params.warps < m.full_warps) continue;
    for (const auto& [metric, value] : model_counters(o.stats)) {
      const auto c = nit->second.find(metric);
      if (c == nit->second.end()) continue;
      Row r{e.name, metric, "", c->second, value, true};
      rows.push_back(r);
    }
  }

  // The table, then the ratchet.
  std::printf("%-20s %-48s %12s %12s %9s  %s\n", "experiment", "figure", "silicon", "model",
              "model/si", "");
  // A counter silicon counted none of is compared too: both 0 is exact (ratio 1), the model
  // counting some a miss ("inf": outside 15 %, out of the mean, and never a baseline).
  std::size_t compared = 0, within = 0, none_on_silicon = 0;
  double log_sum = 0;
  std::ostringstream base_out;
  for (const Row& r : rows) {
    std::string ratio = "-";
    if (r.compared && r.silicon > 0 && r.model > 0) {
      ratio = num(r.ratio());
      ++compared;
      const double err = std::fabs(std::log(r.ratio()));
      log_sum += err;
      within += err <= std::log(1.15);
      base_out << r.experiment << " " << r.figure << " " << num(r.ratio()) << "\n";
      const auto b = baseline.find(r.experiment + " " + r.figure);
      if (b != baseline.end()) {
        const double base_err = std::fabs(std::log(b->second));
        if (err > base_err + std::log(1.10)) {
          std::cerr << a.baseline << ": error: " << r.experiment << " " << r.figure
                    << ": the model moved away from silicon: model/silicon " << num(r.ratio())
                    << ", baseline " << num(b->second) << "\n";
          failed = true;
        } else if (err + std::log(1.10) < base_err) {
          std::cerr << a.baseline << ": note: " << r.experiment << " " << r.figure
                    << ": closer to silicon than the baseline (" << num(r.ratio()) << " against "
                    << num(b->second) << "): update it\n";
        }
      }
    } else if (r.compared && r.model == 0 && r.silicon > 0) {
      ratio = "0";
    } else if (r.compared && r.silicon == 0 && r.model == 0) {
      ratio = "1";
      ++compared;
      ++within;
      base_out << r.experiment << " " << r.figure << " 1\n";
    } else if (r.compared && r.silicon == 0 && r.model > 0) {
      ratio = "inf";
      ++compared;
      ++none_on_silicon;
      if (baseline.count(r.experiment + " " + r.figure)) {
        std::cerr << a.baseline << ": error: " << r.experiment << " " << r.figure
                  << ": the model counts " << num(r.model) << " where silicon counted none\n";
        failed = true;
      }
    }
    std::printf("%-20s %-48s %12s %12s %9s  %s\n", r.experiment.c_str(), r.figure.c_str(),
                r.compared || r.silicon ? num(r.silicon).c_str() : "-",
                r.compared ? num(r.model).c_str() : "-", ratio.c_str(), r.note.c_str());
  }
  const std::size_t finite = compared - none_on_silicon;
  if (!a.quiet) {
    std::printf(
        "%zu figures compared, %zu within 15%%; mean |log(model/silicon)| %.3g (a factor "
        "of %.3g)",
        compared, within, finite ? log_sum / double(finite) : 0.0,
        finite ? std::exp(log_sum / double(finite)) : 1.0);
    if (none_on_silicon)
      std::printf("; %zu counted by the model where silicon counted none (out of the mean)",
                  none_on_silicon);
    std::printf("\n");
  }
  if (!a.write_baseline.empty()) {
    std::ofstream f(a.write_baseline);
    f << "# stu correlate baseline: EXPERIMENT FIGURE model/silicon (" << a.config << ", " << mode
      << ")\n"
      << base_out.str();
    if (!f) {
      std::cerr << "stu: error: cannot write '" << a.write_baseline << "'\n";
      return kUsage;
    }
  }
  return failed ? kFinding : kOk;
}

}  // namespace

Command add_correlate(CLI::App& app) {
  auto args = std::make_shared<CorrelateArgs>();
  CLI::App* sub = app.add_subcommand(
      "correlate",
      "run the correlation suite on the TLM model and compare it with a GPU's measurements");
  sub->footer(
      "The suite (gpu/suite.txt) is defined once: gpu/store_bench.cu runs it on a GPU (JSON "
      "lines, --measured) and, under ncu, gives the counters (--ncu, --ncu-launches). Each "
      "figure is printed with model/silicon; --baseline fails (exit 1) when a figure's error "
      "grew by more than 10 % over the recorded ratio. See docs/correlate.md.");
  sub->add_option("--suite", args->suite, "the suite file (default gpu/suite.txt)")
      ->type_name("FILE");
  sub->add_option("--measured", args->measured,
                  "gpu/store_bench's output (JSON lines); repeat it to add runs (a later run's "
                  "figure replaces an earlier one's)")
      ->type_name("FILE")
      ->required();
  sub->add_option("--ncu", args->ncu,
                  "Nsight Compute --csv output of store_bench --ncu (repeatable, each with its "
                  "--ncu-launches); smsp__inst_executed.sum and smsp__inst_executed_op_global_st"
                  ".sum give the model the kernel's instructions a store")
      ->type_name("FILE");
  sub->add_option("--ncu-launches", args->ncu_launches,
                  "store_bench --ncu's stderr: the launch order")
      ->type_name("FILE");
  sub->add_option("--config", args->config, "a preset (default h200) or a JSON file")
      ->type_name("NAME|FILE");
  sub->add_option("--mode", args->mode, "lt (loosely timed) or at (approximately timed)")
      ->check(CLI::IsMember({"lt", "at"}));
  sub->add_option("--only", args->only, "run these experiments only")
      ->delimiter(',')
      ->type_name("NAME,...");
  sub->add_option("--max-warps", args->max_warps,
                  "run at most this many warps of an experiment (a rate: default 4194304)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--baseline", args->baseline, "fail when a figure is further from silicon")
      ->type_name("FILE");
  sub->add_option("--write-baseline", args->write_baseline, "write this run's ratios")
      ->type_name("FILE");
  sub->add_flag("-q,--quiet", args->quiet, "the table only");
  return {sub, [args] {
            if (args->ncu.size() != args->ncu_launches.size()) {
              std::cerr << "stu: error: each --ncu needs its --ncu-launches (store_bench --ncu's "
                           "stderr), in the same order\n";
              return kUsage;
            }
            return run_correlate(*args);
          }};
}

}  // namespace stu::cli
