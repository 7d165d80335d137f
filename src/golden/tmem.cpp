#include "stu/golden/tmem.h"

namespace stu::golden {

using isa::TmemShape;

unsigned tmem_rep_columns(TmemShape shape) {
  switch (shape) {
    case TmemShape::S32x32b:
      return 1;
    case TmemShape::S16x64b:
      return 2;
    case TmemShape::S16x128b:
      return 4;
    case TmemShape::S16x256b:
      return 8;
    case TmemShape::S16x32bx2:
      return 1;
  }
  return 1;
}

unsigned tmem_access_lanes(TmemShape shape) { return shape == TmemShape::S32x32b ? 32 : 16; }

unsigned tmem_cells(TmemShape shape, bool unpack, unsigned t, unsigned j, TmemCellRef cells[2]) {
  TmemCellRef c;
  switch (shape) {
    case TmemShape::S32x32b:  // lane t, column j
      c.lane = t;
      c.col = j;
      break;
    case TmemShape::S16x64b:  // lane t/4 + 8*(t%2), column ((t>>1)&1) + 2j
      c.lane = t / 4 + 8 * (t % 2);
      c.col = ((t >> 1) & 1) + 2 * j;
      break;
    case TmemShape::S16x128b: {  // 2k -> (t/4, t%4 + 4k); 2k+1 -> (t/4 + 8, t%4 + 4k)
      const unsigned k = j / 2, r = j % 2;
      c.lane = t / 4 + 8 * r;
      c.col = (t % 4) + 4 * k;
      break;
    }
    case TmemShape::S16x256b: {  // 4k+r -> (t/4 + 8*(r/2), 2(t%4) + (r%2) + 8k)
      const unsigned k = j / 4, r = j % 4;
      c.lane = t / 4 + 8 * (r / 2);
      c.col = 2 * (t % 4) + (r % 2) + 8 * k;
      break;
    }
    case TmemShape::S16x32bx2:  // lane t%16, column j; threads 16..31 in the second access
      c.lane = t % 16;
      c.col = j;
      c.second = t >= 16;
      break;
  }
  if (!unpack) {
    cells[0] = c;
    return 1;
  }
  cells[0] = c;
  cells[0].col = 2 * c.col;
  cells[0].half = 0;
  cells[1] = c;
  cells[1].col = 2 * c.col + 1;
  cells[1].half = 1;
  return 2;
}

bool TmemAllocator::valid_count(uint32_t cols) {
  return cols >= kTmemAllocUnit && cols <= kTmemColumns && (cols & (cols - 1)) == 0;
}

std::optional<uint32_t> TmemAllocator::alloc(uint32_t cols) {
  if (!valid_count(cols)) return std::nullopt;
  const unsigned n = cols / kTmemAllocUnit;
  const uint32_t want = n == 16 ? 0xFFFFu : ((1u << n) - 1);
  for (unsigned u = 0; u + n <= 16; ++u) {
    if ((units_ & (want << u)) == 0) {
      units_ = uint16_t(units_ | (want << u));
      starts_ = uint16_t(starts_ | (1u << u));
      lengths_[u] = uint16_t(n);
      return TmemAddr{0, u * kTmemAllocUnit}.encode();
    }
  }
  return std::nullopt;
}

bool TmemAllocator::dealloc(uint32_t taddr, uint32_t cols) {
  const TmemAddr a = TmemAddr::decode(taddr);
  if (a.lane != 0 || a.col % kTmemAllocUnit || a.col >= kTmemColumns || !valid_count(cols))
    return false;
  const unsigned u = a.col / kTmemAllocUnit, n = cols / kTmemAllocUnit;
  if (!((starts_ >> u) & 1) || lengths_[u] != n) return false;
  const uint32_t want = n == 16 ? 0xFFFFu : ((1u << n) - 1);
  units_ = uint16_t(units_ & ~(want << u));
  starts_ = uint16_t(starts_ & ~(1u << u));
  lengths_[u] = 0;
  return true;
}

bool TmemAllocator::allocated(uint32_t col) const {
  return col < kTmemColumns && ((units_ >> (col / kTmemAllocUnit)) & 1);
}

}  // namespace stu::golden
