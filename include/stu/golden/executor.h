// The warp-level executor: one decoded store (PTX `st`, `st.async`, `tcgen05.st`, or SASS
// `ST`) for one warp, producing the memory effects, a fault per lane and the ordered list of
// transactions. It composes the pure functions of address.h, access.h, tmem.h, mbarrier.h
// and policy.h; the only state it changes is the MachineState passed in.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "stu/golden/access.h"
#include "stu/golden/fault.h"
#include "stu/golden/policy.h"
#include "stu/golden/state.h"
#include "stu/isa/instruction.h"
#include "stu/isa/sass.h"

namespace stu::golden {

// A register value as a store reads it: up to 128 bits (.b128), little-endian halves.
struct RegValue {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

struct WarpContext {
  uint16_t cta = 0;
  uint16_t warp = 0;
  uint32_t active = 0xFFFFFFFFu;  // lanes that execute (after predication)
};

// Per-lane operand values of a PTX store. The executor adds the instruction's address offset.
struct WarpOperands {
  std::array<uint64_t, 32> addr{};    // the address register (or symbol address; 0 for [imm])
  std::vector<RegValue> src;          // src[element * 32 + lane], in brace order; sinks ignored
  std::array<uint64_t, 32> policy{};  // .L2::cache_hint operand
  std::array<uint64_t, 32> mbar{};    // st.async [mbar] register (the executor adds the offset)
  const RegValue& value(unsigned element, unsigned lane) const { return src[element * 32 + lane]; }
};

// Ordering metadata every store carries (what a memory system must honour).
struct Ordering {
  isa::Sem sem = isa::Sem::Weak;    // weak, volatile, relaxed, release
  bool strong = false;              // relaxed/release/volatile/mmio
  std::optional<isa::Scope> scope;  // effective scope (.sys to shared behaves as .cluster)
  bool release = false;             // prior stores must be visible first (fence before)
  bool mmio = false;                // performed exactly once, never combined
  bool is_volatile = false;
  bool async = false;  // st.async / tcgen05.st (completes asynchronously)
};

// The ordering metadata an instruction's qualifiers give (the decoder's rule: execute() applies
// it, and the RTL model's decoder uses it too). execute() then narrows a .sys scope to .cluster
// when the store reached shared memory only.
Ordering ordering_of(const isa::Instruction& ins);

struct CacheAttrs {
  std::optional<isa::CacheOp> cop;
  std::optional<isa::L1Evict> l1;
  std::optional<isa::L2Evict> l2;
  bool has_policy = false;
  CachePolicy policy;  // decoded from the lowest active lane's operand
};

// The lanes the store unit moves together (the same-location rule, access.h) for a PTX store:
// 128 bytes of lane data, or one lane at a time for `.mmio` and `st.async`.
LaneGroup lane_group(const isa::Instruction& ins);

struct MbarEvent {
  uint16_t cta = 0;
  uint64_t offset = 0;  // shared-memory offset of the barrier
  uint32_t bytes = 0;   // complete-tx count
  uint8_t lane = 0;
  bool phase_completed = false;
};

struct StoreResult {
  std::array<Fault, 32> fault{};
  uint32_t fault_mask = 0;
  uint32_t stored_mask = 0;        // lanes whose bytes were written
  uint32_t forced_align_mask = 0;  // SASS ForceAlign: lanes whose address was aligned down
  std::vector<LineRequest> lines;  // documented order (access.h)
  std::vector<TmemWrite> tmem;     // ascending lane, then column
  std::vector<MbarEvent> mbar;     // in lane order
  Ordering order;
  CacheAttrs cache;
  uint64_t bytes = 0;  // bytes written in all

  void clear();  // keeps capacity
  void set_fault(unsigned lane, FaultKind k, uint64_t addr);
};

// The state one barrier takes after the complete-tx updates of one warp store.
struct MbarUpdate {
  uint16_t cta = 0;
  uint64_t offset = 0;
  MbarState state;
};

// Scratch space reused across calls so that steady-state execution allocates nothing.
struct Scratch {
  std::vector<LaneAccess> accesses;
  TmemWriteOut tmem;             // tcgen05.st: golden::tmem_write's result
  std::vector<MbarUpdate> mbar;  // plan(): the barriers' states after the store
  size_t naccess = 0;            // plan(): accesses[0, naccess) were coalesced into lines
  LaneGroup group = LaneGroup::whole_warp();  // plan(): how they were merged (access.h)
  // plan() of a contiguous st.global warp builds its lines without the per-lane accesses;
  // set this when the accesses are wanted too (the RTL coalescer takes them).
  bool record_accesses = false;
};

// Executes a PTX store: plan() and then commit(). Validation is the ISA layer's job; an
// instruction missing what its form needs (no type, too few source values) faults every
// active lane with BadInstruction.
void execute(MachineState& m, const isa::Instruction& ins, const WarpContext& ctx,
             const WarpOperands& ops, StoreResult& out, Scratch& scratch);

// The decisions of a store without its memory update: faults, line requests (with their
// data), TMEM runs, mbarrier events (and, in scratch.mbar, the barriers' next states),
// ordering and cache attributes. `m` is read for the configuration, the bounds, the TMEM
// allocation and the barriers' states. The performance model (systemc/) plans a store with
// it and carries the effects through its own datapath; it never calls commit().
void plan(const MachineState& m, const isa::Instruction& ins, const WarpContext& ctx,
          const WarpOperands& ops, StoreResult& out, Scratch& scratch);
// The golden memory update of a planned store: the line requests, the TMEM runs and the
// barrier states of `scratch.mbar` are written to `m`.
void commit(MachineState& m, const StoreResult& out, const Scratch& scratch);

// The register file a SASS `ST` reads: 32-bit registers R0..R254 per lane (RZ reads 0) and
// predicates P0..P6 per lane (PT true).
class SassRegisterFile {
 public:
  SassRegisterFile() : r_(255 * 32, 0), p_{} {}
  uint32_t read(unsigned lane, unsigned reg) const { return reg >= 255 ? 0 : r_[reg * 32 + lane]; }
  void write(unsigned lane, unsigned reg, uint32_t v) {
    if (reg < 255) r_[reg * 32 + lane] = v;
  }
  bool pred(unsigned lane, unsigned p) const { return p >= 7 ? true : (p_[lane] >> p) & 1; }
  void set_pred(unsigned lane, unsigned p, bool v) {
    if (p < 7) p_[lane] = uint8_t(v ? p_[lane] | (1u << p) : p_[lane] & ~(1u << p));
  }

 private:
  std::vector<uint32_t> r_;
  std::array<uint8_t, 32> p_;
};

// The effective address of SASS `ST` for one lane (seed 002): [ImmU32] or RZ or Ra beyond
// the register count: the zero-extended immediate. With .E: {Ra+1, Ra} plus the
// sign-extended 32-bit immediate, in 64 bits. Without .E the address is 32 bits wide:
// Ra + immediate modulo 2^32, zero-extended.
uint64_t sass_address(const isa::SassSt& s, const SassRegisterFile& rf, unsigned lane,
                      uint32_t reg_count);

// Plans SASS `ST` as plan() does a PTX store.
void plan_sass(const MachineState& m, const isa::SassSt& s, const WarpContext& ctx,
               const SassRegisterFile& rf, StoreResult& out, Scratch& scratch);
// Executes SASS `ST` (guard included: lanes whose @Pg is false do not execute).
void execute_sass(MachineState& m, const isa::SassSt& s, const WarpContext& ctx,
                  const SassRegisterFile& rf, StoreResult& out, Scratch& scratch);

}  // namespace stu::golden
