// Per-lane alignment and byte lanes of a store: the golden function of the RTL block
// stu_store_align (and of stu_sector_mask's byte rule). Both executors (PTX `execute` and SASS
// `execute_sass`) place every lane with these functions, so the rule lives here only.
#pragma once

#include <cstdint>

#include "stu/golden/config.h"

namespace stu::golden {

// The byte-enable bits of an access of `size` bytes (1..32) starting at bit 0.
constexpr uint32_t access_byte_mask(unsigned size) {
  return size >= 32 ? ~uint32_t(0) : ((uint32_t(1) << size) - 1);
}

// The byte-enable bits of a vector store of `elems` elements of `elem_bytes` each, with the
// elements whose bit is set in `sinks` (the `_` of a brace list) left out.
constexpr uint32_t vector_byte_mask(unsigned elem_bytes, unsigned elems, uint32_t sinks) {
  uint32_t m = access_byte_mask(elem_bytes * elems);
  for (unsigned e = 0; e < elems; ++e)
    if (sinks >> e & 1u) m &= ~(access_byte_mask(elem_bytes) << (e * elem_bytes));
  return m;
}

// An access of `size` bytes at `addr` (sizes are powers of two): aligned, forced down to the
// size (SASS ST's ForceAlign mode), or a misaligned fault (PTX always; SASS in Fault mode).
struct AlignedAddress {
  uint64_t addr = 0;    // the address the access uses (forced down when `forced`)
  bool forced = false;  // the address was not aligned and was forced down
  bool fault = false;   // the address was not aligned: a Misaligned fault
};
constexpr AlignedAddress align_access(uint64_t addr, unsigned size, MisalignMode mode) {
  if ((addr & (uint64_t(size) - 1)) == 0) return AlignedAddress{addr, false, false};
  if (mode == MisalignMode::Fault) return AlignedAddress{addr, false, true};
  return AlignedAddress{addr & ~(uint64_t(size) - 1), true, false};
}

}  // namespace stu::golden
