// The decoded form of one PTX store-family instruction (`st`, `st.async`, `tcgen05.st`).
//
// One value type for every form, so the validator, the lowering, the golden model and the
// RTL/TLM stimulus generators all consume the same thing. Qualifiers keep what was written
// (an absent family is `nullopt`); semantic defaults are derived by the accessors below.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stu/isa/types.h"
#include "stu/loc.h"

namespace stu::isa {

using Loc = stu::Loc;

// StBulk (`st.bulk`, bulk zero-initialisation, PTX 8.6) is checked like the store family but
// stores no register data: its size and initval operands are `src[0]` and `src[1]`.
enum class Opcode : uint8_t { St, StAsync, Tcgen05St, StBulk };
std::string_view to_string(Opcode op);  // "st", "st.async", "tcgen05.st", "st.bulk"

// `@%p` / `@!%p`.
struct Guard {
  std::string reg;  // empty when the instruction is not predicated
  bool negated = false;
  Loc loc;
  bool present() const { return !reg.empty(); }
};

// A qualifier as written, kept for diagnostics (column of each) and to detect duplicates.
enum class QualFamily : uint8_t {
  Sem,
  Mmio,
  Scope,
  Space,
  CacheOp,
  L1Evict,
  L2Evict,
  CacheHint,
  Vec,
  Type,
  Async,       // the `.async` of st.async
  Completion,  // .mbarrier::complete_tx::bytes
  Sync,
  Aligned,
  Shape,
  Num,
  Unpack,
};

struct Qualifier {
  QualFamily family;
  uint8_t value = 0;  // the enum value within the family (num: the repeat count)
  Loc loc;            // position of the leading dot
};

// A source (or policy) operand.
struct Operand {
  enum class Kind : uint8_t { Register, Immediate, Sink };
  Kind kind = Kind::Register;
  std::string text;  // register (or symbol) name, or the immediate as written
  // ptxas accepts `%r1+4`, `4+4` or `var+4` as a scalar source: the value plus a constant.
  bool has_addend = false;
  int64_t addend = 0;
  Loc loc;
};

// The address operand `[...]`.
struct Address {
  enum class Base : uint8_t { Register, Symbol, Immediate };
  Base base = Base::Register;
  std::string name;    // register or variable name (empty for an immediate address)
  int64_t offset = 0;  // byte offset, or the absolute address for Base::Immediate
  bool has_offset = false;
  Loc loc;  // position of `[`
};

// tcgen05.st .16x32bx2: immHalfSplitoff, parsed once (by the parser) into its 64-bit two's
// complement value. ptxas takes any 64-bit integer; the address addition is 32-bit.
struct SplitOffset {
  uint64_t value = 0;
  Loc loc;
  int64_t as_signed() const { return static_cast<int64_t>(value); }
};

struct Instruction {
  Opcode op = Opcode::St;
  Loc loc;  // position of the opcode
  Guard guard;

  // --- qualifiers (nullopt / false: not written) ---
  std::optional<Sem> sem;
  bool mmio = false;
  std::optional<Scope> scope;
  std::optional<Space> space;
  std::optional<CacheOp> cop;
  std::optional<L1Evict> l1;
  std::optional<L2Evict> l2;
  bool cache_hint = false;
  std::optional<Vec> vec;
  std::optional<DataType> type;
  bool complete_tx = false;  // st.async: .mbarrier::complete_tx::bytes
  bool sync = false;         // tcgen05.st
  bool aligned = false;      // tcgen05.st
  std::optional<TmemShape> shape;
  uint8_t num = 0;        // tcgen05.st .xN (0: not written)
  bool unpack16 = false;  // tcgen05.st .unpack::16b

  std::vector<Qualifier> quals;  // as written, in order (for diagnostics)

  // --- operands ---
  Address addr;                          // [a] / [taddr]
  std::vector<Operand> src;              // b, or the brace list (st.bulk: size, initval)
  bool src_braced = false;               // written as `{...}`
  std::optional<Operand> policy;         // st: cache-policy operand
  std::optional<Address> mbar;           // st.async: [mbar]
  std::optional<SplitOffset> split_off;  // tcgen05.st .16x32bx2: immHalfSplitoff

  // Back to the default state, keeping the capacity of the vectors (the module reader reuses
  // one Instruction for every store).
  void reset();

  // --- derived meaning ---
  Sem effective_sem() const { return sem.value_or(Sem::Weak); }
  bool is_strong() const;
  bool is_generic() const { return !space.has_value(); }
  // st.async: the release form (a strong store to global) rather than the mbarrier form (a
  // weak store to distributed shared memory). ptxas's classification: `.release`, `.mmio`, a
  // scope other than `.cluster`, or neither a completion mechanism nor an [mbar] operand.
  bool is_async_release() const;
  // `st.async` with no [mbar] operand, no '.release', no '.mmio' and no scope but '.cluster'
  // (the bare `st.async.u32 [a], b;`, `st.async.global.u32 [a], b;`, the mbarrier form without
  // [mbar]):
  // ptxas 13.0 emits no instruction for it on sm_90a and sm_100a (the kernel's code is that of
  // an empty one), and an H200 leaves the word unchanged. It stores nothing on every model.
  // (Below sm_100 a scope alone makes no store either: isa::emits_no_store, lowering.h.)
  bool stores_nothing() const;
  unsigned vec_lanes() const { return vec ? lanes_of(*vec) : 1; }
  // Elements the store writes: vec_lanes(), except a '.v8' of 8- or 16-bit elements (undefined
  // by the ISA, accepted by ptxas), of which ptxas 13.0 stores element 0 alone (one STG.U8 or
  // .U16; silicon-checked on an H200, 2026-11-26, docs/golden.md).
  unsigned stored_elements() const;
  // The 256-bit vector forms: '.v8' of 32-bit or '.v4' of 64-bit elements.
  bool is_256bit_vector() const;
  // Bytes written by one thread when no element is a sink (st/st.async), or 4 * registers
  // (tcgen05.st).
  unsigned access_bytes() const;
  // tcgen05.st: number of 32-bit registers each thread supplies.
  unsigned tmem_regs() const;

  // Position of the first written qualifier of a family (or the opcode when absent).
  Loc qual_loc(QualFamily f) const;
  const Qualifier* find_qual(QualFamily f) const;
};

// Semantic equality (ignores source positions and written order of qualifiers); this is what
// the round-trip property promises.
bool same_instruction(const Instruction& a, const Instruction& b);

}  // namespace stu::isa
