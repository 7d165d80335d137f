// Seeded random differential test of the golden executor against a naive reference written
// here from the spec: per lane, compute the address, check alignment and bounds, and write
// the element bytes little-endian, one byte at a time. The line requests are recomputed from
// the reference's bytes (one per 128-byte line, sector = any byte of its 32).
//
// Seed: STU_SEED in the environment, else a fixed default; it is printed, and the same seed
// reproduces the same run exactly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/golden/store_align.h"
#include "stu/isa/parser.h"

namespace {

using namespace stu;
using namespace stu::golden;

uint64_t seed_from_env() {
  const char* s = std::getenv("STU_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261122u;
}

constexpr uint64_t kGlobalBase = 0x2'0000'0000ull;  // above 4 GiB
constexpr uint64_t kGlobalSize = 0x4000;
constexpr uint64_t kSharedBytes = 0x2000;
constexpr uint64_t kSharedWindow = 0x7F00'0000'0000ull;  // the documented defaults
constexpr uint64_t kSharedStride = 1ull << 24;
constexpr uint64_t kLocalWindow = 0x7E00'0000'0000ull;
constexpr uint64_t kLocalBytes = 0x1000;

struct Form {
  const char* text;
  const char* space;  // "global", "shared", "cluster", "generic"
  unsigned elems;
  unsigned esize;
};

const Form kForms[] = {
    {"st.global.u8 [%a], %v0;", "global", 1, 1},
    {"st.global.u16 [%a], %v0;", "global", 1, 2},
    {"st.global.u32 [%a], %v0;", "global", 1, 4},
    {"st.global.u64 [%a], %v0;", "global", 1, 8},
    {"st.global.b128 [%a], %v0;", "global", 1, 16},
    {"st.global.v2.u32 [%a], {%v0, %v1};", "global", 2, 4},
    {"st.global.v4.u16 [%a], {%v0, %v1, %v2, %v3};", "global", 4, 2},
    {"st.global.v4.u32 [%a], {%v0, %v1, %v2, %v3};", "global", 4, 4},
    {"st.global.v2.u64 [%a], {%v0, %v1};", "global", 2, 8},
    {"st.shared.u32 [%a], %v0;", "shared", 1, 4},
    {"st.shared::cta.v2.u16 [%a], {%v0, %v1};", "shared", 2, 2},
    {"st.shared::cluster.u64 [%a], %v0;", "cluster", 1, 8},
    {"st.u32 [%a], %v0;", "generic", 1, 4},
    {"st.v2.u8 [%a], {%v0, %v1};", "generic", 2, 1},
};

// Key of one byte in the reference: (space, cta, thread, offset).
using ByteKey = std::tuple<int, unsigned, unsigned, uint64_t>;

struct Reference {
  std::map<ByteKey, uint8_t> bytes;
  // Resolves like the spec says; returns false (with the fault) when the lane faults.
  static bool place(const Form& f, uint64_t a, unsigned size, unsigned cta, unsigned thread,
                    ByteKey& key, FaultKind& fault) {
    if (a % size) {
      fault = FaultKind::Misaligned;
      return false;
    }
    std::string sp = f.space;
    if (sp == "generic") {
      if (a >= kSharedWindow && a < kSharedWindow + 16 * kSharedStride) {
        const uint64_t rel = a - kSharedWindow;
        if (rel / kSharedStride >= 2) {
          fault = FaultKind::OutOfWindow;
          return false;
        }
        sp = "cluster";
        a = rel;
      } else if (a >= kLocalWindow && a < kLocalWindow + (1ull << 24)) {
        if (a - kLocalWindow + size > kLocalBytes) {
          fault = FaultKind::OutOfAllocation;
          return false;
        }
        key = ByteKey{2, cta, thread, a - kLocalWindow};
        return true;
      } else {
        sp = "global";
      }
    }
    if (sp == "global") {
      if (a < kGlobalBase || a + size > kGlobalBase + kGlobalSize) {
        fault = FaultKind::OutOfAllocation;
        return false;
      }
      key = ByteKey{0, 0, 0, a};
      return true;
    }
    unsigned owner = cta;
    uint64_t off = a;
    if (sp == "cluster") {
      owner = unsigned(a / kSharedStride);
      off = a % kSharedStride;
      if (owner >= 2) {
        fault = FaultKind::OutOfWindow;
        return false;
      }
    }
    if (off + size > kSharedBytes) {
      fault = FaultKind::OutOfAllocation;
      return false;
    }
    key = ByteKey{1, owner, 0, off};
    return true;
  }
};

uint64_t random_address(std::mt19937_64& rng, const Form& f, unsigned size) {
  const unsigned pick = unsigned(rng() % 16);
  const uint64_t aligned_off = (rng() % 0x100) * size;
  uint64_t a = 0;
  const std::string sp = f.space;
  if (sp == "global") a = kGlobalBase + aligned_off;
  if (sp == "shared") a = aligned_off;
  if (sp == "cluster") a = (rng() % 2) * kSharedStride + aligned_off;
  if (sp == "generic") {
    const unsigned w = unsigned(rng() % 3);
    a = w == 0   ? kGlobalBase + aligned_off
        : w == 1 ? kSharedWindow + (rng() % 2) * kSharedStride + aligned_off
                 : kLocalWindow + aligned_off % kLocalBytes;
  }
  if (pick == 0) a += 1 + rng() % (size > 1 ? size - 1 : 1);  // misaligned (or shifted)
  if (pick == 1) a += kGlobalSize * 4;                        // likely out of bounds
  if (pick == 2 && sp == "cluster") a += 2 * kSharedStride;   // rank outside the cluster
  return a;
}

void run_random(uint64_t seed, int iterations) {
  std::cout << "GoldenRandom seed " << seed << " (set STU_SEED to reproduce)\n";
  testing::Test::RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);

  ModelConfig cfg;
  cfg.cluster_ctas = 2;
  cfg.shared_bytes = kSharedBytes;
  cfg.local_bytes = kLocalBytes;
  MachineState m(cfg);
  ASSERT_TRUE(m.allocations().add(kGlobalBase, kGlobalSize));
  Reference ref;
  StoreResult out;
  Scratch scratch;
  size_t checked_lanes = 0, faults = 0, lines = 0;

  for (int iter = 0; iter < iterations; ++iter) {
    const Form& f = kForms[rng() % (sizeof kForms / sizeof kForms[0])];
    Diagnostics d;
    const auto ins = isa::parse_instruction(f.text, d);
    ASSERT_TRUE(ins) << f.text;
    const unsigned size = f.elems * f.esize;
    const unsigned cta = unsigned(rng() % 2), warp = unsigned(rng() % 4);
    const uint32_t active = rng() % 4 == 0 ? 0xFFFFFFFFu : uint32_t(rng());
    WarpOperands ops;
    ops.src.assign(size_t(f.elems) * 32, RegValue{});
    // A quarter of the stores are coalesced (lane l at base + l*size), so that full lines and
    // the full-mask write path are exercised too.
    const bool coalesced = rng() % 4 == 0;
    const uint64_t base = random_address(rng, f, size) & ~uint64_t(127);
    for (unsigned l = 0; l < 32; ++l) {
      ops.addr[l] = coalesced ? base + uint64_t(l) * size : random_address(rng, f, size);
      for (unsigned e = 0; e < f.elems; ++e) ops.src[e * 32 + l] = RegValue{rng(), rng()};
    }
    execute(m, *ins, WarpContext{uint16_t(cta), uint16_t(warp), active}, ops, out, scratch);

    // The reference, lane by lane in the order the same-location rule gives (docs/golden.md:
    // groups of 128 bytes of lane data in ascending order, each from its highest lane down, the
    // later write winning); lines recomputed from its bytes.
    const unsigned group = std::min(32u, 128u / size);
    std::vector<unsigned> order;
    for (unsigned g = 0; g < 32; g += group)
      for (unsigned k = group; k-- > 0;) order.push_back(g + k);
    std::map<std::tuple<int, unsigned, unsigned, uint64_t>, uint8_t> want_sectors;
    for (unsigned l : order) {
      if (!(active >> l & 1)) {
        EXPECT_EQ(out.fault[l].kind, FaultKind::None) << "inactive lane " << l;
        continue;
      }
      ByteKey key;
      FaultKind fault = FaultKind::None;
      const bool ok = Reference::place(f, ops.addr[l], size, cta, warp * 32 + l, key, fault);
      ASSERT_EQ(out.fault[l].kind, fault)
          << "seed " << seed << " iteration " << iter << " lane " << l << ": " << f.text << " at 0x"
          << std::hex << ops.addr[l];
      ++checked_lanes;
      if (!ok) {
        ++faults;
        continue;
      }
      for (unsigned b = 0; b < size; ++b) {
        const unsigned e = b / f.esize, k = b % f.esize;
        const RegValue& v = ops.src[e * 32 + l];
        const uint8_t byte = uint8_t(k < 8 ? v.lo >> (8 * k) : v.hi >> (8 * (k - 8)));
        auto [space, owner, thread, off] = key;
        ref.bytes[ByteKey{space, owner, thread, off + b}] = byte;  // the later write wins
        want_sectors[{space, owner, thread, (off + b) & ~uint64_t(127)}] |=
            uint8_t(1u << (((off + b) & 127) / 32));
      }
    }
    ASSERT_EQ(out.lines.size(), want_sectors.size()) << "seed " << seed << " iteration " << iter;
    size_t i = 0;
    for (const auto& [k, sectors] : want_sectors) {  // std::map order = the documented order
      const LineRequest& r = out.lines[i++];
      const int space = r.dest.space == MemSpace::Global   ? 0
                        : r.dest.space == MemSpace::Shared ? 1
                                                           : 2;
      EXPECT_EQ(std::make_tuple(space, unsigned(r.dest.cta), unsigned(r.dest.thread), r.line), k);
      EXPECT_EQ(r.sector_mask, sectors);
    }
    lines += out.lines.size();
  }

  // Every byte the reference wrote reads back the same from the model.
  for (const auto& [k, byte] : ref.bytes) {
    auto [space, owner, thread, off] = k;
    const Dest d{space == 0   ? MemSpace::Global
                 : space == 1 ? MemSpace::Shared
                              : MemSpace::Local,
                 uint16_t(owner), thread};
    uint8_t got = 0;
    ASSERT_TRUE(m.read(d, off, &got, 1));
    ASSERT_EQ(got, byte) << "seed " << seed << " space " << space << " cta " << owner
                         << " offset 0x" << std::hex << off;
  }
  std::cout << "GoldenRandom checked " << checked_lanes << " lanes (" << faults << " faulted), "
            << lines << " line requests, " << ref.bytes.size() << " bytes\n";
  EXPECT_GT(faults, 0u);
  EXPECT_GT(lines, size_t(iterations) / 3);
}

TEST(GoldenRandom, ExecutorMatchesNaiveReference) { run_random(seed_from_env(), 3000); }

// Label `long` (scripts/test.sh --long): 64 further seeds of 20,000 stores each.
TEST(GoldenRandom, LongExecutorMatchesNaiveReferenceManySeeds) {
  const uint64_t first = seed_from_env() + 1;
  for (uint64_t seed = first; seed < first + 64 && !HasFatalFailure(); ++seed)
    run_random(seed, 20000);
}

}  // namespace

// plan() builds a contiguous st.global warp's lines in one pass (plan_contiguous_global in
// executor.cpp). Random warps around that shape (contiguous over any active mask, from bases
// anywhere in a line, with one lane moved, at the end of the allocation, and every type and
// vector width) must plan to exactly what golden::coalesce makes of the accesses the spec
// gives (lane l: `size` bytes at its address, the elements' low bytes little-endian), every
// field and all 128 data bytes; the lanes' accesses are recorded when asked for.
TEST(GoldenRandom, ContiguousGlobalWarpsPlanAsTheirAccessesCoalesce) {
  const uint64_t seed = seed_from_env();
  std::cout << "GoldenRandom.ContiguousGlobalWarpsPlanAsTheirAccessesCoalesce seed " << seed
            << " (set STU_SEED to reproduce)\n";
  std::mt19937_64 rng(seed);
  const char* forms[][3] = {
      {"st.global.u8 [%a], %v0;", "1", "1"},
      {"st.global.u16 [%a], %v0;", "1", "2"},
      {"st.global.u32 [%a+4], %v0;", "1", "4"},
      {"st.global.u64 [%a], %v0;", "1", "8"},
      {"st.global.b128 [%a], %v0;", "1", "16"},
      {"st.global.v2.u32 [%a], {%v0, %v1};", "2", "4"},
      {"st.global.v4.u16 [%a], {%v0, %v1, %v2, %v3};", "4", "2"},
      {"st.global.v4.u32 [%a], {%v0, %v1, %v2, %v3};", "4", "4"},
      {"st.global.v2.u64 [%a], {%v0, %v1};", "2", "8"},
      {"st.global.v2.b128 [%a], {%v0, %v1};", "2", "16"},
      {"st.global.v4.b64 [%a], {%v0, %v1, %v2, %v3};", "4", "8"},
      {"st.global.v8.b32 [%a], {%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7};", "8", "4"},
      {"st.global.v4.u32 [%a], {%v0, _, %v2, %v3};", "4", "4"},  // a sink: the general path
  };
  ModelConfig cfg;
  MachineState m(cfg);
  ASSERT_TRUE(m.allocations().add(kGlobalBase, kGlobalSize));
  StoreResult out;
  Scratch scratch;
  scratch.record_accesses = true;
  unsigned planned = 0;
  for (int round = 0; round < 4000; ++round) {
    const auto& f = forms[rng() % std::size(forms)];
    Diagnostics d;
    const auto ins = isa::parse_instruction(f[0], d);
    ASSERT_TRUE(ins) << f[0];
    const unsigned elems = unsigned(std::stoul(f[1])), esize = unsigned(std::stoul(f[2]));
    const unsigned size = elems * esize;
    const uint64_t imm = uint64_t(ins->addr.offset);
    const uint32_t sinks = std::string(f[0]).find('_') == std::string::npos ? 0 : 0b10;
    const uint32_t active = rng() % 3 == 0 ? 0xFFFFFFFFu : uint32_t(rng()) | 1u << (rng() % 32);
    const unsigned n = unsigned(__builtin_popcount(active));
    // First access: anywhere in the allocation, a whole number of sizes into a line; now and
    // then so that the last access ends at the allocation's end, or one size past it.
    uint64_t first = kGlobalBase + (rng() % (kGlobalSize / size)) * size;
    const unsigned edge = unsigned(rng() % 8);
    if (edge == 0) first = kGlobalBase + kGlobalSize - uint64_t(n) * size;
    if (edge == 1) first = kGlobalBase + kGlobalSize - uint64_t(n - 1) * size;
    WarpOperands ops;
    ops.src.assign(size_t(elems) * 32, RegValue{});
    unsigned k = 0;
    for (unsigned l = 0; l < 32; ++l) {
      ops.addr[l] = (active >> l & 1) ? first + uint64_t(k++) * size - imm : rng();
      for (unsigned e = 0; e < elems; ++e) ops.src[e * 32 + l] = RegValue{rng(), rng()};
    }
    const unsigned moved = unsigned(rng() % 32);  // now and then one lane leaves the run
    if (rng() % 6 == 0) ops.addr[moved] += (rng() % 2 ? size : 128);
    if (rng() % 10 == 0) ops.addr[moved] += 1;  // misaligned: that lane faults
    const WarpContext ctx{0, 0, active};
    plan(m, *ins, ctx, ops, out, scratch);

    // The accesses the spec gives, and what coalesce makes of them.
    std::vector<LaneAccess> want_acc;
    uint32_t stored = 0;
    bool fault = false;
    for (unsigned l = 0; l < 32; ++l) {
      if (!(active >> l & 1)) continue;
      const uint64_t a = ops.addr[l] + imm;
      if (a % size || a < kGlobalBase || a + size > kGlobalBase + kGlobalSize) {
        fault = true;
        continue;
      }
      LaneAccess acc;
      acc.lane = uint8_t(l);
      acc.size = uint8_t(size);
      acc.dest = Dest{MemSpace::Global, 0, 0};
      acc.offset = a;
      for (unsigned b = 0; b < size; ++b) {
        const unsigned e = b / esize, i = b % esize;
        const RegValue& v = ops.src[e * 32 + l];
        acc.data[b] = uint8_t(i < 8 ? v.lo >> (8 * i) : v.hi >> (8 * (i - 8)));
      }
      acc.byte_mask = vector_byte_mask(esize, elems, sinks);
      want_acc.push_back(acc);
      stored |= 1u << l;
    }
    std::vector<LineRequest> want;
    coalesce(want_acc.data(), want_acc.size(), lane_group(*ins), want);
    const std::string where =
        "seed " + std::to_string(seed) + " round " + std::to_string(round) + ": " + f[0];
    ASSERT_EQ(out.stored_mask, stored) << where;
    EXPECT_EQ(out.fault_mask != 0, fault) << where;
    ASSERT_EQ(out.lines.size(), want.size()) << where;
    uint64_t bytes = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(compare(out.lines[i], want[i]), "") << where << " line " << i;
      EXPECT_EQ(out.lines[i].data, want[i].data) << where << " line " << i;
      bytes += want[i].bytes.count();
    }
    EXPECT_EQ(out.bytes, bytes) << where;
    ASSERT_EQ(scratch.naccess, want_acc.size()) << where;
    for (size_t i = 0; i < want_acc.size(); ++i) {
      const LaneAccess& got = scratch.accesses[i];
      EXPECT_EQ(got.lane, want_acc[i].lane) << where;
      EXPECT_EQ(got.offset, want_acc[i].offset) << where;
      EXPECT_EQ(got.byte_mask, want_acc[i].byte_mask) << where;
      EXPECT_EQ(std::memcmp(got.data.data(), want_acc[i].data.data(), size), 0) << where;
    }
    planned += !fault;
  }
  EXPECT_GT(planned, 2000u);
}
