// Address resolution of the golden model (address.h, config.h), with expectations computed by
// hand from the default AddressMap documented in docs/golden.md:
//   shared 0x7F00_0000_0000 + 16 x 16 MiB (rank r at + r * 16 MiB)
//   local  0x7E00_0000_0000 + 16 MiB
//   param  0x7D00_0000_0000 + 64 KiB
//   const  0x7C00_0000_0000 + 1 MiB
// and global everywhere else, 64 bits wide.
#include <gtest/gtest.h>

#include <string>

#include "stu/golden/address.h"
#include "stu/golden/config.h"

namespace {

using namespace stu;
using namespace stu::golden;

constexpr uint64_t kShared = 0x7F00'0000'0000ull;
constexpr uint64_t kStride = 0x100'0000ull;  // 16 MiB
constexpr uint64_t kLocal = 0x7E00'0000'0000ull;
constexpr uint64_t kParam = 0x7D00'0000'0000ull;
constexpr uint64_t kConst = 0x7C00'0000'0000ull;

ModelConfig cluster_of(uint32_t ctas) {
  ModelConfig c;
  c.cluster_ctas = ctas;
  return c;
}

void expect_at(const Resolved& r, MemSpace s, uint16_t cta, uint32_t thread, uint64_t off) {
  EXPECT_EQ(r.fault.kind, FaultKind::None);
  EXPECT_EQ(r.dest.space, s) << to_string(r.dest.space);
  EXPECT_EQ(r.dest.cta, cta);
  EXPECT_EQ(r.dest.thread, thread);
  EXPECT_EQ(r.offset, off);
}

// --- defaults ----------------------------------------------------------------------------

TEST(GoldenAddress, DefaultMapMatchesDocumentedWindows) {
  const AddressMap m;
  EXPECT_EQ(m.shared.base, kShared);
  EXPECT_EQ(m.shared.size, 16 * kStride);
  EXPECT_EQ(m.shared_cta_stride, kStride);
  EXPECT_EQ(m.local.base, kLocal);
  EXPECT_EQ(m.local.size, 0x100'0000ull);
  EXPECT_EQ(m.param.base, kParam);
  EXPECT_EQ(m.param.size, 0x1'0000ull);
  EXPECT_EQ(m.konst.base, kConst);
  EXPECT_EQ(m.konst.size, 0x10'0000ull);
}

TEST(GoldenAddress, WindowContainsIsHalfOpen) {
  const Window w{0x1000, 0x100};
  EXPECT_FALSE(w.contains(0xFFF));
  EXPECT_TRUE(w.contains(0x1000));
  EXPECT_TRUE(w.contains(0x10FF));
  EXPECT_FALSE(w.contains(0x1100));
  const Window top{0xFFFF'FFFF'FFFF'F000ull, 0x1000};
  EXPECT_TRUE(top.contains(~uint64_t(0)));
  EXPECT_FALSE(top.contains(0));
}

// --- resolve_generic: shared -------------------------------------------------------------

TEST(GoldenAddress, GenericSharedRankZero) {
  const ModelConfig c = cluster_of(4);
  expect_at(resolve_generic(c, kShared + 0x40, ThreadId{2, 1, 3}), MemSpace::Shared, 0, 0, 0x40);
}

TEST(GoldenAddress, GenericSharedDecodesCtaRank) {
  const ModelConfig c = cluster_of(4);
  // 0x7F00_0212_3456 = base + 2 * 16 MiB + 0x12_3456.
  expect_at(resolve_generic(c, 0x7F00'0212'3456ull, ThreadId{}), MemSpace::Shared, 2, 0, 0x12'3456);
  // Last byte of rank 3's slice.
  expect_at(resolve_generic(c, kShared + 4 * kStride - 1, ThreadId{}), MemSpace::Shared, 3, 0,
            0xFF'FFFF);
}

TEST(GoldenAddress, GenericSharedRankIsIndependentOfExecutingCta) {
  const ModelConfig c = cluster_of(2);
  expect_at(resolve_generic(c, kShared + kStride + 8, ThreadId{0, 0, 0}), MemSpace::Shared, 1, 0,
            8);
  expect_at(resolve_generic(c, kShared + 8, ThreadId{1, 0, 0}), MemSpace::Shared, 0, 0, 8);
}

TEST(GoldenAddress, GenericSharedRankAtClusterSizeIsOutOfWindow) {
  const ModelConfig c = cluster_of(4);
  const uint64_t a = kShared + 4 * kStride;  // rank 4 of a 4-CTA cluster
  const Resolved r = resolve_generic(c, a, ThreadId{});
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfWindow);
  EXPECT_EQ(r.fault.addr, a);
}

TEST(GoldenAddress, GenericSharedRankFifteenWithClusterOfOneIsOutOfWindow) {
  const ModelConfig c = cluster_of(1);
  const uint64_t a = kShared + 15 * kStride + 0x10;  // still inside the 256 MiB window
  EXPECT_EQ(resolve_generic(c, a, ThreadId{}).fault.kind, FaultKind::OutOfWindow);
}

TEST(GoldenAddress, GenericSharedRankFifteenWithFullCluster) {
  const ModelConfig c = cluster_of(16);
  expect_at(resolve_generic(c, kShared + 16 * kStride - 1, ThreadId{}), MemSpace::Shared, 15, 0,
            kStride - 1);
}

TEST(GoldenAddress, GenericJustPastSharedWindowIsGlobal) {
  const ModelConfig c = cluster_of(16);
  const uint64_t a = kShared + 16 * kStride;  // 0x7F00_1000_0000
  expect_at(resolve_generic(c, a, ThreadId{}), MemSpace::Global, 0, 0, 0x7F00'1000'0000ull);
  expect_at(resolve_generic(c, kShared - 1, ThreadId{}), MemSpace::Global, 0, 0,
            0x7EFF'FFFF'FFFFull);
}

// --- resolve_generic: local, param, const -----------------------------------------------

TEST(GoldenAddress, GenericLocalIsPerThread) {
  const ModelConfig c = cluster_of(2);
  // CTA 1, warp 2, lane 5: thread 2 * 32 + 5 = 69.
  expect_at(resolve_generic(c, kLocal + 0x10, ThreadId{1, 2, 5}), MemSpace::Local, 1, 69, 0x10);
  // The same address for another thread is another location.
  const Resolved other = resolve_generic(c, kLocal + 0x10, ThreadId{1, 2, 6});
  EXPECT_EQ(other.dest.thread, 70u);
  EXPECT_NE(other.dest, resolve_generic(c, kLocal + 0x10, ThreadId{1, 2, 5}).dest);
}

TEST(GoldenAddress, GenericLocalWindowEdges) {
  const ModelConfig c;
  expect_at(resolve_generic(c, kLocal + 0xFF'FFFF, ThreadId{0, 0, 1}), MemSpace::Local, 0, 1,
            0xFF'FFFF);
  expect_at(resolve_generic(c, kLocal + 0x100'0000, ThreadId{0, 0, 1}), MemSpace::Global, 0, 0,
            0x7E00'0100'0000ull);
}

TEST(GoldenAddress, GenericKernelParam) {
  const ModelConfig c;
  expect_at(resolve_generic(c, kParam + 0x20, ThreadId{0, 3, 7}), MemSpace::KernelParam, 0, 0,
            0x20);
  expect_at(resolve_generic(c, kParam + 0xFFFF, ThreadId{}), MemSpace::KernelParam, 0, 0, 0xFFFF);
  expect_at(resolve_generic(c, kParam + 0x1'0000, ThreadId{}), MemSpace::Global, 0, 0,
            0x7D00'0001'0000ull);
}

TEST(GoldenAddress, GenericConst) {
  const ModelConfig c;
  expect_at(resolve_generic(c, kConst + 0x100, ThreadId{}), MemSpace::Const, 0, 0, 0x100);
  expect_at(resolve_generic(c, kConst + 0xF'FFFF, ThreadId{}), MemSpace::Const, 0, 0, 0xF'FFFF);
  expect_at(resolve_generic(c, kConst + 0x10'0000, ThreadId{}), MemSpace::Global, 0, 0,
            0x7C00'0010'0000ull);
}

// --- resolve_generic: global -------------------------------------------------------------

TEST(GoldenAddress, GenericGlobalZero) {
  expect_at(resolve_generic(ModelConfig{}, 0, ThreadId{}), MemSpace::Global, 0, 0, 0);
}

TEST(GoldenAddress, GenericGlobalKeepsAll64Bits) {
  const ModelConfig c;
  // A 32-bit truncation would give 4.
  expect_at(resolve_generic(c, 0x1'0000'0004ull, ThreadId{}), MemSpace::Global, 0, 0,
            0x1'0000'0004ull);
  expect_at(resolve_generic(c, ~uint64_t(0), ThreadId{}), MemSpace::Global, 0, 0, ~uint64_t(0));
  // Only the full 64-bit address selects a window: 0x1_7F00_0000_0040 is not in the shared
  // window although its low 48 bits are.
  expect_at(resolve_generic(c, 0x1'7F00'0000'0040ull, ThreadId{}), MemSpace::Global, 0, 0,
            0x1'7F00'0000'0040ull);
}

TEST(GoldenAddress, GenericWindowsFollowConfiguredBases) {
  ModelConfig c;
  c.map.local.base = 0x5000'0000'0000ull;
  expect_at(resolve_generic(c, 0x5000'0000'0040ull, ThreadId{0, 0, 2}), MemSpace::Local, 0, 2,
            0x40);
  expect_at(resolve_generic(c, kLocal + 0x40, ThreadId{0, 0, 2}), MemSpace::Global, 0, 0,
            kLocal + 0x40);
}

// --- resolve_space -----------------------------------------------------------------------

TEST(GoldenAddress, SpaceGlobalIsIdentityWithoutWindowDetection) {
  const ModelConfig c;
  expect_at(resolve_space(c, isa::Space::Global, 0x1'0000'0004ull, ThreadId{}), MemSpace::Global, 0,
            0, 0x1'0000'0004ull);
  // An explicit .global address that happens to lie in the shared window stays global.
  expect_at(resolve_space(c, isa::Space::Global, kShared + 8, ThreadId{}), MemSpace::Global, 0, 0,
            kShared + 8);
}

TEST(GoldenAddress, SpaceLocalIsPerThread) {
  const ModelConfig c = cluster_of(2);
  expect_at(resolve_space(c, isa::Space::Local, 0x40, ThreadId{1, 3, 31}), MemSpace::Local, 1, 127,
            0x40);
}

TEST(GoldenAddress, SpaceLocalBeyondWindowIsOutOfWindow) {
  const ModelConfig c;
  const Resolved r = resolve_space(c, isa::Space::Local, 0x100'0000, ThreadId{});
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfWindow);
  EXPECT_EQ(r.fault.addr, 0x100'0000u);
  expect_at(resolve_space(c, isa::Space::Local, 0xFF'FFFF, ThreadId{}), MemSpace::Local, 0, 0,
            0xFF'FFFF);
}

TEST(GoldenAddress, SpaceSharedCtaIsOwnCta) {
  const ModelConfig c = cluster_of(4);
  expect_at(resolve_space(c, isa::Space::SharedCta, 0x80, ThreadId{3, 0, 0}), MemSpace::Shared, 3,
            0, 0x80);
  // `.shared` is the same space as `.shared::cta`.
  expect_at(resolve_space(c, isa::Space::Shared, 0x80, ThreadId{2, 1, 9}), MemSpace::Shared, 2, 0,
            0x80);
}

TEST(GoldenAddress, SpaceSharedCtaBeyondStrideIsOutOfWindow) {
  const ModelConfig c = cluster_of(4);
  EXPECT_EQ(resolve_space(c, isa::Space::SharedCta, kStride, ThreadId{}).fault.kind,
            FaultKind::OutOfWindow);
  EXPECT_EQ(resolve_space(c, isa::Space::Shared, 0x1'0000'0000ull, ThreadId{}).fault.kind,
            FaultKind::OutOfWindow);
}

TEST(GoldenAddress, SpaceSharedClusterDecodesRank) {
  const ModelConfig c = cluster_of(4);
  // rank 3 * 16 MiB + 0x10 = 0x300_0010, from CTA 0.
  expect_at(resolve_space(c, isa::Space::SharedCluster, 0x300'0010, ThreadId{0, 0, 0}),
            MemSpace::Shared, 3, 0, 0x10);
  EXPECT_EQ(shared_cluster_addr(c, 3, 0x10), 0x300'0010u);
}

TEST(GoldenAddress, SpaceSharedClusterRankAtClusterSizeIsOutOfWindow) {
  const ModelConfig c = cluster_of(4);
  const Resolved r = resolve_space(c, isa::Space::SharedCluster, 0x400'0000, ThreadId{});
  EXPECT_EQ(r.fault.kind, FaultKind::OutOfWindow);
  EXPECT_EQ(r.fault.addr, 0x400'0000u);
}

TEST(GoldenAddress, SpaceParamFuncIsPerThread) {
  const ModelConfig c = cluster_of(2);
  expect_at(resolve_space(c, isa::Space::ParamFunc, 0x8, ThreadId{1, 0, 4}), MemSpace::ParamFunc, 1,
            4, 0x8);
  // `.param` in a store means `.param::func`.
  expect_at(resolve_space(c, isa::Space::Param, 0x8, ThreadId{1, 0, 4}), MemSpace::ParamFunc, 1, 4,
            0x8);
}

TEST(GoldenAddress, SpaceParamEntryAndConst) {
  const ModelConfig c;
  expect_at(resolve_space(c, isa::Space::ParamEntry, 0x18, ThreadId{0, 1, 1}),
            MemSpace::KernelParam, 0, 0, 0x18);
  expect_at(resolve_space(c, isa::Space::Const, 0x400, ThreadId{0, 1, 1}), MemSpace::Const, 0, 0,
            0x400);
}

// --- to_generic --------------------------------------------------------------------------

TEST(GoldenAddress, ToGenericShared) {
  const ModelConfig c = cluster_of(4);
  uint64_t g = 0;
  ASSERT_TRUE(to_generic(c, Dest{MemSpace::Shared, 3, 0}, 0x10, g));
  EXPECT_EQ(g, 0x7F00'0300'0010ull);
  EXPECT_FALSE(to_generic(c, Dest{MemSpace::Shared, 4, 0}, 0x10, g));     // rank >= cluster
  EXPECT_FALSE(to_generic(c, Dest{MemSpace::Shared, 0, 0}, kStride, g));  // beyond the slice
}

TEST(GoldenAddress, ToGenericLocalParamConst) {
  const ModelConfig c;
  uint64_t g = 0;
  ASSERT_TRUE(to_generic(c, Dest{MemSpace::Local, 0, 5}, 0x20, g));
  EXPECT_EQ(g, 0x7E00'0000'0020ull);
  EXPECT_FALSE(to_generic(c, Dest{MemSpace::Local, 0, 5}, 0x100'0000, g));
  ASSERT_TRUE(to_generic(c, Dest{MemSpace::KernelParam, 0, 0}, 0x30, g));
  EXPECT_EQ(g, 0x7D00'0000'0030ull);
  EXPECT_FALSE(to_generic(c, Dest{MemSpace::KernelParam, 0, 0}, 0x1'0000, g));
  ASSERT_TRUE(to_generic(c, Dest{MemSpace::Const, 0, 0}, 0x40, g));
  EXPECT_EQ(g, 0x7C00'0000'0040ull);
  EXPECT_FALSE(to_generic(c, Dest{MemSpace::Const, 0, 0}, 0x10'0000, g));
}

TEST(GoldenAddress, ToGenericGlobalIsIdentity) {
  uint64_t g = 0;
  ASSERT_TRUE(to_generic(ModelConfig{}, Dest{MemSpace::Global, 0, 0}, 0x1'0000'0004ull, g));
  EXPECT_EQ(g, 0x1'0000'0004ull);
}

TEST(GoldenAddress, ToGenericHasNoWindowForParamFuncAndTmem) {
  uint64_t g = 0;
  EXPECT_FALSE(to_generic(ModelConfig{}, Dest{MemSpace::ParamFunc, 0, 0}, 0, g));
  EXPECT_FALSE(to_generic(ModelConfig{}, Dest{MemSpace::Tmem, 0, 0}, 0, g));
}

TEST(GoldenAddress, ToGenericThenResolveGenericRoundTrips) {
  const ModelConfig c = cluster_of(8);
  const ThreadId who{5, 3, 17};
  const struct {
    Dest d;
    uint64_t off;
  } cases[] = {
      {Dest{MemSpace::Shared, 7, 0}, 0xBEEF},
      {Dest{MemSpace::Local, 5, who.thread()}, 0x123},
      {Dest{MemSpace::KernelParam, 0, 0}, 0x44},
      {Dest{MemSpace::Const, 0, 0}, 0xF'FFF0},
      {Dest{MemSpace::Global, 0, 0}, 0x2'0000'1000ull},
  };
  for (const auto& k : cases) {
    uint64_t g = 0;
    ASSERT_TRUE(to_generic(c, k.d, k.off, g)) << to_string(k.d.space);
    expect_at(resolve_generic(c, g, who), k.d.space, k.d.cta, k.d.thread, k.off);
  }
}

// --- helpers -----------------------------------------------------------------------------

TEST(GoldenAddress, IsAlignedNaturalSizes) {
  EXPECT_TRUE(is_aligned(0x1000, 32));
  EXPECT_FALSE(is_aligned(0x1010, 32));
  EXPECT_TRUE(is_aligned(0x1010, 16));
  EXPECT_FALSE(is_aligned(0x1'0000'0002ull, 4));
  EXPECT_TRUE(is_aligned(0x1'0000'0003ull, 1));
}

TEST(GoldenAddress, ThreadIndexInCta) {
  EXPECT_EQ((ThreadId{0, 0, 0}).thread(), 0u);
  EXPECT_EQ((ThreadId{0, 3, 31}).thread(), 127u);
  EXPECT_EQ((ThreadId{9, 31, 31}).thread(), 1023u);
}

TEST(GoldenAddress, DestOrderIsSpaceThenCtaThenThread) {
  EXPECT_TRUE((Dest{MemSpace::Global, 5, 5}) < (Dest{MemSpace::Shared, 0, 0}));
  EXPECT_TRUE((Dest{MemSpace::Shared, 0, 9}) < (Dest{MemSpace::Shared, 1, 0}));
  EXPECT_TRUE((Dest{MemSpace::Local, 1, 2}) < (Dest{MemSpace::Local, 1, 3}));
  EXPECT_FALSE((Dest{MemSpace::Local, 1, 3}) < (Dest{MemSpace::Local, 1, 3}));
}

// --- ModelConfig::check ------------------------------------------------------------------

bool mentions(const std::string& msg, const char* what) {
  return msg.find(what) != std::string::npos;
}

TEST(GoldenConfig, DefaultIsConsistent) { EXPECT_EQ(ModelConfig{}.check(), ""); }

TEST(GoldenConfig, FullClusterWithMaxSharedIsConsistent) {
  ModelConfig c;
  c.cluster_ctas = 16;
  c.warps_per_cta = 32;
  c.shared_bytes = 228 << 10;
  EXPECT_EQ(c.check(), "");
}

TEST(GoldenConfig, OverlappingSharedAndLocal) {
  ModelConfig c;
  c.map.local.base = kShared + 0x1000;
  EXPECT_TRUE(mentions(c.check(), "overlap")) << c.check();
}

TEST(GoldenConfig, OverlappingParamAndConst) {
  ModelConfig c;
  c.map.param.base = kConst + 0xF'F000;  // the last 4 KiB of the const window
  EXPECT_TRUE(mentions(c.check(), "overlap")) << c.check();
}

TEST(GoldenConfig, AdjacentWindowsDoNotOverlap) {
  ModelConfig c;
  c.map.param.base = kConst + 0x10'0000;  // starts right where const ends
  EXPECT_EQ(c.check(), "");
}

TEST(GoldenConfig, ClusterSizeOutOfRange) {
  ModelConfig c;
  c.cluster_ctas = 0;
  EXPECT_NE(c.check(), "");
  c.cluster_ctas = 17;
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, WarpsPerCtaOutOfRange) {
  ModelConfig c;
  c.warps_per_cta = 0;
  EXPECT_NE(c.check(), "");
  c.warps_per_cta = 33;
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, SharedBytesAbove228KiB) {
  ModelConfig c;
  c.shared_bytes = (228 << 10) + 1;
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, SharedBytesAboveStride) {
  ModelConfig c;
  c.map.shared_cta_stride = 32 << 10;  // 32 KiB per rank, 48 KiB of shared memory
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, StrideNotPowerOfTwo) {
  ModelConfig c;
  c.map.shared_cta_stride = 3 << 20;
  EXPECT_NE(c.check(), "");
  c.map.shared_cta_stride = 0;
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, SharedWindowTooSmallForCluster) {
  ModelConfig c;
  c.cluster_ctas = 16;
  c.map.shared.size = 8 * kStride;
  EXPECT_NE(c.check(), "");
  c.cluster_ctas = 8;
  EXPECT_EQ(c.check(), "");
}

TEST(GoldenConfig, LocalBytesAboveLocalWindow) {
  ModelConfig c;
  c.local_bytes = c.map.local.size + 1;
  EXPECT_NE(c.check(), "");
}

TEST(GoldenConfig, KernelParamAndConstAboveTheirWindows) {
  ModelConfig c;
  c.kernel_param_bytes = c.map.param.size + 1;
  EXPECT_NE(c.check(), "");
  ModelConfig d;
  d.const_bytes = d.map.konst.size + 1;
  EXPECT_NE(d.check(), "");
}

TEST(GoldenConfig, WindowWrappingAround2To64) {
  ModelConfig c;
  c.map.konst.base = 0xFFFF'FFFF'FFFF'F000ull;  // + 1 MiB wraps
  EXPECT_TRUE(mentions(c.check(), "wrap")) << c.check();
}

TEST(GoldenConfig, WindowBaseNot4KiBAligned) {
  ModelConfig c;
  c.map.local.base = kLocal + 0x10;
  EXPECT_NE(c.check(), "");
}

}  // namespace

// --- byte ranges that end exactly at 2^64 (issue 8 section 3) --------------------------------

TEST(GoldenRanges, RangeEndingAt2To64IsValid) {
  EXPECT_TRUE(range_valid(0xFFFF'FFFF'FFFF'F000ull, 0x1000));  // last byte 0xFFFF...FFFF
  EXPECT_TRUE(range_valid(0xFFFF'FFFF'FFFF'FFFFull, 1));
}

TEST(GoldenRanges, EmptyOrWrappingRangeIsInvalid) {
  EXPECT_FALSE(range_valid(0x1000, 0));
  EXPECT_FALSE(range_valid(0xFFFF'FFFF'FFFF'F000ull, 0x1001));  // one byte past 2^64
  EXPECT_TRUE(range_valid(1, ~uint64_t(0)));                    // [1, 2^64): 2^64 - 1 bytes
  EXPECT_FALSE(range_valid(2, ~uint64_t(0)));                   // its last byte would be 2^64
}

TEST(GoldenRanges, OverlapIsDecidedOnLastBytes) {
  // [top-4K, 2^64) and [top-8K, top-4K) touch but do not overlap.
  EXPECT_FALSE(ranges_overlap(0xFFFF'FFFF'FFFF'F000ull, 0x1000, 0xFFFF'FFFF'FFFF'E000ull, 0x1000));
  EXPECT_TRUE(ranges_overlap(0xFFFF'FFFF'FFFF'F000ull, 0x1000, 0xFFFF'FFFF'FFFF'EFFFull, 2));
  EXPECT_TRUE(ranges_overlap(0xFFFF'FFFF'FFFF'FFFFull, 1, 0xFFFF'FFFF'FFFF'F000ull, 0x1000));
  EXPECT_FALSE(ranges_overlap(0x1000, 0, 0x1000, 0x10));  // an empty range overlaps nothing
}

TEST(GoldenRanges, WindowEndingAt2To64PassesTheConfigCheck) {
  ModelConfig c;
  c.map.konst = Window{0xFFFF'FFFF'FFF0'0000ull, 0x10'0000};  // the last MiB
  EXPECT_EQ(c.check(), "");
  c.map.konst.size = 0x10'1000;  // 4 KiB past 2^64
  EXPECT_NE(c.check().find("const window wraps around 2^64"), std::string::npos) << c.check();
}
