// Directed tests of the LSU / L1 ordering rules (systemc/lsu.h, systemc/l1.h) by the
// timestamps of the model's event log, in both timing styles (LT and AT). Every expected
// relation is derived from the rules as documented, never from model output; every run also
// passes the golden-image check.
#include <gtest/gtest.h>

#include <functional>

#include "stu/golden/address.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/tmem.h"
#include "tlm_test_support.h"

namespace stu::sim {
namespace {

using namespace testing_support;

class Ordering : public ::testing::TestWithParam<SimMode> {
 protected:
  SimConfig cfg() const { return small_config(GetParam()); }
};

std::string mode_name(const ::testing::TestParamInfo<SimMode>& i) {
  return i.param == SimMode::Lt ? "Lt" : "At";
}

// The first line after `from` that the L2 slice hash puts in another slice.
std::uint64_t line_in_other_slice(const SimConfig& c, std::uint64_t from) {
  for (std::uint64_t a = from + 128;; a += 128)
    if (l2_slice_of(c.l2, a) != l2_slice_of(c.l2, from)) return a;
}

// --- release ----------------------------------------------------------------------------
// Warp 0 stores two full lines (weak), then lane 0 does st.release.gpu to a third line. The
// release issues only after both earlier stores are acknowledged; with the eager write-buffer
// policy the L1 drains before the release, so both earlier lines reach the L2 no later than
// the release's line.
TEST_P(Ordering, ReleaseWaitsForEarlierStoresOfItsWarp) {
  const SimConfig c = cfg();
  ASSERT_EQ(c.l1.write_buffer_policy, WbPolicy::Eager);
  Script s;
  const std::uint64_t a = kBase, b = kBase + 0x1000, r = kBase + 0x2000;
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u, [&](unsigned l) { return a + 4 * l; });
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u, [&](unsigned l) { return b + 4 * l; });
  s.store("st.release.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return r; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle issue_rel = one(o.log, Event::Issue, s.id_of(2));
  EXPECT_GE(issue_rel, one(o.log, Event::Ack, s.id_of(0))) << dump(o.log);
  EXPECT_GE(issue_rel, one(o.log, Event::Ack, s.id_of(1))) << dump(o.log);
  const auto la = events(o.log, Event::L2Write, 0, a), lb = events(o.log, Event::L2Write, 0, b),
             lr = events(o.log, Event::L2Write, 0, r);
  ASSERT_FALSE(la.empty());
  ASSERT_FALSE(lb.empty());
  ASSERT_FALSE(lr.empty());
  EXPECT_LE(max_cycle(la), min_cycle(lr)) << dump(o.log);
  EXPECT_LE(max_cycle(lb), min_cycle(lr)) << dump(o.log);
}

// --- strong stores pipeline --------------------------------------------------------------
// Two st.relaxed.gpu by lane 0 of one warp to lines in different L2 slices: the second issues
// before the first is acknowledged. An H200 issues relaxed .gpu stores as fast as weak ones
// (docs/correlate.md: chain_relaxed_gpu 7.6 cycles a store, the L2 round trip is ~220+), so
// a strong store waits for no earlier store's acknowledgement.
TEST_P(Ordering, RelaxedStrongStoresPipeline) {
  const SimConfig c = cfg();
  Script s;
  const std::uint64_t a = kBase, b = line_in_other_slice(c, kBase);
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a; });
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return b; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  EXPECT_LT(one(o.log, Event::Issue, s.id_of(1)), one(o.log, Event::Ack, s.id_of(0)))
      << dump(o.log);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, a).size(), 1u) << dump(o.log);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, b).size(), 1u) << dump(o.log);
}

// --- the SM's instruction issue (sm.issue_per_clk) ----------------------------------------
// A 4-byte store of every lane, lane l at base + 4 l (the issue tests below).
constexpr const char* kStB32 = "st.global.b32 [%rd1], %r1;";
std::function<std::uint64_t(unsigned)> words_at(std::uint64_t base) {
  return [base](unsigned l) { return base + 4 * l; };
}

// An op's instructions take its SM's issue slots before it goes. At 2 a cycle, SM 0's first
// 100-instruction store issues no earlier than cycle 49 (slots 0..49), its second no earlier
// than 99; SM 1's store, issued by its own slots, goes before SM 0's second.
TEST_P(Ordering, InstructionsTakeTheirSmsIssueSlotsFirst) {
  SimConfig c = cfg();
  c.sm.issue_per_clk = 2;
  c.sm.warp_issue_per_clk = 8;  // the SM's rate decides here (next test: the warp's)
  Script s;
  s.store(kStB32, 0, 0, 0, ~0u, words_at(kBase)).instructions = 100;
  s.store(kStB32, 1, 0, 0, ~0u, words_at(kBase + 0x1000)).instructions = 100;
  s.store(kStB32, 0, 0, 1, ~0u, words_at(kBase + 0x2000)).instructions = 100;
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle sm0_first = one(o.log, Event::Issue, s.id_of(0));
  const Cycle sm1 = one(o.log, Event::Issue, s.id_of(1));
  const Cycle sm0_second = one(o.log, Event::Issue, s.id_of(2));
  EXPECT_GE(sm0_first, 49u) << dump(o.log);
  EXPECT_GE(sm1, 49u) << dump(o.log);
  EXPECT_LT(sm1, 99u) << dump(o.log);
  EXPECT_GE(sm0_second, 99u) << dump(o.log);
}

// A warp issues its instructions one a cycle (sm.warp_issue_per_clk 1), its SM four a cycle
// for all its warps. SM 0 runs A (warp 0), C (warp 1), B (warp 0), 40 instructions each:
// A goes at 40 (its warp's 40 cycles; the SM's slots took 10); C's warp starts when the SM's
// slots are free (10) and goes at 50, beside A, not after it; B waits for A's warp (40), and
// goes at 80. Without the warp's limit they would go at 10, 20 and 30. (The SM's slots are
// booked in bins, Calendar::kBinCycles: C may start a cycle or two early.)
TEST_P(Ordering, AWarpIssuesItsInstructionsOneACycle) {
  SimConfig c = cfg();
  c.sm.issue_per_clk = 4;
  c.sm.warp_issue_per_clk = 1;
  Script s;
  s.store(kStB32, 0, 0, 0, ~0u, words_at(kBase)).instructions = 40;           // A
  s.store(kStB32, 0, 0, 1, ~0u, words_at(kBase + 0x1000)).instructions = 40;  // C
  s.store(kStB32, 0, 0, 0, ~0u, words_at(kBase + 0x2000)).instructions = 40;  // B
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle a = one(o.log, Event::Issue, s.id_of(0));
  const Cycle cc = one(o.log, Event::Issue, s.id_of(1));
  const Cycle b = one(o.log, Event::Issue, s.id_of(2));
  EXPECT_GE(a, 40u) << dump(o.log);
  EXPECT_LT(a, 50u) << dump(o.log);
  EXPECT_GE(cc, 48u) << dump(o.log);
  EXPECT_LT(cc, 80u) << dump(o.log);
  EXPECT_GE(b, 80u) << dump(o.log);
  EXPECT_LT(b, 90u) << dump(o.log);
}

// --- DRAM line accesses (dram.accesses_per_clk) --------------------------------------------
// 32 4-byte stores to 32 lines, written back by the final flush all at once: each line is a
// fill read and a write (read_modify_write), two accesses. At one access a cycle, with bandwidth
// to spare, the last line's write goes 62 cycles after the first's, less at most one 16-cycle
// booking bin (Calendar::kBinCycles) at the start: at least 46. Without the limit they go
// together.
// 32 4-byte stores, store k to line_of(k), two warps of SM 0 and 1 each; with bandwidth to
// spare: the cycles from the first DRAM write (the flush's) to the last. One L2 slice, so that
// the flush hands DRAM every line at once (LT flushes the slices one after another).
Cycle dram_write_span(SimConfig c, const std::function<std::uint64_t(unsigned)>& line_of) {
  c.dram.gbytes_per_s = 1000000;
  c.l2.slices = 1;
  Script s;
  for (unsigned k = 0; k < 32; ++k) {
    const std::uint64_t line = line_of(k);
    s.store("st.global.b32 [%rd1], %r1;", k % 2, 0, std::uint16_t(k / 2), 1u,
            [line](unsigned) { return line; });
  }
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto w = events(o.log, Event::DramWrite);
  EXPECT_EQ(w.size(), 32u) << dump(o.log);
  return w.empty() ? Cycle(0) : max_cycle(w) - min_cycle(w);
}

TEST_P(Ordering, DramStartsLineAccessesAtItsRate) {
  SimConfig c = cfg();
  ASSERT_EQ(c.dram.partial_writes, PartialWrite::ReadModifyWrite);
  c.dram.accesses_per_clk = 1;
  c.dram.pair_accesses_per_clk = 0;
  EXPECT_GE(dram_write_span(c, [](unsigned k) { return kBase + 0x1000 * k; }),
            62u - Calendar::kBinCycles);
}

// 32 4-byte stores, two to each of 16 line pairs 4 KiB apart: a fill read and a
// write a line, 64 accesses at one a cycle (62 cycles from the first write to the last, less one
// booking bin: at least 46). With dram.pair_accesses_per_clk 2 a pair's second line costs half:
// 16 x (2 + 1) = 48 accesses, the last write at most 48 cycles after the first. Lines 256 bytes
// apart are no partners: 64 accesses again.
TEST_P(Ordering, DramAccessesAPairPartnerAtItsOwnRate) {
  auto span = [&](std::uint64_t partner, std::uint32_t pair_rate) {
    SimConfig c = cfg();
    c.dram.accesses_per_clk = 1;
    c.dram.pair_accesses_per_clk = pair_rate;
    return dram_write_span(
        c, [partner](unsigned k) { return kBase + 0x1000 * (k / 2) + partner * (k % 2); });
  };
  const Cycle alone = span(128, 0), paired = span(128, 2), apart = span(256, 2);
  EXPECT_GE(alone, 62u - Calendar::kBinCycles);
  EXPECT_GE(apart, 62u - Calendar::kBinCycles);
  EXPECT_LE(paired, 48u);
  EXPECT_GE(paired, 46u - Calendar::kBinCycles);
  EXPECT_LT(paired, alone);
}

// --- fences (docs/tlm.md, "Write buffer, ordering and completion") ------------------------
// Fence costs far apart from the latencies, so each rule shows on its own.
SimConfig fence_config(SimMode mode) {
  SimConfig c = small_config(mode);
  c.fence = {10, 100, 5000, 30};
  return c;
}

std::vector<Cycle> fence_done(const std::vector<LogEntry>& log, std::uint32_t warp) {
  std::vector<Cycle> v;
  for (const LogEntry& l : events(log, Event::FenceDone))
    if (l.warp == warp) v.push_back(l.cycle);
  return v;
}

// st.relaxed.gpu, then fence.sc.gpu by the same warp: the fence waits for the store's
// acknowledgement, then takes fence.gpu_cycles.
TEST_P(Ordering, GpuFenceWaitsForTheAcknowledgementThenTakesItsCycles) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase; });
  s.fence(0, 0, 0, isa::Scope::Gpu);
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x100; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto done = fence_done(o.log, 0);
  ASSERT_EQ(done.size(), 1u) << dump(o.log);
  EXPECT_EQ(done[0], one(o.log, Event::Ack, s.id_of(0)) + c.fence.gpu_cycles) << dump(o.log);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(2)), done[0]) << dump(o.log);
}

// A .cta fence orders within the SM: fence.cta_cycles after it could start, without waiting
// for the earlier store's acknowledgement (an H200: st.release.cta 16.5 cycles a store).
TEST_P(Ordering, CtaFenceDoesNotWaitForAcknowledgements) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase; });
  s.fence(0, 0, 0, isa::Scope::Cta);
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto done = fence_done(o.log, 0);
  ASSERT_EQ(done.size(), 1u) << dump(o.log);
  EXPECT_EQ(done[0], one(o.log, Event::Issue, s.id_of(0)) + c.fence.cta_cycles) << dump(o.log);
  EXPECT_LT(done[0], one(o.log, Event::Ack, s.id_of(0))) << dump(o.log);
}

// A .sys fence ends fence.sys_cycles after it starts when the drain plus fence.gpu_cycles is
// shorter: the drain overlaps it (an H200: fence.sc.sys alone 1025 cycles, after an st.mmio
// 1030). Here the .mmio store's acknowledgement by the L2 + 100 < 5000.
TEST_P(Ordering, SysFenceOverlapsTheDrain) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, 1u,
          [](unsigned) { return kBase; });
  s.fence(0, 0, 0, isa::Scope::Sys);
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto done = fence_done(o.log, 0);
  ASSERT_EQ(done.size(), 1u) << dump(o.log);
  const Cycle issue = one(o.log, Event::Issue, s.id_of(0));
  ASSERT_LT(one(o.log, Event::Ack, s.id_of(0)) + c.fence.gpu_cycles, issue + c.fence.sys_cycles);
  EXPECT_EQ(done[0], issue + c.fence.sys_cycles) << dump(o.log);
}

// A release store is a fence of its scope, then the store: st.release.gpu after a weak store
// issues no earlier than the weak store's acknowledgement plus fence.gpu_cycles.
TEST_P(Ordering, ReleaseIsAFenceThenTheStore) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u, [](unsigned l) { return kBase + 4 * l; });
  s.store("st.release.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u,
          [](unsigned) { return kBase + 0x1000; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto done = fence_done(o.log, 0);
  ASSERT_EQ(done.size(), 1u) << dump(o.log);
  EXPECT_GE(done[0], one(o.log, Event::Ack, s.id_of(0)) + c.fence.gpu_cycles) << dump(o.log);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(1)), done[0]) << dump(o.log);
}

// Four warps of SM 0 each fence.sc.gpu with nothing to drain: one SM starts such fences
// fence.interval apart. The other warps go on while one waits (LT; AT too: the fenced warp's
// next op waits, not the LSU), so the fences overlap: warp k's ends k * interval after warp
// 0's. (Before AT let fences run beside the LSU, they ended gpu_cycles apart there.)
TEST_P(Ordering, OneSmStartsAFenceAnIntervalApart) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  for (std::uint16_t w = 0; w < 4; ++w) s.fence(0, 0, w, isa::Scope::Gpu);
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  std::vector<Cycle> done;
  for (std::uint16_t w = 0; w < 4; ++w) {
    const auto d = fence_done(o.log, w);
    ASSERT_EQ(d.size(), 1u) << dump(o.log);
    done.push_back(d[0]);
  }
  for (std::size_t k = 1; k < 4; ++k)
    EXPECT_EQ(done[k], done[0] + k * c.fence.interval) << dump(o.log);
}

// The same with a release store in each of the four warps (nothing before it to drain): the
// fences before them end an interval apart in both styles. AT sends a release store's fence
// ahead as an op of its own and issues the store when the warp's next op comes (or at the
// end), so the other warps go on meanwhile; before that, AT's fences ended gpu_cycles apart.
TEST_P(Ordering, ReleaseStoresOfWarpsOverlapTheirFences) {
  const SimConfig c = fence_config(GetParam());
  Script s;
  for (std::uint16_t w = 0; w < 4; ++w)
    s.store("st.release.gpu.global.b32 [%rd1], %r1;", 0, 0, w, 1u,
            [w](unsigned) { return kBase + 0x1000 * w; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  std::vector<Cycle> done;
  for (std::uint16_t w = 0; w < 4; ++w) {
    const auto d = fence_done(o.log, w);
    ASSERT_EQ(d.size(), 1u) << dump(o.log);
    done.push_back(d[0]);
    EXPECT_GE(one(o.log, Event::Issue, s.id_of(w)), d[0]) << dump(o.log);  // after its fence
  }
  for (std::size_t k = 1; k < 4; ++k)
    EXPECT_EQ(done[k], done[0] + k * c.fence.interval) << dump(o.log);
}

// --- a warp's global stores (lsu.warp_store_cycles) ----------------------------------------
// lsu.warp_store_cycles 50: warp 0 issues four one-lane weak global stores to new lines, 50
// cycles apart (the SM issues one store a cycle: nothing else would hold them). Warp 1's store,
// next in the feed, is not held by warp 0's limit: LT issues it in between; AT's one LSU thread
// takes the ops in feed order, so it follows warp 0's last store at once. A .mmio store of warp 0
// after them is not held by the limit (it would wait until first + 200).
TEST_P(Ordering, AWarpsGlobalStoresIssueWarpStoreCyclesApart) {
  SimConfig c = cfg();
  c.lsu.warp_store_cycles = 50;
  Script s;
  for (unsigned k = 0; k < 4; ++k)
    s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [k](unsigned) { return kBase + 0x80 * k; });
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 1, 1u, [](unsigned) { return kBase + 0x1000; });
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, 1u,
          [](unsigned) { return kBase + 0x2000; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle first = one(o.log, Event::Issue, s.id_of(0));
  for (unsigned k = 1; k < 4; ++k)
    EXPECT_EQ(one(o.log, Event::Issue, s.id_of(k)), first + 50 * k) << dump(o.log);
  const Cycle warp1 = one(o.log, Event::Issue, s.id_of(4));
  if (GetParam() == SimMode::Lt)
    EXPECT_LT(warp1, first + 50) << dump(o.log);
  else
    EXPECT_LE(warp1, first + 150 + Calendar::kBinCycles) << dump(o.log);
  EXPECT_LT(one(o.log, Event::Issue, s.id_of(5)), first + 200) << dump(o.log);
}

// --- .mmio: one lane at a time ---------------------------------------------------------------
// A 32-lane st.mmio, then a 1-lane one on the same SM (another warp): the second's lane goes
// after the first store's own cycles and its 32 lanes, lsu.mmio_cycles_per_store and
// lsu.mmio_cycles_per_lane each (an H200: 63-64 cycles a warp, 5.1 a one-lane store).
TEST_P(Ordering, MmioLanesGoOneAtATime) {
  SimConfig c = cfg();
  c.lsu.mmio_cycles_per_lane = 5;
  c.lsu.mmio_cycles_per_store = 7;
  Script s;
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u,
          [](unsigned l) { return kBase + 4 * l; });
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 1, 1u,
          [](unsigned) { return kBase + 0x200; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(1)), one(o.log, Event::Issue, s.id_of(0)) + 7 + 32 * 5)
      << dump(o.log);
}

// Each lane of a .mmio store is a request of its own (an H200 counts 32 L1 sectors and about
// 48 L2 requests for a 32-lane st.mmio of 4-byte lanes, run 13 of 2026-11-27): 32 lanes
// writing one line's 128 bytes make 32 L1 sectors and 32 L2 writes of 4 bytes, where a weak
// store of the same lanes makes 4 sectors and one L2 write. Lanes 0 and 1 writing one word
// make one request (their bytes cannot be told apart).
TEST_P(Ordering, EachMmioLaneIsARequest) {
  Script s;
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u,
          [](unsigned l) { return kBase + 4 * l; });
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 1, ~0u,
          [](unsigned l) { return kBase + 0x1000 + 4 * l; });
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 2, 3u,
          [](unsigned) { return kBase + 0x2000; });
  const Outcome o = run_script(s, cfg());
  STU_EXPECT_GOLDEN_OK(o);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, kBase).size(), 32u) << dump(o.log);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, kBase + 0x1000).size(), 1u) << dump(o.log);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, kBase + 0x2000).size(), 1u) << dump(o.log);
  EXPECT_EQ(o.stats.get(Metric::L1GlobalSectors), 32.0 + 4.0 + 1.0);
}

// The second strong store's latency is at least the uncontended L2 round trip. Per docs/tlm.md
// ("How the latencies are split") l2.hit_latency is end to end: L1 (l1.hit_latency) + crossbar
// both ways + the slice. A .gpu strong store under the eager policy is acknowledged by the L2,
// so its path is that whole trip.
TEST_P(Ordering, StrongStoreLatencyIsAtLeastTheL2RoundTrip) {
  const SimConfig c = cfg();
  Script s;
  const std::uint64_t a = kBase, b = line_in_other_slice(c, kBase);
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a; });
  s.store("st.relaxed.gpu.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return b; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle issue2 = one(o.log, Event::Issue, s.id_of(1));
  const Cycle ack2 = one(o.log, Event::Ack, s.id_of(1));
  ASSERT_GE(ack2, issue2);
  // Found a model bug once (231 = l2.hit_latency - l1.hit_latency: the L1 stage was missing
  // from the path of an L2-acknowledged store).
  EXPECT_GE(ack2 - issue2, c.l2.hit_latency) << dump(o.log);
}

// Write-buffer entries carry no instruction id (sim_context.h: an entry may hold several
// stores and leaves after later ones): two weak full-line stores of warp 0 to two lines leave
// the buffer once each, unnamed, and each reaches the L2 once.
TEST_P(Ordering, EachWriteBufferEntryLeavesOnceUnnamed) {
  const SimConfig c = cfg();
  Script s;
  const std::uint64_t a = kBase + 0x7000, b = kBase + 0x7080;
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u, [&](unsigned l) { return a + 4 * l; });
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, ~0u, [&](unsigned l) { return b + 4 * l; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const auto wa = events(o.log, Event::WbOut, 0, a), wb = events(o.log, Event::WbOut, 0, b);
  ASSERT_EQ(wa.size(), 1u) << dump(o.log);
  ASSERT_EQ(wb.size(), 1u) << dump(o.log);
  EXPECT_EQ(wa[0].instr, 0u);
  EXPECT_EQ(wb[0].instr, 0u);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, a).size(), 1u) << dump(o.log);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, b).size(), 1u) << dump(o.log);
}

// --- weak stores merge ------------------------------------------------------------------
// Two weak st.global.b32 by lane 0 of one warp to the same line back to back, policy on_full:
// the second merges into the first's write-buffer entry, so the line reaches the L2 once.
TEST_P(Ordering, WeakStoresToOneLineMerge) {
  SimConfig c = cfg();
  c.l1.write_buffer_policy = WbPolicy::OnFull;
  Script s;
  const std::uint64_t a = kBase + 0x3000;
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a; });
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a + 4; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  EXPECT_EQ(o.stats.get(Metric::WbMerges), 1.0);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, a).size(), 1u) << dump(o.log);
}

// --- mmio never merges ------------------------------------------------------------------
// Two st.mmio.relaxed.sys by lane 0 to the same address: each is its own access, so the line
// is written twice in the L2. The L2 keeps them as any store (an H200 writes no DRAM byte for
// .mmio stores, device run 17 of 2026-11-27): DRAM writes nothing during the run, and the
// final flush writes the line's sector back once.
TEST_P(Ordering, MmioStoresNeverMergeAndStayInTheL2) {
  const SimConfig c = cfg();
  Script s;
  const std::uint64_t a = kBase + 0x4000;
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a; });
  s.store("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [&](unsigned) { return a; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  EXPECT_EQ(o.stats.get(Metric::WbMerges), 0.0);
  EXPECT_EQ(events(o.log, Event::L2Write, 0, a).size(), 2u) << dump(o.log);
  // Nothing reaches DRAM during the run; the final flush writes the line back once.
  EXPECT_EQ(o.stats.dram_bytes_in_run, 0.0) << dump(o.log);
  EXPECT_EQ(events(o.log, Event::DramWrite, 0, a).size(), 1u) << dump(o.log);
  EXPECT_EQ(o.stats.get(Metric::DramBytesWrite), 32.0);
}

// --- st.async and mbarrier waits (2-CTA cluster) -----------------------------------------
// CTA 1 (SM 1) arrives on its barrier expecting 512 bytes; CTA 0 (SM 0) st.async's 512 bytes
// into CTA 1's buffer completing that barrier; CTA 1 waits for phase 0, then stores globally.
constexpr std::uint64_t kMbar = 0, kBuf = 0x400;
constexpr std::uint32_t kAsyncBytes = 32 * 16;

// `sm0_after_wait`: a global store of SM 0 comes right after the wait (op 3; SM 1's is op 4).
Script cluster_script(bool sm0_after_wait = false) {
  Script s;
  s.mc.cluster_ctas = 2;
  s.mc.warps_per_cta = 1;
  s.mc.shared_bytes = kBuf + kAsyncBytes;
  s.setup = [](golden::MachineState& m) {
    for (unsigned c = 0; c < 2; ++c) m.set_mbar(c, kMbar, golden::MbarState{0, 1, 1, 0});
    return true;
  };
  s.other(OpKind::MbarArrive, 1, 1, 0, kMbar, kAsyncBytes);  // op 0
  const golden::ModelConfig mc = s.mc;
  WarpOp& st = s.store(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, "
      "%r5}, [%r6];",
      0, 0, 0, ~0u, [&](unsigned l) { return golden::shared_cluster_addr(mc, 1, kBuf + l * 16); },
      4);  // op 1
  for (unsigned l = 0; l < 32; ++l) st.ops.mbar[l] = golden::shared_cluster_addr(mc, 1, kMbar);
  s.other(OpKind::MbarWait, 1, 1, 0, kMbar, 0, 0);  // op 2
  if (sm0_after_wait)
    s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x5080; });
  s.store("st.global.b32 [%rd1], %r1;", 1, 1, 0, 1u, [](unsigned) { return kBase + 0x5000; });
  return s;  // op 3
}

TEST_P(Ordering, StAsyncCompletesTheBarrierAfterTheData) {
  const Script s = cluster_script();
  const Outcome o = run_script(s, cfg());
  STU_EXPECT_GOLDEN_OK(o);
  const std::uint64_t id = s.id_of(1);
  const auto data = events(o.log, Event::SharedWrite, id);
  const auto upd = events(o.log, Event::MbarUpdate, id);
  ASSERT_FALSE(data.empty()) << dump(o.log);
  ASSERT_EQ(upd.size(), 1u) << dump(o.log);
  EXPECT_GE(upd[0].cycle, max_cycle(data)) << dump(o.log);
}

TEST_P(Ordering, MbarWaitHoldsTheWarpUntilThePhaseCompletes) {
  const Script s = cluster_script();
  const Outcome o = run_script(s, cfg());
  STU_EXPECT_GOLDEN_OK(o);
  const auto phases = events(o.log, Event::MbarPhase);
  ASSERT_EQ(phases.size(), 1u) << dump(o.log);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(3)), phases[0].cycle) << dump(o.log);
}

// The wait holds its own SM only: a store of SM 0 that follows it in the feed issues before
// the phase completes, in LT (per-SM cursors) and in AT (the LSU thread leaves the wait pending
// on SM 1 and goes on; until 2026-11-27 it waited, and SM 0's store with it).
TEST_P(Ordering, AnMbarWaitHoldsItsSmNotTheOthers) {
  const Script s = cluster_script(true);
  const Outcome o = run_script(s, cfg());
  STU_EXPECT_GOLDEN_OK(o);
  const auto phases = events(o.log, Event::MbarPhase);
  ASSERT_EQ(phases.size(), 1u) << dump(o.log);
  EXPECT_LT(one(o.log, Event::Issue, s.id_of(3)), phases[0].cycle) << dump(o.log);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(4)), phases[0].cycle) << dump(o.log);
}

// A warp that waits for a phase no operation completes (no arrive, no st.async): the run ends
// with an error naming the deadlock (AT: the LSU never finishes; LT: the wait cannot be
// satisfied in stream order), never a hang, and the stores before the wait still pass the
// golden-image check (nothing already computed is lost).
TEST_P(Ordering, AWaitThatNeverCompletesIsAnErrorNotAHang) {
  Script s;
  s.mc.cluster_ctas = 2;
  s.mc.warps_per_cta = 1;
  s.mc.shared_bytes = kBuf + kAsyncBytes;
  s.setup = [](golden::MachineState& m) {
    m.set_mbar(0, kMbar, golden::MbarState{0, 1, 1, 0});
    return true;
  };
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x6000; });
  s.other(OpKind::MbarWait, 0, 0, 0, kMbar, 0, 0);
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x6080; });
  const Outcome o = run_script(s, cfg());
  EXPECT_FALSE(o.report.ok);
  // The only difference allowed is the store the model never ran (the golden model did):
  // global memory is compared in DRAM in a workload run.
  EXPECT_FALSE(
      o.report.mismatch.has_value() &&
      (o.report.mismatch->space != "dram" ||
       (o.report.mismatch->addr & ~std::uint64_t(golden::kLineBytes - 1)) != kBase + 0x6080))
      << mismatch_text(o.report);
  std::string all;
  for (const std::string& e : o.report.errors) all += e + "\n";
  if (GetParam() == SimMode::At) {
    EXPECT_NE(all.find("deadlock"), std::string::npos) << all;
  } else {
    EXPECT_NE(all.find("which no earlier operation of the workload completes"), std::string::npos)
        << all;
  }
}

// --- tcgen05.st ---------------------------------------------------------------------------
// Warp 0: tcgen05.st (TMEM lanes 0..31, columns 0..3), a global store, tcgen05.wait::st, a
// second global store. The LSU does not wait for the tcgen05.st before the first global store
// (it is issued before the tcgen05.st is acknowledged); the wait holds the second one until
// the tcgen05.st is acknowledged.
TEST_P(Ordering, Tcgen05StCompletesAsynchronously) {
  SimConfig c = cfg();
  c.tmem.enabled = true;
  Script s;
  s.mc.warps_per_cta = 4;
  s.setup = [](golden::MachineState& m) {
    return m.cta(0).tmem_alloc.alloc(golden::kTmemColumns).has_value();
  };
  const std::uint32_t taddr = golden::TmemAddr{0, 0}.encode();
  s.store(
      "tcgen05.st.sync.aligned.32x32b.x4.b32 [%r1], {%r2, %r3, %r4, %r5};", 0, 0, 0, ~0u,
      [&](unsigned) { return taddr; }, 4);
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x6000; });
  s.other(OpKind::TmemWait, 0, 0, 0);
  s.store("st.global.b32 [%rd1], %r1;", 0, 0, 0, 1u, [](unsigned) { return kBase + 0x6080; });
  const Outcome o = run_script(s, c);
  STU_EXPECT_GOLDEN_OK(o);
  const Cycle tmem_ack = one(o.log, Event::Ack, s.id_of(0));
  EXPECT_FALSE(events(o.log, Event::TmemWrite, s.id_of(0)).empty()) << dump(o.log);
  EXPECT_LT(one(o.log, Event::Issue, s.id_of(1)), tmem_ack) << dump(o.log);
  EXPECT_GE(one(o.log, Event::Issue, s.id_of(3)), tmem_ack) << dump(o.log);
}

INSTANTIATE_TEST_SUITE_P(Modes, Ordering, ::testing::Values(SimMode::Lt, SimMode::At), mode_name);

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
