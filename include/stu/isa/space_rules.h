// Which store forms a state space accepts: one rule with two users. The validator applies it to
// the space a store names (a compile-time error); the golden executor to the space each lane's
// generic address resolves to (a run-time fault for the rules faults_when_resolved names:
// ReadOnly, or IllegalForSpace for the others; the rest are ignored there).
#pragma once

#include <cstdint>

#include "stu/isa/instruction.h"

namespace stu::isa {

enum class SpaceRule : uint8_t {
  ReadOnly,   // .const and kernel parameters (.param::entry) are never stored to
  Mmio,       // .mmio: global only
  L1Evict,    // an L1 eviction priority: global only
  L2Evict,    // an L2 eviction priority: global only
  CacheHint,  // .L2::cache_hint: global only
  Wide256,    // a 256-bit vector (.v8 of 32-bit, .v4 of 64-bit elements): global only
  Strong,     // .relaxed / .release: global and shared only
  Volatile,   // .volatile: global, shared and local only (.local needs PTX 9.1)
  AsyncForm,  // st.async: the mbarrier form stores to shared memory, the release form to global
};

// Whether breaking `r` faults when a lane's GENERIC address resolves to the space at run time
// (an explicit space breaking any rule is a compile-time error). Silicon-checked on the H200
// (2026-11-26, docs/golden.md): a qualifier that only orders or hints does not fault; the store
// is performed in the space the address resolved to, as a weak store there (.relaxed/.release
// into local memory, .mmio, an L1 eviction priority and .L2::cache_hint into shared or local
// memory all stored). .volatile and the L2 eviction priorities are hints of the same kind and
// follow them (extrapolated). A store to a read-only space, a 256-bit vector outside global
// memory and st.async outside its window fault (extrapolated: sm_100 forms, or undefined).
constexpr bool faults_when_resolved(SpaceRule r) {
  return r == SpaceRule::ReadOnly || r == SpaceRule::Wide256 || r == SpaceRule::AsyncForm;
}

// The rules a store breaks in one space (a set of SpaceRule).
class SpaceViolations {
 public:
  bool any() const { return bits_ != 0; }
  // Whether any broken rule faults at run time (faults_when_resolved).
  bool faults_when_resolved() const {
    return has(SpaceRule::ReadOnly) || has(SpaceRule::Wide256) || has(SpaceRule::AsyncForm);
  }
  bool has(SpaceRule r) const { return bits_ >> unsigned(r) & 1u; }
  void add(SpaceRule r) { bits_ |= uint16_t(1u << unsigned(r)); }

 private:
  uint16_t bits_ = 0;
};

// The rules `ins` breaks when it stores to `space` (any spelling: .shared is .shared::cta).
SpaceViolations space_violations(const Instruction& ins, Space space);

}  // namespace stu::isa
