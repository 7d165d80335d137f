// Per-lane alignment and byte lanes of a store: the golden function of the RTL block
// stu_store_align (and of stu_sector_mask's byte rule). Both executors (PTX `execute` and SASS
// `execute_sass`) place every lane with these functions, so the rule lives here only.
#pragma once

#include <array>
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

// One lane of a store, as stu_store_align takes it: the address, the element size (1, 2, 4, 8
// or 16 bytes), the element count (1, 2, 4 or 8; size = elem_bytes * elems <= 32), the sink
// elements, and the data (element e at bytes [e * elem_bytes, ...), little-endian).
struct LaneStore {
  uint64_t addr = 0;
  uint8_t elem_bytes = 4;
  uint8_t elems = 1;
  uint8_t sinks = 0;  // bit e: element e is a `_` (not written)
  std::array<uint8_t, 32> data{};
};

// The lane placed in its line. An aligned (or forced-down) access of at most 32 bytes lies in
// one 32-byte sector, so the placement is the line, the sector, the bytes of the sector written
// and the data at their places in the sector (bytes not written are 0). On a fault (misaligned,
// Fault mode) nothing is written: masks and data are 0, `addr` is the address as given.
struct LanePlacement {
  AlignedAddress at;
  uint64_t line = 0;         // at.addr rounded down to 128 bytes
  uint8_t sector = 0;        // sector of the line (0..3)
  uint32_t sector_mask = 0;  // bit b: byte b of the sector is written
  std::array<uint8_t, 32> sector_data{};
};

// The golden function of stu_store_align, composed of the rules above (align_access,
// vector_byte_mask), which the executors call lane by lane themselves.
inline LanePlacement store_align(const LaneStore& s, MisalignMode mode) {
  LanePlacement p;
  const unsigned size = unsigned(s.elem_bytes) * s.elems;
  p.at = align_access(s.addr, size, mode);
  if (p.at.fault) return p;
  p.line = p.at.addr & ~uint64_t(127);
  p.sector = uint8_t((p.at.addr >> 5) & 3);
  const unsigned in_sector = unsigned(p.at.addr & 31);
  const uint32_t mask = vector_byte_mask(s.elem_bytes, s.elems, s.sinks);
  p.sector_mask = mask << in_sector;  // size is a power of two <= 32, aligned: no overflow
  for (unsigned b = 0; b < size; ++b)
    if (mask >> b & 1u) p.sector_data[in_sector + b] = s.data[b];
  return p;
}

}  // namespace stu::golden
