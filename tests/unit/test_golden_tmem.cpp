// TMEM mapping and allocation (tmem.h). Specific cells are checked against the table of
// ../shared/spec/tmem.md by hand; the "check yourself" property of the spec (every shape at
// .x1 writes each cell of its footprint exactly once across the 32 threads) is checked for
// every shape, packed and unpacked, and for larger .num.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "stu/golden/tmem.h"

namespace {

using namespace stu;
using namespace stu::golden;
using isa::TmemShape;

const TmemShape kShapes[] = {TmemShape::S32x32b, TmemShape::S16x64b, TmemShape::S16x128b,
                             TmemShape::S16x256b, TmemShape::S16x32bx2};

// The single cell of register j of thread t (packed).
TmemCellRef cell(TmemShape s, unsigned t, unsigned j) {
  TmemCellRef c[2];
  EXPECT_EQ(tmem_cells(s, false, t, j, c), 1u);
  return c[0];
}

void expect_cell(TmemShape s, unsigned t, unsigned j, unsigned lane, unsigned col,
                 bool second = false) {
  const TmemCellRef c = cell(s, t, j);
  EXPECT_EQ(c.lane, lane) << isa::to_string(s) << " t=" << t << " j=" << j;
  EXPECT_EQ(c.col, col) << isa::to_string(s) << " t=" << t << " j=" << j;
  EXPECT_EQ(c.second, second) << isa::to_string(s) << " t=" << t << " j=" << j;
  EXPECT_EQ(c.half, 0);
}

// --- addresses and geometry --------------------------------------------------------------

TEST(GoldenTmem, AddressIsLaneHighColumnLow) {
  const TmemAddr a = TmemAddr::decode(0x0020'0040u);
  EXPECT_EQ(a.lane, 32u);
  EXPECT_EQ(a.col, 64u);
  EXPECT_EQ((TmemAddr{96, 511}).encode(), 0x0060'01FFu);
}

TEST(GoldenTmem, RepColumnsPerShape) {
  EXPECT_EQ(tmem_rep_columns(TmemShape::S32x32b), 1u);
  EXPECT_EQ(tmem_rep_columns(TmemShape::S16x64b), 2u);
  EXPECT_EQ(tmem_rep_columns(TmemShape::S16x128b), 4u);
  EXPECT_EQ(tmem_rep_columns(TmemShape::S16x256b), 8u);
  EXPECT_EQ(tmem_rep_columns(TmemShape::S16x32bx2), 1u);
}

TEST(GoldenTmem, AccessLanesPerShape) {
  EXPECT_EQ(tmem_access_lanes(TmemShape::S32x32b), 32u);
  EXPECT_EQ(tmem_access_lanes(TmemShape::S16x64b), 16u);
  EXPECT_EQ(tmem_access_lanes(TmemShape::S16x128b), 16u);
  EXPECT_EQ(tmem_access_lanes(TmemShape::S16x256b), 16u);
  EXPECT_EQ(tmem_access_lanes(TmemShape::S16x32bx2), 16u);
}

// --- specific cells, from the table ------------------------------------------------------

TEST(GoldenTmem, Cells32x32b) {
  // lane t, column j.
  expect_cell(TmemShape::S32x32b, 0, 0, 0, 0);
  expect_cell(TmemShape::S32x32b, 5, 3, 5, 3);
  expect_cell(TmemShape::S32x32b, 31, 127, 31, 127);
}

TEST(GoldenTmem, Cells16x64b) {
  // lane t/4 + 8*(t%2), column ((t>>1)&1) + 2j.
  expect_cell(TmemShape::S16x64b, 0, 0, 0, 0);
  expect_cell(TmemShape::S16x64b, 1, 0, 8, 0);    // odd thread: lower half + 8
  expect_cell(TmemShape::S16x64b, 2, 0, 0, 1);    // bit 1 of t: column 1
  expect_cell(TmemShape::S16x64b, 7, 0, 9, 1);    // 7/4 = 1, +8; (7>>1)&1 = 1
  expect_cell(TmemShape::S16x64b, 7, 2, 9, 5);    // + 2*2
  expect_cell(TmemShape::S16x64b, 31, 1, 15, 3);  // 7 + 8; 1 + 2
  expect_cell(TmemShape::S16x64b, 12, 0, 3, 0);
}

TEST(GoldenTmem, Cells16x128b) {
  // register 2k -> (t/4, t%4 + 4k); 2k+1 -> (t/4 + 8, t%4 + 4k).
  expect_cell(TmemShape::S16x128b, 6, 0, 1, 2);
  expect_cell(TmemShape::S16x128b, 6, 1, 9, 2);
  expect_cell(TmemShape::S16x128b, 6, 2, 1, 6);
  expect_cell(TmemShape::S16x128b, 6, 3, 9, 6);
  expect_cell(TmemShape::S16x128b, 31, 1, 15, 3);
  expect_cell(TmemShape::S16x128b, 0, 0, 0, 0);
  expect_cell(TmemShape::S16x128b, 3, 5, 8, 11);  // k = 2: 3 + 8; lane 0 + 8
}

TEST(GoldenTmem, Cells16x256b) {
  // 4k -> (t/4, 2(t%4) + 8k); 4k+1 -> (t/4, 2(t%4)+1 + 8k);
  // 4k+2 -> (t/4+8, 2(t%4) + 8k); 4k+3 -> (t/4+8, 2(t%4)+1 + 8k).
  expect_cell(TmemShape::S16x256b, 5, 0, 1, 2);
  expect_cell(TmemShape::S16x256b, 5, 1, 1, 3);
  expect_cell(TmemShape::S16x256b, 5, 2, 9, 2);
  expect_cell(TmemShape::S16x256b, 5, 3, 9, 3);
  expect_cell(TmemShape::S16x256b, 5, 4, 1, 10);
  expect_cell(TmemShape::S16x256b, 5, 7, 9, 11);
  expect_cell(TmemShape::S16x256b, 31, 3, 15, 7);
  expect_cell(TmemShape::S16x256b, 0, 0, 0, 0);
}

TEST(GoldenTmem, Cells16x32bx2) {
  // lane t%16, column j; threads 16..31 belong to the second access (taddr + split).
  expect_cell(TmemShape::S16x32bx2, 3, 0, 3, 0, false);
  expect_cell(TmemShape::S16x32bx2, 15, 2, 15, 2, false);
  expect_cell(TmemShape::S16x32bx2, 16, 0, 0, 0, true);
  expect_cell(TmemShape::S16x32bx2, 19, 1, 3, 1, true);
  expect_cell(TmemShape::S16x32bx2, 31, 4, 15, 4, true);
}

// --- unpack::16b -------------------------------------------------------------------------

TEST(GoldenTmem, Unpack32x32bDoublesColumnsLowHalfFirst) {
  TmemCellRef c[2];
  ASSERT_EQ(tmem_cells(TmemShape::S32x32b, true, 5, 3, c), 2u);
  EXPECT_EQ(c[0].lane, 5u);
  EXPECT_EQ(c[0].col, 6u);
  EXPECT_EQ(c[0].half, 0);
  EXPECT_EQ(c[1].lane, 5u);
  EXPECT_EQ(c[1].col, 7u);
  EXPECT_EQ(c[1].half, 1);
}

TEST(GoldenTmem, Unpack16x64bDoublesColumns) {
  // Packed: t=7, j=2 -> (9, 5); unpacked: columns 10 (low half) and 11 (high half).
  TmemCellRef c[2];
  ASSERT_EQ(tmem_cells(TmemShape::S16x64b, true, 7, 2, c), 2u);
  EXPECT_EQ(c[0].lane, 9u);
  EXPECT_EQ(c[0].col, 10u);
  EXPECT_EQ(c[0].half, 0);
  EXPECT_EQ(c[1].lane, 9u);
  EXPECT_EQ(c[1].col, 11u);
  EXPECT_EQ(c[1].half, 1);
}

TEST(GoldenTmem, Unpack16x32bx2KeepsSecondAccess) {
  TmemCellRef c[2];
  ASSERT_EQ(tmem_cells(TmemShape::S16x32bx2, true, 20, 1, c), 2u);
  EXPECT_TRUE(c[0].second);
  EXPECT_TRUE(c[1].second);
  EXPECT_EQ(c[0].lane, 4u);
  EXPECT_EQ(c[0].col, 2u);
  EXPECT_EQ(c[1].col, 3u);
}

// --- the "check yourself" property ------------------------------------------------------

using CellKey = std::tuple<bool, unsigned, unsigned>;  // (second, lane, col)

// Writes of every (t, j) of `shape` with `num` repetitions: the count per cell.
std::map<CellKey, unsigned> footprint(TmemShape shape, unsigned num, bool unpack) {
  std::map<CellKey, unsigned> hits;
  const unsigned regs = isa::regs_per_rep(shape) * num;
  for (unsigned t = 0; t < 32; ++t) {
    for (unsigned j = 0; j < regs; ++j) {
      TmemCellRef c[2];
      const unsigned n = tmem_cells(shape, unpack, t, j, c);
      for (unsigned i = 0; i < n; ++i) ++hits[CellKey{c[i].second, c[i].lane, c[i].col}];
    }
  }
  return hits;
}

struct Footprint {
  TmemShape shape;
  unsigned accesses, lanes, cols;  // per access, at .x1, packed
};
const Footprint kFootprints[] = {
    {TmemShape::S32x32b, 1, 32, 1},   {TmemShape::S16x64b, 1, 16, 2},
    {TmemShape::S16x128b, 1, 16, 4},  {TmemShape::S16x256b, 1, 16, 8},
    {TmemShape::S16x32bx2, 2, 16, 1},
};

void expect_exact_cover(const Footprint& f, unsigned num, bool unpack) {
  const std::string what = std::string(isa::to_string(f.shape)) + ".x" + std::to_string(num) +
                           (unpack ? ".unpack::16b" : "");
  const auto hits = footprint(f.shape, num, unpack);
  const unsigned cols = f.cols * num * (unpack ? 2 : 1);
  EXPECT_EQ(hits.size(), size_t(f.accesses) * f.lanes * cols) << what;
  for (unsigned a = 0; a < f.accesses; ++a) {
    for (unsigned l = 0; l < f.lanes; ++l) {
      for (unsigned c = 0; c < cols; ++c) {
        auto it = hits.find(CellKey{a == 1, l, c});
        ASSERT_NE(it, hits.end()) << what << " missing lane " << l << " col " << c;
        EXPECT_EQ(it->second, 1u) << what << " lane " << l << " col " << c;
      }
    }
  }
}

TEST(GoldenTmem, EveryShapeAtX1CoversFootprintExactlyOnce) {
  for (const Footprint& f : kFootprints) expect_exact_cover(f, 1, false);
}

TEST(GoldenTmem, EveryShapeUnpackedAtX1CoversDoubleFootprintExactlyOnce) {
  for (const Footprint& f : kFootprints) expect_exact_cover(f, 1, true);
}

TEST(GoldenTmem, EveryShapeAtX4CoversFourRepetitionsExactlyOnce) {
  for (const Footprint& f : kFootprints) expect_exact_cover(f, 4, false);
}

TEST(GoldenTmem, EveryShapeAtMaxNumStaysWithin512Columns) {
  for (const Footprint& f : kFootprints) {
    const unsigned num = isa::max_num(f.shape);
    const auto hits = footprint(f.shape, num, false);
    unsigned max_col = 0;
    for (const auto& kv : hits) max_col = std::max(max_col, std::get<2>(kv.first));
    EXPECT_EQ(max_col + 1, f.cols * num) << isa::to_string(f.shape);
    EXPECT_LE(max_col, kTmemColumns - 1) << isa::to_string(f.shape);
  }
}

TEST(GoldenTmem, UnpackLowHalfAlwaysInEvenColumn) {
  for (TmemShape s : kShapes) {
    for (unsigned t = 0; t < 32; ++t) {
      for (unsigned j = 0; j < isa::regs_per_rep(s) * 2; ++j) {
        TmemCellRef p[2], u[2];
        tmem_cells(s, false, t, j, p);
        ASSERT_EQ(tmem_cells(s, true, t, j, u), 2u);
        EXPECT_EQ(u[0].col, 2 * p[0].col);
        EXPECT_EQ(u[1].col, 2 * p[0].col + 1);
        EXPECT_EQ(u[0].lane, p[0].lane);
        EXPECT_EQ(u[1].lane, p[0].lane);
        EXPECT_EQ(u[0].half, 0);
        EXPECT_EQ(u[1].half, 1);
      }
    }
  }
}

// --- TmemAllocator -----------------------------------------------------------------------

TEST(GoldenTmemAlloc, ValidCountsArePowersOfTwoFrom32To512) {
  for (uint32_t c : {32u, 64u, 128u, 256u, 512u}) EXPECT_TRUE(TmemAllocator::valid_count(c)) << c;
  for (uint32_t c : {0u, 1u, 16u, 31u, 33u, 48u, 96u, 500u, 1024u, 0x8000'0000u})
    EXPECT_FALSE(TmemAllocator::valid_count(c)) << c;
}

TEST(GoldenTmemAlloc, InvalidCountAllocatesNothing) {
  TmemAllocator a;
  EXPECT_FALSE(a.alloc(48).has_value());
  EXPECT_FALSE(a.alloc(16).has_value());
  EXPECT_FALSE(a.alloc(1024).has_value());
  EXPECT_FALSE(a.alloc(0).has_value());
  EXPECT_EQ(a.unit_mask(), 0u);
}

TEST(GoldenTmemAlloc, FirstAllocationAtColumnZero) {
  TmemAllocator a;
  const auto t = a.alloc(64);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 0u);  // lane 0, column 0
  EXPECT_EQ(a.unit_mask(), 0x3u);
  EXPECT_TRUE(a.allocated(0));
  EXPECT_TRUE(a.allocated(63));
  EXPECT_FALSE(a.allocated(64));
}

TEST(GoldenTmemAlloc, FirstFitLowestColumn) {
  TmemAllocator a;
  EXPECT_EQ(a.alloc(32), std::optional<uint32_t>(0u));   // unit 0
  EXPECT_EQ(a.alloc(64), std::optional<uint32_t>(32u));  // units 1-2
  EXPECT_EQ(a.alloc(32), std::optional<uint32_t>(96u));  // unit 3
  EXPECT_EQ(a.unit_mask(), 0xFu);
  ASSERT_TRUE(a.dealloc(0, 32));                          // unit 0 free again
  EXPECT_EQ(a.alloc(64), std::optional<uint32_t>(128u));  // unit 0 alone is too small
  EXPECT_EQ(a.alloc(32), std::optional<uint32_t>(0u));    // the hole is reused
  EXPECT_EQ(a.unit_mask(), 0x3Fu);
}

TEST(GoldenTmemAlloc, Whole512Columns) {
  TmemAllocator a;
  EXPECT_EQ(a.alloc(512), std::optional<uint32_t>(0u));
  EXPECT_EQ(a.unit_mask(), 0xFFFFu);
  EXPECT_TRUE(a.allocated(511));
  EXPECT_FALSE(a.allocated(512));
}

TEST(GoldenTmemAlloc, Exhaustion) {
  TmemAllocator a;
  EXPECT_EQ(a.alloc(256), std::optional<uint32_t>(0u));
  EXPECT_EQ(a.alloc(256), std::optional<uint32_t>(256u));
  EXPECT_FALSE(a.alloc(32).has_value());
  EXPECT_EQ(a.unit_mask(), 0xFFFFu);
}

TEST(GoldenTmemAlloc, FragmentedSpaceCannotHoldLargerAllocation) {
  TmemAllocator a;
  for (int i = 0; i < 16; ++i) ASSERT_TRUE(a.alloc(32).has_value());
  for (uint32_t col = 0; col < 512; col += 64) ASSERT_TRUE(a.dealloc(col, 32));  // every other
  EXPECT_EQ(a.unit_mask(), 0xAAAAu);
  EXPECT_FALSE(a.alloc(64).has_value());  // 256 columns free, none 64 contiguous
  EXPECT_EQ(a.alloc(32), std::optional<uint32_t>(0u));
}

TEST(GoldenTmemAlloc, DeallocFreesExactlyThatAllocation) {
  TmemAllocator a;
  ASSERT_EQ(a.alloc(128), std::optional<uint32_t>(0u));
  ASSERT_EQ(a.alloc(64), std::optional<uint32_t>(128u));
  EXPECT_TRUE(a.dealloc(128, 64));
  EXPECT_EQ(a.unit_mask(), 0xFu);
  EXPECT_TRUE(a.dealloc(0, 128));
  EXPECT_EQ(a.unit_mask(), 0u);
}

TEST(GoldenTmemAlloc, DeallocWithWrongCountFails) {
  TmemAllocator a;
  ASSERT_EQ(a.alloc(128), std::optional<uint32_t>(0u));
  EXPECT_FALSE(a.dealloc(0, 64));
  EXPECT_FALSE(a.dealloc(0, 256));
  EXPECT_EQ(a.unit_mask(), 0xFu);
}

TEST(GoldenTmemAlloc, DeallocInsideAnAllocationFails) {
  TmemAllocator a;
  ASSERT_EQ(a.alloc(128), std::optional<uint32_t>(0u));
  EXPECT_FALSE(a.dealloc(32, 32));
  EXPECT_FALSE(a.dealloc(64, 64));
  EXPECT_EQ(a.unit_mask(), 0xFu);
}

TEST(GoldenTmemAlloc, DeallocOfFreeColumnsFails) {
  TmemAllocator a;
  EXPECT_FALSE(a.dealloc(0, 32));
  ASSERT_EQ(a.alloc(32), std::optional<uint32_t>(0u));
  ASSERT_TRUE(a.dealloc(0, 32));
  EXPECT_FALSE(a.dealloc(0, 32));  // double free
}

TEST(GoldenTmemAlloc, DeallocWithBadAddressFails) {
  TmemAllocator a;
  ASSERT_EQ(a.alloc(32), std::optional<uint32_t>(0u));
  EXPECT_FALSE(a.dealloc(0x0001'0000u, 32));  // lane 1
  EXPECT_FALSE(a.dealloc(16, 32));            // not a unit boundary
  EXPECT_FALSE(a.dealloc(512, 32));           // beyond the columns
  EXPECT_FALSE(a.dealloc(0, 48));             // invalid count
  EXPECT_EQ(a.unit_mask(), 0x1u);
}

TEST(GoldenTmemAlloc, AllocatedRejectsColumnsBeyond512) {
  TmemAllocator a;
  ASSERT_TRUE(a.alloc(512).has_value());
  EXPECT_FALSE(a.allocated(512));
  EXPECT_FALSE(a.allocated(0xFFFF));
}

}  // namespace
