// rtl/stu_store_unit.sv through the `stu run --on rtl` model: directed stores whose effects are
// worked out by hand (a coalesced warp is one full line; st.async completes its bytes on the
// barrier; a misaligned lane faults alone; a tcgen05.st from the wrong quarter writes nothing;
// 32 barriers completed by one st.async warp; SASS ST's address against the register count
// and without .E; an evict_normal hint on an L2 hit), then seeded cosimulation against
// golden::execute / execute_sass.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cosim_test.h"
#include "harness.h"
#include "rtl_model.h"
#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/golden/policy.h"
#include "stu/isa/parser.h"
#include "stu/isa/sass.h"
#include "stu/sts/model.h"

namespace {

using namespace stu;

isa::Instruction parse(const char* text) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d);
  EXPECT_TRUE(ins && !d.has_errors()) << text;
  return ins ? *ins : isa::Instruction{};
}

golden::ModelConfig cluster_of_two() {
  golden::ModelConfig c;
  c.cluster_ctas = 2;
  return c;
}

TEST(StoreUnit, CoalescedU32WarpIsOneFullLineInTheImage) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  m->image().allocations().add(0x10000, 0x1000);
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = 0x10000 + 4 * l;
    ops.src[l].lo = 0xA0000000u + l;
  }
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(m->take_error(), "");
  EXPECT_EQ(out.fault_mask, 0u);
  EXPECT_EQ(out.stored_mask, ~0u);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].line, 0x10000u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xFu);
  EXPECT_EQ(out.bytes, 128u);
  uint8_t b[4];
  m->image().read(golden::Dest{}, 0x10000 + 4 * 7, b, 4);
  EXPECT_EQ(b[0], 7);
  EXPECT_EQ(b[3], 0xA0);
}

// A memory side that answers late and stalls every port (the cosimulation's environment)
// changes when things happen, never what: the same warp store gives the same result, in more
// cycles. Every lane asks the allocation port (a global store), so the answers wait 0..8
// cycles each; the status port is ready a quarter of the cycles.
TEST(StoreUnit, ALateAndStallingMemorySideChangesTimingNotResults) {
  const isa::Instruction ins = parse("st.global.v2.u32 [%rd1], {%r1, %r2};");
  golden::WarpOperands ops;
  ops.src.assign(64, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = 0x10000 + 8 * (31 - l) + (l == 5 ? 0x2000 : 0);  // lane 5 outside
    ops.src[l].lo = l;
    ops.src[32 + l].lo = 0x100 + l;
  }
  // One model at a time (a process's Verilated models are made and destroyed in turn here).
  const auto run = [&](const tb::RtlTrace* env, golden::StoreResult& out) {
    auto m = tb::make_rtl_model(golden::ModelConfig{}, env);
    m->image().allocations().add(0x10000, 0x1000);
    m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
    EXPECT_EQ(m->take_error(), "");
    return m->cycles();
  };
  golden::StoreResult fast, slow;
  tb::RtlTrace env;
  env.env = tb::RtlEnvironment{7, 8, 0.75};
  const uint64_t fast_cycles = run(nullptr, fast);
  const uint64_t slow_cycles = run(&env, slow);
  EXPECT_EQ(fast.fault_mask, 1u << 5);  // out of the allocation
  EXPECT_EQ(slow.fault_mask, fast.fault_mask);
  EXPECT_EQ(slow.stored_mask, ~0u & ~(1u << 5));
  EXPECT_EQ(slow.stored_mask, fast.stored_mask);
  ASSERT_EQ(slow.lines.size(), fast.lines.size());
  for (size_t i = 0; i < fast.lines.size(); ++i) EXPECT_EQ(slow.lines[i].line, fast.lines[i].line);
  EXPECT_GT(slow_cycles, fast_cycles + 8);
}

// tcgen05.alloc/dealloc on the RTL's allocator (stu_tmem_alloc): requests it must refuse change
// nothing. Counts: a power of two of columns in [32, 512]; placement: the lowest run of free
// 32-column units that fits; a dealloc names one live allocation exactly (start and size).
TEST(StoreUnit, TmemAllocatorRefusesBadRequestsAndChangesNothing) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  EXPECT_FALSE(m->tmem_alloc(0, 48));    // not a power of two
  EXPECT_FALSE(m->tmem_alloc(0, 16));    // below one unit
  EXPECT_FALSE(m->tmem_alloc(0, 1024));  // beyond the 512 columns
  EXPECT_FALSE(m->tmem_alloc(0, 0));
  EXPECT_FALSE(m->tmem_dealloc(0, 0, 32));                        // nothing is allocated
  ASSERT_EQ(m->tmem_alloc(0, 256), std::optional<uint32_t>(0u));  // units 0..7: nothing moved
  ASSERT_EQ(m->tmem_alloc(0, 128), std::optional<uint32_t>(256u));
  ASSERT_EQ(m->tmem_alloc(0, 64), std::optional<uint32_t>(384u));
  EXPECT_FALSE(m->tmem_alloc(0, 128));              // 64 columns are left: no run of 4 units
  EXPECT_FALSE(m->tmem_dealloc(0, 0, 128));         // the size of the allocation at 0 is 256
  EXPECT_FALSE(m->tmem_dealloc(0, 32, 32));         // not the start of a live allocation
  EXPECT_FALSE(m->tmem_dealloc(0, 1u << 16, 256));  // lane 1: not an allocation's address
  EXPECT_FALSE(m->tmem_dealloc(0, 448, 64));        // free columns
  EXPECT_TRUE(m->tmem_dealloc(0, 0, 256));
  EXPECT_FALSE(m->tmem_dealloc(0, 0, 256));  // freed once
  // First fit into the freed hole, below the allocations still live.
  EXPECT_EQ(m->tmem_alloc(0, 64), std::optional<uint32_t>(0u));
  EXPECT_EQ(m->tmem_alloc(0, 128), std::optional<uint32_t>(64u));
  EXPECT_EQ(m->take_error(), "");
}

// The allocator's edges: the whole of TMEM (512 columns, 16 units) in one allocation, a run
// that ends at the last column, and a dealloc address one past the last column (its bits 8:5
// name unit 0, where an allocation starts).
TEST(StoreUnit, TmemAllocatorReachesTheLastColumn) {
  auto m = tb::make_rtl_model(cluster_of_two());
  ASSERT_EQ(m->tmem_alloc(0, 512), std::optional<uint32_t>(0u));  // all 16 units
  EXPECT_FALSE(m->tmem_alloc(0, 32));                             // none left
  EXPECT_FALSE(m->tmem_dealloc(0, 512, 512));                     // column 512 lies past TMEM
  EXPECT_TRUE(m->tmem_dealloc(0, 0, 512));
  // Runs of 8, 4, 2, 1 and 1 units fill TMEM to its last unit.
  EXPECT_EQ(m->tmem_alloc(0, 256), std::optional<uint32_t>(0u));
  EXPECT_EQ(m->tmem_alloc(0, 128), std::optional<uint32_t>(256u));
  EXPECT_EQ(m->tmem_alloc(0, 64), std::optional<uint32_t>(384u));
  EXPECT_EQ(m->tmem_alloc(0, 32), std::optional<uint32_t>(448u));
  EXPECT_EQ(m->tmem_alloc(0, 32), std::optional<uint32_t>(480u));  // unit 15, the last
  EXPECT_FALSE(m->tmem_alloc(0, 32));
  // CTA 1 has its own 512 columns; freeing its unit 1 leaves CTA 0's allocations alone (its
  // unit 15 sits 1 unit below CTA 1's unit 0 in the allocator's flat record).
  EXPECT_EQ(m->tmem_alloc(1, 32), std::optional<uint32_t>(0u));
  EXPECT_EQ(m->tmem_alloc(1, 32), std::optional<uint32_t>(32u));
  EXPECT_TRUE(m->tmem_dealloc(1, 32, 32));
  EXPECT_TRUE(m->tmem_dealloc(0, 480, 32));
  EXPECT_TRUE(m->tmem_dealloc(1, 0, 32));
  EXPECT_EQ(m->tmem_alloc(1, 512), std::optional<uint32_t>(0u));
  EXPECT_EQ(m->take_error(), "");
}

// Without caches (Vstu_store_path_nocache) the cache side is tied off: a drain or a flush is
// taken in its first cycle and is never busy, and every cache and debug output reads 0 (the
// harness checks the tie-offs after reset, after every store and after every command).
TEST(StoreUnit, WithoutCachesACommandIsTakenAtOnce) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  ASSERT_FALSE(m->has_caches());
  const uint64_t c0 = m->cycles();
  m->drain_caches(false);
  m->drain_caches(true);
  EXPECT_EQ(m->cycles(), c0 + 2);
  EXPECT_EQ(m->take_error(), "");
}

// Out of reset, before any configuration write, the unit's bounds are golden ModelConfig's
// defaults (docs/golden.md): 48 KiB of shared memory a CTA, 4 KiB of local memory and of
// .param::func frame a thread. A byte at each one's last offset is stored; the byte after it
// is out_of_allocation.
TEST(StoreUnit, OutOfResetTheBoundsAreTheGoldenDefaults) {
  tb::RtlTrace unconfigured;
  unconfigured.configure = false;
  auto m = tb::make_rtl_model(golden::ModelConfig{}, &unconfigured);
  struct Case {
    const char* text;
    uint64_t last;
  };
  const Case cases[] = {{"st.shared::cta.u8 [%rd1], %rs1;", 48 * 1024 - 1},
                        {"st.local.u8 [%rd1], %rs1;", 4095},
                        {"st.param::func.u8 [%rd1], %rs1;", 4095}};
  for (const Case& c : cases) {
    const isa::Instruction ins = parse(c.text);
    golden::WarpOperands ops;
    ops.src.assign(32, golden::RegValue{0x5A, 0});
    ops.addr[0] = c.last;
    ops.addr[1] = c.last + 1;
    golden::StoreResult out;
    m->execute(ins, golden::WarpContext{0, 0, 0x3u}, ops, out);
    EXPECT_EQ(m->take_error(), "") << c.text;
    EXPECT_EQ(out.stored_mask, 0x1u) << c.text;
    EXPECT_EQ(out.fault_mask, 0x2u) << c.text;
    EXPECT_EQ(out.fault[1].kind, golden::FaultKind::OutOfAllocation) << c.text;
    EXPECT_EQ(out.bytes, 1u) << c.text;
  }
}

// A strong .sys store whose lanes reach shared memory only reports scope .cluster; one lane in
// global memory keeps .sys (docs/golden.md, ordering metadata). A generic st.relaxed.sys.u32
// with lane 0 in CTA 0's shared window and lane 1 in a global allocation, then both in shared.
TEST(StoreUnit, SysScopeNarrowsOnlyWhenNoLaneIsGlobal) {
  const golden::ModelConfig cfg;
  auto m = tb::make_rtl_model(cfg);
  m->image().allocations().add(0x10000, 0x1000);
  const isa::Instruction ins = parse("st.relaxed.sys.u32 [%rd1], %r1;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{7, 0});
  ops.addr[0] = cfg.map.shared.base + 0x40;
  ops.addr[1] = 0x10040;
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, 0x3u}, ops, out);
  EXPECT_EQ(m->take_error(), "");
  EXPECT_EQ(out.stored_mask, 0x3u);
  EXPECT_EQ(out.order.scope, std::optional<isa::Scope>(isa::Scope::Sys));
  ops.addr[1] = cfg.map.shared.base + 0x80;
  m->execute(ins, golden::WarpContext{0, 0, 0x3u}, ops, out);
  EXPECT_EQ(m->take_error(), "");
  EXPECT_EQ(out.stored_mask, 0x3u);
  EXPECT_EQ(out.order.scope, std::optional<isa::Scope>(isa::Scope::Cluster));
}

TEST(StoreUnit, MisalignedLaneFaultsAloneAndTheOthersStore) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  m->image().allocations().add(0x10000, 0x1000);
  const isa::Instruction ins = parse("st.global.u64 [%rd1], %rd2;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) ops.addr[l] = 0x10000 + 8 * l;
  ops.addr[5] += 4;  // 0x1002c: not a multiple of 8
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, 1u << 5);
  EXPECT_EQ(out.fault[5].kind, golden::FaultKind::Misaligned);
  EXPECT_EQ(out.fault[5].addr, 0x1002Cu);
  EXPECT_EQ(out.stored_mask, ~(1u << 5));
  ASSERT_EQ(out.lines.size(), 2u);  // 256 bytes: lines 0x10000 and 0x10080
  EXPECT_EQ(out.bytes, 31u * 8);
}

TEST(StoreUnit, StAsyncV4CompletesSixteenBytesPerLaneOnTheBarrier) {
  auto m = tb::make_rtl_model(cluster_of_two());
  golden::MbarState s;
  s.expected = 1;
  s.pending = 0;  // the one arrival made, with expect_tx(16): one lane's .v4.b32
  s.tx = 16;
  m->image().set_mbar(1, 0x100, s);
  const isa::Instruction ins = parse(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%rd1], {%r1, %r2, %r3, "
      "%r4}, [%rd2];");
  golden::WarpOperands ops;
  ops.src.assign(4 * 32, golden::RegValue{});
  ops.addr[0] = (1ull << 24) + 0x200;  // CTA 1, offset 0x200
  ops.mbar[0] = (1ull << 24) + 0x100;
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, 1u}, ops, out);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.mbar.size(), 1u);
  EXPECT_EQ(out.mbar[0].bytes, 16u);
  EXPECT_EQ(out.mbar[0].cta, 1u);
  EXPECT_TRUE(out.mbar[0].phase_completed);  // pending 0, tx 16 - 16 = 0
  EXPECT_EQ(m->image().mbar(1, 0x100).phase, 1u);
}

// A warp whose 32 lanes each complete a barrier of their own: the unit's copy of the warp's
// barriers is full (32 entries), and each barrier, expecting 4 bytes (one lane's .u32) and no
// more arrivals, completes its phase exactly once.
TEST(StoreUnit, StAsyncToThirtyTwoBarriersCompletesEach) {
  auto m = tb::make_rtl_model(cluster_of_two());
  golden::MbarState s;
  s.expected = 1;
  s.pending = 0;
  s.tx = 4;
  for (unsigned l = 0; l < 32; ++l) m->image().set_mbar(1, 0x100 + 8 * l, s);
  const isa::Instruction ins =
      parse("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = (1ull << 24) + 0x400 + 4 * l;  // CTA 1
    ops.mbar[l] = (1ull << 24) + 0x100 + 8 * l;
    ops.src[l].lo = 0x5A000000u + l;
  }
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(m->take_error(), "");
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.mbar.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(out.mbar[l].bytes, 4u) << l;
    EXPECT_TRUE(out.mbar[l].phase_completed) << l;
    EXPECT_EQ(m->image().mbar(1, 0x100 + 8 * l).phase, 1u) << l;
  }
}

TEST(StoreUnit, Tcgen05FromTheWrongQuarterWritesNothing) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  ASSERT_EQ(m->tmem_alloc(0, 32), std::optional<uint32_t>(0));  // the RTL's own allocator
  const isa::Instruction ins = parse("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r1};");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  ops.addr.fill(0);  // lane 0: quarter 0, but warp 1 owns lanes 32..63
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 1, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, ~0u);
  EXPECT_EQ(out.fault[0].kind, golden::FaultKind::TmemLaneQuarter);
  EXPECT_EQ(out.tmem.size(), 0u);
  // From warp 0 the same store writes lane t, column 0 of each thread.
  for (unsigned t = 0; t < 32; ++t) ops.src[t].lo = 100 + t;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.tmem.size(), 32u);
  EXPECT_EQ(out.tmem[31].lane, 31u);
  EXPECT_EQ(out.tmem[31].col_mask, 1u);
  EXPECT_EQ(out.tmem[31].data[0], 131u);
  EXPECT_EQ(m->image().cta(0).tmem_cells()[31 * golden::kTmemColumns], 131u);
}

// SASS ST's address against the register count (seed 002: Ra at or beyond the registers means
// an absolute address, the zero-extended immediate; with .E, Ra+1 at or beyond them reads as
// zero): `ST.E [R2+0x100], R4` with R2 = 0x2000 and R3 = 1, for counts 2, 3, 4 and 255.
TEST(StoreUnit, SassRegisterCountDecidesTheAddress) {
  struct Case {
    uint32_t regs;
    uint64_t addr;
  };
  const Case cases[] = {{255, 0x100002100}, {4, 0x100002100}, {3, 0x2100}, {2, 0x100}};
  Diagnostics d;
  const auto st = isa::parse_sass_st("ST.E [R2+0x100], R4", d);
  ASSERT_TRUE(st && !d.has_errors());
  for (const Case& c : cases) {
    golden::ModelConfig cfg;
    cfg.sass_regs = c.regs;
    auto m = tb::make_rtl_model(cfg);
    for (uint64_t base : {uint64_t(0), uint64_t(0x2000), uint64_t(0x100002000)})
      m->image().allocations().add(base, 0x1000);
    golden::SassRegisterFile rf;
    rf.write(0, 2, 0x2000);
    rf.write(0, 3, 1);
    rf.write(0, 4, 0xC0FFEE00u + c.regs);
    golden::StoreResult out;
    m->execute_sass(*st, golden::WarpContext{0, 0, 1u}, rf, out);
    const std::string at = "register count " + std::to_string(c.regs);
    ASSERT_EQ(m->take_error(), "") << at;
    EXPECT_EQ(out.fault_mask, 0u) << at;
    ASSERT_EQ(out.lines.size(), 1u) << at;
    EXPECT_EQ(out.lines[0].line, c.addr & ~uint64_t(127)) << at;
    uint8_t b[4];
    m->image().read(golden::Dest{}, c.addr, b, 4);
    EXPECT_EQ(b[0], uint8_t(c.regs)) << at;
    EXPECT_EQ(b[3], 0xC0) << at;
  }
}

// Without .E the address is 32 bits: Ra plus the immediate modulo 2^32, zero-extended (seed
// 002). `ST [R2+0x100], R4` with R2 = 0x2000 stores at 0x2100; with R2 = 0xFFFFFF80 the sum
// wraps to 0x80.
TEST(StoreUnit, SassWithoutEIsA32BitAddress) {
  Diagnostics d;
  const auto st = isa::parse_sass_st("ST [R2+0x100], R4", d);
  ASSERT_TRUE(st && !d.has_errors());
  for (const auto& [ra, addr] : {std::pair<uint32_t, uint64_t>{0x2000, 0x2100},
                                 std::pair<uint32_t, uint64_t>{0xFFFFFF80u, 0x80}}) {
    auto m = tb::make_rtl_model(golden::ModelConfig{});
    m->image().allocations().add(0, 0x1000);
    m->image().allocations().add(0x2000, 0x1000);
    golden::SassRegisterFile rf;
    rf.write(0, 2, ra);
    rf.write(0, 3, 0x77);  // not read: no .E
    rf.write(0, 4, 0xAB000000u + ra % 256);
    golden::StoreResult out;
    m->execute_sass(*st, golden::WarpContext{0, 0, 1u}, rf, out);
    ASSERT_EQ(m->take_error(), "");
    EXPECT_EQ(out.fault_mask, 0u) << std::hex << ra;
    ASSERT_EQ(out.lines.size(), 1u) << std::hex << ra;
    EXPECT_EQ(out.lines[0].line, addr & ~uint64_t(127)) << std::hex << ra;
    uint8_t b[4];
    m->image().read(golden::Dest{}, addr, b, 4);
    EXPECT_EQ(b[0], uint8_t(ra % 256)) << std::hex << ra;
    EXPECT_EQ(b[3], 0xAB) << std::hex << ra;
  }
}

// The caches behind the top (stu_l1_wpath -> stu_l2_wslice) against golden's MemoryHierarchy
// (sts::GoldenModel with the same `cache` configuration): seeded random global stores of every
// cache operator, L1 / L2 qualifier and cache-hint policy, weak / strong / release / .mmio
// orderings and scattered lanes over a few lines per set, with drains and flushes. After every
// step the write buffer occupancy, the whole DRAM log (line, bytes, cause, data) and the L1 and
// L2 lookups of every line used must agree.
void expect_caches_agree(const golden::HierarchyConfig& hc, uint64_t seed, unsigned steps) {
  static const char* const kForms[] = {
      "st.global.u32 [%rd1], %r1;",
      "st.global.cg.u32 [%rd1], %r1;",
      "st.global.cs.u32 [%rd1], %r1;",
      "st.global.wt.u32 [%rd1], %r1;",
      "st.global.wb.u32 [%rd1], %r1;",
      "st.global.L1::evict_first.u32 [%rd1], %r1;",
      "st.global.L1::evict_last.u32 [%rd1], %r1;",
      "st.global.L1::evict_unchanged.u32 [%rd1], %r1;",
      "st.global.L1::no_allocate.u32 [%rd1], %r1;",
      "st.global.L2::evict_first.u32 [%rd1], %r1;",
      "st.global.L2::evict_last.u32 [%rd1], %r1;",
      "st.global.L1::evict_last.L2::evict_first.u32 [%rd1], %r1;",
      "st.global.L2::cache_hint.u32 [%rd1], %r1, %rd3;",
      "st.relaxed.gpu.global.u32 [%rd1], %r1;",
      "st.release.gpu.global.u32 [%rd1], %r1;",
      "st.mmio.relaxed.sys.global.u32 [%rd1], %r1;",
      "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};",
  };
  using golden::L2Priority;
  const uint64_t kPolicies[] = {
      0x12F0000000000000ull,  // CUTLASS EVICT_FIRST
      0x14F0000000000000ull,  // CUTLASS EVICT_LAST
      0x1000000000000000ull,  // CUTLASS EVICT_NORMAL: a hit takes the normal class
      golden::encode_fractional_policy(L2Priority::Last, L2Priority::Unchanged, 0.5f),
      golden::encode_fractional_policy(L2Priority::Normal, L2Priority::First, 0.5f),
      golden::encode_fractional_policy(L2Priority::Unchanged, L2Priority::First, 0.25f),
      0,  // opaque
  };
  std::vector<isa::Instruction> forms;
  for (const char* f : kForms) forms.push_back(parse(f));
  constexpr uint64_t kBase = 0x100000;
  const uint64_t sets = std::max(hc.l1.sets(), hc.l2.sets());
  const uint64_t span = (sets * 3 + 4) * golden::kLineBytes;  // a few lines per set
  sts::GoldenModel gold(golden::ModelConfig{}, hc);
  auto rtl = tb::make_rtl_model(golden::ModelConfig{}, hc);
  ASSERT_TRUE(gold.has_caches());
  ASSERT_TRUE(rtl->has_caches()) << rtl->no_caches_reason();
  gold.image().allocations().add(kBase, span + 4096);
  rtl->image().allocations().add(kBase, span + 4096);
  tb::Rng r(seed);
  golden::StoreResult go, ro;
  for (unsigned step = 0; step < steps; ++step) {
    const std::string at = "seed " + std::to_string(seed) + " step " + std::to_string(step);
    if (r.chance(0.05)) {
      const bool flush = r.chance(0.4);
      gold.drain_caches(flush);
      rtl->drain_caches(flush);
    } else {
      const unsigned f = unsigned(r.below(std::size(kForms)));
      const isa::Instruction& ins = forms[f];
      const unsigned elems = ins.vec_lanes();
      golden::WarpOperands ops;
      ops.src.assign(size_t(elems) * 32, golden::RegValue{});
      // Lanes scatter over one or two lines (element-aligned), in a random part of the span.
      const uint64_t line = kBase + r.below(span / golden::kLineBytes) * golden::kLineBytes;
      const unsigned esize = 4 * elems;
      for (unsigned l = 0; l < 32; ++l) {
        ops.addr[l] = line + r.below(2 * golden::kLineBytes / esize) * esize;
        for (unsigned e = 0; e < elems; ++e) ops.src[size_t(e) * 32 + l].lo = r.next() & 0xFFFFFFFF;
        ops.policy[l] = kPolicies[r.below(std::size(kPolicies))];
      }
      uint32_t active = uint32_t(r.next());
      if (r.chance(0.3)) active &= uint32_t(r.next()) & uint32_t(r.next());
      if (active == 0) active = 1;
      const golden::WarpContext ctx{0, 0, active};
      gold.execute(ins, ctx, ops, go);
      rtl->execute(ins, ctx, ops, ro);
      ASSERT_EQ(rtl->take_error(), "") << at;
      ASSERT_EQ(ro.lines.size(), go.lines.size()) << at;
    }
    ASSERT_EQ(rtl->write_buffer_entries(), gold.write_buffer_entries()) << at;
    const auto& gd = *gold.dram_writes();
    const auto& rd = *rtl->dram_writes();
    ASSERT_EQ(rd.size(), gd.size()) << at;
    for (size_t i = 0; i < gd.size(); ++i) {
      EXPECT_EQ(rd[i].line, gd[i].line) << at << " dram " << i;
      EXPECT_EQ(rd[i].bytes, gd[i].bytes) << at << " dram " << i;
      EXPECT_EQ(rd[i].cause, gd[i].cause) << at << " dram " << i;
      EXPECT_EQ(rd[i].data, gd[i].data) << at << " dram " << i;
    }
    for (uint64_t a = kBase; a < kBase + span + golden::kLineBytes; a += golden::kLineBytes) {
      for (sts::CacheLevel lv : {sts::CacheLevel::L1, sts::CacheLevel::L2}) {
        const golden::CacheLookup g = gold.cache_line(lv, a), x = rtl->cache_line(lv, a);
        const std::string where =
            at + (lv == sts::CacheLevel::L1 ? " l1 " : " l2 ") + std::to_string(a);
        ASSERT_EQ(x.hit, g.hit) << where;
        if (!g.hit) continue;
        EXPECT_EQ(x.set, g.set) << where;
        EXPECT_EQ(x.way, g.way) << where;
        EXPECT_EQ(x.valid, g.valid) << where;
        EXPECT_EQ(x.dirty, g.dirty) << where;
        EXPECT_EQ(x.cls, g.cls) << where;
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}

golden::HierarchyConfig hierarchy(
    uint64_t l1, uint32_t l1w, uint64_t l2, uint32_t l2w, unsigned wb,
    golden::Replacement l2_rule = golden::Replacement::LeastRecentlyWritten) {
  golden::HierarchyConfig c;
  c.l1 = {l1, l1w};
  c.l2 = {l2, l2w, l2_rule};
  c.write_buffer = wb;
  return c;
}

TEST(StoreUnitCaches, SmallGeometriesAgreeWithGoldenOnRandomStores) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    expect_caches_agree(hierarchy(512, 2, 1024, 2, 2), seed, 300);
    expect_caches_agree(hierarchy(256, 2, 1024, 4, 3), seed, 300);   // 1 L1 set, 3 entries
    expect_caches_agree(hierarchy(1024, 1, 2048, 2, 1), seed, 300);  // direct-mapped L1
  }
}

// The L2 slice's random replacement (cfg_l2_random_i) through the whole path: small sets, so
// that most allocations evict.
TEST(StoreUnitCaches, RandomL2ReplacementAgreesWithGoldenOnRandomStores) {
  for (uint64_t seed = 1; seed <= 4; ++seed)
    expect_caches_agree(hierarchy(512, 2, 1024, 4, 2, golden::Replacement::Random), seed, 300);
}

TEST(StoreUnitCaches, TestGeometriesAgreeWithGoldenOnRandomStores) {
  expect_caches_agree(hierarchy(4 << 10, 4, 64 << 10, 8, 8), 5, 400);
  expect_caches_agree(hierarchy(512, 2, 4 << 10, 4, 2), 6, 400);
  expect_caches_agree(golden::HierarchyConfig{}, 7, 200);  // the defaults: the maxima
}

// An L2 hit by a store whose cache-hint priority is evict_normal makes the line normal again
// (PTX createpolicy: evict_normal; golden and stu_l2_action: the normal class, not the line's
// own kept): a line written with .L2::evict_first, then hit through a fractional policy that
// gives every line evict_normal. The random tests seldom hit an evict-first line that way.
TEST(StoreUnitCaches, AnEvictNormalHintMakesAHitLineNormal) {
  const golden::HierarchyConfig hc = hierarchy(512, 2, 1024, 2, 2);
  sts::GoldenModel gold(golden::ModelConfig{}, hc);
  auto rtl = tb::make_rtl_model(golden::ModelConfig{}, hc);
  ASSERT_TRUE(rtl->has_caches()) << rtl->no_caches_reason();
  constexpr uint64_t kLine = 0x100000;
  gold.image().allocations().add(kLine, 4096);
  rtl->image().allocations().add(kLine, 4096);
  const isa::Instruction first = parse("st.global.L2::evict_first.u32 [%rd1], %r1;");
  const isa::Instruction hint = parse("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd3;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = kLine + 4 * l;
    ops.src[l].lo = 0x100 + l;
    ops.policy[l] = golden::encode_fractional_policy(golden::L2Priority::Normal,
                                                     golden::L2Priority::Normal, 1.0f);
  }
  const golden::WarpContext ctx{0, 0, ~0u};
  golden::StoreResult go, ro;
  for (const isa::Instruction* ins : {&first, &hint}) {
    gold.execute(*ins, ctx, ops, go);
    rtl->execute(*ins, ctx, ops, ro);
    gold.drain_caches(false);  // the write buffer's entry goes to the L2
    rtl->drain_caches(false);
    ASSERT_EQ(rtl->take_error(), "");
    const golden::CacheLookup g = gold.cache_line(sts::CacheLevel::L2, kLine);
    const golden::CacheLookup x = rtl->cache_line(sts::CacheLevel::L2, kLine);
    ASSERT_TRUE(g.hit && x.hit);
    const golden::EvictClass want =
        ins == &first ? golden::EvictClass::First : golden::EvictClass::Normal;
    EXPECT_EQ(g.cls, want);
    EXPECT_EQ(x.cls, want);
  }
}

TEST(StoreUnitCaches, GeometryBeyondTheBlocksLeavesNoCachesAndSaysWhy) {
  auto m = tb::make_rtl_model(golden::ModelConfig{}, hierarchy(32 << 10, 4, 512 << 10, 16, 8));
  EXPECT_FALSE(m->has_caches());
  EXPECT_EQ(m->no_caches_reason(),
            "the rtl model's cache blocks cannot hold this test's L2 of 256 sets x 16 ways (at "
            "most 128 x 16)");
  EXPECT_EQ(m->dram_writes(), nullptr);
}

TEST(StoreUnitCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("store_unit", 1, 4, 1500); }

TEST(StoreUnitCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("store_unit", 1000, 64, 5000); }

}  // namespace
