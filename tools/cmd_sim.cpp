// stu sim: the SystemC/TLM-2.0 performance model on a workload (a built-in generator, a
// .sts test, an Accel-Sim trace, a .stut trace), with statistics, plots of parameter sweeps
// and the golden-image check at the end of every run (docs/tlm.md).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli.h"
#include "sim_run.h"
#include "sim_support.h"
#include "stu/sts/program.h"
#include "tlm_model.h"
#include "workload.h"
#if STU_HAVE_RTL_CORES
#include "rtl_cores.h"
#endif

namespace stu::cli {
namespace {

struct SimArgs {
  std::string config = "h100";
  std::string workload = "stream";
  std::string mode;
  std::vector<std::string> rtl;
  std::string stats;
  std::string plot;
  std::vector<std::string> params;
  std::string sweep;
  bool dump_config = false;
  bool list = false;
  bool quiet = false;
  std::string plan_thread = "auto";
};

std::optional<bool> plan_thread(const SimArgs& a) {
  if (a.plan_thread == "auto") return std::nullopt;
  return a.plan_thread == "on";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_trace(const std::string& w) {
  return ends_with(w, ".traceg") || ends_with(w, ".tracez") || ends_with(w, ".xz") ||
         ends_with(w, "kernelslist.g") || ends_with(w, ".stut");
}

// key=value into GenParams; false with `why`.
bool set_param(sim::GenParams& p, const std::string& kv, std::string& why) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) {
    why = "--param '" + kv + "': expected KEY=VALUE";
    return false;
  }
  const std::string key = kv.substr(0, eq), val = kv.substr(eq + 1);
  if (key == "op") {  // sm_chain's operations: a string
    if (val.empty()) {
      why = "--param op: expected operations such as st.relaxed.gpu+fence.sc.gpu";
      return false;
    }
    p.op = val;
    return true;
  }
  char* end = nullptr;
  errno = 0;
  if (key == "instructions") {  // instructions a warp op issues: a decimal, e.g. 10.3
    const double x = std::strtod(val.c_str(), &end);
    if (val.empty() || *end || errno || !(x >= 0)) {
      why = "--param instructions: '" + val + "' is not a non-negative number";
      return false;
    }
    p.instructions = x;
    return true;
  }
  const unsigned long long v = std::strtoull(val.c_str(), &end, 0);
  if (val.empty() || *end || errno || val[0] == '-') {
    why = "--param " + key + ": '" + val + "' is not a non-negative integer";
    return false;
  }
  if (key == "warps") {
    p.warps = v;
  } else if (key == "sms") {
    p.sms = std::uint32_t(v);
  } else if (key == "width") {
    p.width = std::uint32_t(v);
  } else if (key == "stride") {
    p.stride = v;
  } else if (key == "footprint") {
    p.footprint = v;
  } else if (key == "seed") {
    p.seed = v;
  } else if (key == "cta_warps") {
    p.cta_warps = std::uint32_t(std::min<unsigned long long>(v, 1u << 30));
  } else if (key == "lanes") {
    p.lanes = std::uint32_t(std::min<unsigned long long>(v, 1u << 30));
  } else {
    why =
        "--param: unknown key '" + key +
        "' (keys: warps, sms, width, stride, footprint, seed, op, cta_warps, lanes, instructions)";
    return false;
  }
  return true;
}

std::string fmt(double v, const char* f = "%.3g") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

void print_summary(const sim::Stats& s, const std::string& what) {
  using sim::Metric;
  std::cout << what << ": " << s.warp_ops << " warp ops, " << s.cycles << " cycles ("
            << fmt(s.seconds() * 1e6) << " us), " << fmt(s.host_seconds) << " s host ("
            << fmt(s.host_seconds > 0 ? double(s.warp_ops) / s.host_seconds : 0) << " ops/s)\n";
  std::cout << "  stored " << fmt(s.get(Metric::BytesStored))
            << " B: " << fmt(s.bandwidth(s.get(Metric::BytesStored)) / 1e9) << " GB/s; L2 writes "
            << fmt(s.get(Metric::L2Sectors)) << " sectors; DRAM " << fmt(s.dram_bytes_in_run)
            << " B in the run (" << fmt(s.bandwidth(s.dram_bytes_in_run) / 1e9) << " GB/s), "
            << fmt(s.dram_bytes_at_flush()) << " B at the final flush\n";
  for (std::size_t c = 0; c < sim::kStoreClasses; ++c) {
    const sim::LatencyHistogram& h = s.latency[c];
    if (!h.count()) continue;
    std::cout << "  latency " << sim::store_class_name(sim::StoreClass(c)) << ": " << h.count()
              << " stores, p50 " << h.percentile(50) << ", p90 " << h.percentile(90) << ", p99 "
              << h.percentile(99) << ", max " << h.max() << " cycles\n";
  }
  if (s.get(Metric::SharedWavefronts) > 0)
    std::cout << "  shared: " << fmt(s.get(Metric::SharedWavefronts)) << " wavefronts, "
              << fmt(s.get(Metric::SharedConflicts)) << " bank conflicts\n";
}

bool write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return true;
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  return bool(f);
}

// A sweep's table and its charts (gnuplot, PNG): bandwidth and latency against the key.
bool plot_sweep(const std::string& dir, const std::string& key,
                const std::vector<std::pair<std::string, sim::Stats>>& rows, std::string& why) {
  mkdir(dir.c_str(), 0777);
  const std::string table = dir + "/sweep_" + key + ".dat";
  std::ofstream t(table);
  t << "# " << key << " stored_GBps dram_GBps p50 p99 cycles\n";
  for (const auto& [v, s] : rows) {
    const sim::LatencyHistogram* h = nullptr;
    for (const auto& l : s.latency)
      if (l.count() && (!h || l.count() > h->count())) h = &l;
    t << v << " " << s.bandwidth(s.get(sim::Metric::BytesStored)) / 1e9 << " "
      << s.bandwidth(s.dram_bytes_in_run) / 1e9 << " " << (h ? h->percentile(50) : 0) << " "
      << (h ? h->percentile(99) : 0) << " " << s.cycles << "\n";
  }
  t.close();
  const std::string script = dir + "/sweep_" + key + ".gp";
  std::ofstream g(script);
  g << "set terminal pngcairo size 900,540 noenhanced\n"
    << "set grid\nset key top left\nset xlabel '" << key << "'\n"
    << (key == "stride" || key == "footprint" ? "set logscale x 2\n" : "") << "set output '" << dir
    << "/bandwidth_vs_" << key << ".png'\n"
    << "set ylabel 'GB/s'\nset title 'store bandwidth against " << key << "'\n"
    << "plot '" << table
    << "' using 1:2 with linespoints title 'stored', '' using 1:3 with "
       "linespoints title 'DRAM write'\n"
    << "set output '" << dir << "/latency_vs_" << key << ".png'\n"
    << "set ylabel 'cycles'\nset title 'store latency against " << key << "'\n"
    << "plot '" << table
    << "' using 1:4 with linespoints title 'p50', '' using 1:5 with "
       "linespoints title 'p99'\n";
  g.close();
  const std::string cmd = "gnuplot '" + script + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    why = "cannot run gnuplot";
    return false;
  }
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  const int rc = pclose(p);
  if (rc != 0) {
    why = "gnuplot failed (is gnuplot-nox installed?): " + out;
    return false;
  }
  return true;
}

int run_sim(const SimArgs& a) {
  sim::SimConfig cfg;
  std::string why;
  if (!sim::resolve_config(a.config, a.mode, cfg, why)) {
    print_error_lines(why);
    return kUsage;
  }
  if (a.dump_config) {
    std::cout << sim::to_json(cfg);
    return kOk;
  }
  if (a.list) {
    for (const sim::GeneratorInfo& g : sim::generators())
      std::cout << g.name << "\t" << g.description << "\n";
    return kOk;
  }
  sim::CoreFactory cores;
  if (!a.rtl.empty()) {
#if STU_HAVE_RTL_CORES
    if (!tb::rtl_core_factory(a.rtl, cores, why)) {
      std::cerr << "stu: error: --rtl: " << why << "\n";
      return kUsage;
    }
#else
    std::cerr << "stu: error: --rtl: this stu was built without the RTL (STU_BUILD_RTL=OFF)\n";
    return kUsage;
#endif
  }
  sim::GenParams gp;
  gp.sms = cfg.gpu.sms;
  for (const std::string& kv : a.params)
    if (!set_param(gp, kv, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
  const bool tty = isatty(STDERR_FILENO) && !a.quiet;
  const std::string mode = cfg.sim.mode == sim::SimMode::Lt ? "lt" : "at";
  auto finish = [&](const SimOutcome& o, const std::string& what) -> int {
    if (!a.quiet) print_summary(o.stats, what);
    if (!a.stats.empty()) {
      const std::string text = ends_with(a.stats, ".csv")
                                   ? o.stats.to_csv()
                                   : o.stats.to_json(sim::to_json(cfg), a.workload, mode);
      if (!write_text(a.stats, text)) {
        std::cerr << "stu: error: cannot write '" << a.stats << "': " << std::strerror(errno)
                  << "\n";
        return kUsage;
      }
    }
    if (!o.ok) {
      // A workload reader's diagnostic carries its own `FILE[:LINE]: error:` prefix.
      const bool located = o.report.rfind(a.workload + ":", 0) == 0;
      std::cerr << (located ? "" : a.workload + ": error: ") << o.report << "\n";
      return kFinding;
    }
    if (!a.quiet) std::cout << "  golden-image check: PASS\n";
    return kOk;
  };

  // A .sts directed test.
  if (ends_with(a.workload, ".sts")) {
    std::string text;
    if (!read_file(a.workload, text, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
    Diagnostics d;
    sts::Program program;
    SimOutcome o;
    if (!sts::parse(text, program, d)) {
      print_diags(d, a.workload, 0);
      return kFinding;
    }
    const sts::RunSummary s = sim::run_sts_on_tlm(program, cfg, {}, d, &o.stats, cores);
    print_diags(d, a.workload, 0);
    o.ok = s.ok();
    if (!o.ok) o.report = "the test failed on the TLM model (see above)";
    return finish(o, a.workload + " (" + mode + ")");
  }

  auto make = [&](const sim::GenParams& p, std::string& err) -> std::unique_ptr<sim::Workload> {
    if (is_trace(a.workload)) {
      if (access(a.workload.c_str(), R_OK) != 0) {
        err = "cannot read '" + a.workload + "': " + std::strerror(errno);
        return nullptr;
      }
      sim::SmLimits lim;
      lim.sms = cfg.gpu.sms;
      lim.max_ctas = cfg.sm.max_ctas;
      lim.max_warps = cfg.sm.max_warps;
      lim.max_threads = cfg.sm.max_threads;
      lim.registers = cfg.sm.registers;
      lim.shared_bytes = cfg.sm.shared_bytes;
      return sim::trace_workload(a.workload, lim);
    }
    return sim::make_generator(a.workload, p, err);
  };

  if (!a.sweep.empty()) {
    const auto eq = a.sweep.find('=');
    if (eq == std::string::npos || is_trace(a.workload)) {
      std::cerr << "stu: error: --sweep KEY=V1,V2,... sweeps a generator parameter\n";
      return kUsage;
    }
    const std::string key = a.sweep.substr(0, eq);
    std::vector<std::pair<std::string, sim::Stats>> rows;
    std::stringstream vals(a.sweep.substr(eq + 1));
    std::string v;
    bool failed = false;
    while (std::getline(vals, v, ',')) {
      sim::GenParams p = gp;
      if (!set_param(p, key + "=" + v, why)) {
        std::cerr << "stu: error: --sweep: " << why << "\n";
        return kUsage;
      }
      auto wl = make(p, why);
      auto ref = wl ? make(p, why) : nullptr;
      if (!wl || !ref) {
        std::cerr << "stu: error: " << why << "\n";
        return kUsage;
      }
      const SimOutcome o = run_workload(*wl, *ref, cfg, cores, tty, plan_thread(a));
      if (!a.quiet) print_summary(o.stats, a.workload + " " + key + "=" + v + " (" + mode + ")");
      if (!o.ok) {
        std::cerr << a.workload << " " << key << "=" << v << ": error: " << o.report << "\n";
        failed = true;
      }
      rows.emplace_back(v, o.stats);
    }
    if (!a.plot.empty() && !plot_sweep(a.plot, key, rows, why)) {
      std::cerr << "stu: error: --plot: " << why << "\n";
      return kUsage;
    }
    if (!a.stats.empty()) {
      std::string all = "[\n";
      for (std::size_t i = 0; i < rows.size(); ++i)
        all += rows[i].second.to_json("", a.workload + " " + key + "=" + rows[i].first, mode) +
               (i + 1 < rows.size() ? ",\n" : "\n");
      all += "]\n";
      if (!write_text(a.stats, all)) {
        std::cerr << "stu: error: cannot write '" << a.stats << "'\n";
        return kUsage;
      }
    }
    return failed ? kFinding : kOk;
  }

  auto wl = make(gp, why);
  auto ref = wl ? make(gp, why) : nullptr;  // the golden reference's own instance
  if (!wl || !ref) {
    std::cerr << "stu: error: " << why << "\n";
    return kUsage;
  }
  const SimOutcome o = run_workload(*wl, *ref, cfg, cores, tty, plan_thread(a));
  if (!a.quiet)
    for (const std::string& n : wl->notes()) std::cout << "  " << n << "\n";
  if (!a.plot.empty()) {
    std::vector<std::pair<std::string, sim::Stats>> rows{{"1", o.stats}};
    if (!plot_sweep(a.plot, "run", rows, why)) {
      std::cerr << "stu: error: --plot: " << why << "\n";
      return kUsage;
    }
  }
  return finish(o, wl->name() + " (" + mode + ")");
}

}  // namespace

Command add_sim(CLI::App& app) {
  auto args = std::make_shared<SimArgs>();
  CLI::App* sub = app.add_subcommand(
      "sim", "run the SystemC/TLM-2.0 performance model on a workload, with statistics");
  std::string gens;
  for (const sim::GeneratorInfo& g : sim::generators()) gens += (gens.empty() ? "" : ", ") + g.name;
  sub->footer(
      "Workloads: the generators " + gens +
      "; a .sts test; an Accel-Sim trace (.traceg, .traceg.xz, .tracez, kernelslist.g); a .stut "
      "trace. Every run ends with the golden-image check: the model's final memory must "
      "equal the golden model's (exit 1 and the first difference when not). See "
      "docs/tlm.md.");
  sub->add_option("--config", args->config, "a preset (a100, h100, h200, b200) or a JSON file")
      ->type_name("NAME|FILE");
  sub->add_option("--workload", args->workload, "a generator name or a workload file")
      ->type_name("NAME|FILE");
  sub->add_option("--mode", args->mode, "lt (loosely timed) or at (approximately timed)")
      ->check(CLI::IsMember({"lt", "at"}));
  sub->add_option("--rtl", args->rtl,
                  "Verilated blocks that replace their C++ cores: l1_wpath, l2_wslice, "
                  "mbarrier, coalescer")
      ->delimiter(',')
      ->type_name("BLOCK,...");
  sub->add_option("--stats", args->stats, "write statistics: FILE.json, FILE.csv, or '-'")
      ->type_name("FILE");
  sub->add_option("--plot", args->plot, "write PNG charts (gnuplot) into DIR")->type_name("DIR");
  sub->add_option("--param", args->params,
                  "a generator parameter: warps, sms, width, stride, footprint, seed, op, "
                  "cta_warps, lanes, instructions")
      ->type_name("KEY=VALUE");
  sub->add_option("--sweep", args->sweep, "run once per value of a generator parameter")
      ->type_name("KEY=V1,V2,...");
  sub->add_flag("--dump-config", args->dump_config,
                "print the effective configuration as JSON and exit");
  sub->add_flag("--list-workloads", args->list, "list the built-in generators and exit");
  sub->add_flag("-q,--quiet", args->quiet, "no summary, no progress bar");
  sub->add_option("--plan-thread", args->plan_thread,
                  "generate and plan the workload's ops, and write DRAM's memory, on a second "
                  "host thread: auto (on where the host has two cores or more), on, off (one "
                  "job per core)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  return {sub, [args] { return run_sim(*args); }};
}

}  // namespace stu::cli
