// Per-lane faults of the golden model. A fault is a result, never an exception or a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stu::golden {

// X(enumerator, "spelling used in .sts expectations and messages")
#define STU_FAULT_LIST(X)                                                                         \
  X(None, "none")                                                                                 \
  X(Misaligned, "misaligned")             /* address not a multiple of the access size */         \
  X(OutOfWindow, "out_of_window")         /* beyond the extent of the space or window */          \
  X(OutOfAllocation, "out_of_allocation") /* inside the window, outside what exists */            \
  X(ReadOnly, "read_only")                /* kernel .param or .const */                           \
  X(IllegalForSpace, "illegal_for_space") /* a qualifier the resolved space forbids */            \
  X(PlgMismatch, "plg_mismatch")          /* SASS: Plg disagrees with the window */               \
  X(TmemLaneQuarter, "tmem_lane_quarter") /* lane outside the warp's quarter */                   \
  X(TmemColumnRange, "tmem_column_range") /* column outside the allocation */                     \
  X(TmemAddrNotUniform, "tmem_addr_not_uniform")                                                  \
  X(TmemInactiveThreads, "tmem_inactive_threads")                                                 \
  X(MbarMisaligned, "mbar_misaligned")                                                            \
  X(MbarNotShared, "mbar_not_shared")                                                             \
  X(MbarUninitialized, "mbar_uninitialized")                                                      \
  X(MbarTxRange, "mbar_tx_range")                                                                 \
  X(MbarCtaMismatch, "mbar_cta_mismatch")                                                         \
  X(BadInstruction, "bad_instruction")         /* operands missing: the instruction is invalid */ \
  X(IllegalInstruction, "illegal_instruction") /* the GPU traps: a .L2::cache_hint policy */

#define STU_FAULT_ENUM(name, text) name,
enum class FaultKind : uint8_t { STU_FAULT_LIST(STU_FAULT_ENUM) };
#undef STU_FAULT_ENUM

std::string_view to_string(FaultKind f);
std::optional<FaultKind> fault_from_string(std::string_view text);
// One sentence saying what the fault means (for messages and docs).
std::string_view describe(FaultKind f);

struct Fault {
  FaultKind kind = FaultKind::None;
  uint64_t addr = 0;  // the address (or TMEM address) that faulted
  explicit operator bool() const { return kind != FaultKind::None; }
};

}  // namespace stu::golden
