// RTL code coverage (scripts/coverage.sh, docs/verification.md): in a build configured with
// -DSTU_RTL_COVERAGE=ON every Verilated model counts its line and toggle points, and each
// context writes its counts when its model is done, to the folder named by the environment
// variable STU_CODE_COVERAGE_DIR (nothing is written when it is unset, or in a normal build).
// `verilator_coverage` merges the files. The folder is configuration of the process, like
// the FST path; no state is shared between models.
#pragma once

#include <verilated.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

#if VM_COVERAGE
#include <unistd.h>
#include <verilated_cov.h>
#endif

namespace stu::tb {

// Writes `ctx`'s coverage counts to $STU_CODE_COVERAGE_DIR/<model>-<seed>-<pid>-<n>.dat.
inline void save_code_coverage(VerilatedContext& ctx, const char* model, uint64_t seed) {
#if VM_COVERAGE
  const char* dir = std::getenv("STU_CODE_COVERAGE_DIR");
  if (!dir || !*dir) return;
  // Models of one seed can run twice in a process (a failing run reruns for its waveform):
  // a per-process count keeps their files apart.
  static std::atomic<uint64_t> runs{0};
  const std::string path = std::string(dir) + "/" + model + "-" + std::to_string(seed) + "-" +
                           std::to_string(::getpid()) + "-" + std::to_string(runs++) + ".dat";
  ctx.coveragep()->write(path.c_str());
#else
  (void)ctx;
  (void)model;
  (void)seed;
#endif
}

}  // namespace stu::tb
