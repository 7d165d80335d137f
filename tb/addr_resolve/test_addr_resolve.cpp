// rtl/stu_addr_resolve.sv: directed cases on the default windows (docs/golden.md: shared
// 0x7f00'0000'0000 + 16 x 16 MiB, local 0x7e00'0000'0000, param 0x7d00'0000'0000, const
// 0x7c00'0000'0000; a cluster of one CTA), computed by hand, then seeded cosimulation against
// golden::resolve_generic / resolve_space with random window configurations.
#include <gtest/gtest.h>

#include <memory>

#include "Vstu_addr_resolve.h"
#include "cosim_test.h"
#include "stu_pkg_layout.h"
#include "verilated.h"

namespace {

namespace L = stu::rtl::layout::dest;

// Encodings of stu_pkg (generated from golden::MemSpace, golden::FaultKind, isa::Space).
enum : unsigned {
  kGlobal = 0,
  kShared = 1,
  kLocal = 2,
  kParamFunc = 3,
  kParamEntry = 4,
  kConst = 5
};
enum : unsigned { kNone = 0, kOutOfWindow = 2 };
enum : unsigned {
  kSpaceLocal = 1,
  kSpaceSharedCta = 6,
  kSpaceSharedCluster = 7,
  kSpaceParamFunc = 3,
  kSpaceConst = 8
};

struct Got {
  unsigned space, cta, thread;
  uint64_t offset;
  unsigned fault;
};

class AddrResolve : public ::testing::Test {
 protected:
  AddrResolve() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_addr_resolve>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    dut_->cfg_valid_i = 0;
    dut_->in_valid_i = 0;
    stu::tb::reset(*dut_);
  }
  ~AddrResolve() override { dut_->final(); }
  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
  }
  void configure(unsigned sel, uint64_t value) {
    dut_->cfg_valid_i = 1;
    dut_->cfg_sel_i = sel;
    dut_->cfg_data_i = value;
    tick();
    dut_->cfg_valid_i = 0;
  }
  Got resolve(uint64_t addr, bool generic, unsigned space, unsigned cta, unsigned warp,
              unsigned lane) {
    dut_->in_valid_i = 1;
    dut_->out_ready_i = 1;
    dut_->addr_i = addr;
    dut_->generic_i = generic;
    dut_->space_i = space;
    dut_->cta_i = cta;
    dut_->warp_i = warp;
    dut_->lane_i = lane;
    dut_->eval();
    EXPECT_TRUE(dut_->in_ready_o);
    tick();
    dut_->in_valid_i = 0;
    EXPECT_TRUE(dut_->out_valid_o);
    EXPECT_FALSE(ctx_->gotError());
    const uint64_t d = dut_->dest_o;
    return Got{unsigned(d >> L::space.lsb & 7), unsigned(d >> L::cta.lsb & 0xFFFF),
               unsigned(d >> L::thread.lsb), dut_->offset_o, dut_->fault_o};
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_addr_resolve> dut_;
};

TEST_F(AddrResolve, GenericSharedAddressIsOwnCtaOffset) {
  const Got g = resolve(0x7F00'0000'0100ull, true, 0, 0, 0, 0);
  EXPECT_EQ(g.space, kShared);
  EXPECT_EQ(g.cta, 0u);
  EXPECT_EQ(g.offset, 0x100u);
  EXPECT_EQ(g.fault, kNone);
}

TEST_F(AddrResolve, SharedRankOutsideTheClusterFaultsUntilTheClusterGrows) {
  EXPECT_EQ(resolve(0x7F00'0100'0008ull, true, 0, 0, 0, 0).fault, kOutOfWindow);  // rank 1 of 1
  configure(9, 2);                                                                // two CTAs
  const Got g = resolve(0x7F00'0100'0008ull, true, 0, 0, 0, 0);
  EXPECT_EQ(g.fault, kNone);
  EXPECT_EQ(g.space, kShared);
  EXPECT_EQ(g.cta, 1u);
  EXPECT_EQ(g.offset, 8u);
}

TEST_F(AddrResolve, GenericLocalAddressIsTheThreadsOwn) {
  const Got g = resolve(0x7E00'0000'0040ull, true, 0, 0, 2, 3);  // thread 2 * 32 + 3
  EXPECT_EQ(g.space, kLocal);
  EXPECT_EQ(g.thread, 67u);
  EXPECT_EQ(g.offset, 0x40u);
}

TEST_F(AddrResolve, AddressOutsideEveryWindowIsGlobal) {
  const Got g = resolve(0x1234, true, 0, 0, 0, 0);
  EXPECT_EQ(g.space, kGlobal);
  EXPECT_EQ(g.offset, 0x1234u);
}

TEST_F(AddrResolve, SharedCtaAddressAtTheStrideFaults) {
  EXPECT_EQ(resolve(0x0100'0000, false, kSpaceSharedCta, 0, 0, 0).fault, kOutOfWindow);
  EXPECT_EQ(resolve(0x00FF'FFFF, false, kSpaceSharedCta, 0, 0, 0).fault, kNone);
}

TEST_F(AddrResolve, SharedClusterAddressSelectsTheRank) {
  configure(9, 4);
  const Got g = resolve(0x0300'0010, false, kSpaceSharedCluster, 0, 0, 0);
  EXPECT_EQ(g.cta, 3u);
  EXPECT_EQ(g.offset, 0x10u);
}

TEST_F(AddrResolve, ParamFuncAndConstKeepTheirOffsets) {
  Got g = resolve(8, false, kSpaceParamFunc, 0, 1, 1);
  EXPECT_EQ(g.space, kParamFunc);
  EXPECT_EQ(g.thread, 33u);
  g = resolve(0x10, false, kSpaceConst, 0, 0, 0);
  EXPECT_EQ(g.space, kConst);
  EXPECT_EQ(g.offset, 0x10u);
}

TEST_F(AddrResolve, MovedLocalWindowIsUsed) {
  configure(3, 0x5000'0000);  // local base
  configure(4, 0x1000);       // local size
  EXPECT_EQ(resolve(0x5000'0FFF, true, 0, 0, 0, 0).space, kLocal);
  EXPECT_EQ(resolve(0x5000'1000, true, 0, 0, 0, 0).space, kGlobal);  // one past the window
}

// A .local address is an offset in the thread's own local window: its last byte resolves, the
// byte at the window's size faults (local size 0x1000 here). (Found by the mutation run:
// `addr_i > local_size_q` let the byte just past the window through, and no test stored there.)
TEST_F(AddrResolve, LocalAddressAtTheWindowSizeFaults) {
  configure(4, 0x1000);  // local size
  const Got last = resolve(0x0FFF, false, kSpaceLocal, 0, 1, 2);
  EXPECT_EQ(last.fault, kNone);
  EXPECT_EQ(last.space, kLocal);
  EXPECT_EQ(last.thread, 1u * 32 + 2);
  EXPECT_EQ(last.offset, 0x0FFFu);
  EXPECT_EQ(resolve(0x1000, false, kSpaceLocal, 0, 1, 2).fault, kOutOfWindow);
}

TEST(AddrResolveCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("addr_resolve", 1, 4, 20000); }

TEST(AddrResolveCosim, LongRandomSeeds) {
  stu::tb::expect_cosim_clean("addr_resolve", 1000, 64, 50000);
}

}  // namespace
