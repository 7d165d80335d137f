// stu run: execute .sts directed tests on a model and check their expectations.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli.h"
#include "stu/gpu/gpu.h"
#include "stu/sts/sts.h"
#if STU_HAVE_COSIM
#include "rtl_model.h"
#endif
#if STU_HAVE_SYSTEMC
#include "sim_support.h"
#endif

namespace stu::cli {
namespace {

struct RunArgs {
  std::vector<std::string> files;
  bool trace = false;
  bool quiet = false;
  size_t max_errors = 0;
  std::string dump;
  std::string junit;
  std::string on = "golden";
  std::string config = "h100";  // --on tlm
  std::string mode = "lt";
  // --on gpu
  bool compile_only = false;
  std::string gpu_dir;
  std::string nvcc;
  std::string gpu_arch;
};

// --on gpu --compile-only: the programs of every test, one build per target (a batch: one
// translation unit for many tests keeps the headers' cost to one compile).
int compile_gpu_batch(const RunArgs& o) {
  std::map<std::string, std::vector<gpu::Recording>> by_arch;
  std::map<std::string, std::vector<std::string>> names;
  int status = for_each_input(o.files, [&](const std::string& f, std::string_view text) {
    Diagnostics d;
    sts::Program program;
    if (!sts::parse(text, program, d)) {
      print_diags(d, f, o.max_errors);
      return 1;
    }
    const std::string arch = o.gpu_arch.empty() ? program.target.str() : o.gpu_arch;
    const std::optional<isa::Target> t = isa::Target::parse(arch);
    if (!t) {
      std::cerr << "stu: error: --gpu-arch " << arch << " is not a target\n";
      return 1;
    }
    gpu::Recording r = gpu::record(program, *t, d);
    print_diags(d, f, o.max_errors);
    by_arch[arch].push_back(std::move(r));
    names[arch].push_back(f);
    return d.has_errors() ? 1 : 0;
  });
  std::string nvcc = o.nvcc;
  if (nvcc.empty()) {
    const char* e = std::getenv("STU_NVCC");
    nvcc = e && *e ? e : "nvcc";
  }
  if (std::system((nvcc + " --version > /dev/null 2>&1").c_str()) != 0) {
    std::cerr << "stu: error: --on gpu needs nvcc (CUDA's compiler): none found; set STU_NVCC\n";
    return kUsage;
  }
  std::error_code ec;
  std::string dir = o.gpu_dir;
  if (dir.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stu-gpu-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
      std::cerr << "stu: error: cannot make a temporary folder\n";
      return kUsage;
    }
    dir = tmpl;
  }
  std::filesystem::create_directories(dir, ec);
  for (const auto& [arch, recs] : by_arch) {
    const std::optional<isa::Target> t = isa::Target::parse(arch);
    if (!t) {
      std::cerr << "stu: error: --gpu-arch " << arch << " is not a target\n";
      return kUsage;
    }
    std::vector<const gpu::Recording*> ptrs;
    for (const gpu::Recording& r : recs) ptrs.push_back(&r);
    const std::string cu = dir + "/batch_" + arch + ".cu";
    std::ofstream(cu, std::ios::binary | std::ios::trunc) << gpu::translate_batch(ptrs, *t);
    const std::string log = dir + "/batch_" + arch + ".log";
    const std::string cmd = nvcc + " -std=c++17 -O1 -arch=" + arch + " -c -o '" + dir + "/batch_" +
                            arch + ".o' '" + cu + "' > '" + log + "' 2>&1";
    const bool ok = std::system(cmd.c_str()) == 0;
    for (size_t i = 0; i < names[arch].size(); ++i) {
      if (!o.quiet)
        std::cout << names[arch][i] << ": " << (ok ? "compiled" : "NOT compiled") << " for " << arch
                  << " (not run): " << gpu::translatable(recs[i]) << " of " << recs[i].stores.size()
                  << " stores issued\n";
    }
    if (!ok) {
      std::ifstream l(log);
      std::cerr << "stu: error: nvcc could not build " << cu << ":\n" << l.rdbuf();
      status = 1;
    }
  }
  return status;
}

// The model a test runs on (its image starts as the test's configuration). With `cache` lines,
// the RTL model drives the line requests of its stores through stu_l1_wpath and stu_l2_wslice.
std::unique_ptr<sts::StoreModel> make_model(const std::string& on, const sts::Program& p) {
#if STU_HAVE_COSIM
  if (on == "rtl")
    return p.caches ? tb::make_rtl_model(p.cfg, *p.caches) : tb::make_rtl_model(p.cfg);
#endif
  (void)on;
  return std::make_unique<sts::GoldenModel>(p.cfg, p.caches);
}

int run_sts(const RunArgs& o) {
  if (o.on == "gpu" && o.compile_only) return compile_gpu_batch(o);
  if (o.on != "gpu" &&
      (o.compile_only || !o.gpu_dir.empty() || !o.nvcc.empty() || !o.gpu_arch.empty())) {
    std::cerr << "stu: error: --compile-only, --gpu-dir, --nvcc and --gpu-arch need --on gpu\n";
    return kUsage;
  }
  bool unavailable = false;
  std::vector<JunitCase> junit;
  std::ofstream dump_file;
  std::ostream* dump = nullptr;
  if (o.dump == "-") {
    dump = &std::cout;
  } else if (!o.dump.empty()) {
    dump_file.open(o.dump, std::ios::binary | std::ios::trunc);
    if (!dump_file) {
      std::cerr << "stu: error: cannot write '" << o.dump << "': " << std::strerror(errno) << "\n";
      return kUsage;
    }
    dump = &dump_file;
  }
#if STU_HAVE_SYSTEMC
  sim::SimConfig tlm_cfg;
  if (o.on == "tlm") {
    std::string why;
    if (!sim::resolve_config(o.config, o.mode, tlm_cfg, why)) {
      print_error_lines(why);
      return kUsage;
    }
  }
#endif
  const int status = for_each_input(o.files, [&](const std::string& f, std::string_view text) {
    Diagnostics d;
    sts::RunOptions ro;
    ro.trace = o.trace ? &std::cout : nullptr;
    ro.dump = dump;
    if (dump) *dump << "# " << f << "\n";
    const auto t0 = std::chrono::steady_clock::now();
    sts::RunSummary s;
    sts::Program program;
    if (sts::parse(text, program, d)) {
      if (o.on == "gpu") {
        gpu::GpuOptions go;
        go.work_dir = o.gpu_dir;
        go.nvcc = o.nvcc;
        if (!o.gpu_arch.empty()) go.arch = isa::Target::parse(o.gpu_arch);
        const gpu::GpuRun g = gpu::run_on_gpu(program, f, ro, go, d);
        if (g.unavailable) {
          print_diags(d, f, o.max_errors);
          std::cerr << "stu: error: " << g.why << "\n";
          unavailable = true;
          return 1;
        }
        if (!g.why.empty()) d.error(Loc{1, 1}, g.why);
        s = g.summary;
      } else
#if STU_HAVE_SYSTEMC
          if (o.on == "tlm") {
        // The TLM model, then the golden-image check against the golden model's run.
        s = sim::run_sts_on_tlm(program, tlm_cfg, ro, d);
      } else
#endif
      {
        const std::unique_ptr<sts::StoreModel> model = make_model(o.on, program);
        s = sts::run(program, *model, ro, d);
      }
    }
    print_diags(d, f, o.max_errors);
    if (!o.junit.empty()) {
      JunitCase c;
      c.name = f;
      c.ok = s.ok();
      c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::ostringstream all;
      d.print(all, f);
      c.details = all.str();
      for (const auto& x : d.all()) {
        if (x.severity == Severity::Error) {
          c.message = f + ":" + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col) +
                      ": " + x.message;
          break;
        }
      }
      junit.push_back(std::move(c));
    }
    if (!o.quiet) {
      if (!s.parsed) {
        std::cout << f << ": not run: " << d.error_count() << " errors\n";
      } else {
        std::cout << f << ": " << (s.ok() ? "PASS" : "FAIL") << ": " << s.stores << " stores, "
                  << s.expectations << " expectations, " << s.failed << " failed";
        if (s.not_observable)
          std::cout << ", " << s.not_observable << " not observable on " << o.on;
        std::cout << "\n";
      }
    }
    return s.ok() ? 0 : 1;
  });
  if (unavailable) return kUsage;
  if (!o.junit.empty() && !write_junit(o.junit, "stu run", "sts", junit)) {
    std::cerr << "stu: error: cannot write '" << o.junit << "': " << std::strerror(errno) << "\n";
    return kUsage;
  }
  return status;
}

const auto kNonEmpty = [](const std::string& v) -> std::string {
  return v.empty() ? "needs a file name" : "";
};

}  // namespace

Command add_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand(
      "run", "execute .sts directed tests on a model (golden or rtl) and check their expectations");
  sub->footer(
      "Executes .sts directed tests on the golden reference model; a failed expectation prints "
      "FILE:LINE:COL: error: expectation failed: ... with the expected and actual values. "
      "See docs/sts-format.md.");
  add_files(*sub, args->files, ".sts tests; '-' is stdin");
  sub->add_flag("--trace", args->trace, "print each store's faults and transactions");
  sub->add_option("--dump", args->dump,
                  "write the final memory image (hex, per space); '-' is stdout; with several "
                  "tests, each test's image is appended")
      ->type_name("FILE")
      ->check(kNonEmpty, "");
  sub->add_option("--junit", args->junit, "also write a JUnit XML report, one test case per file")
      ->type_name("FILE")
      ->check(kNonEmpty, "");
  std::vector<std::string> models = {"golden", "gpu"};
#if STU_HAVE_COSIM
  models.push_back("rtl");
#endif
#if STU_HAVE_SYSTEMC
  models.push_back("tlm");
#endif
  sub->add_option("--on", args->on,
                  "the model: golden (the reference, default), rtl (the Verilated store unit, "
                  "rtl/stu_store_unit.sv; its line requests fill a memory image the harness "
                  "keeps), tlm (the SystemC performance model; its final image is then "
                  "checked against the golden model's) or gpu (a real NVIDIA GPU: the test as a "
                  "CUDA program built with nvcc; what silicon cannot observe is reported as "
                  "not observable)")
      ->type_name("MODEL")
      ->check(CLI::IsMember(models));
#if STU_HAVE_SYSTEMC
  sub->add_option("--config", args->config,
                  "--on tlm: a preset (a100, h100, h200, b200) or a JSON configuration file")
      ->type_name("NAME|FILE");
  sub->add_option("--mode", args->mode, "--on tlm: lt (loosely timed) or at (approximately timed)")
      ->check(CLI::IsMember({"lt", "at"}));
#endif
  sub->add_flag("--compile-only", args->compile_only,
                "--on gpu: translate and build the programs (one build per target), do not run");
  sub->add_option("--gpu-dir", args->gpu_dir,
                  "--on gpu: keep the CUDA programs, their builds and results in DIR")
      ->type_name("DIR");
  sub->add_option("--nvcc", args->nvcc, "--on gpu: the CUDA compiler (default: $STU_NVCC, nvcc)")
      ->type_name("PATH");
  sub->add_option("--gpu-arch", args->gpu_arch,
                  "--on gpu: build for this target (sm_90a, sm_100a) instead of the test's")
      ->type_name("TARGET");
  add_max_errors(*sub, args->max_errors);
  sub->add_flag("-q,--quiet", args->quiet, "print diagnostics only, no summary line");
  return {sub, [args] { return run_sts(*args); }};
}

}  // namespace stu::cli
