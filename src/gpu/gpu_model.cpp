// Passes 2b and 3 of `stu run --on gpu` (gpu.h): build and run the program, then replay the test
// against what the GPU did.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "stu/gpu/gpu.h"
#include "stu/sts/model.h"

namespace stu::gpu {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// nvcc: $STU_NVCC, else on the PATH, else CUDA's usual place.
std::string find_nvcc(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* e = std::getenv("STU_NVCC"); e && *e) return e;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && ::access((dir + "/nvcc").c_str(), X_OK) == 0) return dir + "/nvcc";
  }
  if (::access("/usr/local/cuda/bin/nvcc", X_OK) == 0) return "/usr/local/cuda/bin/nvcc";
  return {};
}

// Runs a shell command; its exit status (-1 when it could not be started).
int shell(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

// What the GPU did with one store.
struct Outcome {
  enum class Kind : uint8_t { Ran, Faulted, Untranslatable, NotReached } kind = Kind::NotReached;
  std::string error;            // the CUDA error name
  std::vector<uint8_t> memory;  // the snapshot (allocations, then shared, then local)
  bool snapshot = false;
};

// Reads a results file into `out` (per store index); the index of the store that ended the run
// with an error, or -1.
int parse_results(const std::string& text, const Recording& r, std::vector<Outcome>& out,
                  std::string& device, std::string& setup_error, bool keep_memory) {
  size_t at = 0;
  auto line = [&]() {
    const size_t e = text.find('\n', at);
    std::string l = text.substr(at, e == std::string::npos ? std::string::npos : e - at);
    at = e == std::string::npos ? text.size() : e + 1;
    return l;
  };
  size_t mem = 0;
  for (const auto& [base, size] : r.allocations) mem += size;
  const golden::ModelConfig& c = r.cfg;
  mem += size_t(c.cluster_ctas) * c.shared_bytes;
  if (r.uses_local) mem += size_t(c.cluster_ctas) * c.threads_per_cta() * c.local_bytes;
  int faulted = -1;
  while (at < text.size()) {
    const std::string l = line();
    if (l.rfind("DEVICE ", 0) == 0) {
      device = l.substr(7);
    } else if (l.rfind("S ", 0) == 0) {
      int k = 0, code = 0;
      char name[128] = {};
      if (std::sscanf(l.c_str(), "S %d %d %127s", &k, &code, name) != 3 || k < 0 ||
          size_t(k) >= out.size())
        break;
      Outcome& o = out[size_t(k)];
      o.error = name;
      o.kind = code == 0 ? Outcome::Kind::Ran : Outcome::Kind::Faulted;
      if (code != 0) {
        faulted = k;
        break;
      }
      const std::string m = line();
      if (m == "M 1") {
        if (text.size() - at < mem) break;
        if (keep_memory) o.memory.assign(text.begin() + long(at), text.begin() + long(at + mem));
        o.snapshot = keep_memory;
        at += mem;
      }
    } else if (l.rfind("U ", 0) == 0) {
      setup_error = l.substr(2);  // "mbarrier cudaErrorLaunchFailure"
    } else if (l.rfind("X ", 0) == 0) {
      const int k = std::atoi(l.c_str() + 2);
      if (k >= 0 && size_t(k) < out.size()) out[size_t(k)].kind = Outcome::Kind::Untranslatable;
    }
  }
  return faulted;
}

// Pass 3: the model that answers each store with what the GPU did.
class Replay final : public sts::StoreModel {
 public:
  Replay(const Recording& r, const std::vector<Outcome>& outcomes, std::string setup_error)
      : r_(r), outcomes_(outcomes), image_(r.cfg), setup_error_(std::move(setup_error)) {}
  std::string_view name() const override { return "gpu"; }
  golden::MachineState& image() override { return image_; }

  void execute(const isa::Instruction&, const golden::WarpContext&, const golden::WarpOperands&,
               golden::StoreResult& out) override {
    next(out);
  }
  void execute_sass(const isa::SassSt&, const golden::WarpContext&, const golden::SassRegisterFile&,
                    golden::StoreResult& out) override {
    next(out);
  }
  bool observes(sts::Effect e) const override {
    if (stopped_) return false;
    if (e == sts::Effect::Memory) return memory_valid_;
    return e == sts::Effect::Faults;
  }
  FaultVerdict fault_seen(golden::FaultKind k) const override {
    if (stopped_) return FaultVerdict::Unobservable;
    const std::string_view want = cuda_error_of(k);
    if (want.empty()) {
      // The hardware's behaviour is undefined here: its memory (a store the model faults may
      // have landed) and its barriers may differ from the model's until the next snapshot.
      undefined_seen_ = true;
      memory_valid_ = false;
      return FaultVerdict::Unobservable;
    }
    return want == error_ ? FaultVerdict::Agrees : FaultVerdict::Disagrees;
  }
  std::string store_outcome() const override { return error_; }
  // The barrier's arithmetic is the hardware's (recorded, run on the GPU); its state is not
  // observable.
  golden::FaultKind host_mbarrier(uint32_t, uint64_t, const golden::MbarOp&) override {
    return golden::FaultKind::None;
  }
  std::string take_error() override { return std::exchange(error_msg_, std::string()); }
  std::string take_note() override { return std::exchange(note_, std::string()); }

 private:
  void next(golden::StoreResult& out) {
    out.clear();
    const size_t k = index_++;
    if (stopped_ || k >= outcomes_.size()) return;
    const Outcome& o = outcomes_[k];
    switch (o.kind) {
      case Outcome::Kind::Untranslatable:
        stopped_ = true;
        note_ = "not run on the GPU: " + r_.stores[k].untranslatable +
                "; the rest of the file is not observable";
        return;
      case Outcome::Kind::NotReached:
        stopped_ = true;
        if (setup_error_.empty()) return;
        // A set-up step (an mbarrier operation) the GPU rejected before this store. After a
        // store whose outcome is undefined on hardware the barrier's state is the hardware's,
        // not the model's: a note. Otherwise the GPU disagrees with a set-up the model took.
        (undefined_seen_ ? note_ : error_msg_) =
            "the GPU rejected the set-up step before this store (" + setup_error_ + ")" +
            (undefined_seen_ ? ", after a store whose outcome is undefined on hardware" : "") +
            "; the rest of the file is not observable";
        return;
      case Outcome::Kind::Faulted:
        error_ = o.error;
        memory_valid_ = false;  // a fault ends the context: memory after it is unspecified
        return;
      case Outcome::Kind::Ran:
        error_ = o.error;
        if (o.snapshot) {
          // From the run that skipped every faulting store before it: memory is defined again.
          load(o.memory);
          memory_valid_ = true;
        }
        return;
    }
  }
  void load(const std::vector<uint8_t>& m) {
    size_t at = 0;
    for (const auto& [base, size] : r_.allocations) {
      image_.write(golden::Dest{}, base, m.data() + at, size);
      at += size;
    }
    const golden::ModelConfig& c = r_.cfg;
    for (uint32_t cta = 0; cta < c.cluster_ctas; ++cta, at += c.shared_bytes)
      image_.write(golden::Dest{golden::MemSpace::Shared, uint16_t(cta), 0}, 0, m.data() + at,
                   c.shared_bytes);
    if (!r_.uses_local) return;
    for (uint32_t cta = 0; cta < c.cluster_ctas; ++cta)
      for (uint32_t t = 0; t < c.threads_per_cta(); ++t, at += c.local_bytes)
        image_.write(golden::Dest{golden::MemSpace::Local, uint16_t(cta), t}, 0, m.data() + at,
                     c.local_bytes);
  }

  const Recording& r_;
  const std::vector<Outcome>& outcomes_;
  golden::MachineState image_;
  size_t index_ = 0;
  bool stopped_ = false;
  mutable bool memory_valid_ = true;
  mutable bool undefined_seen_ = false;
  std::string setup_error_;
  std::string error_;      // the CUDA error of the current store
  std::string error_msg_;  // take_error
  std::string note_;       // take_note
};

}  // namespace

GpuRun run_on_gpu(const sts::Program& p, const std::string& name, const sts::RunOptions& ro,
                  const GpuOptions& o, Diagnostics& diags) {
  GpuRun res;
  const isa::Target arch = o.arch ? *o.arch : p.target;
  const Recording r = record(p, arch, diags);
  const std::string nvcc = find_nvcc(o.nvcc);
  if (nvcc.empty()) {
    res.unavailable = true;
    res.why = "--on gpu needs nvcc (CUDA's compiler): none on the PATH; set STU_NVCC";
    return res;
  }
  std::error_code ec;
  fs::path dir = o.work_dir;
  if (dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "stu-gpu-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
      res.unavailable = true;
      res.why = "cannot make a temporary folder for the GPU program";
      return res;
    }
    dir = tmpl;
  }
  fs::create_directories(dir, ec);
  std::string stem = fs::path(name).stem().string();
  if (stem.empty()) stem = "test";
  const fs::path cu = dir / (stem + ".cu"), exe = dir / stem, log = dir / (stem + ".nvcc.log");
  {
    std::ofstream f(cu, std::ios::binary | std::ios::trunc);
    f << translate(r, arch);
    if (!f) {
      res.unavailable = true;
      res.why = "cannot write " + cu.string();
      return res;
    }
  }
  const std::string build = quote(nvcc) + " -std=c++17 -O2 -arch=" + arch.str() + " -o " +
                            quote(exe.string()) + " " + quote(cu.string()) + " > " +
                            quote(log.string()) + " 2>&1";
  if (shell(build) != 0) {
    res.why = "nvcc could not build the program " + cu.string() + ":\n" + read_file(log);
    res.summary.parsed = true;
    res.summary.failed = 1;
    return res;
  }
  if (o.compile_only) {
    res.compiled_only = true;
    res.summary.parsed = true;
    return res;
  }
  // Run; a store that faults ends the context: run again without it, until the end.
  std::vector<Outcome> outcomes(r.stores.size());
  std::set<size_t> skip;
  std::string device, setup_error;
  for (size_t attempt = 0; attempt <= r.stores.size(); ++attempt) {
    const fs::path out = dir / (stem + ".results"), err = dir / (stem + ".stderr");
    std::string cmd = "timeout " + std::to_string(o.timeout_s) + " " + quote(exe.string()) + " " +
                      quote(out.string());
    for (size_t k : skip) cmd += " " + std::to_string(k);
    cmd += " > /dev/null 2> " + quote(err.string());
    const int rc = shell(cmd);
    // 6: a set-up step failed; the results up to it stand (parsed below).
    if (rc == 3 || rc == 2 || rc == 5 || rc == 124 || rc < 0) {
      const std::string text = read_file(err);
      if (rc == 3) {
        res.unavailable = true;
        res.why = text.empty() ? "no CUDA device" : text;
        return res;
      }
      res.why = rc == 124 ? "the program on the GPU did not finish within " +
                                std::to_string(o.timeout_s) + " s (a store hangs)"
                          : "the program on the GPU failed: " + text;
      res.summary.parsed = true;
      res.summary.failed = 1;
      return res;
    }
    std::vector<Outcome> run(r.stores.size());
    setup_error.clear();
    const int faulted = parse_results(read_file(out), r, run, device, setup_error, true);
    for (size_t k = 0; k < run.size(); ++k) {
      if (outcomes[k].kind == Outcome::Kind::Faulted) continue;  // from an earlier run
      outcomes[k] = run[k];
    }
    if (rc == 4 && faulted >= 0) {
      skip.insert(size_t(faulted));
      continue;
    }
    break;
  }
  if (!device.empty()) diags.note(Loc{1, 1}, "ran on " + device);
  Replay model(r, outcomes, setup_error);
  res.summary = sts::run(p, model, ro, diags);
  return res;
}

}  // namespace stu::gpu
