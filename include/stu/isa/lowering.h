// Lowering of a PTX store to the SASS instruction(s) ptxas emits for it on sm_80 .. sm_120
// (observed with ptxas 13.0; see ../shared/spec/store-family.md section 5 and docs/check.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stu/isa/instruction.h"
#include "stu/isa/target.h"
#include "stu/isa/validator.h"

namespace stu::isa {

enum class SassOpcode : uint8_t {
  STG,        // global
  STS,        // shared (own CTA)
  STL,        // local (and spilled .param::func)
  ST,         // generic (and .shared::cluster)
  STAS,       // st.async to distributed shared memory
  STTM,       // tcgen05.st: registers -> tensor memory
  USTGR,      // st.async release form (sm_100+): a uniform-datapath global store
  MEMBAR,     // memory barrier before a release store
  ERRBAR,     // error barrier ptxas places after a gpu/sys-scoped MEMBAR
  CGAERRBAR,  // cluster (CGA) error barrier after that ERRBAR
};

enum class SassOrder : uint8_t { Weak, StrongSM, StrongGPU, StrongSYS, MmioGPU, MmioSYS };
enum class SassEvict : uint8_t { Normal, EF, EL, LU, EU, NA };
enum class SassScope : uint8_t { CTA, GPU, SYS };
// The L2 eviction field of 256-bit global stores (`STG.E.ENL2.256`, `.ELL2`, `.EFL2`).
enum class SassL2Evict : uint8_t { None, ENL2, ELL2, EFL2 };
// The thread half a `.16x32bx2` STTM covers (two instructions, one per half of the warp).
enum class SassTmemHalf : uint8_t { Whole, T0T15, T16T31 };

struct SassInstr {
  SassOpcode opcode = SassOpcode::STG;
  bool extended = true;      // .E: 64-bit address
  unsigned size_bits = 32;   // 8, 16, 32, 64, 128, 256
  bool signed_size = false;  // .S8 / .S16
  SassOrder order = SassOrder::Weak;
  SassEvict evict = SassEvict::Normal;
  SassL2Evict l2_evict = SassL2Evict::None;
  bool cache_policy = false;         // the descriptor operand is the L2 policy register
  uint8_t write_mask = 0;            // 256-bit stores: one bit per 32-bit element (sinks cleared)
  SassScope scope = SassScope::CTA;  // MEMBAR
  // STTM: the shape (none for 32x32b), the half of .16x32bx2, .EXPAND16BIT, the .xN count.
  std::optional<TmemShape> tmem_shape;
  SassTmemHalf tmem_half = SassTmemHalf::Whole;
  bool expand16 = false;
  unsigned count = 0;
  std::string operands;  // printed operands (symbolic, from the PTX; docs/check.md)

  std::string str() const;
};

// Returns the SASS sequence ptxas 13.0 emits for `ins` on `target` (assumed valid; the table
// holds for sm_80 .. sm_120, checked against cuobjdump listings of sm_90a and sm_100a cubins).
// Empty when ptxas emits no store (emits_no_store) and for st.bulk (not lowered).
// `proven`: the space ptxas can prove the address is in (the declared space of a variable the
// address names, `[gbuf+8]`); it lowers a generic store, or a .shared::cluster one to the
// CTA's own shared variable, as a store to that space (STG / STS / STL; tests/data/sass).
std::vector<SassInstr> lower(const Instruction& ins, const Target& target,
                             std::optional<Space> proven = std::nullopt);
// The space of the variable `ins` addresses by name, when `names` knows it.
std::optional<Space> proven_space(const Instruction& ins, const SymbolLookup& names);

// Whether ptxas 13.0 emits no store for `ins` on `target` (observed: the kernel's code is that of
// an empty kernel): the st.async forms of Instruction::stores_nothing() on every target, and,
// below sm_100 (where the release form does not exist), every st.async without an [mbar]
// operand (`st.async.gpu.u32 [a], b;` on sm_90a). Such a store does nothing on every model.
bool emits_no_store(const Instruction& ins, const Target& target);

}  // namespace stu::isa
