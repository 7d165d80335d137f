// The cache piece (cache.h) against expectations computed by hand from the rules in
// docs/golden.md ("Caches"): a 2-set, 2-way cache of 128-byte lines where every hit, miss and
// victim can be followed on paper; the L1 and L2 policy tables row by row; the write buffer's
// merge rule; a seeded random check that a flushed hierarchy leaves DRAM equal to what the
// stores wrote; and a seeded random differential test of SectoredCache (CacheData::Keep and
// Drop) against a straightforward reference written from the rules (STU_SEED reproduces a
// run).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory_resource>
#include <optional>
#include <random>
#include <sstream>

#include "stu/golden/cache.h"

namespace {

using namespace stu;
using namespace stu::golden;

// 2 sets x 2 ways: set = bit 7 of the address. Lines 0x000, 0x100, 0x200 fall in set 0;
// 0x080, 0x180 in set 1.
constexpr CacheGeometry kTiny{512, 2};

SectoredCache tiny() { return *SectoredCache::create(kTiny); }

LineByteMask bytes_mask(unsigned first, unsigned n) {
  LineByteMask m;
  for (unsigned i = first; i < first + n; ++i) m.set(i);
  return m;
}

struct Payload {
  std::array<uint8_t, kLineBytes> data{};
};

// A write of bytes [first, first+n) of `line`, byte i holding value + i.
CacheWrite wr(uint64_t line, unsigned first, unsigned n, Payload& p, uint8_t value = 0x10,
              std::optional<EvictClass> cls = EvictClass::Normal) {
  for (unsigned i = first; i < first + n; ++i) p.data[i] = uint8_t(value + i);
  CacheWrite w;
  w.line = line;
  w.bytes = bytes_mask(first, n);
  w.data = p.data.data();
  w.cls = cls;
  return w;
}

// --- geometry --------------------------------------------------------------------------------

TEST(GoldenCacheGeometry, TwoSetsOfTwoWays) { EXPECT_EQ(kTiny.sets(), 2u); }

TEST(GoldenCacheGeometry, WaysNotPowerOfTwoNamesWays) {
  EXPECT_EQ(CacheGeometry({768, 3}).check(), "ways: must be a power of two in 1..64 (got 3)");
}

TEST(GoldenCacheGeometry, TooManyWaysNamesWays) {
  EXPECT_EQ(CacheGeometry({1 << 20, 128}).check().rfind("ways:", 0), 0u);
}

TEST(GoldenCacheGeometry, BytesNotPowerOfTwoNamesBytes) {
  EXPECT_EQ(CacheGeometry({1000, 2}).check(),
            "bytes: must be a power of two in 128*ways (256) .. 64 MiB (got 1000)");
}

TEST(GoldenCacheGeometry, BytesBelowOneLinePerWayNamesBytes) {
  EXPECT_EQ(CacheGeometry({128, 2}).check().rfind("bytes:", 0), 0u);
}

TEST(GoldenCacheGeometry, BytesAbove64MiBNamesBytes) {
  EXPECT_EQ(CacheGeometry({uint64_t(128) << 20, 16}).check().rfind("bytes:", 0), 0u);
  EXPECT_EQ(CacheGeometry({uint64_t(64) << 20, 16}).check(), "");
}

TEST(GoldenCacheGeometry, CreateReportsTheError) {
  std::string err;
  EXPECT_FALSE(SectoredCache::create({512, 0}, &err));
  EXPECT_EQ(err, "ways: must be a power of two in 1..64 (got 0)");
}

TEST(GoldenCacheGeometry, HierarchyErrorNamesTheLevel) {
  HierarchyConfig c;
  c.l2 = {4096, 5};
  EXPECT_EQ(c.check().rfind("l2 ways:", 0), 0u);
  c.l2 = {4096, 4};
  c.write_buffer = 0;
  EXPECT_EQ(c.check(), "write_buffer entries: must be 1..64 (got 0)");
}

// --- hits, misses, victims in the 2-set, 2-way cache ------------------------------------------

// Replacement::Random in one set of 4 ways (512 bytes): lines 0x000, 0x080, ... all fall in
// set 0. The generator's values (xorshift32 from 0x2545F491, worked out on paper): 0xE124B63A,
// 0x8B9A74AB, 0x64E1B3AC, 0x00174626, 0xF2ADBBAF, 0xFED75123; r = the low 2 bits: 2, 3, 0, 2,
// 3, 3. A free way is taken first without a draw; a hit draws nothing.
TEST(GoldenCache, HandTracedRandomVictims) {
  SectoredCache c = *SectoredCache::create({512, 4, Replacement::Random});
  Payload p;
  const auto write = [&](uint64_t line, std::optional<EvictClass> cls = EvictClass::Normal) {
    return c.write(wr(line, 0, 4, p, 0x10, cls));
  };
  for (uint64_t w = 0; w < 4; ++w)  // A B C D into ways 0..3
    EXPECT_TRUE(!write(0x080 * w).evicted);
  CacheWriteResult r = write(0x200);  // E: r = 2, all Normal -> way 2 (C)
  EXPECT_TRUE(r.evicted && r.way == 2 && r.victim.line == 0x100u);
  EXPECT_TRUE(write(0x000).hit);  // A hits: no draw
  r = write(0x280);               // F: r = 3 -> way 3 (D)
  EXPECT_TRUE(r.evicted && r.way == 3 && r.victim.line == 0x180u);
  EXPECT_TRUE(write(0x080, EvictClass::First).hit);  // B becomes First
  r = write(0x300);  // G: r = 0, but the lowest class is First: way 1 (B)
  EXPECT_TRUE(r.evicted && r.way == 1 && r.victim.line == 0x080u);
  EXPECT_TRUE(write(0x000, EvictClass::First).hit);  // A (way 0) and G (way 1) First
  EXPECT_TRUE(write(0x300, EvictClass::First).hit);
  r = write(0x380);  // H: r = 2; First ways from 2 on, cyclically: 0 -> A
  EXPECT_TRUE(r.evicted && r.way == 0 && r.victim.line == 0x000u);
  EXPECT_TRUE(c.invalidate(0x200));  // E leaves way 2 free
  r = write(0x400);                  // I takes the free way 2: no draw
  EXPECT_TRUE(!r.evicted && r.way == 2);
  r = write(0x480);  // J: r = 3; First is G alone -> way 1
  EXPECT_TRUE(r.evicted && r.way == 1 && r.victim.line == 0x300u);
  r = write(0x500);  // K: r = 3, all Normal -> way 3 (F) (had I drawn, K would take way 2)
  EXPECT_TRUE(r.evicted && r.way == 3 && r.victim.line == 0x280u);
}

TEST(GoldenCache, HandTracedHitsMissesAndVictims) {
  SectoredCache c = tiny();
  Payload p;
  // 1: 0x000 miss, set 0 way 0 (stamp 1)    2: 0x100 miss, set 0 way 1 (stamp 2)
  // 3: 0x080 miss, set 1 way 0 (stamp 3)    4: 0x000 hit, set 0 way 0 (stamp 4)
  // 5: 0x200 miss, set 0 full: both Normal, oldest is 0x100 (stamp 2) -> way 1
  // 6: 0x100 miss, set 0 full: 0x000 (stamp 4) older than 0x200 (stamp 5) -> way 0
  CacheWriteResult r = c.write(wr(0x000, 0, 4, p));
  EXPECT_TRUE(!r.hit && r.allocated && r.set == 0 && r.way == 0 && !r.evicted);
  r = c.write(wr(0x100, 0, 4, p));
  EXPECT_TRUE(!r.hit && r.allocated && r.set == 0 && r.way == 1 && !r.evicted);
  r = c.write(wr(0x080, 0, 4, p));
  EXPECT_TRUE(!r.hit && r.allocated && r.set == 1 && r.way == 0 && !r.evicted);
  r = c.write(wr(0x000, 4, 4, p));
  EXPECT_TRUE(r.hit && !r.allocated && r.set == 0 && r.way == 0);
  r = c.write(wr(0x200, 0, 4, p));
  EXPECT_TRUE(r.allocated && r.way == 1 && r.evicted);
  EXPECT_EQ(r.victim.line, 0x100u);
  r = c.write(wr(0x100, 0, 4, p));
  EXPECT_TRUE(r.allocated && r.way == 0 && r.evicted);
  EXPECT_EQ(r.victim.line, 0x000u);
  EXPECT_TRUE(c.lookup(0x080).hit);
  EXPECT_FALSE(c.lookup(0x000).hit);
  EXPECT_EQ(c.lines_present(), 3u);
}

TEST(GoldenCache, LookupDoesNotRenewTheStamp) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p));  // stamp 1
  c.write(wr(0x100, 0, 4, p));  // stamp 2
  EXPECT_TRUE(c.lookup(0x000).hit);
  const CacheWriteResult r = c.write(wr(0x200, 0, 4, p));
  EXPECT_EQ(r.victim.line, 0x000u);
}

TEST(GoldenCache, AddressLowBitsSelectTheSameLine) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x100, 0, 4, p));
  const CacheLookup l = c.lookup(0x17F);
  EXPECT_TRUE(l.hit);
  EXPECT_EQ(l.set, 0u);
  EXPECT_EQ(l.way, 0u);
}

// Every sector pattern: the last byte of each chosen sector set, counted by hand.
TEST(GoldenCache, SectorCountOfEveryPattern) {
  for (unsigned s = 0; s < 16; ++s) {
    LineByteMask m;
    unsigned want = 0;
    for (unsigned k = 0; k < 4; ++k)
      if (s >> k & 1) {
        m.set(32 * k + 31);
        ++want;
      }
    EXPECT_EQ(m.sectors(), s);
    EXPECT_EQ(m.sector_count(), want) << "sectors 0x" << std::hex << s;
  }
}

TEST(GoldenCache, PartialSectorWriteMissAllocatesOnlyThoseBytes) {
  SectoredCache c = tiny();
  Payload p;
  const CacheWriteResult r = c.write(wr(0x080, 36, 4, p, 0xA0));  // bytes 36..39, sector 1
  EXPECT_TRUE(r.allocated);
  const CacheLookup l = c.lookup(0x080);
  EXPECT_EQ(l.valid, (LineByteMask{0xFull << 36, 0}));
  EXPECT_EQ(l.dirty, (LineByteMask{0xFull << 36, 0}));
  EXPECT_EQ(l.valid.sectors(), 0x2);
  EXPECT_EQ(l.valid.sector_count(), 1u);
  const uint8_t* d = c.data(0x080);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d[36], 0xA0 + 36);
  EXPECT_EQ(d[39], 0xA0 + 39);
  EXPECT_EQ(d[35], 0);  // no fill from below: a byte not written stays 0 and not valid
  EXPECT_EQ(d[40], 0);
}

TEST(GoldenCache, HitMergesBytesAndData) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 8, p, 0x00));
  Payload q;
  c.write(wr(0x000, 4, 8, q, 0x40));  // bytes 4..11 overwritten with 0x44..0x4B
  const CacheLookup l = c.lookup(0x000);
  EXPECT_EQ(l.valid, (LineByteMask{0xFFF, 0}));
  const uint8_t* d = c.data(0x000);
  EXPECT_EQ(d[3], 3);
  EXPECT_EQ(d[4], 0x44);
  EXPECT_EQ(d[11], 0x4B);
}

TEST(GoldenCache, VictimCarriesItsDirtyBytesAndMask) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0x20));   // bytes 0..3
  c.write(wr(0x000, 64, 2, p, 0x20));  // bytes 64, 65
  c.write(wr(0x100, 0, 4, p));
  const CacheWriteResult r = c.write(wr(0x200, 0, 4, p));  // evicts 0x000 (oldest, stamp 2)
  ASSERT_TRUE(r.evicted);
  EXPECT_EQ(r.victim.line, 0x000u);
  EXPECT_EQ(r.victim.dirty, (LineByteMask{0xF, 0x3}));
  EXPECT_EQ(r.victim.valid, (LineByteMask{0xF, 0x3}));
  EXPECT_EQ(r.victim.data[0], 0x20);
  EXPECT_EQ(r.victim.data[65], 0x20 + 65);
  EXPECT_EQ(r.victim.data[4], 0);
}

TEST(GoldenCache, WriteThroughLeavesItsBytesClean) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 8, p));  // Back: bytes 0..7 dirty
  CacheWrite w = wr(0x000, 0, 4, p);
  w.mode = WriteMode::Through;
  c.write(w);
  EXPECT_EQ(c.lookup(0x000).dirty, (LineByteMask{0xF0, 0}));
  EXPECT_EQ(c.lookup(0x000).valid, (LineByteMask{0xFF, 0}));
}

TEST(GoldenCache, EvictFirstLineIsChosenBeforeAnOlderEvictLastLine) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, EvictClass::Last));   // stamp 1
  c.write(wr(0x100, 0, 4, p, 0, EvictClass::First));  // stamp 2
  const CacheWriteResult r = c.write(wr(0x200, 0, 4, p));
  EXPECT_EQ(r.victim.line, 0x100u);
  EXPECT_EQ(r.victim.cls, EvictClass::First);
}

TEST(GoldenCache, NormalLineIsChosenBeforeALastLine) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, EvictClass::Last));
  c.write(wr(0x100, 0, 4, p, 0, EvictClass::Normal));
  EXPECT_EQ(c.write(wr(0x200, 0, 4, p)).victim.line, 0x100u);
}

TEST(GoldenCache, SameClassFallsBackToLeastRecentlyWritten) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, EvictClass::Last));  // stamp 1
  c.write(wr(0x100, 0, 4, p, 0, EvictClass::Last));  // stamp 2
  c.write(wr(0x000, 8, 4, p, 0, EvictClass::Last));  // stamp 3
  EXPECT_EQ(c.write(wr(0x200, 0, 4, p)).victim.line, 0x100u);
}

TEST(GoldenCache, HitWithoutClassKeepsTheLineClass) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, EvictClass::Last));
  c.write(wr(0x000, 4, 4, p, 0, std::nullopt));
  EXPECT_EQ(c.lookup(0x000).cls, EvictClass::Last);
}

TEST(GoldenCache, HitWithClassSetsTheLineClass) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, EvictClass::Last));
  c.write(wr(0x000, 4, 4, p, 0, EvictClass::First));
  EXPECT_EQ(c.lookup(0x000).cls, EvictClass::First);
}

TEST(GoldenCache, AllocationWithoutClassTakesNormal) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0, std::nullopt));
  EXPECT_EQ(c.lookup(0x000).cls, EvictClass::Normal);
}

TEST(GoldenCache, MissWithoutAllocateChangesNothing) {
  SectoredCache c = tiny();
  Payload p;
  CacheWrite w = wr(0x000, 0, 4, p);
  w.allocate = false;
  const CacheWriteResult r = c.write(w);
  EXPECT_FALSE(r.hit || r.allocated || r.evicted);
  EXPECT_EQ(c.lines_present(), 0u);
}

TEST(GoldenCache, InvalidateReturnsTheDirtyBytes) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x080, 0, 2, p, 0x30));
  CacheLineOut out;
  EXPECT_TRUE(c.invalidate(0x080, &out));
  EXPECT_EQ(out.dirty, (LineByteMask{0x3, 0}));
  EXPECT_EQ(out.data[1], 0x31);
  EXPECT_FALSE(c.lookup(0x080).hit);
  EXPECT_FALSE(c.invalidate(0x080));
}

TEST(GoldenCache, FlushDrainsDirtyLinesInSetThenWayOrderAndCleansThem) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x080, 0, 4, p));  // set 1 way 0
  c.write(wr(0x000, 0, 4, p));  // set 0 way 0
  c.write(wr(0x100, 0, 4, p));  // set 0 way 1
  CacheWrite clean = wr(0x180, 0, 4, p);
  clean.mode = WriteMode::Through;
  c.write(clean);  // set 1 way 1, clean: not flushed
  std::vector<CacheLineOut> out;
  EXPECT_EQ(c.flush(out), 3u);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].line, 0x000u);
  EXPECT_EQ(out[1].line, 0x100u);
  EXPECT_EQ(out[2].line, 0x080u);
  EXPECT_TRUE(c.lookup(0x000).dirty.empty());
  EXPECT_EQ(c.lookup(0x000).valid, (LineByteMask{0xF, 0}));
  out.clear();
  EXPECT_EQ(c.flush(out), 0u);
}

TEST(GoldenCache, DropKeepsTheSameLinesAndMasksButNoData) {
  SectoredCache keep = tiny();
  SectoredCache drop = *SectoredCache::create(kTiny, nullptr, CacheData::Drop);
  EXPECT_EQ(keep.data_mode(), CacheData::Keep);
  EXPECT_EQ(drop.data_mode(), CacheData::Drop);
  Payload p, p1, p2, p3, p4;
  const CacheWrite writes[] = {wr(0x000, 0, 4, p1, 0x20), wr(0x000, 64, 2, p2, 0x20),
                               wr(0x100, 0, 4, p3), wr(0x080, 8, 8, p4, 0x30)};
  for (const CacheWrite& w : writes) {
    const CacheWriteResult a = keep.write(w), b = drop.write(w);
    EXPECT_EQ(a.hit, b.hit);
    EXPECT_EQ(a.way, b.way);
  }
  for (uint64_t line : {0x000, 0x080, 0x100}) {
    const CacheLookup a = keep.lookup(line), b = drop.lookup(line);
    EXPECT_TRUE(a.hit && b.hit);
    EXPECT_EQ(a.way, b.way);
    EXPECT_EQ(a.valid, b.valid);
    EXPECT_EQ(a.dirty, b.dirty);
    EXPECT_NE(keep.data(line), nullptr);
    EXPECT_EQ(drop.data(line), nullptr);
  }
  // 0x200 evicts 0x000 (oldest) in both; only Keep's victim carries the bytes.
  const CacheWriteResult a = keep.write(wr(0x200, 0, 4, p)), b = drop.write(wr(0x200, 0, 4, p));
  ASSERT_TRUE(a.evicted && b.evicted);
  EXPECT_EQ(b.victim.line, 0x000u);
  EXPECT_EQ(b.victim.dirty, (LineByteMask{0xF, 0x3}));
  EXPECT_EQ(b.victim.valid, a.victim.valid);
  EXPECT_EQ(a.victim.data[0], 0x20);
  const std::array<uint8_t, kLineBytes> zeros{};
  EXPECT_EQ(b.victim.data, zeros);
  // invalidate() zeroes the caller's data; flush() returns the same lines, data all 0.
  CacheLineOut out;
  out.data.fill(0xEE);
  EXPECT_TRUE(drop.invalidate(0x080, &out));
  EXPECT_EQ(out.dirty, (LineByteMask{0xFF00, 0}));
  EXPECT_EQ(out.data, zeros);
  std::vector<CacheLineOut> fk, fd;
  EXPECT_EQ(keep.flush(fk), 3u);
  EXPECT_EQ(drop.flush(fd), 2u);  // 0x080 was invalidated in `drop` only
  ASSERT_EQ(fd.size(), 2u);
  EXPECT_EQ(fd[0].line, fk[0].line);
  EXPECT_EQ(fd[0].dirty, fk[0].dirty);
  EXPECT_EQ(fd[1].line, fk[1].line);
  EXPECT_EQ(fd[0].data, zeros);
  EXPECT_EQ(fd[1].data, zeros);
}

TEST(GoldenCache, ACopyIsIndependent) {
  SectoredCache c = tiny();
  Payload p;
  c.write(wr(0x000, 0, 4, p, 0x20));
  SectoredCache d = c;
  d.write(wr(0x000, 0, 4, p, 0x40));
  d.write(wr(0x080, 0, 4, p, 0x40));
  EXPECT_EQ(c.data(0x000)[0], 0x20);
  EXPECT_EQ(d.data(0x000)[0], 0x40);
  EXPECT_FALSE(c.lookup(0x080).hit);
  EXPECT_EQ(c.lines_present(), 1u);
  EXPECT_EQ(d.lines_present(), 2u);
}

// --- memory resources ------------------------------------------------------------------------

// Arrays from a memory resource of the caller's (a standard monotonic buffer here; the TLM
// model passes its arena): the same behaviour as on the heap, aligned to 64 bytes, and a copy
// owns its arrays, so it outlives the resource.
TEST(GoldenCache, OnAMemoryResourceBehavesAsOnTheHeapAndACopyOutlivesIt) {
  SectoredCache heap = tiny();
  std::optional<SectoredCache> copy;
  {
    std::pmr::monotonic_buffer_resource res;
    SectoredCache on = *SectoredCache::create(kTiny, nullptr, CacheData::Keep, &res);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(on.layout().base) % 64, 0u);
    Payload p;
    for (uint64_t line : {0x000, 0x100, 0x080, 0x200, 0x000}) {
      const CacheWriteResult a = heap.write(wr(line, 0, 8, p, uint8_t(line >> 4)));
      const CacheWriteResult b = on.write(wr(line, 0, 8, p, uint8_t(line >> 4)));
      EXPECT_EQ(a.hit, b.hit) << line;
      EXPECT_EQ(a.way, b.way) << line;
      EXPECT_EQ(a.evicted, b.evicted) << line;
      EXPECT_EQ(a.victim.line, b.victim.line) << line;
    }
    copy = on;  // owns its arrays: the arena goes away below
  }
  for (uint64_t line : {0x000, 0x080, 0x100, 0x200}) {
    const CacheLookup a = heap.lookup(line), b = copy->lookup(line);
    EXPECT_EQ(a.hit, b.hit) << line;
    if (a.hit) {
      EXPECT_EQ(std::memcmp(heap.data(line), copy->data(line), kLineBytes), 0) << line;
    }
  }
  EXPECT_EQ(copy->data(0x200)[0], 0x20);
}

// --- L1 policy table -------------------------------------------------------------------------

CacheAttrs cop(isa::CacheOp op) {
  CacheAttrs a;
  a.cop = op;
  return a;
}
CacheAttrs l1q(isa::L1Evict e) {
  CacheAttrs a;
  a.l1 = e;
  return a;
}
const L1StoreAction kL1Normal{L1OnHit::Update, true, EvictClass::Normal};
const L1StoreAction kL1Bypass{L1OnHit::Invalidate, false, std::nullopt};

TEST(GoldenL1Policy, PlainStoreUpdatesAndAllocatesNormal) {
  EXPECT_EQ(l1_store_action({}, {}), kL1Normal);
}
TEST(GoldenL1Policy, WbUpdatesAndAllocatesNormal) {
  EXPECT_EQ(l1_store_action(cop(isa::CacheOp::Wb), {}), kL1Normal);
}
// Silicon (H200, 2026-11-27, run 25): a line `.cg` or `.wt` wrote (whole, or 4 bytes of it) is
// read back from the L1 afterwards, and a line the L1 held stays there: they allocate a miss and
// update a hit as a plain store does. Only `.mmio` bypasses the L1.
TEST(GoldenL1Policy, CgUpdatesAndAllocatesNormal) {
  EXPECT_EQ(l1_store_action(cop(isa::CacheOp::Cg), {}), kL1Normal);
}
TEST(GoldenL1Policy, CsAllocatesEvictFirst) {
  EXPECT_EQ(l1_store_action(cop(isa::CacheOp::Cs), {}),
            (L1StoreAction{L1OnHit::Update, true, EvictClass::First}));
}
TEST(GoldenL1Policy, WtUpdatesAndAllocatesNormal) {
  EXPECT_EQ(l1_store_action(cop(isa::CacheOp::Wt), {}), kL1Normal);
}
TEST(GoldenL1Policy, EvictNormalAllocatesNormal) {
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::EvictNormal), {}), kL1Normal);
}
TEST(GoldenL1Policy, EvictFirstAllocatesFirst) {
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::EvictFirst), {}),
            (L1StoreAction{L1OnHit::Update, true, EvictClass::First}));
}
TEST(GoldenL1Policy, EvictLastAllocatesLast) {
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::EvictLast), {}),
            (L1StoreAction{L1OnHit::Update, true, EvictClass::Last}));
}
TEST(GoldenL1Policy, EvictUnchangedKeepsTheClass) {
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::EvictUnchanged), {}),
            (L1StoreAction{L1OnHit::Update, true, std::nullopt}));
}
TEST(GoldenL1Policy, NoAllocateUpdatesAHitOnly) {
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::NoAllocate), {}),
            (L1StoreAction{L1OnHit::Update, false, std::nullopt}));
}
TEST(GoldenL1Policy, MmioBypassesTheL1) {
  Ordering o;
  o.strong = o.mmio = true;
  EXPECT_EQ(l1_store_action({}, o), kL1Bypass);
}
TEST(GoldenL1Policy, StrongStoreTakesTheRowOfItsQualifiers) {
  Ordering o;
  o.strong = o.release = true;
  EXPECT_EQ(l1_store_action(l1q(isa::L1Evict::EvictLast), o),
            (L1StoreAction{L1OnHit::Update, true, EvictClass::Last}));
}

// --- L2 policy table -------------------------------------------------------------------------

CacheAttrs l2q(isa::L2Evict e) {
  CacheAttrs a;
  a.l2 = e;
  return a;
}
CacheAttrs hint(uint64_t raw) {
  CacheAttrs a;
  a.has_policy = true;
  a.policy = decode_policy(raw);
  return a;
}

TEST(GoldenL2Policy, PlainStoreIsNormal) { EXPECT_EQ(l2_store_class({}, 0), EvictClass::Normal); }
TEST(GoldenL2Policy, EvictFirstQualifier) {
  EXPECT_EQ(l2_store_class(l2q(isa::L2Evict::EvictFirst), 0), EvictClass::First);
}
TEST(GoldenL2Policy, EvictLastQualifier) {
  EXPECT_EQ(l2_store_class(l2q(isa::L2Evict::EvictLast), 0), EvictClass::Last);
}
TEST(GoldenL2Policy, EvictNormalQualifier) {
  EXPECT_EQ(l2_store_class(l2q(isa::L2Evict::EvictNormal), 0), EvictClass::Normal);
}
TEST(GoldenL2Policy, CsIsEvictFirst) {
  EXPECT_EQ(l2_store_class(cop(isa::CacheOp::Cs), 0), EvictClass::First);
}
TEST(GoldenL2Policy, CutlassEvictLastPolicyIsLast) {
  EXPECT_EQ(l2_store_class(hint(0x14F0000000000000ull), 0), EvictClass::Last);
}
TEST(GoldenL2Policy, CutlassEvictFirstPolicyIsFirst) {
  EXPECT_EQ(l2_store_class(hint(0x12F0000000000000ull), 0), EvictClass::First);
}
TEST(GoldenL2Policy, FractionalPolicyGivesPrimaryToFourOfSixteenLines) {
  // evict_last, 0.25: bits 55:52 = 3, so n = 4: lines whose bits 10:7 are 0..3 get Last,
  // the others the secondary, evict_unchanged (keep).
  const CacheAttrs a = hint(0x1430000000000000ull);
  EXPECT_EQ(l2_store_class(a, 0x10000), EvictClass::Last);
  EXPECT_EQ(l2_store_class(a, 0x10180), EvictClass::Last);
  EXPECT_EQ(l2_store_class(a, 0x10200), std::nullopt);
  EXPECT_EQ(l2_store_class(a, 0x10800), EvictClass::Last);  // bits 10:7 wrap to 0
}
TEST(GoldenL2Policy, FractionalSecondaryEvictFirst) {
  // evict_last, 0.5, evict_first: bit 56 set, bits 55:52 = 7.
  const CacheAttrs a = hint(0x1570000000000000ull);
  EXPECT_EQ(l2_store_class(a, 0x380), EvictClass::Last);   // line 7 of 16
  EXPECT_EQ(l2_store_class(a, 0x400), EvictClass::First);  // line 8 of 16
}
TEST(GoldenL2Policy, EvictUnchangedPolicyKeepsTheClass) {
  EXPECT_EQ(l2_store_class(hint(0x10F0000000000000ull), 0), std::nullopt);  // primary 0
}
TEST(GoldenL2Policy, QualifierTakesPrecedenceOverPolicy) {
  CacheAttrs a = hint(0x14F0000000000000ull);
  a.l2 = isa::L2Evict::EvictFirst;
  EXPECT_EQ(l2_store_class(a, 0), EvictClass::First);
}
TEST(GoldenL2Policy, OpaquePolicyFallsThroughToTheDefault) {
  EXPECT_EQ(l2_store_class(hint(0x1234), 0), EvictClass::Normal);
}
TEST(GoldenL2Policy, PlainStoreIsWriteBack) {
  EXPECT_EQ(l2_store_action({}, 0), (L2StoreAction{EvictClass::Normal, WriteMode::Back}));
}
// Silicon (H200, 2026-11-27, run 21): `.wt` to global (device) memory stays in the L2, as `st`
// does; it writes through only to system memory, which stu does not model.
TEST(GoldenL2Policy, WtIsWriteBack) {
  EXPECT_EQ(l2_store_action(cop(isa::CacheOp::Wt), 0),
            (L2StoreAction{EvictClass::Normal, WriteMode::Back}));
}
// Silicon (H200, 2026-11-27, run 17): `.mmio` stores to global memory stay in the L2. It
// allocates and writes back; the write buffer, not the L2, keeps it apart from other stores.
TEST(GoldenL2Policy, MmioIsWriteBack) {
  Ordering o;
  o.strong = o.mmio = true;
  LineRequest req;
  req.line = 0x1000;
  req.bytes.set(0);
  req.data[0] = 0x5a;
  const WbEntry e = wb_entry_of(req, {}, o);
  EXPECT_EQ(e.l2, (L2StoreAction{EvictClass::Normal, WriteMode::Back}));
  EXPECT_FALSE(e.mergeable);
  // In the L2: allocated, dirty, and nothing for DRAM until it is evicted or flushed.
  SectoredCache l2 = *SectoredCache::create(CacheGeometry{1024, 2});
  const CacheWriteResult r = l2_write(l2, e);
  EXPECT_TRUE(r.allocated);
  EXPECT_TRUE(l2.lookup(0x1000).dirty.test(0));
}

// --- write buffer ----------------------------------------------------------------------------

WbEntry entry(uint64_t line, unsigned first, unsigned n, uint8_t value, bool mergeable = true) {
  WbEntry e;
  e.line = line;
  e.bytes = bytes_mask(first, n);
  for (unsigned i = first; i < first + n; ++i) e.data[i] = value;
  e.mergeable = mergeable;
  return e;
}

TEST(GoldenWriteBuffer, WeakStoresToOneLineMerge) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  EXPECT_FALSE(wb.push(entry(0x100, 0, 8, 0xAA), false, out).merged);
  EXPECT_TRUE(wb.push(entry(0x100, 4, 8, 0xBB), false, out).merged);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb.entry(0).bytes, (LineByteMask{0xFFF, 0}));
  EXPECT_EQ(wb.entry(0).data[3], 0xAA);
  EXPECT_EQ(wb.entry(0).data[4], 0xBB);  // the later store's bytes win
  EXPECT_EQ(wb.entry(0).stores, 2u);
  EXPECT_TRUE(out.empty());
}

TEST(GoldenWriteBuffer, PopOldestTakesOneEntryInOrder) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  EXPECT_FALSE(wb.pop_oldest(out));
  wb.push(entry(0x100, 0, 4, 0x11), false, out);
  wb.push(entry(0x200, 0, 4, 0x22), false, out);
  ASSERT_TRUE(out.empty());
  EXPECT_TRUE(wb.pop_oldest(out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x100u);
  EXPECT_EQ(wb.size(), 1u);
  EXPECT_TRUE(wb.pop_oldest(out));
  EXPECT_EQ(out[1].line, 0x200u);
  EXPECT_EQ(wb.size(), 0u);
  EXPECT_FALSE(wb.pop_oldest(out));
}

TEST(GoldenWriteBuffer, OldestLineIsTheNextToLeave) {
  WriteBuffer wb(2);
  std::vector<WbEntry> out;
  uint64_t line = 0;
  EXPECT_FALSE(wb.oldest_line(line));
  wb.push(entry(0x100, 0, 4, 1), false, out);
  wb.push(entry(0x200, 0, 4, 2), false, out);
  ASSERT_TRUE(wb.oldest_line(line));
  EXPECT_EQ(line, 0x100u);
  wb.push(entry(0x300, 0, 4, 3), false, out);  // full: 0x100 leaves
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x100u);
  ASSERT_TRUE(wb.oldest_line(line));
  EXPECT_EQ(line, 0x200u);
  wb.push(entry(0x400, 0, 4, 4), false, out);  // the ring wraps: 0x200 leaves
  ASSERT_TRUE(wb.oldest_line(line));
  EXPECT_EQ(line, 0x300u);
  wb.drain(out);
  EXPECT_FALSE(wb.oldest_line(line));
}

TEST(GoldenWriteBuffer, StrongStoreIsNotMerged) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 8, 1), false, out);
  EXPECT_FALSE(wb.push(entry(0x100, 8, 8, 2, false), false, out).merged);
  EXPECT_EQ(wb.size(), 2u);
}

TEST(GoldenWriteBuffer, NothingMergesIntoAStrongEntry) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 8, 1, false), false, out);
  EXPECT_FALSE(wb.push(entry(0x100, 8, 8, 2), false, out).merged);
  EXPECT_EQ(wb.size(), 2u);
}

TEST(GoldenWriteBuffer, MmioStoresAreNeverMerged) {
  // The hierarchy marks .mmio stores not mergeable (they are strong); two of them stay two.
  MemoryHierarchy h = *MemoryHierarchy::create({});
  StoreResult r;
  r.order.strong = r.order.mmio = true;
  LineRequest req;
  req.line = 0x1000;
  req.bytes = bytes_mask(0, 4);
  r.lines.push_back(req);
  HierarchyEvents ev;
  h.store(r, ev);
  h.store(r, ev);
  EXPECT_EQ(ev.merged(), 0u);
  EXPECT_EQ(h.write_buffer().size(), 2u);
}

TEST(GoldenWriteBuffer, WeakStoreMergesOnlyIntoTheYoungestEntryOfItsLine) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);         // weak
  wb.push(entry(0x100, 0, 4, 2, false), false, out);  // strong, same bytes
  EXPECT_FALSE(wb.push(entry(0x100, 0, 4, 3), false, out).merged);
  EXPECT_EQ(wb.size(), 3u);  // merging into the first would let the strong bytes win
}

TEST(GoldenWriteBuffer, WeakStoreMergesPastAnotherLine) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);
  wb.push(entry(0x200, 0, 4, 2), false, out);
  EXPECT_TRUE(wb.push(entry(0x100, 4, 4, 3), false, out).merged);
  EXPECT_EQ(wb.size(), 2u);
}

TEST(GoldenWriteBuffer, DifferentL2ActionIsNotMerged) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);
  WbEntry e = entry(0x100, 4, 4, 2);
  e.l2.cls = EvictClass::First;
  EXPECT_FALSE(wb.push(e, false, out).merged);
}

TEST(GoldenWriteBuffer, ReleaseDrainsEarlierEntriesOldestFirst) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);
  wb.push(entry(0x200, 0, 4, 2), false, out);
  const WbPush r = wb.push(entry(0x300, 0, 4, 3, false), true, out);
  EXPECT_EQ(r.drained, 2u);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].line, 0x100u);
  EXPECT_EQ(out[1].line, 0x200u);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb.entry(0).line, 0x300u);  // the release itself waits in the buffer
}

TEST(GoldenWriteBuffer, FullBufferDrainsTheOldest) {
  WriteBuffer wb(2);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);
  wb.push(entry(0x200, 0, 4, 2), false, out);
  EXPECT_EQ(wb.push(entry(0x300, 0, 4, 3), false, out).drained, 1u);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x100u);
  EXPECT_EQ(wb.entry(0).line, 0x200u);
  EXPECT_EQ(wb.entry(1).line, 0x300u);
}

TEST(GoldenWriteBuffer, MergeIntoAFullBufferDrainsNothing) {
  WriteBuffer wb(2);
  std::vector<WbEntry> out;
  wb.push(entry(0x100, 0, 4, 1), false, out);
  wb.push(entry(0x200, 0, 4, 2), false, out);
  EXPECT_EQ(wb.push(entry(0x200, 4, 4, 3), false, out).drained, 0u);
  EXPECT_TRUE(out.empty());
}

TEST(GoldenWriteBuffer, DrainEmptiesOldestFirst) {
  WriteBuffer wb(4);
  std::vector<WbEntry> out;
  wb.push(entry(0x300, 0, 4, 1), false, out);
  wb.push(entry(0x100, 0, 4, 2), false, out);
  EXPECT_EQ(wb.drain(out), 2u);
  EXPECT_EQ(out[0].line, 0x300u);
  EXPECT_EQ(out[1].line, 0x100u);
  EXPECT_EQ(wb.size(), 0u);
}

TEST(GoldenWriteBuffer, CapacityIsClamped) {
  EXPECT_EQ(WriteBuffer(0).capacity(), 1u);
  EXPECT_EQ(WriteBuffer(1000).capacity(), WriteBuffer::kMaxEntries);
}

// --- the composed hierarchy ------------------------------------------------------------------

HierarchyConfig tiny_hierarchy() {
  HierarchyConfig c;
  c.l1 = kTiny;
  c.l2 = {1024, 2};  // 4 sets x 2 ways: set = bits 8:7
  c.write_buffer = 2;
  return c;
}

StoreResult store(uint64_t line, unsigned first, unsigned n, uint8_t value) {
  StoreResult r;
  LineRequest req;
  req.line = line;
  req.bytes = bytes_mask(first, n);
  req.sector_mask = req.bytes.sectors();
  for (unsigned i = first; i < first + n; ++i) req.data[i] = value;
  r.lines.push_back(req);
  return r;
}

TEST(GoldenHierarchy, MmioStoreInvalidatesAnL1Hit) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  EXPECT_TRUE(h.l1().lookup(0x000).hit);
  StoreResult mmio = store(0x000, 4, 4, 2);
  mmio.order.mmio = true;
  mmio.order.strong = true;
  ev.clear();
  h.store(mmio, ev);
  ASSERT_EQ(ev.l1.size(), 1u);
  EXPECT_TRUE(ev.l1[0].hit && ev.l1[0].invalidated);
  EXPECT_FALSE(h.l1().lookup(0x000).hit);
}

// Silicon (run 25): bytes 4..7 written by `.cg` into a line the L1 holds bytes 0..3 of: all
// eight are valid afterwards.
TEST(GoldenHierarchy, CgStoreUpdatesAnL1Hit) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  StoreResult cg = store(0x000, 4, 4, 2);
  cg.cache.cop = isa::CacheOp::Cg;
  ev.clear();
  h.store(cg, ev);
  ASSERT_EQ(ev.l1.size(), 1u);
  EXPECT_TRUE(ev.l1[0].hit);
  EXPECT_FALSE(ev.l1[0].invalidated);
  EXPECT_EQ(h.l1().lookup(0x000).valid, (LineByteMask{0xFF, 0}));
}

TEST(GoldenHierarchy, NoAllocateMissLeavesTheL1Empty) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  StoreResult r = store(0x000, 0, 4, 1);
  r.cache.l1 = isa::L1Evict::NoAllocate;
  h.store(r, ev);
  EXPECT_FALSE(ev.l1[0].hit || ev.l1[0].allocated);
  EXPECT_EQ(h.l1().lines_present(), 0u);
}

TEST(GoldenHierarchy, L1IsWriteThroughAndStaysClean) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  EXPECT_EQ(h.l1().lookup(0x000).valid, (LineByteMask{0xF, 0}));
  EXPECT_TRUE(h.l1().lookup(0x000).dirty.empty());
  EXPECT_EQ(h.write_buffer().size(), 1u);
}

TEST(GoldenHierarchy, StoreReachesTheL2OnlyWhenTheBufferDrains) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  EXPECT_FALSE(h.l2().lookup(0x000).hit);
  h.drain(ev);
  ASSERT_EQ(ev.l2.size(), 1u);
  EXPECT_TRUE(ev.l2[0].allocated);
  EXPECT_EQ(h.l2().lookup(0x000).dirty, (LineByteMask{0xF, 0}));
}

// Silicon (H200, 2026-11-27, run 21): 4096 one-thread `st.wt` stores to new lines wrote no DRAM
// byte during the kernel or a 200 us tail. The line is allocated and dirty, as a plain store's.
TEST(GoldenHierarchy, WtStoreStaysDirtyInTheL2) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  StoreResult r = store(0x080, 0, 4, 7);
  r.cache.cop = isa::CacheOp::Wt;
  h.store(r, ev);
  h.drain(ev);
  EXPECT_TRUE(ev.dram.empty());
  EXPECT_EQ(h.l2().lookup(0x080).valid, (LineByteMask{0xF, 0}));
  EXPECT_EQ(h.l2().lookup(0x080).dirty, (LineByteMask{0xF, 0}));
}

TEST(GoldenHierarchy, DirtyL2VictimIsWrittenBackWithItsMask) {
  // L2 set 0 holds lines 0x000, 0x200, 0x400 ...: the third one evicts the first.
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 8, 2, 1), ev);
  h.store(store(0x200, 0, 4, 2), ev);
  h.store(store(0x400, 0, 4, 3), ev);
  h.drain(ev);
  ASSERT_EQ(ev.dram.size(), 1u);
  EXPECT_EQ(ev.dram[0].cause, DramCause::Eviction);
  EXPECT_EQ(ev.dram[0].line, 0x000u);
  EXPECT_EQ(ev.dram[0].bytes, (LineByteMask{0x300, 0}));
  EXPECT_EQ(ev.dram[0].data[8], 1);
}

TEST(GoldenHierarchy, ReleaseStoreDrainsEarlierStoresToTheL2First) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  StoreResult rel = store(0x080, 0, 4, 2);
  rel.order.strong = rel.order.release = true;
  ev.clear();
  h.store(rel, ev);
  ASSERT_EQ(ev.l2.size(), 1u);
  EXPECT_EQ(ev.l2[0].req.line, 0x000u);
  EXPECT_EQ(h.write_buffer().size(), 1u);
  ASSERT_EQ(ev.l1.size(), 1u);
  EXPECT_EQ(ev.l1[0].wb.drained, 1u);  // the release's own event says what it pushed out
  EXPECT_FALSE(ev.l1[0].wb.merged);
}

TEST(GoldenHierarchy, MergedRequestIsReportedOnItsEvent) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  h.store(store(0x000, 4, 4, 2), ev);
  ASSERT_EQ(ev.l1.size(), 2u);
  EXPECT_FALSE(ev.l1[0].wb.merged);
  EXPECT_TRUE(ev.l1[1].wb.merged);
  EXPECT_EQ(ev.merged(), 1u);
}

TEST(GoldenHierarchy, SharedLinesAreNotCached) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  StoreResult r = store(0x000, 0, 4, 1);
  r.lines[0].dest.space = MemSpace::Shared;
  h.store(r, ev);
  EXPECT_TRUE(ev.l1.empty());
  EXPECT_EQ(h.write_buffer().size(), 0u);
}

TEST(GoldenHierarchy, FlushDrainsTheBufferAndCleansTheL2) {
  MemoryHierarchy h = *MemoryHierarchy::create(tiny_hierarchy());
  HierarchyEvents ev;
  h.store(store(0x000, 0, 4, 1), ev);
  h.flush(ev);
  EXPECT_EQ(h.write_buffer().size(), 0u);
  ASSERT_EQ(ev.dram.size(), 1u);
  EXPECT_EQ(ev.dram[0].cause, DramCause::Flush);
  EXPECT_TRUE(h.l2().lookup(0x000).dirty.empty());
}

// --- random: a flushed hierarchy leaves DRAM equal to what the stores wrote ------------------

uint64_t seed_from_env() {
  const char* s = std::getenv("STU_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261124u;
}

TEST(GoldenHierarchy, RandomStreamsFlushToTheStoredImage) {
  const uint64_t seed = seed_from_env();
  std::cout << "GoldenHierarchy seed " << seed << " (set STU_SEED to reproduce)\n";
  testing::Test::RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  size_t stores = 0, dram_writes = 0, merged = 0;
  for (int run = 0; run < 40; ++run) {
    HierarchyConfig cfg;
    cfg.l1 = {uint64_t(256) << (rng() % 3), 1u << (rng() % 2)};
    cfg.l2 = {uint64_t(512) << (rng() % 3), 1u << (rng() % 3)};
    cfg.write_buffer = 1 + unsigned(rng() % 6);
    MemoryHierarchy h = *MemoryHierarchy::create(cfg);
    std::map<uint64_t, uint8_t> want;  // byte address -> last value stored
    std::map<uint64_t, uint8_t> dram;  // the DRAM write log, applied in order
    HierarchyEvents ev;
    auto apply = [&] {
      for (const DramWrite& d : ev.dram)
        for (unsigned i = 0; i < kLineBytes; ++i)
          if (d.bytes.test(i)) dram[d.line + i] = d.data[i];
      dram_writes += ev.dram.size();
      merged += ev.merged();
      ev.clear();
    };
    for (int k = 0; k < 400; ++k) {
      StoreResult r;
      const unsigned nlines = 1 + unsigned(rng() % 2);
      for (unsigned j = 0; j < nlines; ++j) {
        LineRequest req;
        req.line = 0x10000 + (rng() % 24) * kLineBytes;
        if (!r.lines.empty() && req.line <= r.lines.back().line)
          continue;  // ascending, like coalesce()
        const unsigned first = unsigned(rng() % kLineBytes);
        const unsigned n = 1 + unsigned(rng() % (kLineBytes - first));
        for (unsigned i = first; i < first + n; ++i) {
          if (rng() % 8 == 0) continue;  // holes
          req.bytes.set(i);
          req.data[i] = uint8_t(rng());
          want[req.line + i] = req.data[i];
        }
        if (req.bytes.empty()) continue;
        req.sector_mask = req.bytes.sectors();
        r.lines.push_back(req);
      }
      switch (rng() % 6) {  // ordering
        case 0:
          r.order.strong = true;
          break;
        case 1:
          r.order.strong = r.order.release = true;
          break;
        case 2:
          r.order.strong = r.order.mmio = true;
          break;
        default:
          break;
      }
      switch (rng() % 8) {  // cache attributes
        case 0:
          r.cache.cop = isa::CacheOp(rng() % 4);
          break;
        case 1:
          r.cache.l1 = isa::L1Evict(rng() % 5);
          break;
        case 2:
          r.cache.l2 = isa::L2Evict(rng() % 3);
          break;
        case 3:
          r.cache.has_policy = true;
          r.cache.policy = decode_policy(encode_fractional_policy(
              L2Priority(rng() % 4), L2Priority::First, float(1 + rng() % 16) / 16.0f));
          break;
        default:
          break;
      }
      h.store(r, ev);
      ++stores;
      apply();
      // Every valid L1 byte holds the last value stored there (write-through, single SM).
      for (const LineRequest& req : r.lines) {
        const uint8_t* d = h.l1().data(req.line);
        if (!d) continue;
        const LineByteMask v = h.l1().lookup(req.line).valid;
        for (unsigned i = 0; i < kLineBytes; ++i) {
          if (!v.test(i)) continue;
          ASSERT_EQ(d[i], want[req.line + i]) << "seed " << seed << " run " << run;
        }
      }
    }
    h.flush(ev);
    apply();
    ASSERT_EQ(h.write_buffer().size(), 0u);
    // Every valid L2 byte holds the last value stored there, and no line is dirty.
    for (uint64_t line = 0x10000; line < 0x10000 + 24 * kLineBytes; line += kLineBytes) {
      const CacheLookup l = h.l2().lookup(line);
      if (!l.hit) continue;
      ASSERT_TRUE(l.dirty.empty()) << "seed " << seed << " run " << run;
      const uint8_t* d = h.l2().data(line);
      for (unsigned i = 0; i < kLineBytes; ++i) {
        if (!l.valid.test(i)) continue;
        ASSERT_EQ(int(d[i]), int(want[line + i])) << "seed " << seed << " run " << run;
      }
    }
    ASSERT_EQ(dram.size(), want.size()) << "seed " << seed << " run " << run;
    for (const auto& [addr, value] : want)
      ASSERT_EQ(int(dram[addr]), int(value))
          << "seed " << seed << " run " << run << " byte 0x" << std::hex << addr;
  }
  std::cout << "checked " << stores << " stores, " << dram_writes << " DRAM writes, " << merged
            << " merges\n";
}

// --- random: SectoredCache against a straightforward reference --------------------------------

// The rules of cache.h, written the plain way: per set a vector of ways, each with a present
// flag, line address, class, stamp, masks and data; victims chosen by class then stamp.
class RefCache {
 public:
  struct Way {
    bool present = false;
    uint64_t line = 0;
    EvictClass cls = EvictClass::Normal;
    uint64_t stamp = 0;
    LineByteMask valid, dirty;
    std::array<uint8_t, kLineBytes> data{};
  };

  RefCache(uint32_t sets, uint32_t ways, bool keep,
           Replacement rule = Replacement::LeastRecentlyWritten)
      : sets_(sets), keep_(keep), rule_(rule), set_(sets, std::vector<Way>(ways)) {}

  uint32_t set_of(uint64_t addr) const { return uint32_t(addr / kLineBytes % sets_); }
  static uint64_t line_of(uint64_t addr) { return addr - addr % kLineBytes; }

  int find(uint64_t addr) const {
    const std::vector<Way>& ways = set_[set_of(addr)];
    for (size_t w = 0; w < ways.size(); ++w)
      if (ways[w].present && ways[w].line == line_of(addr)) return int(w);
    return -1;
  }

  CacheLineOut out_of(const Way& x) const {
    CacheLineOut o;
    o.line = x.line;
    o.valid = x.valid;
    o.dirty = x.dirty;
    o.cls = x.cls;
    if (keep_)
      for (unsigned i = 0; i < kLineBytes; ++i) o.data[i] = x.valid.test(i) ? x.data[i] : 0;
    return o;
  }

  CacheWriteResult write(const CacheWrite& w) {
    CacheWriteResult r;
    r.set = set_of(w.line);
    std::vector<Way>& ways = set_[r.set];
    const int f = find(w.line);
    Way* x;
    if (f >= 0) {
      r.hit = true;
      r.way = uint32_t(f);
      x = &ways[r.way];
      if (w.cls) x->cls = *w.cls;
    } else {
      if (!w.allocate) return r;
      r.allocated = true;
      int v = -1;
      for (size_t i = 0; i < ways.size() && v < 0; ++i)
        if (!ways[i].present) v = int(i);                         // rule 1: the lowest free way
      if (v < 0 && rule_ == Replacement::LeastRecentlyWritten) {  // rule 2: lowest class,
        v = 0;                                                    // then oldest stamp
        for (size_t i = 1; i < ways.size(); ++i) {
          const Way& a = ways[i];
          const Way& b = ways[size_t(v)];
          if (a.cls < b.cls || (a.cls == b.cls && a.stamp < b.stamp)) v = int(i);
        }
      } else if (v < 0) {  // rule 2, Random: the lowest class's first way from r, cyclically
        random_ ^= random_ << 13;
        random_ ^= random_ >> 17;
        random_ ^= random_ << 5;
        const size_t n = ways.size();
        const size_t start = random_ % n;
        EvictClass lowest = EvictClass::Last;
        for (const Way& a : ways) lowest = std::min(lowest, a.cls);
        for (size_t k = 0; k < n && v < 0; ++k)
          if (ways[(start + k) % n].cls == lowest) v = int((start + k) % n);
      }
      if (r.allocated && ways[size_t(v)].present) {
        r.evicted = true;
        r.victim = out_of(ways[size_t(v)]);
      }
      r.way = uint32_t(v);
      x = &ways[r.way];
      *x = Way{};
      x->present = true;
      x->line = line_of(w.line);
      x->cls = w.cls.value_or(EvictClass::Normal);
    }
    x->stamp = ++counter_;
    for (unsigned i = 0; i < kLineBytes; ++i) {
      if (!w.bytes.test(i)) continue;
      x->valid.set(i);
      if (w.mode == WriteMode::Back)
        x->dirty.set(i);
      else
        (i < 64 ? x->dirty.lo : x->dirty.hi) &= ~(uint64_t(1) << (i % 64));
      if (w.data) x->data[i] = w.data[i];
    }
    return r;
  }

  CacheLookup lookup(uint64_t addr) const {
    CacheLookup l;
    l.set = set_of(addr);
    const int f = find(addr);
    if (f < 0) return l;
    const Way& x = set_[l.set][size_t(f)];
    l.hit = true;
    l.way = uint32_t(f);
    l.valid = x.valid;
    l.dirty = x.dirty;
    l.cls = x.cls;
    return l;
  }

  // The bytes data() must show: valid bytes, the others 0. False when data() must be null.
  bool data(uint64_t addr, std::array<uint8_t, kLineBytes>& d) const {
    const int f = find(addr);
    if (f < 0 || !keep_) return false;
    d = out_of(set_[set_of(addr)][size_t(f)]).data;
    return true;
  }

  bool invalidate(uint64_t addr, CacheLineOut* out) {
    const int f = find(addr);
    if (f < 0) return false;
    Way& x = set_[set_of(addr)][size_t(f)];
    if (out) *out = out_of(x);
    x = Way{};
    return true;
  }

  size_t flush(std::vector<CacheLineOut>& out) {
    size_t n = 0;
    for (std::vector<Way>& ways : set_)
      for (Way& x : ways) {
        if (!x.present || x.dirty.empty()) continue;
        out.push_back(out_of(x));
        x.dirty = {};
        ++n;
      }
    return n;
  }

  size_t lines_present() const {
    size_t n = 0;
    for (const std::vector<Way>& ways : set_)
      for (const Way& x : ways) n += x.present;
    return n;
  }

 private:
  uint32_t sets_;
  bool keep_;
  Replacement rule_;
  uint32_t random_ = 0x2545F491u;  // the xorshift32 generator of rule 2 (Random), its seed
  uint64_t counter_ = 0;
  std::vector<std::vector<Way>> set_;
};

void expect_same(const CacheLineOut& a, const CacheLineOut& b) {
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.valid, b.valid);
  EXPECT_EQ(a.dirty, b.dirty);
  EXPECT_EQ(a.cls, b.cls);
  EXPECT_EQ(a.data, b.data);
}

void expect_same(const CacheLookup& a, const CacheLookup& b) {
  EXPECT_EQ(a.hit, b.hit);
  EXPECT_EQ(a.set, b.set);
  EXPECT_EQ(a.way, b.way);
  EXPECT_EQ(a.valid, b.valid);
  EXPECT_EQ(a.dirty, b.dirty);
  EXPECT_EQ(a.cls, b.cls);
}

void expect_same_data(const SectoredCache& c, const RefCache& ref, uint64_t addr) {
  std::array<uint8_t, kLineBytes> want;
  const uint8_t* got = c.data(addr);
  if (!ref.data(addr, want)) {
    EXPECT_EQ(got, nullptr);
    return;
  }
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(std::memcmp(got, want.data(), kLineBytes), 0);
}

LineByteMask random_mask(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0:
      return {~uint64_t(0), ~uint64_t(0)};  // the whole line
    case 1:
      return {};  // no byte
    case 2: {     // one sector
      const unsigned s = unsigned(rng() % kSectorsPerLine);
      const uint64_t m = ~uint64_t(0) >> 32;
      return s < 2 ? LineByteMask{m << (32 * s), 0} : LineByteMask{0, m << (32 * (s - 2))};
    }
    case 3: {  // a run of bytes
      LineByteMask m;
      const unsigned first = unsigned(rng() % kLineBytes);
      const unsigned n = 1 + unsigned(rng() % (kLineBytes - first));
      for (unsigned i = first; i < first + n; ++i) m.set(i);
      return m;
    }
    default:
      return {rng() & rng(), rng() | rng()};  // scattered bytes
  }
}

std::optional<EvictClass> random_class(std::mt19937_64& rng) {
  const unsigned k = unsigned(rng() % 4);
  if (k == 3) return std::nullopt;
  return EvictClass(k);
}

// One geometry, one data mode: `ops` random calls on both, every returned field compared.
void differential_run(uint64_t seed, uint32_t ways, uint32_t sets, CacheData mode, int ops,
                      Replacement rule) {
  std::ostringstream what;
  what << "seed " << seed << ", " << ways << " ways x " << sets << " sets, "
       << (mode == CacheData::Keep ? "keep" : "drop") << ", " << to_string(rule);
  SCOPED_TRACE(what.str());
  std::mt19937_64 rng(seed);
  const CacheGeometry g{uint64_t(kLineBytes) * ways * sets, ways, rule};
  std::optional<SectoredCache> made = SectoredCache::create(g, nullptr, mode);
  ASSERT_TRUE(made);
  SectoredCache& c = *made;
  ASSERT_EQ(g.sets(), sets);
  RefCache ref(sets, ways, mode == CacheData::Keep, rule);
  // Lines: about three per way of the cache, so sets fill up, hit and evict; some far apart
  // (same set, different high bits).
  const uint64_t nlines = uint64_t(ways) * sets * 3;
  const auto random_addr = [&] {
    uint64_t a = (rng() % nlines) * kLineBytes + rng() % kLineBytes;  // low bits ignored
    if (rng() % 4 == 0) a += uint64_t(1 + rng() % 3) << 40;
    return a;
  };
  std::vector<uint8_t> payload(kLineBytes);
  for (int op = 0; op < ops; ++op) {
    SCOPED_TRACE("op " + std::to_string(op));
    const unsigned kind = unsigned(rng() % 100);
    const uint64_t addr = random_addr();
    if (kind < 70) {  // write
      CacheWrite w;
      w.line = addr;
      w.bytes = random_mask(rng);
      for (uint8_t& b : payload) b = uint8_t(rng());
      w.data = rng() % 8 == 0 ? nullptr : payload.data();
      w.cls = random_class(rng);
      w.allocate = rng() % 6 != 0;
      w.mode = rng() % 3 == 0 ? WriteMode::Through : WriteMode::Back;
      const CacheWriteResult a = c.write(w), b = ref.write(w);
      EXPECT_EQ(a.hit, b.hit);
      EXPECT_EQ(a.allocated, b.allocated);
      EXPECT_EQ(a.set, b.set);
      EXPECT_EQ(a.way, b.way);
      EXPECT_EQ(a.evicted, b.evicted);
      expect_same(a.victim, b.victim);
    } else if (kind < 80) {  // invalidate, with or without `out`
      const bool with_out = rng() % 2;
      CacheLineOut oa, ob;
      oa.line = ob.line = 0x1234;  // what a miss leaves alone
      oa.data.fill(0xEE);          // what a hit overwrites
      ob.data.fill(0xEE);
      EXPECT_EQ(c.invalidate(addr, with_out ? &oa : nullptr),
                ref.invalidate(addr, with_out ? &ob : nullptr));
      expect_same(oa, ob);
    } else if (kind < 83) {  // flush, appended to what `out` holds
      std::vector<CacheLineOut> fa(1), fb(1);
      EXPECT_EQ(c.flush(fa), ref.flush(fb));
      ASSERT_EQ(fa.size(), fb.size());
      for (size_t i = 0; i < fa.size(); ++i) expect_same(fa[i], fb[i]);
    } else if (kind < 93) {
      expect_same(c.lookup(addr), ref.lookup(addr));
    } else {
      expect_same_data(c, ref, addr);
    }
    EXPECT_EQ(c.set_of(addr), ref.set_of(addr));
    if (testing::Test::HasFailure()) return;  // the first difference is the one to read
    if (op % 256 == 255) {                    // the whole state
      EXPECT_EQ(c.lines_present(), ref.lines_present());
      for (uint64_t l = 0; l < nlines; ++l)
        for (uint64_t hi : {uint64_t(0), uint64_t(1) << 40}) {
          expect_same(c.lookup(l * kLineBytes + hi), ref.lookup(l * kLineBytes + hi));
          expect_same_data(c, ref, l * kLineBytes + hi);
        }
      if (testing::Test::HasFailure()) return;
    }
  }
}

TEST(GoldenCacheDifferential, RandomCallsMatchTheReference) {
  const uint64_t seed = seed_from_env();
  std::cout << "GoldenCacheDifferential seed " << seed << " (set STU_SEED to reproduce)\n";
  testing::Test::RecordProperty("seed", std::to_string(seed));
  const std::pair<uint32_t, uint32_t> geometries[] = {
      {1, 1}, {1, 8}, {2, 1}, {2, 4}, {4, 2}, {4, 16}, {8, 4}, {16, 2}, {32, 1}, {64, 1}, {64, 4}};
  uint64_t run = 0;
  for (const auto& [ways, sets] : geometries)
    for (CacheData mode : {CacheData::Keep, CacheData::Drop})
      for (Replacement rule : {Replacement::LeastRecentlyWritten, Replacement::Random}) {
        differential_run(seed + run++, ways, sets, mode, 20000, rule);
        if (HasFailure()) return;
      }
}

}  // namespace
