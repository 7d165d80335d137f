// Coalescing of lane accesses into 128-byte line requests (access.h), with the expected line,
// sector and byte masks worked out by hand: a line is 128 bytes, four 32-byte sectors; byte
// i of a line is bit i of the mask (lo = bytes 0..63, hi = bytes 64..127).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>
#include <vector>

#include "stu/golden/access.h"

namespace {

using namespace stu::golden;

constexpr Dest kGlobal{MemSpace::Global, 0, 0};

// A lane access of `size` bytes at `offset`, data byte b = seed + b, every byte written.
LaneAccess access(unsigned lane, uint64_t offset, unsigned size, uint8_t seed = 0,
                  Dest d = kGlobal) {
  LaneAccess a;
  a.lane = uint8_t(lane);
  a.size = uint8_t(size);
  a.byte_mask = size >= 32 ? ~0u : ((1u << size) - 1);
  a.dest = d;
  a.offset = offset;
  a.data.fill(0);
  for (unsigned b = 0; b < size; ++b) a.data[b] = uint8_t(seed + b);
  return a;
}

// One lane at a time (the group of .mmio and st.async): the highest lane wins a shared byte.
const LaneGroup kSerial = LaneGroup::for_access(4, true);

std::vector<LineRequest> run(const std::vector<LaneAccess>& v, LaneGroup g = kSerial) {
  std::vector<LineRequest> out;
  coalesce(v.data(), v.size(), g, out);
  return out;
}

// --- LineByteMask ------------------------------------------------------------------------

TEST(GoldenCoalesce, ByteMaskEmpty) {
  const LineByteMask m;
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.count(), 0u);
  EXPECT_EQ(m.sectors(), 0u);
}

TEST(GoldenCoalesce, ByteMaskOneByteInEachSector) {
  // Byte 0 -> sector 0, byte 32 -> 1, byte 64 -> 2, byte 127 -> 3.
  const struct {
    unsigned byte;
    uint8_t sectors;
  } cases[] = {{0, 0x1},  {31, 0x1}, {32, 0x2}, {63, 0x2},
               {64, 0x4}, {95, 0x4}, {96, 0x8}, {127, 0x8}};
  for (const auto& c : cases) {
    LineByteMask m;
    m.set(c.byte);
    EXPECT_TRUE(m.test(c.byte));
    EXPECT_EQ(m.count(), 1u) << c.byte;
    EXPECT_EQ(m.sectors(), c.sectors) << c.byte;
  }
}

TEST(GoldenCoalesce, ByteMaskFullLine) {
  const LineByteMask m{~uint64_t(0), ~uint64_t(0)};
  EXPECT_EQ(m.count(), 128u);
  EXPECT_EQ(m.sectors(), 0xF);
}

TEST(GoldenCoalesce, ByteMaskSetUsesHighHalfFromByte64) {
  LineByteMask m;
  m.set(64);
  m.set(100);
  EXPECT_EQ(m.lo, 0u);
  EXPECT_EQ(m.hi, (uint64_t(1) << 0) | (uint64_t(1) << 36));
  EXPECT_FALSE(m.test(0));
  EXPECT_FALSE(m.test(36));
  EXPECT_EQ(m.count(), 2u);
  EXPECT_EQ(m.sectors(), 0x4 | 0x8);
}

TEST(GoldenCoalesce, ByteMaskSectorsOfStride8Pattern) {
  // Bytes 0-3 of every 8: touches every sector, 64 bytes.
  const LineByteMask m{0x0F0F0F0F0F0F0F0Full, 0x0F0F0F0F0F0F0F0Full};
  EXPECT_EQ(m.count(), 64u);
  EXPECT_EQ(m.sectors(), 0xF);
  const LineByteMask only1{0xFFFF'FFFF'0000'0000ull, 0};
  EXPECT_EQ(only1.sectors(), 0x2);
  EXPECT_EQ(only1.count(), 32u);
}

// --- the counts the issue asks for -------------------------------------------------------

TEST(GoldenCoalesce, FullyCoalescedU32WarpIsOneLineFourSectors) {
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < 32; ++l) v.push_back(access(l, 0x1000 + 4 * l, 4, uint8_t(4 * l)));
  const auto out = run(v);
  ASSERT_EQ(out.size(), 1u);
  const LineRequest& r = out[0];
  EXPECT_EQ(r.dest, kGlobal);
  EXPECT_EQ(r.line, 0x1000u);
  EXPECT_EQ(r.sector_mask, 0xF);
  EXPECT_EQ(r.bytes.lo, ~uint64_t(0));
  EXPECT_EQ(r.bytes.hi, ~uint64_t(0));
  EXPECT_EQ(r.lane_mask, 0xFFFFFFFFu);
  EXPECT_EQ(r.first_lane, 0);
  for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(r.data[i], uint8_t(i)) << i;
}

TEST(GoldenCoalesce, Stride8U32IsTwoLinesEightSectors) {
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < 32; ++l) v.push_back(access(l, 0x1000 + 8 * l, 4, uint8_t(l << 2)));
  const auto out = run(v);
  ASSERT_EQ(out.size(), 2u);
  unsigned sectors = 0;
  for (const LineRequest& r : out) sectors += unsigned(__builtin_popcount(r.sector_mask));
  EXPECT_EQ(sectors, 8u);
  EXPECT_EQ(out[0].line, 0x1000u);
  EXPECT_EQ(out[1].line, 0x1080u);
  for (const LineRequest& r : out) {
    EXPECT_EQ(r.sector_mask, 0xF);
    EXPECT_EQ(r.bytes.lo, 0x0F0F0F0F0F0F0F0Full);
    EXPECT_EQ(r.bytes.hi, 0x0F0F0F0F0F0F0F0Full);
  }
  EXPECT_EQ(out[0].lane_mask, 0x0000FFFFu);
  EXPECT_EQ(out[1].lane_mask, 0xFFFF0000u);
  EXPECT_EQ(out[0].first_lane, 0);
  EXPECT_EQ(out[1].first_lane, 16);
  // Lane 17 writes 0x1088..0x108B: bytes 8..11 of the second line, data 17*4 + 0..3.
  EXPECT_EQ(out[1].data[8], 68);
  EXPECT_EQ(out[1].data[11], 71);
  EXPECT_EQ(out[1].data[12], 0);  // not written: 0
}

TEST(GoldenCoalesce, V8B32WithSinkLeavesSinkBytesOut) {
  // .v8.b32 {a, _, c, d, e, f, g, h}: element 1 (bytes 4..7) is a sink.
  LaneAccess a = access(0, 0x2000, 32, 0x10);
  a.byte_mask = 0xFFFFFF0Fu;
  const auto out = run({a});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x2000u);
  EXPECT_EQ(out[0].bytes.lo, 0xFFFFFF0Full);
  EXPECT_EQ(out[0].bytes.hi, 0u);
  EXPECT_EQ(out[0].bytes.count(), 28u);
  EXPECT_EQ(out[0].sector_mask, 0x1);
  for (unsigned i = 4; i < 8; ++i) EXPECT_EQ(out[0].data[i], 0) << i;
  EXPECT_EQ(out[0].data[3], 0x13);
  EXPECT_EQ(out[0].data[8], 0x18);
}

TEST(GoldenCoalesce, V8B32WarpWithSinkIsEightLines) {
  // 32 lanes x 32 bytes contiguous = 1 KiB = 8 lines; each line holds 4 lanes and loses
  // their 4 sink bytes each: 128 - 16 = 112 bytes per line.
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < 32; ++l) {
    LaneAccess a = access(l, 0x4000 + 32 * l, 32);
    a.byte_mask = 0xFFFFFF0Fu;
    v.push_back(a);
  }
  const auto out = run(v);
  ASSERT_EQ(out.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i].line, 0x4000u + 128 * i);
    EXPECT_EQ(out[i].bytes.count(), 112u);
    EXPECT_EQ(out[i].bytes.lo, 0xFFFFFF0FFFFFFF0Full);
    EXPECT_EQ(out[i].sector_mask, 0xF);
    EXPECT_EQ(out[i].lane_mask, 0xFu << (4 * i));
  }
}

TEST(GoldenCoalesce, AllSinkAccessMakesNoLine) {
  LaneAccess a = access(3, 0x2000, 8);
  a.byte_mask = 0;
  EXPECT_TRUE(run({a}).empty());
}

TEST(GoldenCoalesce, OnlyUnsunkElementCountsInMask) {
  // .v8.b32 at 0x2060 (bytes 96..127 of line 0x2000) with elements 0..6 sinks: only element
  // 7, bytes 124..127 of the line, is written.
  LaneAccess a = access(0, 0x2060, 32);
  a.byte_mask = 0xF0000000u;
  const auto out = run({a});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x2000u);
  EXPECT_EQ(out[0].bytes.lo, 0u);
  EXPECT_EQ(out[0].bytes.hi, 0xFull << 60);
  EXPECT_EQ(out[0].bytes.count(), 4u);
  EXPECT_EQ(out[0].sector_mask, 0x8);
  EXPECT_EQ(out[0].data[124], 28);  // data byte 28 of the access
  EXPECT_EQ(out[0].data[96], 0);
}

// --- ordering ----------------------------------------------------------------------------

TEST(GoldenCoalesce, LinesAscendIndependentOfLaneOrder) {
  // Lane l writes line (31 - l): lanes in ascending order give lines in descending order.
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < 32; ++l) v.push_back(access(l, 0x10000 + 128 * (31 - l), 4));
  const auto out = run(v);
  ASSERT_EQ(out.size(), 32u);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(out[i].line, 0x10000u + 128 * i);
    EXPECT_EQ(out[i].lane_mask, 1u << (31 - i));
    EXPECT_EQ(out[i].first_lane, 31 - i);
  }
}

TEST(GoldenCoalesce, DestinationsOrderBeforeLines) {
  const Dest shared1{MemSpace::Shared, 1, 0}, shared0{MemSpace::Shared, 0, 0};
  const Dest local5{MemSpace::Local, 0, 5}, local2{MemSpace::Local, 0, 2};
  std::vector<LaneAccess> v = {
      access(0, 0x80, 4, 0, local5),    access(1, 0x0, 4, 0, shared1),
      access(2, 0x9000, 4, 0, kGlobal), access(3, 0x100, 4, 0, shared0),
      access(4, 0x0, 4, 0, shared0),    access(5, 0x1000, 4, 0, kGlobal),
      access(6, 0x0, 4, 0, local2),
  };
  const auto out = run(v);
  ASSERT_EQ(out.size(), 7u);
  // Global < Shared < Local; then CTA, thread; then line.
  const struct {
    Dest d;
    uint64_t line;
  } want[] = {{kGlobal, 0x1000}, {kGlobal, 0x9000}, {shared0, 0x0}, {shared0, 0x100},
              {shared1, 0x0},    {local2, 0x0},     {local5, 0x80}};
  for (unsigned i = 0; i < 7; ++i) {
    EXPECT_EQ(out[i].dest, want[i].d) << i;
    EXPECT_EQ(out[i].line, want[i].line) << i;
  }
}

TEST(GoldenCoalesce, SameOffsetInDifferentDestinationsAreDifferentLines) {
  const auto out = run({access(0, 0x40, 4, 0, Dest{MemSpace::Local, 0, 0}),
                        access(1, 0x40, 4, 0, Dest{MemSpace::Local, 0, 1})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].dest.thread, 0u);
  EXPECT_EQ(out[1].dest.thread, 1u);
}

TEST(GoldenCoalesce, ResultIsIndependentOfAccessOrder) {
  const unsigned seed = 20260401u;
  std::cout << "GoldenCoalesce.ResultIsIndependentOfAccessOrder seed " << seed << "\n";
  std::mt19937 rng(seed);
  // Non-overlapping accesses scattered over 4 lines of global and 2 CTAs' shared memory.
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < 32; ++l) {
    const Dest d = l % 3 == 0 ? Dest{MemSpace::Shared, uint16_t(l % 2), 0} : kGlobal;
    v.push_back(access(l, 0x3000 + 16 * l, 8, uint8_t(l * 8), d));
  }
  const auto want = run(v);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(v.begin(), v.end(), rng);
    const auto got = run(v);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(same_line(got[i], want[i])) << "seed " << seed << " round " << round;
  }
}

// A byte-at-a-time reference of coalesce's contract (access.h): lanes move in groups of
// `group_lanes`, groups in ascending order, inside a group from the highest lane down (stable),
// every written byte goes to its (destination, line) and the later write wins a byte (so the
// lowest lane of the last group that writes it); lines ascend by destination, then address.
std::vector<LineRequest> reference_coalesce(std::vector<LaneAccess> v, unsigned group_lanes) {
  std::stable_sort(v.begin(), v.end(), [&](const LaneAccess& x, const LaneAccess& y) {
    const unsigned gx = x.lane / group_lanes, gy = y.lane / group_lanes;
    return gx != gy ? gx < gy : x.lane % group_lanes > y.lane % group_lanes;
  });
  std::vector<LineRequest> out;
  for (const LaneAccess& a : v) {
    for (unsigned b = 0; b < a.size; ++b) {
      if (!((a.byte_mask >> b) & 1)) continue;
      const uint64_t at = a.offset + b, line = at / kLineBytes * kLineBytes;
      auto it = std::find_if(out.begin(), out.end(), [&](const LineRequest& r) {
        return r.dest == a.dest && r.line == line;
      });
      if (it == out.end()) {
        out.emplace_back();
        out.back().dest = a.dest;
        out.back().line = line;
        out.back().first_lane = a.lane;
        it = out.end() - 1;
      }
      it->bytes.set(unsigned(at - line));
      it->data[at - line] = a.data[b];
      it->lane_mask |= uint32_t(1) << a.lane;
      it->first_lane = std::min(it->first_lane, a.lane);
    }
  }
  for (LineRequest& r : out) r.sector_mask = r.bytes.sectors();
  std::sort(out.begin(), out.end(), [](const LineRequest& x, const LineRequest& y) {
    return x.dest != y.dest ? x.dest < y.dest : x.line < y.line;
  });
  return out;
}

// Random warps of every shape coalesce takes: ordered and contiguous (the one-pass case),
// strided, shuffled, overlapping, crossing lines, with sinks, over several destinations, and
// wrapping around the top of the address space.
// Every field and all 128 data bytes must equal the byte-at-a-time reference.
TEST(GoldenCoalesce, MatchesAByteAtATimeReferenceOnRandomWarps) {
  const unsigned seed = 20261124u;
  std::cout << "GoldenCoalesce.MatchesAByteAtATimeReferenceOnRandomWarps seed " << seed << "\n";
  std::mt19937 rng(seed);
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  constexpr unsigned kSizes[] = {1, 2, 4, 8, 16, 32};
  for (int round = 0; round < 3000; ++round) {
    const unsigned shape = pick(7);
    const unsigned size = kSizes[pick(6)];
    const uint64_t stride = shape == 1 ? size * (1 + pick(40)) : size;
    // Shape 6: the top of the address space, lanes 16.. wrapping around to 0.
    const uint64_t base =
        shape == 6 ? 0 - uint64_t(16) * size : 0x10000 + uint64_t(pick(64)) * size;
    const bool all_active = pick(2) == 0;  // then shape 0 is one contiguous run
    std::vector<LaneAccess> v;
    for (unsigned l = 0; l < 32; ++l) {
      if (!all_active && pick(8) == 0) continue;  // inactive lane
      uint64_t off = base + l * stride;
      if (shape == 2) off = 0x10000 + uint64_t(pick(16)) * size;  // overlaps
      if (shape == 3) off = 0x10000 + pick(512);                  // unaligned: crosses
      Dest d = kGlobal;
      if (shape == 4) d = Dest{MemSpace::Shared, uint16_t(pick(2)), 0};  // two CTAs
      LaneAccess a = access(l, off, size, uint8_t(rng()), d);
      if (shape == 5 && size > 1) a.byte_mask &= uint32_t(rng());  // sinks
      v.push_back(a);
    }
    if (pick(3) == 0) std::shuffle(v.begin(), v.end(), rng);
    const LaneGroup group = LaneGroup::for_access(kSizes[pick(6)], pick(4) == 0);
    const auto want = reference_coalesce(v, group.lanes());
    const auto got = run(v, group);
    ASSERT_EQ(got.size(), want.size()) << "seed " << seed << " round " << round;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(same_line(got[i], want[i])) << "seed " << seed << " round " << round << " line "
                                              << i << ": " << compare(want[i], got[i]);
      EXPECT_EQ(got[i].data, want[i].data) << "seed " << seed << " round " << round;
    }
  }
}

TEST(GoldenCoalesce, AppendsAfterExistingRequests) {
  std::vector<LineRequest> out(1);
  out[0].line = 0xDEAD00;
  const std::vector<LaneAccess> v = {access(1, 0x200, 4), access(0, 0x100, 4)};
  coalesce(v.data(), v.size(), kSerial, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].line, 0xDEAD00u);  // untouched
  EXPECT_EQ(out[1].line, 0x100u);
  EXPECT_EQ(out[2].line, 0x200u);
}

// --- overlaps and line crossings ---------------------------------------------------------

// The same-location rule (access.h, LaneGroup; silicon-checked on an H200): lanes move in
// groups of 128 bytes of data, groups in order, the lowest lane first inside a group.
TEST(GoldenCoalesce, LaneGroupSizesFollowTheAccessSize) {
  EXPECT_EQ(LaneGroup::for_access(1, false).lanes(), 32u);  // 32 bytes: one group
  EXPECT_EQ(LaneGroup::for_access(4, false).lanes(), 32u);  // 128 bytes
  EXPECT_EQ(LaneGroup::for_access(8, false).lanes(), 16u);  // 256 bytes: 2 groups
  EXPECT_EQ(LaneGroup::for_access(16, false).lanes(), 8u);
  EXPECT_EQ(LaneGroup::for_access(32, false).lanes(), 4u);
  EXPECT_EQ(LaneGroup::for_access(16, true).lanes(), 1u);  // .mmio / st.async
}

TEST(GoldenCoalesce, SameByteInOneGroupLowestLaneWins) {
  LaneAccess lo = access(3, 0x500, 4);
  lo.data[0] = 0xAA;
  LaneAccess hi = access(7, 0x500, 4);
  hi.data[0] = 0xBB;
  const auto out = run({lo, hi}, LaneGroup::for_access(4, false));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data[0], 0xAA);
  EXPECT_EQ(out[0].first_lane, 3);
}

TEST(GoldenCoalesce, SameByteInTwoGroupsTheLaterGroupWins) {
  // 16-byte accesses: groups of 8 lanes. Lanes 1 and 6 share group 0, lanes 9 and 12 group 1:
  // group 1 lands last, and inside it lane 9 lands last.
  std::vector<LaneAccess> v;
  for (unsigned l : {1u, 6u, 9u, 12u}) v.push_back(access(l, 0x800, 16, uint8_t(l * 16)));
  const auto out = run(v, LaneGroup::for_access(16, false));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data[0], 9 * 16);
  EXPECT_EQ(out[0].data[15], 9 * 16 + 15);
  EXPECT_EQ(out[0].lane_mask, (1u << 1) | (1u << 6) | (1u << 9) | (1u << 12));
  EXPECT_EQ(out[0].first_lane, 1);
  // Shuffled input, same answer.
  const auto again = run({v[3], v[0], v[2], v[1]}, LaneGroup::for_access(16, false));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].data[0], 9 * 16);
}

TEST(GoldenCoalesce, SameByteFromTwoLanesHigherLaneWinsOneLaneAtATime) {
  LaneAccess lo = access(3, 0x500, 1);
  lo.data[0] = 0xAA;
  LaneAccess hi = access(7, 0x500, 1);
  hi.data[0] = 0xBB;
  const auto out = run({lo, hi});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data[0], 0xBB);
  EXPECT_EQ(out[0].bytes.count(), 1u);
  EXPECT_EQ(out[0].lane_mask, (1u << 3) | (1u << 7));
  EXPECT_EQ(out[0].first_lane, 3);
}

TEST(GoldenCoalesce, SameByteFromTwoLanesHigherLaneWinsInAnyOrder) {
  // The accesses come in descending lane order: the higher lane must still win.
  LaneAccess hi = access(7, 0x500, 4);
  hi.data = {0xB0, 0xB1, 0xB2, 0xB3};
  LaneAccess lo = access(3, 0x502, 2);
  lo.data = {0xA2, 0xA3};
  const auto out = run({hi, lo});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data[0], 0xB0);
  EXPECT_EQ(out[0].data[1], 0xB1);
  EXPECT_EQ(out[0].data[2], 0xB2);
  EXPECT_EQ(out[0].data[3], 0xB3);
  EXPECT_EQ(out[0].first_lane, 3);
}

TEST(GoldenCoalesce, PartialOverlapKeepsLowerLaneBytesOutsideTheOverlap) {
  LaneAccess lo = access(0, 0x600, 8);
  lo.data = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7};
  LaneAccess hi = access(1, 0x604, 4);
  hi.data = {0xB4, 0xB5, 0xB6, 0xB7};
  const auto out = run({hi, lo});
  ASSERT_EQ(out.size(), 1u);
  const uint8_t want[8] = {0xA0, 0xA1, 0xA2, 0xA3, 0xB4, 0xB5, 0xB6, 0xB7};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(out[0].data[i], want[i]) << i;
  EXPECT_EQ(out[0].bytes.lo, 0xFFull);
}

TEST(GoldenCoalesce, AccessCrossingALineSplitsIntoTwoRequests) {
  // 8 bytes at 0x77C: bytes 124..127 of line 0x700 and 0..3 of line 0x780.
  const auto out = run({access(2, 0x77C, 8, 0x20)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].line, 0x700u);
  EXPECT_EQ(out[0].bytes.hi, 0xFull << 60);
  EXPECT_EQ(out[0].sector_mask, 0x8);
  EXPECT_EQ(out[0].data[124], 0x20);
  EXPECT_EQ(out[1].line, 0x780u);
  EXPECT_EQ(out[1].bytes.lo, 0xFull);
  EXPECT_EQ(out[1].sector_mask, 0x1);
  EXPECT_EQ(out[1].data[0], 0x24);
  EXPECT_EQ(out[0].lane_mask, 1u << 2);
  EXPECT_EQ(out[1].lane_mask, 1u << 2);
}

TEST(GoldenCoalesce, FirstLaneIsLowestContributorNotFirstSeen) {
  const auto out = run({access(9, 0x800, 4), access(4, 0x804, 4), access(6, 0x808, 4)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].first_lane, 4);
  EXPECT_EQ(out[0].lane_mask, (1u << 9) | (1u << 4) | (1u << 6));
}

}  // namespace

namespace {

stu::golden::LineRequest line_at(uint64_t line, unsigned first_byte, unsigned n, uint8_t value) {
  stu::golden::LineRequest r;
  r.line = line;
  for (unsigned i = first_byte; i < first_byte + n; ++i) {
    r.bytes.set(i);
    r.data[i] = value;
  }
  r.sector_mask = r.bytes.sectors();
  r.lane_mask = 1;
  return r;
}

TEST(GoldenLineRequest, ToStringNamesSpaceLineSectorsBytesLanes) {
  stu::golden::LineRequest r = line_at(0x10080, 32, 8, 0xAA);  // sector 1 only
  EXPECT_EQ(stu::golden::to_string(r), "global 0x10080 sectors 0x2 bytes 8 lanes 0x1");
  r.dest = stu::golden::Dest{stu::golden::MemSpace::Local, 1, 37};
  EXPECT_EQ(stu::golden::to_string(r),
            "local cta 1 thread 37 0x10080 sectors 0x2 bytes 8 lanes 0x1");
}

TEST(GoldenLineRequest, CompareIsEmptyForEqualRequests) {
  EXPECT_EQ(stu::golden::compare(line_at(0x100, 0, 4, 7), line_at(0x100, 0, 4, 7)), "");
}

TEST(GoldenLineRequest, CompareNamesEveryDifferingField) {
  const auto want = line_at(0x100, 0, 4, 7);
  auto got = line_at(0x180, 0, 4, 7);
  got.lane_mask = 3;
  EXPECT_EQ(stu::golden::compare(want, got),
            "addr: expected 0x100, actual 0x180; lanes: expected 0x1, actual 0x3");
}

TEST(GoldenLineRequest, CompareReportsFirstDifferingDataByteAndMask) {
  const auto want = line_at(0x100, 0, 4, 7);
  auto got = line_at(0x100, 0, 4, 7);
  got.data[2] = 9;
  EXPECT_EQ(stu::golden::compare(want, got), "data[2]: expected 0x7, actual 0x9");
  const auto wider = line_at(0x100, 0, 5, 7);  // one more byte (bit 4) in the mask
  EXPECT_EQ(stu::golden::compare(want, wider), "bytemask_lo: expected 0xf, actual 0x1f");
}

TEST(GoldenLineRequest, FirstLaneIsAFieldLikeTheOthers) {
  const auto want = line_at(0x100, 0, 4, 7);
  auto got = want;
  got.first_lane = 5;
  EXPECT_FALSE(stu::golden::same_line(want, got));
  EXPECT_EQ(stu::golden::compare(want, got), "first_lane: expected 0, actual 5");
}

TEST(GoldenLineRequest, OneFieldListNamesTheSameKeysAsStsExpectations) {
  std::string names;
  for (const auto& f : stu::golden::line_fields()) names += std::string(f.name) + " ";
  EXPECT_EQ(names,
            "space cta thread addr sectors lanes first_lane bytemask_lo bytemask_hi nbytes ");
  EXPECT_EQ(stu::golden::find_line_field("nbytes")->get(line_at(0x100, 3, 9, 1)), 9u);
  EXPECT_EQ(stu::golden::find_line_field("colour"), nullptr);
}

}  // namespace
