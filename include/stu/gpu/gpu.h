// Silicon as a fourth model: a `.sts` test run on a real NVIDIA GPU (`stu run --on gpu`).
//
// A test runs in three passes (docs/sts-format.md, "On a GPU"):
//   1. record: the runner executes the program on a Recorder (a StoreModel), which keeps the
//      host's set-up steps and every warp store with its operand values, the active mask after
//      the guard, CTA and warp;
//   2. build and run: translate() writes a CUDA C++ program with inline PTX (one kernel launch
//      per store, the cluster, CTAs, warps, exec masks, global allocations, shared memory,
//      mbarriers and initial memory reproduced; shared and local memory persist between
//      launches through global buffers); nvcc builds it for the test's target; it runs and
//      writes, store by store, the CUDA error that ended the kernel and the memory the next
//      expectations read. A store that faults ends the CUDA context: the program is run again
//      with that store skipped, and memory after it is no longer observable;
//   3. replay: the runner executes the program again on a Replay model that answers each store
//      with what the GPU did, and checks the expectations exactly as on the other models.
//      Expectations silicon cannot observe (line requests, caches, the write buffer, TMEM,
//      mbarrier state, ordering) are reported as not observable, never as passes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/fault.h"
#include "stu/sts/program.h"
#include "stu/sts/sts.h"

namespace stu::gpu {

// The CUDA error a fault shows as on a GPU: the error that ends the kernel of the store
// (docs/sts-format.md has the table). Empty: the hardware's behaviour is undefined or the fault
// cannot happen on a GPU (the expectation is then not observable).
std::string_view cuda_error_of(golden::FaultKind k);

// One warp store the Recorder saw.
struct RecordedStore {
  Loc loc;
  std::string text;  // the store line, for messages
  bool sass = false;
  isa::Instruction ins;
  golden::WarpContext ctx;
  golden::WarpOperands ops;
  std::string untranslatable;  // why the store cannot be issued from CUDA (empty: it can)
  bool snapshot = false;       // memory is read before the next store
};

// A set-up step of the host, or a store, in program order.
struct Step {
  enum class Kind : uint8_t { Alloc, Write, Mbarrier, Store };
  Kind kind = Kind::Store;
  uint64_t base = 0, size = 0;  // Alloc
  golden::Dest dest;            // Write
  uint64_t offset = 0;          // Write: the first byte; Mbarrier: the barrier's offset
  std::vector<uint8_t> bytes;   // Write
  uint32_t cta = 0;             // Mbarrier
  golden::MbarOp op;            // Mbarrier
  size_t store = 0;             // Store: index into Recording::stores
};

struct Recording {
  golden::ModelConfig cfg;
  isa::Target target;
  std::vector<Step> steps;
  std::vector<RecordedStore> stores;
  std::vector<std::pair<uint64_t, uint64_t>> allocations;  // base, size, in order
  bool uses_local = false;
};

// Pass 1: records a parsed test for a program built for `arch` (runtime errors of the test
// itself go to `diags`). A store ptxas would not take for `arch` at PTX ISA 9.0 (or that CUDA
// cannot issue at all) is recorded as untranslatable, with the reason.
Recording record(const sts::Program& p, const isa::Target& arch, Diagnostics& diags);
// How many of the recorded stores the program issues.
size_t translatable(const Recording& r);

// Pass 2a: the CUDA C++ program of a recording, built for `arch`
// (`nvcc -arch=<arch>`; the test's target by default).
std::string translate(const Recording& r, const isa::Target& arch);
// Several tests in one program (one build for many): `PROGRAM I RESULTS [SKIP...]` runs test I.
std::string translate_batch(const std::vector<const Recording*>& rs, const isa::Target& arch);

struct GpuOptions {
  std::string nvcc;                 // empty: $STU_NVCC, else `nvcc` on the PATH
  std::string work_dir;             // where the program goes (empty: a fresh temporary folder)
  bool compile_only = false;        // translate and build, do not run
  std::optional<isa::Target> arch;  // build for this target instead of the test's
  unsigned timeout_s = 120;         // a run longer than this has hung
};

struct GpuRun {
  sts::RunSummary summary;
  bool unavailable = false;  // no nvcc, no GPU, a GPU that cannot run the target: exit 2
  bool compiled_only = false;
  std::string why;  // why unavailable (or why the program could not be built)
};

// Runs a parsed test on the GPU: record, translate, build, run, replay. `name` names the test
// in the program's file names.
GpuRun run_on_gpu(const sts::Program& p, const std::string& name, const sts::RunOptions& ro,
                  const GpuOptions& o, Diagnostics& diags);

}  // namespace stu::gpu
