// rtl/stu_mbarrier.sv: directed cases on stu's mbarrier layout (bit 63 phase, 60:40 tx-count,
// 39:20 expected, 19:0 pending; docs/golden.md), computed by hand, then seeded cosimulation
// against golden::mbar_step.
#include <gtest/gtest.h>

#include <memory>

#include "Vstu_mbarrier.h"
#include "cosim_test.h"
#include "verilated.h"

namespace {

enum : unsigned { kInit = 0, kExpectTx = 1, kCompleteTx = 2, kArrive = 3, kArriveExpectTx = 4 };
enum : unsigned { kNone = 0, kUninit = 13, kTxRange = 14 };

constexpr uint64_t word(unsigned phase, int tx, unsigned expected, unsigned pending) {
  return uint64_t(phase) << 63 | (uint64_t(uint32_t(tx)) & 0x1FFFFF) << 40 |
         uint64_t(expected) << 20 | pending;
}

struct Got {
  uint64_t word;
  bool completed;
  unsigned fault;
};

class Mbarrier : public ::testing::Test {
 protected:
  Mbarrier() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_mbarrier>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    stu::tb::reset(*dut_);
  }
  ~Mbarrier() override { dut_->final(); }
  Got step(uint64_t w, unsigned op, uint32_t count) {
    dut_->in_valid_i = 1;
    dut_->out_ready_i = 1;
    dut_->word_i = w;
    dut_->op_i = op;
    dut_->count_i = count;
    dut_->eval();
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->in_valid_i = 0;
    dut_->eval();
    EXPECT_TRUE(dut_->out_valid_o);
    EXPECT_FALSE(ctx_->gotError());
    return Got{dut_->word_o, bool(dut_->completed_o), dut_->fault_o};
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_mbarrier> dut_;
};

TEST_F(Mbarrier, InitSetsExpectedAndPendingWhateverWasThere) {
  const Got g = step(~uint64_t(0), kInit, 3);
  EXPECT_EQ(g.word, word(0, 0, 3, 3));
  EXPECT_EQ(g.fault, kNone);
}

TEST_F(Mbarrier, InitCountZeroIsOutOfRange) {
  EXPECT_EQ(step(0, kInit, 0).fault, kTxRange);
  EXPECT_EQ(step(0, kInit, (1u << 20)).fault, kTxRange);
}

TEST_F(Mbarrier, ArriveBeforeInitIsUninitialised) { EXPECT_EQ(step(0, kArrive, 1).fault, kUninit); }

TEST_F(Mbarrier, ExpectTxThenCompleteTxCompletesThePhase) {
  // One arrival expected and already made with expect_tx(16): pending 0, tx 16.
  const Got a = step(word(0, 0, 1, 1), kArriveExpectTx, 16);
  EXPECT_EQ(a.word, word(0, 16, 1, 0));
  EXPECT_FALSE(a.completed);
  const Got b = step(a.word, kCompleteTx, 16);  // st.async.v4.b32 completes 16 bytes
  EXPECT_TRUE(b.completed);
  EXPECT_EQ(b.word, word(1, 0, 1, 1));  // parity flipped, pending reloaded
}

TEST_F(Mbarrier, CompleteTxBeforeExpectTxGoesNegative) {
  const Got g = step(word(0, 0, 2, 2), kCompleteTx, 8);
  EXPECT_EQ(g.word, word(0, -8, 2, 2));
  EXPECT_EQ(g.fault, kNone);
}

TEST_F(Mbarrier, TooManyArrivalsAreOutOfRangeAndChangeNothing) {
  const Got g = step(word(1, 4, 2, 1), kArrive, 2);
  EXPECT_EQ(g.fault, kTxRange);
  EXPECT_EQ(g.word, word(1, 4, 2, 1));
}

TEST_F(Mbarrier, TxCountPastItsLimitIsOutOfRange) {
  EXPECT_EQ(step(word(0, (1 << 20) - 1, 1, 1), kExpectTx, 1).fault, kTxRange);
  EXPECT_EQ(step(word(0, -((1 << 20) - 1), 1, 1), kCompleteTx, 1).fault, kTxRange);
}

TEST(MbarrierCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("mbarrier", 1, 4, 20000); }

TEST(MbarrierCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("mbarrier", 1000, 64, 50000); }

}  // namespace
