#include "stu/golden/fault.h"

#include <array>

namespace stu::golden {

namespace {
#define STU_FAULT_NAME(name, text) text,
constexpr std::array<std::string_view, size_t(FaultKind::IllegalInstruction) + 1> kNames = {
    STU_FAULT_LIST(STU_FAULT_NAME)};
#undef STU_FAULT_NAME
}  // namespace

std::string_view to_string(FaultKind f) { return kNames[size_t(f)]; }

std::optional<FaultKind> fault_from_string(std::string_view text) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == text) return FaultKind(i);
  }
  return std::nullopt;
}

std::string_view describe(FaultKind f) {
  switch (f) {
    case FaultKind::None:
      return "no fault";
    case FaultKind::Misaligned:
      return "address is not a multiple of the access size";
    case FaultKind::OutOfWindow:
      return "address is outside the extent of its space";
    case FaultKind::OutOfAllocation:
      return "address is outside the allocated memory";
    case FaultKind::ReadOnly:
      return "store to a read-only space (kernel .param or .const)";
    case FaultKind::IllegalForSpace:
      return "a qualifier of the store is illegal for the space the address resolved to";
    case FaultKind::PlgMismatch:
      return "SASS Plg disagrees with the window the generic address falls in";
    case FaultKind::TmemLaneQuarter:
      return "TMEM lane outside the quarter (32*(warp%4) .. +31) this warp may access";
    case FaultKind::TmemColumnRange:
      return "TMEM column outside the allocated columns";
    case FaultKind::TmemAddrNotUniform:
      return "taddr differs across the threads of the warp";
    case FaultKind::TmemInactiveThreads:
      return "tcgen05.st executed with inactive threads in the warp";
    case FaultKind::MbarMisaligned:
      return "mbarrier address is not 8-byte aligned";
    case FaultKind::MbarNotShared:
      return "mbarrier address is not in shared memory";
    case FaultKind::MbarUninitialized:
      return "mbarrier was never initialised";
    case FaultKind::MbarTxRange:
      return "mbarrier count or tx-count would leave its range";
    case FaultKind::MbarCtaMismatch:
      return "mbarrier and data are in different CTAs of the cluster";
    case FaultKind::BadInstruction:
      return "instruction lacks an operand its form needs";
    case FaultKind::IllegalInstruction:
      return "the GPU traps the instruction (a .L2::cache_hint policy it rejects): the whole "
             "warp faults and nothing is stored";
  }
  return "?";
}

}  // namespace stu::golden
