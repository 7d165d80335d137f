#include "stu/golden/tmem.h"

#include <algorithm>
#include <iterator>

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

namespace stu::golden {

void TmemWriteOut::clear() {
  for (uint32_t m = fault_mask; m; m &= m - 1) fault[unsigned(__builtin_ctz(m))] = Fault{};
  fault_mask = 0;
  runs.clear();
  cells = 0;
}

void tmem_write(const TmemWriteIn& in, TmemWriteOut& out) {
  out.clear();
  const unsigned regs = isa::regs_per_rep(in.shape) * in.num;
  const TmemAddr base0 = TmemAddr::decode(in.taddr);
  const TmemAddr base1 = TmemAddr::decode(in.taddr + in.split);
  auto allocated = [&](uint32_t col) {
    return col < kTmemColumns && ((in.alloc_units >> (col / kTmemAllocUnit)) & 1);
  };

  // Pass 1: per-thread faults (a thread that touches a forbidden cell writes nothing).
  TmemCellRef cells[2];
  for (unsigned t = 0; t < 32; ++t) {
    for (unsigned j = 0; j < regs && !(out.fault_mask >> t & 1); ++j) {
      const unsigned n = tmem_cells(in.shape, in.unpack, t, j, cells);
      for (unsigned c = 0; c < n; ++c) {
        const TmemAddr& b = cells[c].second ? base1 : base0;
        const uint32_t lane = b.lane + cells[c].lane, col = b.col + cells[c].col;
        FaultKind k = FaultKind::None;
        if (lane >= kTmemLanes || lane / 32 != in.quarter)
          k = FaultKind::TmemLaneQuarter;
        else if (!allocated(col))
          k = FaultKind::TmemColumnRange;
        if (k != FaultKind::None) {
          out.fault[t] = Fault{k, TmemAddr{lane, col}.encode()};
          out.fault_mask |= uint32_t(1) << t;
          break;
        }
      }
    }
  }
  // Pass 2: gather the cells of the threads that do not fault into 32-column runs per lane
  // (ascending thread: a later thread's cell replaces an earlier one's).
  int16_t index[kTmemLanes * (kTmemColumns / 32)];
  std::fill(std::begin(index), std::end(index), int16_t(-1));
  for (unsigned t = 0; t < 32; ++t) {
    if (out.fault_mask >> t & 1) continue;
    for (unsigned j = 0; j < regs; ++j) {
      const uint32_t v = uint32_t(in.regs[(size_t(j) * 32 + t) * in.stride]);
      const unsigned n = tmem_cells(in.shape, in.unpack, t, j, cells);
      for (unsigned c = 0; c < n; ++c) {
        const TmemAddr& b = cells[c].second ? base1 : base0;
        const uint32_t lane = b.lane + cells[c].lane, col = b.col + cells[c].col;
        // Unpacked: the half goes to bits 15:0 and bits 31:16 are written as zero.
        const uint32_t cell = in.unpack ? (cells[c].half ? v >> 16 : v & 0xFFFFu) : v;
        int16_t& slot = index[lane * (kTmemColumns / 32) + col / 32];
        if (slot < 0) {
          slot = int16_t(out.runs.size());
          out.runs.emplace_back();
          TmemWrite& w = out.runs.back();
          w.cta = in.cta;
          w.lane = uint16_t(lane);
          w.col = uint16_t(col & ~31u);
          w.unpacked = in.unpack;
        }
        TmemWrite& w = out.runs[size_t(slot)];
        w.col_mask |= uint32_t(1) << (col % 32);
        w.data[col % 32] = cell;
        ++out.cells;
      }
    }
  }
  std::sort(out.runs.begin(), out.runs.end(), [](const TmemWrite& a, const TmemWrite& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.col < b.col;
  });
}

TmemWriteOut tmem_write(const TmemWriteIn& in) {
  TmemWriteOut out;
  tmem_write(in, out);
  return out;
}

}  // namespace stu::golden
