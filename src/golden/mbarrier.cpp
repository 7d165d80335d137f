#include "stu/golden/mbarrier.h"

namespace stu::golden {

namespace {
constexpr uint64_t kCountMask = (uint64_t(1) << 20) - 1;
constexpr uint64_t kTxMask = (uint64_t(1) << 21) - 1;
}  // namespace

uint64_t encode(const MbarState& s) {
  return (uint64_t(s.pending) & kCountMask) | ((uint64_t(s.expected) & kCountMask) << 20) |
         ((uint64_t(uint32_t(s.tx)) & kTxMask) << 40) | (uint64_t(s.phase & 1) << 63);
}

MbarState decode_mbar(uint64_t w) {
  MbarState s;
  s.pending = uint32_t(w & kCountMask);
  s.expected = uint32_t((w >> 20) & kCountMask);
  uint32_t tx = uint32_t((w >> 40) & kTxMask);
  if (tx & (1u << 20)) tx |= ~uint32_t(kTxMask);  // sign-extend 21 bits
  s.tx = int32_t(tx);
  s.phase = uint32_t(w >> 63);
  return s;
}

MbarStep mbar_step(const MbarState& s, const MbarOp& op) {
  MbarStep r;
  r.next = s;
  auto fail = [&](FaultKind k) {
    r.next = s;
    r.fault = k;
    return r;
  };
  if (op.kind == MbarOpKind::Init) {
    if (op.count < 1 || op.count > uint32_t(kMbarMaxCount)) return fail(FaultKind::MbarTxRange);
    r.next = MbarState{0, op.count, op.count, 0};
    return r;
  }
  if (!s.initialised()) return fail(FaultKind::MbarUninitialized);
  int64_t tx = s.tx;
  int64_t pending = s.pending;
  switch (op.kind) {
    case MbarOpKind::ExpectTx:
      tx += op.count;
      break;
    case MbarOpKind::CompleteTx:
      tx -= op.count;
      break;
    case MbarOpKind::Arrive:
      pending -= op.count;
      break;
    case MbarOpKind::ArriveExpectTx:
      tx += op.count;
      pending -= 1;
      break;
    case MbarOpKind::Init:
      break;
  }
  if (tx > kMbarMaxTx || tx < -int64_t(kMbarMaxTx) || pending < 0)
    return fail(FaultKind::MbarTxRange);
  r.next.tx = int32_t(tx);
  r.next.pending = uint32_t(pending);
  if (r.next.pending == 0 && r.next.tx == 0) {
    r.next.phase ^= 1;
    r.next.pending = r.next.expected;
    r.phase_completed = true;
  }
  return r;
}

}  // namespace stu::golden
