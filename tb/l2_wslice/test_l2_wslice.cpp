// rtl/stu_l2_wslice.sv: a hand trace on a 2-set x 2-way slice (Vstu_l2_wslice_2x2; set =
// address bit 7), every expectation computed from the rules of docs/golden.md ("Caches"):
// lowest free way, else lowest class then oldest write stamp; write-validate; Back keeps bytes
// dirty, Through cleans them and sends them to DRAM; a dirty victim goes to DRAM with its dirty
// bytes; flush writes back every dirty line in set then way order. Then seeded cosimulation of
// the default 64 x 4 slice against golden::SectoredCache.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "Vstu_l2_wslice_2x2.h"
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
enum : unsigned { kEviction = 0, kWriteThrough = 1, kFlush = 2 };

struct Mask {
  uint64_t lo = 0, hi = 0;
  bool operator==(const Mask& o) const { return lo == o.lo && hi == o.hi; }
};
Mask bytes(unsigned from, unsigned n) {  // bytes from .. from+n-1
  Mask m;
  for (unsigned i = from; i < from + n; ++i) (i < 64 ? m.lo : m.hi) |= uint64_t(1) << (i & 63);
  return m;
}

struct Req {
  bool flush = false;
  uint64_t line = 0;
  Mask mask;
  uint8_t fill = 0;  // data byte i = fill + i
  unsigned cls = kNormal;
  bool keep = false, through = false;
};
struct Out {
  bool dram = false;
  // result
  bool flush = false, hit = false, allocated = false, evicted = false;
  unsigned set = 0, way = 0, flushed = 0, victim_cls = 0;
  uint64_t victim_line = 0;
  Mask victim_valid, victim_dirty;
  // DRAM write
  uint64_t line = 0;
  Mask mask;
  unsigned cause = 0;
  uint8_t data[128] = {};
};

Req write(uint64_t line, Mask m, uint8_t fill, unsigned cls = kNormal) {
  Req r;
  r.line = line;
  r.mask = m;
  r.fill = fill;
  r.cls = cls;
  return r;
}

class L2Wslice : public ::testing::Test {
 protected:
  L2Wslice() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_l2_wslice_2x2>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    dut_->req_valid_i = 0;
    dut_->res_ready_i = 1;
    dut_->dram_ready_i = 1;
    dut_->cfg_set_mask_i = 1;  // the whole 2x2 geometry
    dut_->cfg_ways_i = 2;
    stu::tb::reset(*dut_);
  }
  ~L2Wslice() override { dut_->final(); }

  // Offers one request, then collects every output until the slice is quiet: the result port
  // always ready, the DRAM port not ready for its first `dram_stall` cycles with a write
  // presented, over which that write must not change.
  std::vector<Out> run(const Req& q, unsigned dram_stall = 0) {
    namespace F = L::l2_write;
    auto& w = dut_->req_i;
    put_field(w, 0, F::flush, q.flush);
    put_field(w, 0, F::line, q.line);
    put_bits(w, F::bytes.lsb, 64, q.mask.lo);
    put_bits(w, F::bytes.lsb + 64, 64, q.mask.hi);
    put_field(w, 0, F::cls, q.cls);
    put_field(w, 0, F::keep_cls, q.keep);
    put_field(w, 0, F::through, q.through);
    for (unsigned i = 0; i < 128; ++i) {
      const bool on = (i < 64 ? q.mask.lo >> i : q.mask.hi >> (i - 64)) & 1;
      put_bits(w, F::data.lsb + 8 * i, 8, on ? uint8_t(q.fill + i) : 0);
    }
    dut_->req_valid_i = 1;
    std::vector<Out> outs;
    unsigned stalled = 0;
    Out held;
    for (unsigned c = 0; c < 40; ++c) {
      dut_->dram_ready_i = stalled >= dram_stall;
      dut_->eval();
      const bool taken = dut_->req_valid_i && dut_->req_ready_o;
      EXPECT_FALSE(dut_->res_valid_o && dut_->dram_valid_o);
      if (dut_->res_valid_o) outs.push_back(result());
      if (dut_->dram_valid_o && dut_->dram_ready_i) outs.push_back(dram());
      if (dut_->dram_valid_o && !dut_->dram_ready_i) {
        const Out d = dram();
        if (stalled) {
          EXPECT_EQ(d.line, held.line) << "cycle " << c;
          EXPECT_EQ(d.mask, held.mask) << "cycle " << c;
          EXPECT_EQ(0, std::memcmp(d.data, held.data, sizeof d.data)) << "cycle " << c;
        }
        held = d;
        ++stalled;
      }
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      if (taken) dut_->req_valid_i = 0;
      dut_->eval();
    }
    EXPECT_FALSE(dut_->req_valid_i) << "the request was never taken";
    EXPECT_FALSE(ctx_->gotError());
    return outs;
  }
  Out result() {
    namespace R = L::l2_result;
    const auto& w = dut_->res_o;
    Out o;
    o.flush = get_field(w, 0, R::flush);
    o.hit = get_field(w, 0, R::hit);
    o.allocated = get_field(w, 0, R::allocated);
    o.evicted = get_field(w, 0, R::evicted);
    o.set = unsigned(get_field(w, 0, R::set_idx));
    o.way = unsigned(get_field(w, 0, R::way));
    o.flushed = unsigned(get_field(w, 0, R::flushed));
    o.victim_line = get_field(w, 0, R::victim_line);
    o.victim_cls = unsigned(get_field(w, 0, R::victim_cls));
    o.victim_valid = {get_bits(w, R::victim_valid.lsb, 64),
                      get_bits(w, R::victim_valid.lsb + 64, 64)};
    o.victim_dirty = {get_bits(w, R::victim_dirty.lsb, 64),
                      get_bits(w, R::victim_dirty.lsb + 64, 64)};
    return o;
  }
  Out dram() {
    namespace D = L::dram_write;
    const auto& w = dut_->dram_o;
    Out o;
    o.dram = true;
    o.line = get_field(w, 0, D::line);
    o.mask = {get_bits(w, D::bytes.lsb, 64), get_bits(w, D::bytes.lsb + 64, 64)};
    o.cause = unsigned(get_field(w, 0, D::cause));
    for (unsigned i = 0; i < 128; ++i) o.data[i] = uint8_t(get_bits(w, D::data.lsb + 8 * i, 8));
    return o;
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_l2_wslice_2x2> dut_;
};

// The trace of docs/golden.md's rules on lines A=0x000, B=0x100, C=0x200, E=0x300 (set 0) and
// D=0x080 (set 1). Stamps: each write that hits or allocates takes the next (1, 2, ...).
// cfg_random_i: the victim is the first way of the lowest class from the low bit of the
// generator's next value (xorshift32 from 0x2545F491: 0xE124B63A, 0x8B9A74AB, 0x64E1B3AC,
// 0x00174626 -> ways 0, 1, 0, 0; golden cache.h), drawn only by a write that evicts. Lines
// 0x000 .. 0x400 all fall in set 0 of the 2 x 2 slice. Where least recently written would
// choose otherwise, the comment says so.
TEST_F(L2Wslice, RandomReplacementFollowsTheGenerator) {
  dut_->cfg_random_i = 1;
  stu::tb::reset(*dut_);
  const auto victim_of = [&](uint64_t line) {
    const std::vector<Out> o = run(write(line, bytes(0, 128), 0x10));
    EXPECT_FALSE(o.empty());
    return o.empty() ? Out{} : o[0];
  };
  EXPECT_EQ(victim_of(0x000).way, 0u);  // free ways first: no draw
  EXPECT_EQ(victim_of(0x100).way, 1u);
  EXPECT_TRUE(victim_of(0x000).hit);  // a hit: no draw
  Out o = victim_of(0x200);           // 0 -> way 0, A (least recently written: way 1, B)
  EXPECT_TRUE(o.evicted && o.way == 0 && o.victim_line == 0x000u);
  o = victim_of(0x300);  // 1 -> way 1, B
  EXPECT_TRUE(o.evicted && o.way == 1 && o.victim_line == 0x100u);
  o = victim_of(0x400);  // 0 -> way 0, C
  EXPECT_TRUE(o.evicted && o.way == 0 && o.victim_line == 0x200u);
  o = victim_of(0x000);  // 0 -> way 0, E (least recently written: way 1, D)
  EXPECT_TRUE(o.evicted && o.way == 0 && o.victim_line == 0x400u);
}

// Random replacement still takes a free way first, even when the draw names an evict-first
// line (a line's key outranks a free way's 0 whatever its class and distance): A (First) in way
// 0, then B with the first draw's start at way 0 takes the free way 1 and evicts nothing.
TEST_F(L2Wslice, RandomReplacementTakesAFreeWayFirst) {
  dut_->cfg_random_i = 1;
  stu::tb::reset(*dut_);
  std::vector<Out> o = run(write(0x000, bytes(0, 128), 0x10, kFirst));
  ASSERT_FALSE(o.empty());
  EXPECT_EQ(o[0].way, 0u);
  o = run(write(0x100, bytes(0, 128), 0x20));
  ASSERT_FALSE(o.empty());
  EXPECT_TRUE(o[0].allocated && !o[0].evicted);
  EXPECT_EQ(o[0].way, 1u);
}

TEST_F(L2Wslice, HandTraceTwoSetsTwoWays) {
  // 1. A bytes 0..3: miss, lowest free way 0 (stamp 1).
  std::vector<Out> o = run(write(0x000, bytes(0, 4), 0x10));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].allocated && !o[0].hit && !o[0].evicted);
  EXPECT_EQ(o[0].set, 0u);
  EXPECT_EQ(o[0].way, 0u);
  // 2. B sector 1 (bytes 32..63), class First: way 1 (stamp 2).
  o = run(write(0x100, bytes(32, 32), 0x40, kFirst));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].allocated);
  EXPECT_EQ(o[0].way, 1u);
  // 3. A bytes 2..5: hit way 0 (stamp 3); A now valid and dirty 0..5.
  o = run(write(0x000, bytes(2, 4), 0x80));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].hit && !o[0].allocated);
  EXPECT_EQ(o[0].way, 0u);
  // 4. C byte 0: set 0 full; B is First (below A's Normal) -> victim B, way 1 (stamp 4). Its
  //    dirty bytes 32..63 go to DRAM with the data written in step 2.
  o = run(write(0x200, bytes(0, 1), 0x20));
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].allocated && o[0].evicted);
  EXPECT_EQ(o[0].way, 1u);
  EXPECT_EQ(o[0].victim_line, 0x100u);
  EXPECT_EQ(o[0].victim_cls, kFirst);
  EXPECT_EQ(o[0].victim_valid, bytes(32, 32));
  EXPECT_EQ(o[0].victim_dirty, bytes(32, 32));
  EXPECT_TRUE(o[1].dram);
  EXPECT_EQ(o[1].cause, kEviction);
  EXPECT_EQ(o[1].line, 0x100u);
  EXPECT_EQ(o[1].mask, bytes(32, 32));
  EXPECT_EQ(o[1].data[31], 0);
  EXPECT_EQ(o[1].data[32], uint8_t(0x40 + 32));
  EXPECT_EQ(o[1].data[63], uint8_t(0x40 + 63));
  // 5. D write-through: set 1 way 0 (stamp 5), clean; the bytes go to DRAM.
  Req d = write(0x080, bytes(64, 8), 0x30);
  d.through = true;
  o = run(d);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].allocated && !o[0].evicted);
  EXPECT_EQ(o[0].set, 1u);
  EXPECT_EQ(o[0].way, 0u);
  EXPECT_EQ(o[1].cause, kWriteThrough);
  EXPECT_EQ(o[1].line, 0x080u);
  EXPECT_EQ(o[1].mask, bytes(64, 8));
  EXPECT_EQ(o[1].data[64], uint8_t(0x30 + 64));
  // 6. B byte 0, class Last: set 0 holds A (Normal, 3) and C (Normal, 4): the oldest, A, way 0
  //    (stamp 6). A's dirty bytes 0..5: 0x10,0x11 from step 1, 0x82..0x85 from step 3.
  o = run(write(0x100, bytes(0, 1), 0x50, kLast));
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].evicted);
  EXPECT_EQ(o[0].way, 0u);
  EXPECT_EQ(o[0].victim_line, 0x000u);
  EXPECT_EQ(o[0].victim_cls, kNormal);
  EXPECT_EQ(o[1].cause, kEviction);
  EXPECT_EQ(o[1].mask, bytes(0, 6));
  const uint8_t a[6] = {0x10, 0x11, 0x82, 0x83, 0x84, 0x85};
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(o[1].data[i], a[i]) << i;
  EXPECT_EQ(o[1].data[6], 0);
  // 7. Flush: set 0 way 0 (B, dirty byte 0), way 1 (C, dirty byte 0); set 1 (D) is clean.
  Req f;
  f.flush = true;
  o = run(f);
  ASSERT_EQ(o.size(), 3u);
  EXPECT_EQ(o[0].cause, kFlush);
  EXPECT_EQ(o[0].line, 0x100u);
  EXPECT_EQ(o[0].mask, bytes(0, 1));
  EXPECT_EQ(o[0].data[0], 0x50);
  EXPECT_EQ(o[1].line, 0x200u);
  EXPECT_EQ(o[1].data[0], 0x20);
  EXPECT_TRUE(o[2].flush && !o[2].dram);
  EXPECT_EQ(o[2].flushed, 2u);
  // 8. Nothing is dirty now.
  o = run(f);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].flushed, 0u);
  // 9. C keeps its class on a hit (Normal, stamp 7); E then allocates over C (Normal is below
  //    B's Last although C is younger), and C is clean: no DRAM write.
  Req c = write(0x200, bytes(1, 1), 0x70);
  c.keep = true;
  o = run(c);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].hit);
  EXPECT_EQ(o[0].way, 1u);
  Req c2 = write(0x200, bytes(1, 1), 0x70);
  c2.keep = true;
  c2.through = true;  // byte 1 clean again
  o = run(c2);
  ASSERT_EQ(o.size(), 2u);
  o = run(write(0x300, bytes(0, 1), 0x90));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].evicted);
  EXPECT_EQ(o[0].way, 1u);
  EXPECT_EQ(o[0].victim_line, 0x200u);
  EXPECT_EQ(o[0].victim_cls, kNormal);
  EXPECT_EQ(o[0].victim_dirty, Mask{});
}

// The victim's data comes from the data memory: read at the edge that accepts the write that
// evicts it, before that write lands in the same way (read first), and held while the DRAM port
// stalls. A (set 0, way 0) and B (way 1) are dirty; C takes A's way: A's bytes leave with the
// data written in step 1, not C's. A flush then reads C's way and B's.
TEST_F(L2Wslice, VictimDataHoldsWhileDramStalls) {
  run(write(0x000, bytes(0, 8), 0x10));
  run(write(0x100, bytes(0, 8), 0x20));
  std::vector<Out> o = run(write(0x200, bytes(4, 8), 0x30), 5);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_TRUE(o[0].evicted);
  EXPECT_EQ(o[0].way, 0u);
  EXPECT_EQ(o[1].cause, kEviction);
  EXPECT_EQ(o[1].line, 0x000u);
  EXPECT_EQ(o[1].mask, bytes(0, 8));
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(o[1].data[i], uint8_t(0x10 + i)) << i;
  EXPECT_EQ(o[1].data[8], 0);
  Req f;
  f.flush = true;
  o = run(f, 3);
  ASSERT_EQ(o.size(), 3u);
  EXPECT_EQ(o[0].line, 0x200u);  // set 0 way 0
  EXPECT_EQ(o[0].mask, bytes(4, 8));
  for (unsigned i = 4; i < 12; ++i) EXPECT_EQ(o[0].data[i], uint8_t(0x30 + i)) << i;
  EXPECT_EQ(o[0].data[0], 0);  // a byte of A's never leaves with C
  EXPECT_EQ(o[1].line, 0x100u);
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(o[1].data[i], uint8_t(0x20 + i)) << i;
  EXPECT_TRUE(o[2].flush);
}

// The debug read of a line the slice does not hold reports what SectoredCache::lookup does for
// a miss: not hit, the line's set, way 0, no valid or dirty byte, class normal.
TEST_F(L2Wslice, DebugReadOfAnAbsentLine) {
  run(write(0x000, bytes(0, 4), 1));
  dut_->dbg_line_i = 0x180;  // set 1, not present
  dut_->eval();
  EXPECT_FALSE(dut_->dbg_hit_o);
  EXPECT_EQ(dut_->dbg_set_o, 1u);
  EXPECT_EQ(dut_->dbg_way_o, 0u);
  EXPECT_EQ(dut_->dbg_cls_o, kNormal);
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(dut_->dbg_valid_o[w], 0u) << w;
    EXPECT_EQ(dut_->dbg_dirty_o[w], 0u) << w;
  }
  dut_->dbg_line_i = 0x000;  // present: set 0, way 0, bytes 0..3 valid and dirty
  dut_->eval();
  EXPECT_TRUE(dut_->dbg_hit_o);
  EXPECT_EQ(dut_->dbg_way_o, 0u);
}

// A flush as the first request after reset: nothing is dirty, so its result alone (0 lines) and
// no DRAM write; nothing left over from reset follows it.
TEST_F(L2Wslice, FlushRightAfterResetWritesNothing) {
  Req f;
  f.flush = true;
  std::vector<Out> o = run(f);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].flush && !o[0].dram);
  EXPECT_EQ(o[0].flushed, 0u);
  o = run(write(0x000, bytes(0, 1), 1));
  ASSERT_EQ(o.size(), 1u);
  EXPECT_TRUE(o[0].allocated);
}

// A flush visits the ways in use of the sets in use, one a cycle, and takes one more cycle a
// dirty line (docs/rtl.md). One way of two in use, two sets, each with a dirty line: after the
// edge that takes the flush, scan, write back, scan, write back, then the result in the fifth
// cycle. (A scan of the unused ways too would write the same lines back, a cycle later.)
TEST_F(L2Wslice, FlushScansOnlyTheWaysInUse) {
  dut_->cfg_ways_i = 1;
  stu::tb::reset(*dut_);
  run(write(0x000, bytes(0, 1), 1));  // set 0
  run(write(0x080, bytes(0, 1), 2));  // set 1
  put_field(dut_->req_i, 0, L::l2_write::flush, 1);
  dut_->req_valid_i = 1;
  dut_->eval();
  ASSERT_TRUE(dut_->req_ready_o);
  unsigned cycles = 0, written_back = 0;
  for (; cycles < 20 && !(cycles && dut_->res_valid_o); ++cycles) {
    if (cycles) written_back += dut_->dram_valid_o;
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->req_valid_i = 0;
    dut_->eval();
  }
  EXPECT_EQ(written_back, 2u);
  EXPECT_EQ(cycles, 5u);
  EXPECT_EQ(result().flushed, 2u);
}

// A write after a stall on the result port: the result holds until taken.
TEST_F(L2Wslice, ResultHoldsUnderBackPressure) {
  dut_->res_ready_i = 0;
  Req q = write(0x080, bytes(0, 1), 1);
  std::vector<Out> o;
  // Offer, then hold the result for 5 cycles.
  namespace F = L::l2_write;
  put_field(dut_->req_i, 0, F::line, q.line);
  put_bits(dut_->req_i, F::bytes.lsb, 64, q.mask.lo);
  put_bits(dut_->req_i, F::bytes.lsb + 64, 64, 0);
  put_field(dut_->req_i, 0, F::flush, 0);
  put_field(dut_->req_i, 0, F::through, 0);
  put_field(dut_->req_i, 0, F::keep_cls, 0);
  put_field(dut_->req_i, 0, F::cls, kNormal);
  dut_->req_valid_i = 1;
  for (unsigned c = 0; c < 6; ++c) {
    dut_->eval();
    if (c == 0) {
      EXPECT_TRUE(dut_->req_ready_o);
    } else {
      EXPECT_TRUE(dut_->res_valid_o);
      EXPECT_FALSE(dut_->req_ready_o);  // the next request waits for the result to leave
    }
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
  }
  dut_->req_valid_i = 0;
  dut_->res_ready_i = 1;
  dut_->eval();
  EXPECT_TRUE(dut_->res_valid_o);
  EXPECT_EQ(result().way, 0u);
  EXPECT_EQ(result().set, 1u);
  EXPECT_FALSE(ctx_->gotError());
}

TEST(L2WsliceCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("l2_wslice", 1, 4, 5000); }

TEST(L2WsliceCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("l2_wslice", 1000, 32, 50000); }

}  // namespace
