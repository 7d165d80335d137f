// libFuzzer target for the PTX module reader and the one-line store and SASS parsers.
// Build with -DSTU_FUZZ=ON (clang); inputs it finds go to tests/data/fuzz/ as regressions.
#include <cstddef>
#include <cstdint>

#include "fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!stu::fuzz::check_input(text)) __builtin_trap();
  return 0;
}
