// mbarrier objects: state, the model's 64-bit layout, and the state step.
//
// The hardware layout is not public; stu defines its own (docs/golden.md):
//   bits 19:0   pending arrival count (0 .. 2^20-1)
//   bits 39:20  expected arrival count (1 .. 2^20-1; 0 means "not initialised")
//   bits 60:40  tx-count, 21-bit two's complement (-(2^20-1) .. 2^20-1)
//   bits 62:61  zero
//   bit  63     phase parity
#pragma once

#include <cstdint>

#include "stu/golden/fault.h"

namespace stu::golden {

inline constexpr int32_t kMbarMaxCount = (1 << 20) - 1;
inline constexpr int32_t kMbarMaxTx = (1 << 20) - 1;

struct MbarState {
  uint32_t phase = 0;     // parity of the current phase (0 or 1)
  uint32_t pending = 0;   // arrivals still expected in this phase
  uint32_t expected = 0;  // arrivals per phase (0: not initialised)
  int32_t tx = 0;         // tx-count
  bool initialised() const { return expected != 0; }
  bool operator==(const MbarState& o) const {
    return phase == o.phase && pending == o.pending && expected == o.expected && tx == o.tx;
  }
};

uint64_t encode(const MbarState& s);
MbarState decode_mbar(uint64_t word);

enum class MbarOpKind : uint8_t { Init, ExpectTx, CompleteTx, Arrive, ArriveExpectTx };

struct MbarOp {
  MbarOpKind kind = MbarOpKind::CompleteTx;
  uint32_t count = 0;  // Init: expected count; Arrive: arrivals; *Tx: bytes
};

struct MbarStep {
  MbarState next;
  bool phase_completed = false;
  FaultKind fault = FaultKind::None;  // on a fault, next == the state before
};

// One operation on one barrier. Init accepts any prior state. Every other operation needs an
// initialised barrier (MbarUninitialized), keeps tx within range (MbarTxRange) and pending
// from going negative (MbarTxRange too: the count is out of range). The phase completes when
// pending and tx-count are both zero after the operation: parity flips, pending = expected.
MbarStep mbar_step(const MbarState& s, const MbarOp& op);

}  // namespace stu::golden
