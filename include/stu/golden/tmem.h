// Tensor memory: geometry, addresses, allocation and the `tcgen05.st` register mapping.
//
// The mapping (tmem_cell) is the one implementation of the table in
// ../shared/spec/tmem.md; the golden model, the RTL checker and the docs generator use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "stu/golden/fault.h"
#include "stu/isa/types.h"

namespace stu::golden {

inline constexpr unsigned kTmemLanes = 128;
inline constexpr unsigned kTmemColumns = 512;
inline constexpr unsigned kTmemAllocUnit = 32;  // columns

// A TMEM address: lane in bits 31:16, column in bits 15:0.
struct TmemAddr {
  uint32_t lane = 0;
  uint32_t col = 0;
  static TmemAddr decode(uint32_t a) { return {a >> 16, a & 0xFFFFu}; }
  uint32_t encode() const { return (lane << 16) | (col & 0xFFFFu); }
};

// One cell written by one thread's register: offsets from the access base, and for
// `.unpack::16b` which half of the register it takes.
struct TmemCellRef {
  uint32_t lane = 0;    // lane offset from the access base
  uint32_t col = 0;     // column offset from the access base
  uint8_t half = 0;     // .unpack::16b: 0 low half, 1 high half (0 when packed)
  bool second = false;  // .16x32bx2: the cell belongs to the second access (taddr + split)
};

// Columns one repetition of `shape` covers (32x32b 1, 16x64b 2, 16x128b 4, 16x256b 8,
// 16x32bx2 1 per access); doubled by .unpack::16b.
unsigned tmem_rep_columns(isa::TmemShape shape);
// Lanes one access covers: 32 for 32x32b, 16 otherwise (per access of 16x32bx2).
unsigned tmem_access_lanes(isa::TmemShape shape);

// Where register `j` (0 .. regs_per_rep*num - 1) of thread `t` (0..31) goes. Without
// unpack, one cell; with `.unpack::16b`, `cells[0]` gets the low half and `cells[1]` the high
// half (adjacent columns, low half in the lower column). Returns the number of cells (1 or 2).
unsigned tmem_cells(isa::TmemShape shape, bool unpack, unsigned t, unsigned j,
                    TmemCellRef cells[2]);

// Allocation state of one CTA's TMEM: sixteen 32-column units.
class TmemAllocator {
 public:
  // tcgen05.alloc: `cols` must be a power of two in [32, 512]. First fit, in 32-column units,
  // lowest column first. Returns the base address (lane 0, first column) or nullopt when the
  // count is invalid or no contiguous range is free.
  std::optional<uint32_t> alloc(uint32_t cols);
  // tcgen05.dealloc of an allocation made by alloc(): returns false (and frees nothing) when
  // [col, col + cols) is not exactly one live allocation.
  bool dealloc(uint32_t taddr, uint32_t cols);
  bool allocated(uint32_t col) const;
  uint16_t unit_mask() const { return units_; }
  static bool valid_count(uint32_t cols);

 private:
  uint16_t units_ = 0;         // bit u: columns [32u, 32u+32) allocated
  uint16_t starts_ = 0;        // bit u: an allocation begins at unit u
  uint16_t lengths_[16] = {};  // units of the allocation beginning at u
};

// One 32-cell run of a TMEM row written by tcgen05.st (cells not in the mask untouched).
struct TmemWrite {
  uint16_t cta = 0;
  uint16_t lane = 0;      // TMEM lane (row)
  uint16_t col = 0;       // first column (a multiple of 32)
  uint32_t col_mask = 0;  // bit i: column col + i written
  bool unpacked = false;  // cells hold a 16-bit half in bits 15:0 (upper bits: see docs)
  std::array<uint32_t, 32> data{};
};

// The TMEM write of one `tcgen05.st` whose warp-level checks passed (the whole warp active, a
// uniform taddr of 32 bits, a valid instruction: those stay in the executor).
struct TmemWriteIn {
  isa::TmemShape shape = isa::TmemShape::S32x32b;
  unsigned num = 1;      // .num (1 .. isa::max_num(shape))
  bool unpack = false;   // .unpack::16b
  uint32_t taddr = 0;    // the access base
  uint32_t split = 0;    // .16x32bx2: immHalfSplitoff (the second base is taddr + split mod 2^32)
  unsigned quarter = 0;  // warp % 4: the lanes 32*quarter .. +31 the warp may access
  uint16_t alloc_units = 0;  // bit u: columns [32u, 32u + 32) allocated (TmemAllocator::unit_mask)
  uint16_t cta = 0;
  // Register j (0 .. regs_per_rep * num - 1) of thread t: bits 31:0 of regs[(j * 32 + t) *
  // stride] (stride 2 reads the low halves of 128-bit register values).
  const uint64_t* regs = nullptr;
  std::size_t stride = 1;
};

struct TmemWriteOut {
  std::array<Fault, 32> fault{};  // per thread: TmemLaneQuarter or TmemColumnRange, at the cell
  uint32_t fault_mask = 0;        // threads that fault (and write nothing)
  std::vector<TmemWrite> runs;    // the non-empty 32-column runs, ascending lane, then column
  uint64_t cells = 0;             // cell writes (a cell two threads write counts twice)
  void clear();                   // keeps capacity
};

// tcgen05.st's effect on TMEM: each thread's cells (tmem_cells) from the base (the second
// access of .16x32bx2 from taddr + split). A thread faults at its first failing cell in
// (register, cell) order: a lane outside the warp's quarter (TmemLaneQuarter), else a column
// not allocated (TmemColumnRange); the fault address is the cell's TMEM address. A faulting
// thread writes nothing. Unpacked cells hold the 16-bit half in bits 15:0 (bits 31:16 zero).
// When two threads write one cell (.16x32bx2 with overlapping accesses) the higher thread wins.
void tmem_write(const TmemWriteIn& in, TmemWriteOut& out);
TmemWriteOut tmem_write(const TmemWriteIn& in);

}  // namespace stu::golden
