// A position in a source file: the ground floor that diagnostics and every layer share.
#pragma once

#include <cstdint>

namespace stu {

// 1-based source position; line 0 means "no position".
struct Loc {
  uint32_t line = 0;
  uint32_t col = 0;
};

}  // namespace stu
