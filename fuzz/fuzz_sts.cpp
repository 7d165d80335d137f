// libFuzzer target for the .sts directed-test runner: any input must give diagnostics or a
// result, never a crash, a hang or unbounded memory. Build with -DSTU_FUZZ=ON (clang).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stu/diag.h"
#include "stu/sts/sts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  stu::Diagnostics diags;
  const stu::sts::RunSummary s = stu::sts::run(text, {}, diags);
  // A test that did not parse must say why.
  if (!s.parsed && !diags.has_errors()) __builtin_trap();
  // A failure is always reported as an error diagnostic.
  if (s.failed > 0 && !diags.has_errors()) __builtin_trap();
  return 0;
}
