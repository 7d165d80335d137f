#include "stu/golden/executor.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "stu/golden/store_align.h"
#include "stu/isa/lexer.h"
#include "stu/isa/space_rules.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the golden model copies register bytes");

namespace stu::golden {

using isa::Instruction;
using isa::Opcode;
using isa::Sem;

void StoreResult::clear() {
  for (uint32_t m = fault_mask; m; m &= m - 1) fault[unsigned(__builtin_ctz(m))] = Fault{};
  fault_mask = 0;
  stored_mask = 0;
  forced_align_mask = 0;
  lines.clear();
  tmem.clear();
  mbar.clear();
  order = Ordering{};
  cache = CacheAttrs{};
  bytes = 0;
}

void StoreResult::set_fault(unsigned lane, FaultKind k, uint64_t addr) {
  fault[lane] = Fault{k, addr};
  fault_mask |= uint32_t(1) << lane;
}

namespace {

unsigned popcount_bytes(uint32_t byte_mask) { return unsigned(__builtin_popcount(byte_mask)); }

unsigned lowest_lane(uint32_t mask) { return mask ? unsigned(__builtin_ctz(mask)) : 0; }

void fault_all(StoreResult& out, uint32_t mask, FaultKind k, uint64_t addr = 0) {
  for (uint32_t m = mask; m; m &= m - 1) out.set_fault(unsigned(__builtin_ctz(m)), k, addr);
}

// A qualifier the resolved space forbids and that faults there (generic stores resolve per lane;
// isa::faults_when_resolved), or read-only.
// The space rules (isa/space_rules.h, shared with the validator) applied to the space a lane's
// address resolved to.
FaultKind space_fault(const Instruction& ins, MemSpace s) {
  if (s == MemSpace::Global && ins.op != Opcode::StAsync) return FaultKind::None;  // hot path
  const isa::SpaceViolations v = isa::space_violations(ins, isa_space(s));
  if (v.has(isa::SpaceRule::ReadOnly)) return FaultKind::ReadOnly;
  return v.faults_when_resolved() ? FaultKind::IllegalForSpace : FaultKind::None;
}

Resolved resolve(const MachineState& m, const Instruction& ins, uint64_t a, ThreadId who) {
  if (ins.space) {
    if (*ins.space == isa::Space::Global) {  // the common case, without a call
      Resolved r;
      r.offset = a;
      return r;
    }
    return resolve_space(m.config(), *ins.space, a, who);
  }
  return resolve_generic(m.config(), a, who);
}

uint64_t address_of(const isa::Address& addr, uint64_t reg_value) {
  if (addr.base == isa::Address::Base::Immediate) return uint64_t(addr.offset);
  return reg_value + uint64_t(addr.offset);
}

// Accounts for the bytes of the line requests (plan); commit() writes them.
void count_lines(StoreResult& out) {
  for (const LineRequest& l : out.lines) out.bytes += l.bytes.count();
}

// Pending complete-tx updates of one warp store, on a small cache of barrier states.
struct MbarCache {
  std::vector<MbarUpdate>& entries;
  MbarUpdate& get(const MachineState& m, uint16_t cta, uint64_t offset) {
    for (MbarUpdate& e : entries)
      if (e.cta == cta && e.offset == offset) return e;
    entries.push_back(MbarUpdate{cta, offset, m.mbar(cta, offset)});
    return entries.back();
  }
};

void plan_tcgen05(const MachineState& m, const Instruction& ins, const WarpContext& ctx,
                  const WarpOperands& ops, StoreResult& out, Scratch& scratch) {
  const unsigned regs = ins.tmem_regs();
  if (!ins.shape || regs == 0 || ops.src.size() < size_t(regs) * 32) {
    fault_all(out, ctx.active, FaultKind::BadInstruction);
    return;
  }
  if (ctx.active != 0xFFFFFFFFu) {  // .sync.aligned: the whole warp executes it
    fault_all(out, ctx.active, FaultKind::TmemInactiveThreads);
    return;
  }
  const uint64_t taddr = address_of(ins.addr, ops.addr[0]);
  for (unsigned t = 1; t < 32; ++t) {
    if (address_of(ins.addr, ops.addr[t]) != taddr) {
      for (unsigned l = 0; l < 32; ++l)
        out.set_fault(l, FaultKind::TmemAddrNotUniform, address_of(ins.addr, ops.addr[l]));
      return;
    }
  }
  if (taddr > 0xFFFF'FFFFull) {
    fault_all(out, ctx.active, FaultKind::OutOfWindow, taddr);
    return;
  }
  // A negative immHalfSplitoff is accepted (ptxas): the addition wraps at 32 bits.
  const uint64_t split = ins.split_off ? ins.split_off->value : 0;
  if (ctx.cta >= m.config().cluster_ctas) {
    fault_all(out, ctx.active, FaultKind::OutOfWindow, taddr);
    return;
  }
  const CtaState& cta = m.cta(ctx.cta);
  TmemWriteIn in;
  in.shape = *ins.shape;
  in.num = ins.num;
  in.unpack = ins.unpack16;
  in.taddr = uint32_t(taddr);
  in.split = uint32_t(split);
  in.quarter = ctx.warp % 4u;
  in.alloc_units = cta.tmem_alloc.unit_mask();
  in.cta = ctx.cta;
  static_assert(sizeof(RegValue) == 2 * sizeof(uint64_t) && offsetof(RegValue, lo) == 0,
                "tmem_write reads the low halves of RegValue with stride 2");
  in.regs = &ops.src[0].lo;
  in.stride = 2;
  TmemWriteOut& w = scratch.tmem;
  tmem_write(in, w);
  for (uint32_t f = w.fault_mask; f; f &= f - 1) {
    const unsigned t = unsigned(__builtin_ctz(f));
    out.set_fault(t, w.fault[t].kind, w.fault[t].addr);
  }
  out.stored_mask = ~w.fault_mask;
  out.bytes += 4 * w.cells;
  out.tmem.swap(w.runs);  // both keep their capacity
}

}  // namespace

// The per-lane walk both executors share. For each active lane that `steps.skip` keeps: its
// address (`steps.address`) is aligned by `mode` (align_access), resolved (`steps.resolve`),
// checked by the form's own rule (`steps.check`: a space rule, the SASS Plg predicate), by the
// memory's bounds and by `steps.after` (st.async's mbarrier), and its LaneAccess filled
// (`steps.fill`: the data bytes). A lane that fails faults and stores nothing. Returns the
// number of accesses in scratch.accesses.
template <typename Steps>
size_t place_lanes(const MachineState& m, const WarpContext& ctx, unsigned size, uint32_t byte_mask,
                   MisalignMode mode, StoreResult& out, Scratch& scratch, Steps& steps) {
  if (scratch.accesses.size() < 32) scratch.accesses.resize(32);
  size_t n = 0;
  for (uint32_t act = ctx.active; act; act &= act - 1) {
    const unsigned lane = unsigned(__builtin_ctz(act));
    if (steps.skip(lane)) continue;
    const AlignedAddress a = align_access(steps.address(lane), size, mode);
    if (a.fault) {
      out.set_fault(lane, FaultKind::Misaligned, a.addr);
      continue;
    }
    if (a.forced) out.forced_align_mask |= uint32_t(1) << lane;
    const ThreadId who{ctx.cta, ctx.warp, uint8_t(lane)};
    const Resolved r = steps.resolve(a.addr, who);
    Fault f{r.fault.kind, a.addr};
    if (f.kind == FaultKind::None) f.kind = steps.check(r, lane);
    if (f.kind == FaultKind::None) f.kind = m.check_store(r.dest, r.offset, size);
    if (f.kind == FaultKind::None) f = steps.after(r, lane, who);
    if (f.kind != FaultKind::None) {
      out.set_fault(lane, f.kind, f.addr);
      continue;
    }
    LaneAccess& acc = scratch.accesses[n++];
    acc.lane = uint8_t(lane);
    acc.size = uint8_t(size);
    acc.byte_mask = byte_mask;
    // Field by field: `r` was just built field by field on the stack, and one 8-byte copy of
    // it would wait for those narrow stores (a store-forwarding stall on every lane).
    acc.dest.space = r.dest.space;
    acc.dest.cta = r.dest.cta;
    acc.dest.thread = r.dest.thread;
    acc.offset = r.offset;
    steps.fill(acc, lane);
    out.stored_mask |= uint32_t(1) << lane;
  }
  return n;
}

// The common case of place_lanes in one warp-wide check: a `st.global` (not st.async) whose
// active lanes are all aligned and all inside one global allocation, so no lane can fault
// (resolution of .global is the identity and the space rule passes). False when any lane
// might fault: place_lanes then checks lane by lane.
bool plain_global(const MachineState& m, const Instruction& ins, const WarpContext& ctx,
                  const WarpOperands& ops, unsigned size, uint32_t byte_mask, Scratch& scratch) {
  if (ins.op != Opcode::St || !ins.space || *ins.space != isa::Space::Global || ctx.active == 0 ||
      byte_mask == 0)
    return false;
  uint64_t any = 0, lo = ~uint64_t(0), hi = 0;
  for (uint32_t act = ctx.active; act; act &= act - 1) {
    const uint64_t a = address_of(ins.addr, ops.addr[unsigned(__builtin_ctz(act))]);
    any |= a;
    lo = std::min(lo, a);
    hi = std::max(hi, a);
  }
  if ((any & (uint64_t(size) - 1)) != 0 || hi - lo > ~uint64_t(0) - size) return false;
  const Dest global{MemSpace::Global, 0, 0};
  if (m.check_store(global, lo, hi - lo + size) != FaultKind::None) return false;
  if (scratch.accesses.size() < 32) scratch.accesses.resize(32);
  return true;
}

// place_lanes for a warp plain_global() accepted: every active lane stores.
template <typename Steps>
size_t fill_plain_global(const WarpContext& ctx, unsigned size, uint32_t byte_mask,
                         StoreResult& out, Scratch& scratch, Steps& steps) {
  size_t n = 0;
  for (uint32_t act = ctx.active; act; act &= act - 1) {
    const unsigned lane = unsigned(__builtin_ctz(act));
    LaneAccess& acc = scratch.accesses[n++];
    acc.lane = uint8_t(lane);
    acc.size = uint8_t(size);
    acc.byte_mask = byte_mask;
    acc.dest = Dest{MemSpace::Global, 0, 0};
    acc.offset = steps.address(lane);
    steps.fill(acc, lane);
  }
  out.stored_mask = ctx.active;
  return n;
}

namespace {

// A lane's `elems` elements of `kElem` bytes each, from its registers (`src`, as
// WarpOperands::src), at `d`.
template <unsigned kElem>
void put_lane(uint8_t* d, const RegValue* src, unsigned elems, unsigned lane) {
  for (unsigned e = 0; e < elems; ++e) {
    const RegValue& v = src[e * 32 + lane];
    if constexpr (kElem <= 8) {
      std::memcpy(d + e * kElem, &v.lo, kElem);
    } else {
      std::memcpy(d + e * kElem, &v.lo, 8);
      std::memcpy(d + e * kElem + 8, &v.hi, kElem - 8);
    }
  }
}

// The common warp in one pass: a plain st.global with no sink whose active lanes, in lane
// order, store one `size`-byte access right after the other from a `size`-aligned address,
// inside one allocation. coalesce() would find these accesses ordered and contiguous and cut
// them into runs, line by line; this builds the same line requests straight from the
// registers, and fills scratch.accesses only when record_accesses asks for them. The general
// path (place_lanes, coalesce) stays the reference; the two are compared on random warps
// (GoldenRandom tests). False, with nothing changed, for any other warp.
template <unsigned kElem>
bool plan_contiguous_global(const MachineState& m, const Instruction& ins, const WarpContext& ctx,
                            const WarpOperands& ops, unsigned elems, StoreResult& out,
                            Scratch& scratch) {
  const unsigned size = kElem * elems;
  const unsigned n = unsigned(__builtin_popcount(ctx.active));
  const uint64_t lo = address_of(ins.addr, ops.addr[unsigned(__builtin_ctz(ctx.active))]);
  if ((size & (size - 1)) != 0 || size > kLineBytes || (lo & (size - 1)) != 0 ||
      lo > ~uint64_t(0) - uint64_t(n) * size)
    return false;
  // A full warp (the common case) walks its lanes by index: no bit scans, and the address
  // check without a branch per lane.
  const bool full = ctx.active == ~uint32_t(0);
  if (ins.addr.base == isa::Address::Base::Immediate) {
    if (n != 1) return false;  // every lane at the same address
  } else if (full) {
    // Lane l's register must hold lo + l * size - offset (mod 2^64); stepped, not multiplied,
    // so that the loop vectorises.
    uint64_t want = lo - uint64_t(ins.addr.offset);
    uint64_t differ = 0;
    for (unsigned l = 0; l < 32; ++l, want += size) differ |= ops.addr[l] ^ want;
    if (differ) return false;
  } else {
    const uint64_t off = uint64_t(ins.addr.offset);
    uint64_t next = lo;
    for (uint32_t act = ctx.active; act; act &= act - 1, next += size)
      if (ops.addr[unsigned(__builtin_ctz(act))] + off != next) return false;
  }
  const Dest global{MemSpace::Global, 0, 0};
  if (m.check_store(global, lo, uint64_t(n) * size) != FaultKind::None) return false;
  // Each access lies inside one line (aligned, its size divides 128): line by line, the
  // accesses that fit from the first one's place to the line's end.
  const RegValue* const src = ops.src.data();
  uint64_t at = lo;
  for (uint32_t act = ctx.active; act;) {
    const uint64_t line = at & ~uint64_t(kLineBytes - 1);
    const unsigned in_line = unsigned(at - line);
    const unsigned fit = (kLineBytes - in_line) / size;
    out.lines.emplace_back();
    LineRequest& r = out.lines.back();
    r.dest = global;
    r.line = line;
    r.first_lane = uint8_t(__builtin_ctz(act));
    uint8_t* const d = r.data.data() + in_line;
    uint32_t lanes = 0;
    unsigned k = 0;
    if (full) {  // lanes first.. (those of earlier lines are cleared from act)
      const unsigned first = r.first_lane;
      k = std::min(fit, 32 - first);
      if (elems == 1) {
        for (unsigned j = 0; j < k; ++j) put_lane<kElem>(d + j * size, src + first + j, 1, 0);
      } else {
        for (unsigned j = 0; j < k; ++j) put_lane<kElem>(d + j * size, src, elems, first + j);
      }
      lanes = uint32_t((uint64_t(1) << k) - 1) << first;
      act &= ~lanes;
    } else {
      for (; act && k < fit; ++k, act &= act - 1) {
        const unsigned lane = unsigned(__builtin_ctz(act));
        put_lane<kElem>(d + k * size, src, elems, lane);
        lanes |= uint32_t(1) << lane;
      }
    }
    r.lane_mask = lanes;
    r.bytes.set_range(in_line, k * size);
    r.sector_mask = r.bytes.sectors();
    at += uint64_t(k) * size;
  }
  out.stored_mask = ctx.active;
  out.bytes = uint64_t(n) * size;
  scratch.naccess = 0;
  if (scratch.record_accesses) {
    if (scratch.accesses.size() < 32) scratch.accesses.resize(32);
    at = lo;
    for (uint32_t act = ctx.active; act; act &= act - 1, at += size) {
      const unsigned lane = unsigned(__builtin_ctz(act));
      LaneAccess& acc = scratch.accesses[scratch.naccess++];
      acc.lane = uint8_t(lane);
      acc.size = uint8_t(size);
      acc.byte_mask = access_byte_mask(size);
      acc.dest = global;
      acc.offset = at;
      put_lane<kElem>(acc.data.data(), src, elems, lane);
    }
  }
  return true;
}

// plan_contiguous_global for the element sizes a type has; false for a warp it does not take.
bool plan_contiguous(const MachineState& m, const Instruction& ins, const WarpContext& ctx,
                     const WarpOperands& ops, unsigned esize, unsigned elems, uint32_t byte_mask,
                     StoreResult& out, Scratch& scratch) {
  if (ins.op != Opcode::St || !ins.space || *ins.space != isa::Space::Global ||
      byte_mask != access_byte_mask(esize * elems))
    return false;
  switch (esize) {
    case 1:
      return plan_contiguous_global<1>(m, ins, ctx, ops, elems, out, scratch);
    case 2:
      return plan_contiguous_global<2>(m, ins, ctx, ops, elems, out, scratch);
    case 4:
      return plan_contiguous_global<4>(m, ins, ctx, ops, elems, out, scratch);
    case 8:
      return plan_contiguous_global<8>(m, ins, ctx, ops, elems, out, scratch);
    case 16:
      return plan_contiguous_global<16>(m, ins, ctx, ops, elems, out, scratch);
    default:
      return false;
  }
}

}  // namespace

Ordering ordering_of(const Instruction& ins) {
  Ordering o;
  o.async = ins.op != Opcode::St;
  if (ins.op == Opcode::Tcgen05St) return o;
  // The weak data store, and the form that stores nothing.
  if (ins.op == Opcode::StAsync && (!ins.is_async_release() || ins.stores_nothing())) return o;
  o.sem = ins.effective_sem();
  if (ins.op == Opcode::StAsync) o.sem = Sem::Release;  // the release form
  if (ins.mmio) {
    o.mmio = true;
    o.strong = true;
    o.sem = Sem::Relaxed;
    o.scope = isa::Scope::Sys;
    if (ins.op == Opcode::StAsync) o.sem = Sem::Release;
  } else if (o.sem == Sem::Volatile) {
    o.is_volatile = true;
    o.strong = true;
    o.scope = isa::Scope::Sys;  // volatile behaves as relaxed at system scope
  } else if (o.sem == Sem::Relaxed || o.sem == Sem::Release) {
    o.strong = true;
    o.scope = ins.scope;
  }
  o.release = o.sem == Sem::Release;
  return o;
}

LaneGroup lane_group(const Instruction& ins) {
  return LaneGroup::for_access(ins.access_bytes(), ins.mmio || ins.op == Opcode::StAsync);
}

void plan(const MachineState& m, const Instruction& ins, const WarpContext& ctx,
          const WarpOperands& ops, StoreResult& out, Scratch& scratch) {
  out.clear();
  scratch.mbar.clear();
  scratch.naccess = 0;
  scratch.group = LaneGroup::whole_warp();
  out.order = ordering_of(ins);
  out.cache.cop = ins.cop;
  out.cache.l1 = ins.l1;
  out.cache.l2 = ins.l2;
  if (ins.cache_hint) {
    out.cache.has_policy = true;
    out.cache.policy = decode_policy(ops.policy[lowest_lane(ctx.active)]);
  }
  if (ctx.active == 0) return;
  if (ins.op == Opcode::StBulk) {  // checked by stu check, not executed by the model
    fault_all(out, ctx.active, FaultKind::BadInstruction);
    return;
  }
  if (ins.stores_nothing()) return;  // ptxas emits no instruction for it (instruction.h)
  if (ins.op == Opcode::Tcgen05St) {
    plan_tcgen05(m, ins, ctx, ops, out, scratch);
    return;
  }
  const unsigned elems = ins.stored_elements();  // a .v8 of 8/16-bit elements: element 0 only
  if (!ins.type || ops.src.size() < size_t(elems) * 32 || ctx.cta >= m.config().cluster_ctas) {
    fault_all(out, ctx.active, FaultKind::BadInstruction);
    return;
  }
  const unsigned esize = isa::bytes_of(*ins.type);
  const unsigned size = esize * elems;
  if (size == 0 || size > kMaxAccessBytes) {
    fault_all(out, ctx.active, FaultKind::BadInstruction);
    return;
  }
  // A policy that traps ends the kernel: the whole warp, nothing stored. A warp has one policy,
  // the lowest active lane's (silicon-checked on the H200: ptxas moves it to a uniform register
  // with R2UR, which reads the first active lane; docs/golden.md).
  if (ins.cache_hint && policy_traps(ops.policy[lowest_lane(ctx.active)])) {
    fault_all(out, ctx.active, FaultKind::IllegalInstruction);
    return;
  }
  uint32_t sinks = 0;
  if (ins.src.size() >= elems) {
    for (unsigned e = 0; e < elems; ++e)
      if (ins.src[e].kind == isa::Operand::Kind::Sink) sinks |= 1u << e;
  }
  const uint32_t byte_mask = vector_byte_mask(esize, elems, sinks);
  // st.async's weak form in a cluster of one CTA (undefined by the ISA) stores and completes its
  // transaction like any other: silicon-checked on the H200 (docs/golden.md).
  const bool async_weak = ins.op == Opcode::StAsync && !ins.is_async_release();

  scratch.group = lane_group(ins);
  if (plan_contiguous(m, ins, ctx, ops, esize, elems, byte_mask, out, scratch)) return;

  MbarCache mbars{scratch.mbar};
  struct PtxSteps {
    const MachineState& m;
    const Instruction& ins;
    const WarpOperands& ops;
    StoreResult& out;
    MbarCache& mbars;
    const unsigned esize, elems, tx_bytes;
    const bool async_weak;
    bool skip(unsigned) const { return false; }
    uint64_t address(unsigned lane) const { return address_of(ins.addr, ops.addr[lane]); }
    Resolved resolve(uint64_t a, ThreadId who) const { return golden::resolve(m, ins, a, who); }
    FaultKind check(const Resolved& r, unsigned) const { return space_fault(ins, r.dest.space); }
    // st.async (mbarrier form): complete-tx on the barrier of the destination CTA.
    Fault after(const Resolved& r, unsigned lane, ThreadId who) {
      if (!async_weak || !ins.mbar) return Fault{};
      const uint64_t ma = address_of(*ins.mbar, ops.mbar[lane]);
      const Resolved mr = golden::resolve(m, ins, ma, who);
      FaultKind mf = mr.fault.kind;
      if (mf == FaultKind::None && mr.dest.space != MemSpace::Shared) mf = FaultKind::MbarNotShared;
      if (mf == FaultKind::None && !is_aligned(ma, 8)) mf = FaultKind::MbarMisaligned;
      if (mf == FaultKind::None) mf = m.check_store(mr.dest, mr.offset, 8);
      if (mf == FaultKind::None && mr.dest.cta != r.dest.cta) mf = FaultKind::MbarCtaMismatch;
      if (mf == FaultKind::None) {
        MbarUpdate& e = mbars.get(m, mr.dest.cta, mr.offset);
        const MbarStep step = mbar_step(e.state, MbarOp{MbarOpKind::CompleteTx, tx_bytes});
        mf = step.fault;
        if (mf == FaultKind::None) {
          e.state = step.next;
          out.mbar.push_back(
              MbarEvent{mr.dest.cta, mr.offset, tx_bytes, uint8_t(lane), step.phase_completed});
        }
      }
      return Fault{mf, ma};
    }
    void fill(LaneAccess& acc, unsigned lane) const {
      for (unsigned e = 0; e < elems; ++e) {
        const RegValue& v = ops.value(e, lane);
        uint8_t* d = acc.data.data() + e * esize;
        // Registers hold values little-endian in the model (the host byte order is checked
        // at the top of this file), so the low `esize` bytes are the stored bytes.
        copy_access_bytes(d, &v.lo, esize < 8 ? esize : 8);
        if (esize > 8) copy_access_bytes(d + 8, &v.hi, esize - 8);
      }
    }
  } steps{m, ins, ops, out, mbars, esize, elems, popcount_bytes(byte_mask), async_weak};
  const size_t naccess =
      plain_global(m, ins, ctx, ops, size, byte_mask, scratch)
          ? fill_plain_global(ctx, size, byte_mask, out, scratch, steps)
          : place_lanes(m, ctx, size, byte_mask, MisalignMode::Fault, out, scratch, steps);
  bool any_global = false, any_shared = false;
  for (size_t i = 0; i < naccess; ++i) {
    any_global |= scratch.accesses[i].dest.space == MemSpace::Global;
    any_shared |= scratch.accesses[i].dest.space == MemSpace::Shared;
  }
  // A .sys-scoped strong store that only reaches shared memory behaves as .cluster.
  if (out.order.scope == isa::Scope::Sys && any_shared && !any_global)
    out.order.scope = isa::Scope::Cluster;
  coalesce(scratch.accesses.data(), naccess, scratch.group, out.lines);
  scratch.naccess = naccess;
  count_lines(out);
}

void commit(MachineState& m, const StoreResult& out, const Scratch& scratch) {
  for (const LineRequest& l : out.lines) m.apply(l);
  if (!out.tmem.empty()) {
    uint32_t* tm = m.cta(out.tmem.front().cta).tmem_cells();
    for (const TmemWrite& r : out.tmem) {
      uint32_t* row = tm + size_t(r.lane) * kTmemColumns + r.col;
      for (uint32_t c = r.col_mask; c; c &= c - 1) {
        const unsigned i = unsigned(__builtin_ctz(c));
        row[i] = r.data[i];
      }
    }
  }
  for (const MbarUpdate& e : scratch.mbar) m.set_mbar(e.cta, e.offset, e.state);
}

void execute(MachineState& m, const Instruction& ins, const WarpContext& ctx,
             const WarpOperands& ops, StoreResult& out, Scratch& scratch) {
  plan(m, ins, ctx, ops, out, scratch);
  commit(m, out, scratch);
}

uint64_t sass_address(const isa::SassSt& s, const SassRegisterFile& rf, unsigned lane,
                      uint32_t reg_count) {
  if (s.absolute() || s.ra >= reg_count) return uint64_t(uint32_t(s.imm));
  const uint64_t offset = uint64_t(int64_t(int32_t(uint32_t(s.imm))));
  if (!s.extended) return uint32_t(rf.read(lane, s.ra) + uint32_t(offset));  // a 32-bit address
  const unsigned hi = s.ra + 1u < reg_count ? s.ra + 1u : isa::kRZ;
  const uint64_t base = rf.read(lane, s.ra) | (uint64_t(rf.read(lane, hi)) << 32);
  return base + offset;
}

void plan_sass(const MachineState& m, const isa::SassSt& s, const WarpContext& ctx,
               const SassRegisterFile& rf, StoreResult& out, Scratch& scratch) {
  out.clear();
  scratch.mbar.clear();
  scratch.naccess = 0;
  out.cache.cop = isa::CacheOp(uint8_t(s.cop));  // WB, CG, CS, WT in the same order
  const ModelConfig& cfg = m.config();
  const unsigned size = isa::bytes_of(s.size);
  if (ctx.cta >= cfg.cluster_ctas) {
    fault_all(out, ctx.active, FaultKind::BadInstruction);
    return;
  }
  struct SassSteps {
    const isa::SassSt& s;
    const SassRegisterFile& rf;
    const ModelConfig& cfg;
    const unsigned size;
    bool skip(unsigned lane) const {
      return s.guard && rf.pred(lane, s.guard->index) == s.guard->negated;
    }
    uint64_t address(unsigned lane) const { return sass_address(s, rf, lane, cfg.sass_regs); }
    Resolved resolve(uint64_t a, ThreadId who) const { return resolve_generic(cfg, a, who); }
    // Plg says whether the address is in the shared window; a wrong Plg faults.
    FaultKind check(const Resolved& r, unsigned lane) const {
      const bool plg = rf.pred(lane, s.plg.index) != s.plg.negated;
      return plg == (r.dest.space == MemSpace::Shared) ? FaultKind::PlgMismatch : FaultKind::None;
    }
    Fault after(const Resolved&, unsigned, ThreadId) const { return Fault{}; }
    void fill(LaneAccess& acc, unsigned lane) const {
      for (unsigned b = 0; b < size; ++b) {  // .64/.128: consecutive registers from Rb
        const unsigned reg = s.rb == isa::kRZ ? isa::kRZ : s.rb + b / 4;
        acc.data[b] = uint8_t(rf.read(lane, reg) >> (8 * (b % 4)));
      }
    }
  } steps{s, rf, cfg, size};
  const size_t naccess =
      place_lanes(m, ctx, size, access_byte_mask(size), cfg.sass_misalign, out, scratch, steps);
  scratch.group = LaneGroup::for_access(size, false);
  coalesce(scratch.accesses.data(), naccess, scratch.group, out.lines);
  scratch.naccess = naccess;
  count_lines(out);
}

void execute_sass(MachineState& m, const isa::SassSt& s, const WarpContext& ctx,
                  const SassRegisterFile& rf, StoreResult& out, Scratch& scratch) {
  plan_sass(m, s, ctx, rf, out, scratch);
  commit(m, out, scratch);
}

}  // namespace stu::golden
