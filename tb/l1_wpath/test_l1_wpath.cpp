// rtl/stu_l1_wpath.sv: a hand trace on a 2-set x 2-way L1 with a 2-entry write buffer
// (Vstu_l1_wpath_2x2; set = address bit 7), every expectation computed from the rules of
// docs/golden.md ("Caches"): the L1 action table, replacement (lowest free way, else lowest
// class, then oldest stamp), the write buffer's merge rule (a weak store merges only into the
// youngest entry of its line when that is weak with the same L2 action; strong and .mmio never
// merge), a release drains every earlier entry first, a full buffer pushes out its oldest
// entry. Then seeded cosimulation of the default slice against the golden L1 write path.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "Vstu_l1_wpath_2x2.h"
#include "bits.h"
#include "cosim_test.h"
#include "verilated.h"

namespace {

namespace L = stu::rtl::layout;
using stu::tb::get_bits;
using stu::tb::get_field;
using stu::tb::put_bits;
using stu::tb::put_field;

enum : unsigned { kFirst = 0, kNormal = 1, kLast = 2 };
enum : unsigned { kWb = 0, kCg = 1, kCs = 2, kWt = 3 };
enum : unsigned { kL1EvictNormal = 0, kL1Unchanged = 1, kL1First = 2, kL1Last = 3, kL1NoAlloc = 4 };

struct Mask {
  uint64_t lo = 0, hi = 0;
  bool operator==(const Mask& o) const { return lo == o.lo && hi == o.hi; }
};
Mask bytes(unsigned from, unsigned n) {
  Mask m;
  for (unsigned i = from; i < from + n; ++i) (i < 64 ? m.lo : m.hi) |= uint64_t(1) << (i & 63);
  return m;
}

struct Req {
  bool drain = false;
  uint64_t line = 0;
  Mask mask;
  uint8_t fill = 0;  // data byte i = fill + i
  int cop = -1;      // -1: none
  int l1 = -1;       // -1: none
  bool strong = false, mmio = false, release = false;
  // The L2 action (default: class normal, write-back).
  unsigned l2_cls = kNormal;
  bool l2_keep = false, l2_through = false;
};
Req st(uint64_t line, Mask m, uint8_t fill) {
  Req r;
  r.line = line;
  r.mask = m;
  r.fill = fill;
  return r;
}

struct Out {
  bool l2 = false;
  // event
  bool drain = false, invalidate = false, allocate = false, keep = false;
  unsigned cls = 0, drained = 0;
  bool hit = false, allocated = false, invalidated = false, evicted = false, merged = false;
  uint64_t victim_line = 0;
  // L2 write
  uint64_t line = 0;
  Mask mask;
  bool through = false;
  unsigned l2_cls = 0;
  uint8_t data[128] = {};
};

class L1Wpath : public ::testing::Test {
 protected:
  L1Wpath() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_l1_wpath_2x2>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    dut_->req_valid_i = 0;
    dut_->ev_ready_i = 1;
    dut_->l2_ready_i = 1;
    dut_->cfg_set_mask_i = 1;  // the whole 2x2 geometry and both buffer entries
    dut_->cfg_ways_i = 2;
    dut_->cfg_wb_entries_i = 2;
    stu::tb::reset(*dut_);
  }
  ~L1Wpath() override { dut_->final(); }

  std::vector<Out> run(const Req& q) {
    put(q);
    dut_->req_valid_i = 1;
    std::vector<Out> outs;
    for (unsigned c = 0; c < 20; ++c) {
      dut_->eval();
      const bool taken = dut_->req_valid_i && dut_->req_ready_o;
      EXPECT_FALSE(dut_->ev_valid_o && dut_->l2_valid_o);
      if (dut_->ev_valid_o) outs.push_back(event());
      if (dut_->l2_valid_o) outs.push_back(l2());
      tick();
      if (taken) dut_->req_valid_i = 0;
      dut_->eval();
    }
    EXPECT_FALSE(dut_->req_valid_i) << "the request was never taken";
    EXPECT_FALSE(ctx_->gotError());
    return outs;
  }
  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
  }
  // Drives the request's fields (not its valid).
  void put(const Req& q) {
    namespace F = L::l1_req;
    auto& w = dut_->req_i;
    put_field(w, 0, F::drain, q.drain);
    put_field(w, 0, F::line, q.line);
    put_bits(w, F::bytes.lsb, 64, q.mask.lo);
    put_bits(w, F::bytes.lsb + 64, 64, q.mask.hi);
    put_field(w, 0, F::has_cop, q.cop >= 0);
    put_field(w, 0, F::cop, q.cop >= 0 ? unsigned(q.cop) : 0);
    put_field(w, 0, F::has_l1, q.l1 >= 0);
    put_field(w, 0, F::l1, q.l1 >= 0 ? unsigned(q.l1) : 0);
    put_field(w, 0, F::is_strong, q.strong);
    put_field(w, 0, F::is_mmio, q.mmio);
    put_field(w, 0, F::is_release, q.release);
    put_field(w, 0, F::l2_cls, q.l2_cls);
    put_field(w, 0, F::l2_keep_cls, q.l2_keep);
    put_field(w, 0, F::l2_through, q.l2_through);
    for (unsigned i = 0; i < 128; ++i) {
      const bool on = (i < 64 ? q.mask.lo >> i : q.mask.hi >> (i - 64)) & 1;
      put_bits(w, F::data.lsb + 8 * i, 8, on ? uint8_t(q.fill + i) : 0);
    }
  }
  // The debug read's valid bytes (dbg_valid_o, 128 bits).
  Mask dbg_valid() const {
    return {get_bits(dut_->dbg_valid_o, 0, 64), get_bits(dut_->dbg_valid_o, 64, 64)};
  }
  Out event() {
    namespace E = L::l1_event;
    const auto& w = dut_->ev_o;
    Out o;
    o.drain = get_field(w, 0, E::drain);
    o.invalidate = get_field(w, 0, E::invalidate);
    o.allocate = get_field(w, 0, E::allocate);
    o.cls = unsigned(get_field(w, 0, E::cls));
    o.keep = get_field(w, 0, E::keep_cls);
    o.hit = get_field(w, 0, E::hit);
    o.allocated = get_field(w, 0, E::allocated);
    o.invalidated = get_field(w, 0, E::invalidated);
    o.evicted = get_field(w, 0, E::evicted);
    o.victim_line = get_field(w, 0, E::victim_line);
    o.merged = get_field(w, 0, E::merged);
    o.drained = unsigned(get_field(w, 0, E::drained));
    return o;
  }
  Out l2() {
    namespace W = L::l2_write;
    const auto& w = dut_->l2_o;
    Out o;
    o.l2 = true;
    EXPECT_EQ(get_field(w, 0, W::flush), 0u) << "an L1 write-buffer entry is never a flush";
    o.line = get_field(w, 0, W::line);
    o.mask = {get_bits(w, W::bytes.lsb, 64), get_bits(w, W::bytes.lsb + 64, 64)};
    o.through = get_field(w, 0, W::through);
    o.l2_cls = unsigned(get_field(w, 0, W::cls));
    for (unsigned i = 0; i < 128; ++i) o.data[i] = uint8_t(get_bits(w, W::data.lsb + 8 * i, 8));
    return o;
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_l1_wpath_2x2> dut_;
};

// Lines A=0x000, B=0x100, C=0x200, E=0x300 (set 0), D=0x080 (set 1). The buffer is written
// oldest first in the comments.
TEST_F(L1Wpath, HandTraceTwoSetsTwoWaysTwoEntries) {
  // 1. A, plain weak store: update, allocate, normal. L1 miss, way 0 (stamp 1). Buffer [A].
  std::vector<Out> o = run(st(0x000, bytes(0, 4), 0x10));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_FALSE(o[0].invalidate || o[0].keep);
  EXPECT_TRUE(o[0].allocate);
  EXPECT_EQ(o[0].cls, kNormal);
  EXPECT_TRUE(o[0].allocated && !o[0].hit && !o[0].merged);
  EXPECT_EQ(o[0].drained, 0u);
  // 2. A again, weak, same L2 action: L1 hit (stamp 2); merges into A. Buffer [A].
  o = run(st(0x000, bytes(4, 4), 0x20));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].hit && o[0].merged);
  // 3. B: L1 way 1 (stamp 3). Buffer [A, B].
  o = run(st(0x100, bytes(0, 1), 0x30));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].allocated && !o[0].merged);
  // 4. C, .cs, strong: update, allocate, evict-first (L2 class first too). L1 set 0 full of
  //    normal lines A (2) and B (3): A, the older, is the victim. Buffer full: A leaves; C
  //    appended. Buffer [B, Cs].
  Req c4 = st(0x200, bytes(0, 2), 0x40);
  c4.cop = kCs;
  c4.strong = true;
  c4.l2_cls = kFirst;
  o = run(c4);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].cls, kFirst);
  EXPECT_TRUE(o[0].allocated && o[0].evicted);
  EXPECT_EQ(o[0].victim_line, 0x000u);
  EXPECT_EQ(o[0].drained, 1u);
  EXPECT_TRUE(o[1].l2);
  EXPECT_EQ(o[1].line, 0x000u);
  EXPECT_EQ(o[1].mask, bytes(0, 8));
  const uint8_t a[8] = {0x10, 0x11, 0x12, 0x13, 0x24, 0x25, 0x26, 0x27};
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(o[1].data[i], a[i]) << i;
  EXPECT_EQ(o[1].data[8], 0);
  // 5. C weak: L1 hit (stamp 5, class back to normal). The youngest C entry is strong: no
  //    merge; full: B leaves. Buffer [Cs, Cw].
  o = run(st(0x200, bytes(0, 2), 0x50));
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].hit && !o[0].merged);
  EXPECT_EQ(o[0].drained, 1u);
  EXPECT_EQ(o[1].line, 0x100u);
  EXPECT_EQ(o[1].mask, bytes(0, 1));
  // 6. C weak, .L1::no_allocate: update, no allocation, class kept. L1 hit; merges into Cw.
  Req c6 = st(0x200, bytes(1, 2), 0x60);
  c6.l1 = kL1NoAlloc;
  o = run(c6);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_FALSE(o[0].allocate || o[0].invalidate);
  EXPECT_TRUE(o[0].keep);
  EXPECT_TRUE(o[0].hit && o[0].merged);
  // 7. E .L1::no_allocate: an L1 miss allocates nothing. Full: Cs leaves. Buffer [Cw, E].
  Req e7 = st(0x300, bytes(0, 1), 0x70);
  e7.l1 = kL1NoAlloc;
  o = run(e7);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(!o[0].invalidate && !o[0].allocate && o[0].keep);
  EXPECT_FALSE(o[0].hit || o[0].invalidated || o[0].allocated);
  EXPECT_EQ(o[1].line, 0x200u);
  EXPECT_EQ(o[1].l2_cls, kFirst);  // Cs carries its own L2 action
  EXPECT_EQ(o[1].data[0], 0x40);
  EXPECT_EQ(o[1].data[1], 0x41);
  // 8. C .mmio (strong; L2: write-back, as any store): bypass; the L1 hit is invalidated.
  //    Never merges; full: Cw leaves (bytes 0..2: 0x50 from step 5, 0x61 0x62 from step 6).
  //    Buffer [E, Cm].
  Req c8 = st(0x200, bytes(0, 1), 0x80);
  c8.mmio = c8.strong = true;
  o = run(c8);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].invalidate && o[0].hit && o[0].invalidated);
  EXPECT_EQ(o[0].drained, 1u);
  EXPECT_EQ(o[1].line, 0x200u);
  EXPECT_EQ(o[1].mask, bytes(0, 3));
  EXPECT_EQ(o[1].data[0], 0x50);
  EXPECT_EQ(o[1].data[1], 0x61);
  EXPECT_EQ(o[1].data[2], 0x62);
  EXPECT_FALSE(o[1].through);
  // 9. D with release: every entry leaves first (E, then Cm), then D is appended. L1 set 1
  //    way 0. Buffer [D].
  Req d9 = st(0x080, bytes(0, 1), 0x90);
  d9.release = d9.strong = true;
  o = run(d9);
  ASSERT_EQ(o.size(), 3u);
  EXPECT_TRUE(o[0].allocated);
  EXPECT_EQ(o[0].drained, 2u);
  EXPECT_EQ(o[1].line, 0x300u);
  EXPECT_EQ(o[2].line, 0x200u);
  EXPECT_FALSE(o[2].through);
  EXPECT_EQ(o[2].l2_cls, kNormal);
  // 10. A: L1 set 0 has way 0 free (C was invalidated) beside B: allocated there, no victim.
  //     Buffer [D, A].
  o = run(st(0x000, bytes(0, 1), 0xA0));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].allocated && !o[0].evicted);
  EXPECT_EQ(o[0].drained, 0u);
  // 11. Drain: D then A.
  Req dr;
  dr.drain = true;
  o = run(dr);
  ASSERT_EQ(o.size(), 3u);
  EXPECT_TRUE(o[0].drain);
  EXPECT_EQ(o[0].drained, 2u);
  EXPECT_EQ(o[1].line, 0x080u);
  EXPECT_EQ(o[2].line, 0x000u);
  EXPECT_EQ(o[2].data[0], 0xA0);
  // 12. Nothing is left.
  o = run(dr);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].drained, 0u);
}

// The decode of l1_store_action, one operator or priority at a time (docs/golden.md table).
TEST_F(L1Wpath, ActionTable) {
  struct Case {
    int cop, l1;
    bool mmio;
    bool inv, alloc, keep;
    unsigned cls;
  };
  const Case cases[] = {
      {-1, -1, false, false, true, false, kNormal},        // default
      {kWb, -1, false, false, true, false, kNormal},       // .wb
      {kCg, -1, false, false, true, false, kNormal},       // .cg: as .wb (silicon)
      {kCs, -1, false, false, true, false, kFirst},        // .cs: evict-first
      {kWt, kL1Last, false, false, true, false, kNormal},  // .wt (as .wb) wins over .L1::
      {-1, kL1EvictNormal, false, false, true, false, kNormal},
      {-1, kL1Unchanged, false, false, true, true, kNormal},
      {-1, kL1First, false, false, true, false, kFirst},
      {-1, kL1Last, false, false, true, false, kLast},
      {-1, kL1NoAlloc, false, false, false, true, kNormal},
      {kCs, kL1Last, true, true, false, true, kNormal},  // .mmio: bypass whatever else
  };
  uint64_t line = 0x1000;
  for (const Case& c : cases) {
    Req q = st(line += 0x400, bytes(0, 1), 1);
    q.cop = c.cop;
    q.l1 = c.l1;
    q.mmio = c.mmio;
    q.strong = c.mmio;
    q.release = true;  // keeps the buffer from filling: each store drains the one before
    const std::vector<Out> o = run(q);
    ASSERT_GE(o.size(), 1u);
    const unsigned k = unsigned(&c - cases);
    EXPECT_EQ(o[0].invalidate, c.inv) << k;
    EXPECT_EQ(o[0].allocate, c.alloc) << k;
    EXPECT_EQ(o[0].keep, c.keep) << k;
    if (!c.keep) {
      EXPECT_EQ(o[0].cls, c.cls) << k;
    }
  }
}

// The debug read of a line the L1 does not hold: no hit, the line's set, way 0, no valid byte,
// class normal (as SectoredCache::lookup's miss); then of one it holds, with no dirty byte.
TEST_F(L1Wpath, DebugReadOfAnAbsentLine) {
  run(st(0x000, bytes(0, 4), 1));  // set 0, way 0
  dut_->dbg_line_i = 0x080;        // set 1, not present
  dut_->eval();
  EXPECT_FALSE(dut_->dbg_hit_o);
  EXPECT_EQ(dut_->dbg_set_o, 1u);
  EXPECT_EQ(dut_->dbg_way_o, 0u);
  EXPECT_EQ(dbg_valid(), Mask{});
  EXPECT_EQ(dut_->dbg_cls_o, kNormal);
  dut_->dbg_line_i = 0x000;
  dut_->eval();
  EXPECT_TRUE(dut_->dbg_hit_o);
  EXPECT_EQ(dut_->dbg_set_o, 0u);
  EXPECT_EQ(dut_->dbg_way_o, 0u);
  EXPECT_EQ(dbg_valid(), bytes(0, 4));
  // Write-through: no L1 line holds a dirty byte.
  EXPECT_EQ(get_bits(dut_->dbg_dirty_o, 0, 64), 0u);
  EXPECT_EQ(get_bits(dut_->dbg_dirty_o, 64, 64), 0u);
}

// A store that hits adds its bytes to the line's valid bytes (SectoredCache::write: valid |=
// the bytes written): bytes 0..3, then 8..11 of one line leave 0..3 and 8..11 valid.
TEST_F(L1Wpath, ValidBytesOfAHitAccumulate) {
  run(st(0x000, bytes(0, 4), 1));
  const std::vector<Out> o = run(st(0x000, bytes(8, 4), 2));
  ASSERT_GE(o.size(), 1u);
  EXPECT_TRUE(o[0].hit);
  dut_->dbg_line_i = 0x000;
  dut_->eval();
  ASSERT_TRUE(dut_->dbg_hit_o);
  Mask want = bytes(0, 4);
  want.lo |= bytes(8, 4).lo;
  EXPECT_EQ(dbg_valid(), want);
}

// A request that drains nothing is taken, and its event is presented the cycle after; the next
// request is taken in that cycle, as the event is taken (one request a cycle while events
// are taken: docs/rtl.md), not a cycle later.
TEST_F(L1Wpath, TakesTheNextRequestAsTheEventIsTaken) {
  put(st(0x000, bytes(0, 4), 1));
  dut_->req_valid_i = 1;
  dut_->eval();
  ASSERT_TRUE(dut_->req_ready_o);
  tick();  // the first request is taken
  put(st(0x080, bytes(0, 4), 2));
  dut_->eval();
  ASSERT_TRUE(dut_->ev_valid_o);
  EXPECT_TRUE(dut_->req_ready_o) << "the second request waits a cycle after the event";
  tick();  // the event and the second request are taken
  dut_->req_valid_i = 0;
  dut_->eval();
  ASSERT_TRUE(dut_->ev_valid_o);  // the second request's event
  EXPECT_EQ(event().hit, false);
  EXPECT_TRUE(event().allocated);
  EXPECT_FALSE(ctx_->gotError());
}

TEST(L1WpathCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("l1_wpath", 1, 4, 5000); }

TEST(L1WpathCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("l1_wpath", 1000, 32, 50000); }

}  // namespace
