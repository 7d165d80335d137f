// rtl/stu_store_align.sv: directed cases computed by hand from the rules (natural alignment,
// ForceAlign drops the low address bits, sinks leave their bytes out), then seeded cosimulation
// against golden::store_align.
#include <gtest/gtest.h>

#include <memory>

#include "Vstu_store_align.h"
#include "cosim_test.h"
#include "verilated.h"

namespace {

struct Placed {
  uint64_t addr, line;
  bool forced, fault;
  unsigned sector;
  uint32_t mask;
  uint8_t byte(unsigned i) const { return data[i]; }
  uint8_t data[32];
};

class StoreAlign : public ::testing::Test {
 protected:
  StoreAlign() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_store_align>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    stu::tb::reset(*dut_);
  }
  ~StoreAlign() override { dut_->final(); }

  // One lane through the block: elements of `elem` bytes, `elems` of them, data byte i = 0x10+i.
  Placed place(uint64_t addr, unsigned elem_log2, unsigned elems_log2, unsigned sinks, bool force) {
    dut_->in_valid_i = 1;
    dut_->out_ready_i = 1;
    dut_->addr_i = addr;
    dut_->elem_log2_i = elem_log2;
    dut_->elems_log2_i = elems_log2;
    dut_->sinks_i = sinks;
    dut_->mode_i = force ? 0 : 1;
    for (unsigned w = 0; w < 8; ++w) {
      uint32_t v = 0;
      for (unsigned k = 0; k < 4; ++k) v |= uint32_t(0x10 + 4 * w + k) << (8 * k);
      dut_->data_i[w] = v;
    }
    dut_->clk_i = 0;
    dut_->eval();
    EXPECT_TRUE(dut_->in_ready_o);
    dut_->clk_i = 1;
    dut_->eval();
    dut_->in_valid_i = 0;
    dut_->clk_i = 0;
    dut_->eval();
    EXPECT_TRUE(dut_->out_valid_o);
    Placed p{dut_->addr_o,
             dut_->line_o,
             bool(dut_->forced_o),
             bool(dut_->fault_o),
             dut_->sector_o,
             dut_->sector_mask_o,
             {}};
    for (unsigned i = 0; i < 32; ++i)
      p.data[i] = uint8_t(dut_->sector_data_o[i / 4] >> (8 * (i % 4)));
    EXPECT_FALSE(ctx_->gotError());
    return p;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_store_align> dut_;
};

TEST_F(StoreAlign, V4B32AtOffset8IsMisalignedAndWritesNothing) {
  const Placed p = place(0x1008, 2, 2, 0, false);  // 16 bytes at 8: 8 % 16 != 0
  EXPECT_TRUE(p.fault);
  EXPECT_FALSE(p.forced);
  EXPECT_EQ(p.mask, 0u);
}

TEST_F(StoreAlign, ForceAlignDropsTheLowBitsOfAV4B32) {
  const Placed p = place(0x1008, 2, 2, 0, true);  // forced down to 0x1000
  EXPECT_FALSE(p.fault);
  EXPECT_TRUE(p.forced);
  EXPECT_EQ(p.addr, 0x1000u);
  EXPECT_EQ(p.line, 0x1000u);
  EXPECT_EQ(p.sector, 0u);
  EXPECT_EQ(p.mask, 0xFFFFu);
  EXPECT_EQ(p.byte(0), 0x10);
  EXPECT_EQ(p.byte(15), 0x1F);
}

TEST_F(StoreAlign, V2B16WithASinkWritesOnlyTheFirstElement) {
  // st.v2.b16 [0x1044], {%h, _}: 4 bytes at line 0x1000, sector 2 (0x40..0x5f), byte 4 of it.
  const Placed p = place(0x1044, 1, 1, 0b10, false);
  EXPECT_FALSE(p.fault);
  EXPECT_EQ(p.line, 0x1000u);
  EXPECT_EQ(p.sector, 2u);
  EXPECT_EQ(p.mask, 0b11u << 4);
  EXPECT_EQ(p.byte(4), 0x10);
  EXPECT_EQ(p.byte(5), 0x11);
  EXPECT_EQ(p.byte(6), 0x00);  // the sink's bytes are not written
}

TEST_F(StoreAlign, V8B32FillsTheLastSectorOfTheAddressSpace) {
  const Placed p = place(0xFFFF'FFFF'FFFF'FFE0ull, 2, 3, 0, false);
  EXPECT_FALSE(p.fault);
  EXPECT_EQ(p.line, 0xFFFF'FFFF'FFFF'FF80ull);
  EXPECT_EQ(p.sector, 3u);
  EXPECT_EQ(p.mask, 0xFFFF'FFFFu);
  EXPECT_EQ(p.byte(31), 0x2F);
}

// The block takes a lane every cycle while its output is taken every cycle: in_ready stays
// high with the output register full (a lane in, the last one out). Eight aligned 4-byte lanes
// at 0x1000 + 4k, one a cycle: after each edge the output holds the lane just taken. (Found
// by the mutation run: `in_ready_o = !valid_q && out_ready_i`, half the throughput, passed
// every other test; the cosimulation checks values and order, not rates.)
TEST_F(StoreAlign, TakesALaneEveryCycleWhenTheOutputIsTaken) {
  dut_->out_ready_i = 1;
  dut_->elem_log2_i = 2;
  dut_->elems_log2_i = 0;
  dut_->sinks_i = 0;
  dut_->mode_i = 1;
  for (unsigned w = 0; w < 8; ++w) dut_->data_i[w] = 0;
  for (unsigned k = 0; k < 8; ++k) {
    dut_->in_valid_i = 1;
    dut_->addr_i = 0x1000 + 4 * k;
    dut_->clk_i = 0;
    dut_->eval();
    EXPECT_TRUE(dut_->in_ready_o) << "cycle " << k;
    dut_->clk_i = 1;
    dut_->eval();
    EXPECT_TRUE(dut_->out_valid_o) << "cycle " << k;
    EXPECT_EQ(dut_->addr_o, 0x1000u + 4 * k) << "cycle " << k;
  }
  EXPECT_FALSE(ctx_->gotError());
}

TEST_F(StoreAlign, OversizedAccessFailsTheSizeAssertion) {
  dut_->in_valid_i = 1;
  dut_->elem_log2_i = 4;   // b128
  dut_->elems_log2_i = 2;  // x4: 64 bytes
  dut_->clk_i = 0;
  dut_->eval();
  dut_->clk_i = 1;
  dut_->eval();
  EXPECT_TRUE(ctx_->gotError());
}

TEST(StoreAlignCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("store_align", 1, 4, 20000); }

TEST(StoreAlignCosim, LongRandomSeeds) {
  stu::tb::expect_cosim_clean("store_align", 1000, 64, 50000);
}

}  // namespace
