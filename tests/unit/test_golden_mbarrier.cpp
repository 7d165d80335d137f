// mbarrier state, stu's documented 64-bit layout and the state step (mbarrier.h), against
// ../shared/spec/memory-model.md and the layout table of docs/golden.md:
//   bits 19:0 pending, 39:20 expected, 60:40 tx-count (21-bit two's complement),
//   62:61 zero, 63 phase parity.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "stu/golden/mbarrier.h"

namespace {

using namespace stu::golden;

MbarState state(uint32_t phase, uint32_t pending, uint32_t expected, int32_t tx) {
  MbarState s;
  s.phase = phase;
  s.pending = pending;
  s.expected = expected;
  s.tx = tx;
  return s;
}

MbarStep step(const MbarState& s, MbarOpKind k, uint32_t count) {
  return mbar_step(s, MbarOp{k, count});
}

// Init, expecting the step to succeed.
MbarState init(uint32_t count) {
  const MbarStep r = step(MbarState{}, MbarOpKind::Init, count);
  EXPECT_EQ(r.fault, FaultKind::None);
  return r.next;
}

void expect_state(const MbarState& s, uint32_t phase, uint32_t pending, uint32_t expected,
                  int32_t tx) {
  EXPECT_EQ(s.phase, phase);
  EXPECT_EQ(s.pending, pending);
  EXPECT_EQ(s.expected, expected);
  EXPECT_EQ(s.tx, tx);
}

// --- layout ------------------------------------------------------------------------------

TEST(GoldenMbarrier, ZeroWordIsUninitialised) {
  const MbarState s = decode_mbar(0);
  expect_state(s, 0, 0, 0, 0);
  EXPECT_FALSE(s.initialised());
  EXPECT_EQ(encode(MbarState{}), 0u);
}

TEST(GoldenMbarrier, EncodeFieldsAtDocumentedBits) {
  EXPECT_EQ(encode(state(0, 1, 0, 0)), 0x1ull);                    // pending at bit 0
  EXPECT_EQ(encode(state(0, 0, 1, 0)), 0x10'0000ull);              // expected at bit 20
  EXPECT_EQ(encode(state(0, 0, 0, 1)), 0x100'0000'0000ull);        // tx at bit 40
  EXPECT_EQ(encode(state(1, 0, 0, 0)), 0x8000'0000'0000'0000ull);  // phase at bit 63
}

TEST(GoldenMbarrier, EncodeHandComputedWord) {
  // phase 1, pending 3, expected 5, tx -2:
  //   3 | 5 << 20 | (0x1FFFFE << 40) | 1 << 63
  //   = 0x3 | 0x50_0000 | 0x1FFF_FE00_0000_0000 | 0x8000_0000_0000_0000
  EXPECT_EQ(encode(state(1, 3, 5, -2)), 0x9FFF'FE00'0050'0003ull);
}

TEST(GoldenMbarrier, DecodeHandComputedWord) {
  expect_state(decode_mbar(0x9FFF'FE00'0050'0003ull), 1, 3, 5, -2);
}

TEST(GoldenMbarrier, FieldMaximaEncode) {
  // pending and expected 2^20-1, tx +(2^20-1) = 0x0F_FFFF in 21 bits.
  EXPECT_EQ(encode(state(0, 0xF'FFFF, 0xF'FFFF, (1 << 20) - 1)), 0x0FFF'FFFF'FFFF'FFFFull);
  // tx -(2^20-1) = 0x10_0001 in 21 bits.
  EXPECT_EQ(encode(state(0, 0, 1, -((1 << 20) - 1))), 0x1000'0100'0010'0000ull);
}

TEST(GoldenMbarrier, Bits62And61AreZero) {
  EXPECT_EQ(encode(state(1, 0xF'FFFF, 0xF'FFFF, -1)) & (3ull << 61), 0u);
  EXPECT_EQ(encode(state(1, 0xF'FFFF, 0xF'FFFF, -((1 << 20) - 1))) & (3ull << 61), 0u);
}

TEST(GoldenMbarrier, NegativeTxSignExtendsOnDecode) {
  // tx field 0x1F_FFFF (21 bits all set) = -1.
  EXPECT_EQ(decode_mbar(0x1FFF'FF00'0000'0000ull).tx, -1);
  // tx field 0x10_0000 (only the sign bit) = -2^20.
  EXPECT_EQ(decode_mbar(0x1000'0000'0000'0000ull).tx, -(1 << 20));
}

TEST(GoldenMbarrier, RoundTripSeeded) {
  const unsigned seed = 5150u;
  std::cout << "GoldenMbarrier.RoundTripSeeded seed " << seed << "\n";
  std::mt19937 rng(seed);
  for (int i = 0; i < 10000; ++i) {
    const MbarState s = state(rng() & 1, rng() & 0xF'FFFF, rng() & 0xF'FFFF,
                              int32_t(rng() % (2 * kMbarMaxTx + 1)) - kMbarMaxTx);
    ASSERT_EQ(decode_mbar(encode(s)), s)
        << "seed " << seed << " iteration " << i << " word 0x" << std::hex << encode(s);
  }
}

// --- transitions -------------------------------------------------------------------------

TEST(GoldenMbarrier, InitSetsPhaseZeroPendingExpected) { expect_state(init(3), 0, 3, 3, 0); }

TEST(GoldenMbarrier, InitOverridesAnyPriorState) {
  const MbarStep r = step(state(1, 0, 7, -5), MbarOpKind::Init, 2);
  EXPECT_EQ(r.fault, FaultKind::None);
  expect_state(r.next, 0, 2, 2, 0);
  EXPECT_FALSE(r.phase_completed);
}

TEST(GoldenMbarrier, InitCountOutOfRange) {
  EXPECT_EQ(step(MbarState{}, MbarOpKind::Init, 0).fault, FaultKind::MbarTxRange);
  EXPECT_EQ(step(MbarState{}, MbarOpKind::Init, 1u << 20).fault, FaultKind::MbarTxRange);
  EXPECT_EQ(step(MbarState{}, MbarOpKind::Init, (1u << 20) - 1).fault, FaultKind::None);
}

TEST(GoldenMbarrier, ExpectTxAddsBytes) {
  const MbarStep r = step(init(1), MbarOpKind::ExpectTx, 16);
  EXPECT_EQ(r.fault, FaultKind::None);
  expect_state(r.next, 0, 1, 1, 16);
  EXPECT_FALSE(r.phase_completed);
}

TEST(GoldenMbarrier, CompleteTxSubtractsBytes) {
  const MbarStep r = step(state(0, 1, 1, 16), MbarOpKind::CompleteTx, 12);
  EXPECT_EQ(r.fault, FaultKind::None);
  expect_state(r.next, 0, 1, 1, 4);
}

TEST(GoldenMbarrier, CompleteTxBeforeExpectGoesNegative) {
  const MbarStep r = step(init(1), MbarOpKind::CompleteTx, 16);
  EXPECT_EQ(r.fault, FaultKind::None);
  expect_state(r.next, 0, 1, 1, -16);
}

TEST(GoldenMbarrier, ArriveDecrementsPending) {
  const MbarStep r = step(init(3), MbarOpKind::Arrive, 1);
  EXPECT_EQ(r.fault, FaultKind::None);
  expect_state(r.next, 0, 2, 3, 0);
  EXPECT_FALSE(r.phase_completed);
}

TEST(GoldenMbarrier, ArriveWithCount) {
  const MbarStep r = step(init(5), MbarOpKind::Arrive, 3);
  expect_state(r.next, 0, 2, 5, 0);
}

TEST(GoldenMbarrier, LastArriveCompletesPhase) {
  const MbarStep r = step(state(0, 1, 4, 0), MbarOpKind::Arrive, 1);
  EXPECT_EQ(r.fault, FaultKind::None);
  EXPECT_TRUE(r.phase_completed);
  expect_state(r.next, 1, 4, 4, 0);  // parity flipped, pending reset to expected
}

TEST(GoldenMbarrier, PhaseFlipsBackToZero) {
  const MbarStep r = step(state(1, 1, 2, 0), MbarOpKind::Arrive, 1);
  EXPECT_TRUE(r.phase_completed);
  expect_state(r.next, 0, 2, 2, 0);
}

TEST(GoldenMbarrier, ArriveWithTxOutstandingDoesNotComplete) {
  const MbarStep r = step(state(0, 1, 1, 8), MbarOpKind::Arrive, 1);
  EXPECT_FALSE(r.phase_completed);
  expect_state(r.next, 0, 0, 1, 8);
}

TEST(GoldenMbarrier, CompleteTxToZeroWithNoPendingCompletesPhase) {
  const MbarStep r = step(state(0, 0, 1, 8), MbarOpKind::CompleteTx, 8);
  EXPECT_EQ(r.fault, FaultKind::None);
  EXPECT_TRUE(r.phase_completed);
  expect_state(r.next, 1, 1, 1, 0);
}

TEST(GoldenMbarrier, CompleteTxToZeroWithPendingDoesNotComplete) {
  const MbarStep r = step(state(0, 2, 2, 8), MbarOpKind::CompleteTx, 8);
  EXPECT_FALSE(r.phase_completed);
  expect_state(r.next, 0, 2, 2, 0);
}

TEST(GoldenMbarrier, ArriveExpectTxArrivesOnceAndAddsBytes) {
  const MbarStep r = step(init(2), MbarOpKind::ArriveExpectTx, 64);
  EXPECT_EQ(r.fault, FaultKind::None);
  EXPECT_FALSE(r.phase_completed);
  expect_state(r.next, 0, 1, 2, 64);
}

TEST(GoldenMbarrier, ArriveExpectTxAfterEarlyCompleteTxCompletes) {
  // complete-tx arrived first (tx -8), then the last arrival expects the 8 bytes: tx 0,
  // pending 0 -> the phase completes.
  const MbarStep r = step(state(0, 1, 1, -8), MbarOpKind::ArriveExpectTx, 8);
  EXPECT_TRUE(r.phase_completed);
  expect_state(r.next, 1, 1, 1, 0);
}

TEST(GoldenMbarrier, FullSequenceOfAPhase) {
  // init(1); arrive.expect_tx(16); complete_tx(8); complete_tx(8) -> phase 1.
  MbarState s = init(1);
  MbarStep r = step(s, MbarOpKind::ArriveExpectTx, 16);
  expect_state(r.next, 0, 0, 1, 16);
  EXPECT_FALSE(r.phase_completed);
  r = step(r.next, MbarOpKind::CompleteTx, 8);
  expect_state(r.next, 0, 0, 1, 8);
  EXPECT_FALSE(r.phase_completed);
  r = step(r.next, MbarOpKind::CompleteTx, 8);
  EXPECT_TRUE(r.phase_completed);
  expect_state(r.next, 1, 1, 1, 0);
  EXPECT_EQ(encode(r.next), 0x8000'0000'0010'0001ull);
}

TEST(GoldenMbarrier, ExpectTxZeroOnIdleBarrierDoesNotComplete) {
  // pending 2 > 0: nothing completes even though tx stays 0.
  const MbarStep r = step(init(2), MbarOpKind::ExpectTx, 0);
  EXPECT_FALSE(r.phase_completed);
  expect_state(r.next, 0, 2, 2, 0);
}

// --- faults ------------------------------------------------------------------------------

TEST(GoldenMbarrier, TxUpToMaxIsAllowed) {
  const MbarStep r = step(init(1), MbarOpKind::ExpectTx, (1u << 20) - 1);
  EXPECT_EQ(r.fault, FaultKind::None);
  EXPECT_EQ(r.next.tx, (1 << 20) - 1);
}

TEST(GoldenMbarrier, TxAboveMaxIsTxRange) {
  const MbarState s = state(0, 1, 1, (1 << 20) - 1);
  const MbarStep r = step(s, MbarOpKind::ExpectTx, 1);
  EXPECT_EQ(r.fault, FaultKind::MbarTxRange);
  EXPECT_EQ(r.next, s);  // unchanged
  EXPECT_FALSE(r.phase_completed);
}

TEST(GoldenMbarrier, TxDownToMinusMaxIsAllowed) {
  const MbarStep r = step(init(1), MbarOpKind::CompleteTx, (1u << 20) - 1);
  EXPECT_EQ(r.fault, FaultKind::None);
  EXPECT_EQ(r.next.tx, -((1 << 20) - 1));
}

TEST(GoldenMbarrier, TxBelowMinusMaxIsTxRange) {
  const MbarState s = state(0, 1, 1, -((1 << 20) - 1));
  const MbarStep r = step(s, MbarOpKind::CompleteTx, 1);
  EXPECT_EQ(r.fault, FaultKind::MbarTxRange);
  EXPECT_EQ(r.next, s);
}

TEST(GoldenMbarrier, HugeCompleteTxIsTxRange) {
  // A count that does not fit in int32 must not wrap into range.
  const MbarState s = init(1);
  EXPECT_EQ(step(s, MbarOpKind::CompleteTx, 0xFFFF'FFFFu).fault, FaultKind::MbarTxRange);
  EXPECT_EQ(step(s, MbarOpKind::ExpectTx, 0x8000'0000u).fault, FaultKind::MbarTxRange);
}

TEST(GoldenMbarrier, ArriveBeyondPendingIsTxRange) {
  const MbarState s = init(2);
  const MbarStep r = step(s, MbarOpKind::Arrive, 3);
  EXPECT_EQ(r.fault, FaultKind::MbarTxRange);
  EXPECT_EQ(r.next, s);
}

TEST(GoldenMbarrier, UninitialisedRejectsEveryOperationButInit) {
  for (MbarOpKind k : {MbarOpKind::ExpectTx, MbarOpKind::CompleteTx, MbarOpKind::Arrive,
                       MbarOpKind::ArriveExpectTx}) {
    const MbarStep r = step(MbarState{}, k, 1);
    EXPECT_EQ(r.fault, FaultKind::MbarUninitialized) << int(k);
    EXPECT_EQ(r.next, MbarState{});
  }
}

TEST(GoldenMbarrier, UninitialisedWithStrayBitsStillUninitialised) {
  // expected == 0 is what "not initialised" means, whatever else the word holds.
  const MbarState s = decode_mbar(0x8000'0100'0000'0005ull);  // phase 1, tx 1, pending 5
  EXPECT_FALSE(s.initialised());
  EXPECT_EQ(step(s, MbarOpKind::CompleteTx, 1).fault, FaultKind::MbarUninitialized);
}

}  // namespace
