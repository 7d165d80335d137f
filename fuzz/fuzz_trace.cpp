// libFuzzer target for the workload readers: the input is written to a temporary file and
// read as a `.traceg`, as a `.tracez` and as a `.stut`. None may crash; a failed read ends in
// exactly one `FILE:...: error:` diagnostic. Build with -DSTU_FUZZ=ON (clang).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "stu/workload/trace.h"

namespace {

void read_one(std::unique_ptr<stu::workload::StoreSource> src) {
  stu::workload::StoreRecord r;
  while (src->next(r)) {
  }
  if (!src->ok() && src->diagnostics().error_count() != 1) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/stu_fuzz_trace." + std::to_string(::getpid());
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  read_one(stu::workload::open_traceg(path));
  read_one(stu::workload::open_tracez(path));
  read_one(stu::workload::open_stut(path));
  return 0;
}
