#include "stu/isa/lowering.h"

#include <cstdio>

#include "stu/isa/printer.h"

namespace stu::isa {
namespace {

const char* opcode_name(SassOpcode op) {
  switch (op) {
    case SassOpcode::STG:
      return "STG";
    case SassOpcode::STS:
      return "STS";
    case SassOpcode::STL:
      return "STL";
    case SassOpcode::ST:
      return "ST";
    case SassOpcode::STAS:
      return "STAS";
    case SassOpcode::STTM:
      return "STTM";
    case SassOpcode::USTGR:
      return "USTGR";
    case SassOpcode::MEMBAR:
      return "MEMBAR";
    case SassOpcode::ERRBAR:
      return "ERRBAR";
    case SassOpcode::CGAERRBAR:
      return "CGAERRBAR";
  }
  return "?";
}

SassOrder order_for(Scope s) {
  switch (s) {
    case Scope::Cta:
      return SassOrder::StrongSM;
    case Scope::Cluster:
    case Scope::Gpu:
      return SassOrder::StrongGPU;
    case Scope::Sys:
      return SassOrder::StrongSYS;
  }
  return SassOrder::StrongSYS;
}

SassScope membar_scope(Scope s) {
  switch (s) {
    case Scope::Cta:
      return SassScope::CTA;
    case Scope::Cluster:
    case Scope::Gpu:
      return SassScope::GPU;
    case Scope::Sys:
      return SassScope::SYS;
  }
  return SassScope::SYS;
}

// The STTM shape field: none for 32x32b (`STTM.x4`); 16dp<bits>bit for the 16-lane shapes.
const char* sttm_shape(TmemShape s) {
  switch (s) {
    case TmemShape::S32x32b:
      return "";
    case TmemShape::S16x64b:
      return ".16dp64bit";
    case TmemShape::S16x128b:
      return ".16dp128bit";
    case TmemShape::S16x256b:
      return ".16dp256bit";
    case TmemShape::S16x32bx2:
      return ".16dp32bit";
  }
  return "";
}

std::string hex_offset(int64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%s0x%llx", v < 0 ? "-" : "+",
                static_cast<unsigned long long>(v < 0 ? -uint64_t(v) : uint64_t(v)));
  return b;
}

// The address as SASS writes it: `[%rd1.64+0x8]` (a 64-bit register pair with .E), `[%r1+0x8]`,
// `[sym+0x8]`, `[0x40]`.
std::string address_inner(const Address& a, bool wide) {
  if (a.base == Address::Base::Immediate) return hex_offset(a.offset).substr(1);
  std::string s = a.name;
  if (wide && a.base == Address::Base::Register) s += ".64";
  if (a.has_offset && a.offset != 0) s += hex_offset(a.offset);
  return s;
}
std::string sass_address(const Address& a, bool wide) { return "[" + address_inner(a, wide) + "]"; }

std::string sources(const Instruction& ins) {
  std::string s;
  if (ins.src_braced) s += '{';
  for (size_t i = 0; i < ins.src.size(); ++i) {
    if (i) s += ", ";
    s += print(ins.src[i]);
  }
  if (ins.src_braced) s += '}';
  return s;
}

std::vector<SassInstr> lower_tcgen05(const Instruction& ins) {
  std::vector<SassInstr> out;
  SassInstr st;
  st.opcode = SassOpcode::STTM;
  st.tmem_shape = ins.shape;
  st.expand16 = ins.unpack16;
  st.count = ins.num ? ins.num : 1;
  const std::string regs = sources(ins);
  const std::string base = ins.addr.base == Address::Base::Register ? ins.addr.name : "URz";
  const int64_t off = ins.addr.has_offset ? ins.addr.offset : 0;
  auto tmem = [&](int64_t o) { return "tmem[" + base + (o ? hex_offset(o) : "") + "], " + regs; };
  if (ins.shape == TmemShape::S16x32bx2) {  // one instruction per half of the warp
    st.tmem_half = SassTmemHalf::T0T15;
    st.operands = tmem(off);
    out.push_back(st);
    st.tmem_half = SassTmemHalf::T16T31;
    st.operands = tmem(off + (ins.split_off ? ins.split_off->as_signed() : 0));
    out.push_back(st);
    return out;
  }
  st.operands = tmem(off);
  out.push_back(st);
  return out;
}

// The barriers ptxas puts before a release: MEMBAR.ALL.CTA for .cta; for .cluster, .gpu and
// .sys MEMBAR.ALL.GPU|SYS, then the error barriers ERRBAR and CGAERRBAR.
void release_barriers(Scope scope, std::vector<SassInstr>& out) {
  SassInstr mb;
  mb.opcode = SassOpcode::MEMBAR;
  mb.scope = membar_scope(scope);
  out.push_back(mb);
  if (mb.scope == SassScope::CTA) return;
  SassInstr eb;
  eb.opcode = SassOpcode::ERRBAR;
  out.push_back(eb);
  eb.opcode = SassOpcode::CGAERRBAR;
  out.push_back(eb);
}

}  // namespace

std::string SassInstr::str() const {
  std::string s = opcode_name(opcode);
  if (opcode == SassOpcode::MEMBAR) {
    s += ".ALL";
    s += scope == SassScope::CTA ? ".CTA" : scope == SassScope::GPU ? ".GPU" : ".SYS";
    return s;
  }
  if (opcode == SassOpcode::ERRBAR || opcode == SassOpcode::CGAERRBAR) return s;
  if (opcode == SassOpcode::STTM) {
    if (tmem_shape) s += sttm_shape(*tmem_shape);
    if (tmem_half == SassTmemHalf::T0T15) s += "_t0_t15";
    if (tmem_half == SassTmemHalf::T16T31) s += "_t16_t31";
    // ptxas 13.0's spelling (nvdisasm, tests/data/sass): no count for one, the count before
    // .EXPAND16BIT.
    if (count != 1) s += ".x" + std::to_string(count);
    if (expand16) s += ".EXPAND16BIT";
    return s + " " + operands;
  }
  if (extended &&
      (opcode == SassOpcode::STG || opcode == SassOpcode::ST || opcode == SassOpcode::USTGR))
    s += ".E";
  switch (evict) {
    case SassEvict::EF:
      s += ".EF";
      break;
    case SassEvict::EL:
      s += ".EL";
      break;
    case SassEvict::LU:
      s += ".LU";
      break;
    case SassEvict::EU:
      s += ".EU";
      break;
    case SassEvict::NA:
      s += ".NA";
      break;
    case SassEvict::Normal:
      break;
  }
  switch (l2_evict) {
    case SassL2Evict::ENL2:
      s += ".ENL2";
      break;
    case SassL2Evict::ELL2:
      s += ".ELL2";
      break;
    case SassL2Evict::EFL2:
      s += ".EFL2";
      break;
    case SassL2Evict::None:
      break;
  }
  if (size_bits != 32) {
    if (size_bits <= 16)
      s += signed_size ? ".S" : ".U";
    else
      s += ".";
    s += std::to_string(size_bits);
  }
  switch (order) {
    case SassOrder::Weak:
      break;
    case SassOrder::StrongSM:
      s += ".STRONG.SM";
      break;
    case SassOrder::StrongGPU:
      s += ".STRONG.GPU";
      break;
    case SassOrder::StrongSYS:
      s += ".STRONG.SYS";
      break;
    case SassOrder::MmioGPU:
      s += ".MMIO.GPU";
      break;
    case SassOrder::MmioSYS:
      s += ".MMIO.SYS";
      break;
  }
  s += " " + operands;
  if (size_bits == 256) {
    char buf[16];
    snprintf(buf, sizeof buf, " mask=0x%02x", write_mask);
    s += buf;
  }
  return s;
}

std::optional<Space> proven_space(const Instruction& ins, const SymbolLookup& names) {
  if (ins.addr.base != Address::Base::Symbol) return std::nullopt;
  const Symbol* s = names.find(ins.addr.name);
  if (!s || s->kind != Symbol::Kind::Variable) return std::nullopt;
  return s->space;
}

std::vector<SassInstr> lower(const Instruction& ins, const Target& target,
                             std::optional<Space> proven) {
  std::vector<SassInstr> out;
  if (ins.op == Opcode::StBulk) return out;  // no observed SASS for st.bulk: not lowered
  if (emits_no_store(ins, target)) return out;
  if (ins.op == Opcode::Tcgen05St) return lower_tcgen05(ins);
  SassInstr st;
  // Size.
  if (ins.type) {
    unsigned bits = bits_of(*ins.type) * ins.stored_elements();
    st.size_bits = bits;
    // A vector of bytes is one wider store: .v2.s8 is STx.U16 (the sign is a scalar's).
    st.signed_size = kind_of(*ins.type) == TypeKind::Signed && ins.stored_elements() == 1;
    if (bits == 256) {
      for (size_t i = 0; i < ins.src.size(); ++i) {
        if (ins.src[i].kind == Operand::Kind::Sink) continue;
        unsigned per = bits_of(*ins.type) / 32;  // 1 (v8.b32) or 2 (v4.b64) mask bits
        for (unsigned k = 0; k < per; ++k)
          st.write_mask |= static_cast<uint8_t>(1u << (i * per + k));
      }
    }
  }
  // The st.async release form (sm_100+): MEMBAR.ALL.CTA, then a uniform-datapath store that
  // never allocates in the L1: USTGR.E.NA.STRONG.GPU|SYS (.mmio: MMIO.SYS).
  if (ins.op == Opcode::StAsync && ins.is_async_release()) {
    SassInstr mb;
    mb.opcode = SassOpcode::MEMBAR;
    mb.scope = SassScope::CTA;
    out.push_back(mb);
    st.opcode = SassOpcode::USTGR;
    st.evict = SassEvict::NA;
    st.order = ins.mmio ? SassOrder::MmioSYS : order_for(ins.scope ? *ins.scope : Scope::Sys);
    st.operands = sass_address(ins.addr, true) + ", " + sources(ins);
    out.push_back(st);
    return out;
  }
  if (ins.op == Opcode::StAsync) {  // the mbarrier form: data and barrier address in one pair
    st.opcode = SassOpcode::STAS;
    st.extended = false;
    st.operands = "[{" + address_inner(ins.addr, false) + ", " +
                  (ins.mbar ? address_inner(*ins.mbar, false) : std::string("?")) + "}.64], " +
                  sources(ins);
    out.push_back(st);
    return out;
  }
  // Opcode by state space.
  Space sp = ins.space ? effective(*ins.space) : Space::Global;
  bool generic = !ins.space;
  if (proven && ins.op == Opcode::St) {
    const Space p = effective(*proven);
    const bool to_own_shared = ins.space && sp == Space::SharedCluster && p == Space::SharedCta;
    if ((generic && (p == Space::Global || p == Space::SharedCta || p == Space::Local)) ||
        to_own_shared) {
      sp = p;
      generic = false;
    }
  }
  // A 256-bit store exists for global memory alone: ptxas emits STG for it whatever the address
  // (a generic one, even one it knows is local).
  if (st.size_bits == 256 && ins.op == Opcode::St && (generic || sp == Space::Local)) {
    sp = Space::Global;
    generic = false;
  }
  if (generic) {
    st.opcode = SassOpcode::ST;
  } else if (sp == Space::Global) {
    st.opcode = SassOpcode::STG;
  } else if (sp == Space::SharedCta) {
    st.opcode = SassOpcode::STS;
    st.extended = false;
  } else if (sp == Space::SharedCluster) {
    st.opcode = SassOpcode::ST;
  } else {
    st.opcode = SassOpcode::STL;
    st.extended = false;
  }
  // Ordering. Shared-memory stores carry no ordering bits (`st.volatile.shared` and
  // `st.relaxed.gpu.shared` are plain STS): shared memory is coherent within the SM.
  const Sem sem = ins.effective_sem();
  if (ins.mmio) {
    st.order = SassOrder::MmioSYS;
  } else if ((sem == Sem::Relaxed || sem == Sem::Release) && ins.scope) {
    st.order = order_for(*ins.scope);
  } else if (sem == Sem::Volatile) {
    st.order = SassOrder::StrongSYS;
  } else if (ins.cop == CacheOp::Cg) {
    st.order = SassOrder::StrongGPU;
  } else if (ins.cop == CacheOp::Wb) {
    st.order = SassOrder::StrongSM;
  } else if (ins.cop == CacheOp::Wt) {
    st.order = SassOrder::StrongSYS;
  }
  // Eviction.
  if (ins.cop == CacheOp::Cs) st.evict = SassEvict::EF;
  if (ins.l1) {
    switch (*ins.l1) {
      case L1Evict::EvictFirst:
        st.evict = SassEvict::EF;
        break;
      case L1Evict::EvictLast:
        st.evict = SassEvict::EL;
        break;
      case L1Evict::EvictUnchanged:
        st.evict = SassEvict::EU;
        break;
      case L1Evict::NoAllocate:
        st.evict = SassEvict::NA;
        break;
      case L1Evict::EvictNormal:
        break;
    }
  }
  // Shared and local stores carry neither ordering nor L1 eviction bits (ptxas 13.0 drops them:
  // `st.volatile.local` is a plain STL, `st.shared.L1::evict_first` a plain STS; tests/data/sass).
  if (st.opcode == SassOpcode::STS || st.opcode == SassOpcode::STL) {
    st.order = SassOrder::Weak;
    st.evict = SassEvict::Normal;
  }
  // 256-bit global stores carry the L2 eviction priority in the opcode (ENL2 by default).
  if (st.size_bits == 256) {
    st.l2_evict = ins.l2 == L2Evict::EvictLast    ? SassL2Evict::ELL2
                  : ins.l2 == L2Evict::EvictFirst ? SassL2Evict::EFL2
                                                  : SassL2Evict::ENL2;
  }
  // Operands: global and generic stores address memory through a descriptor, a uniform
  // register ptxas picks (`desc[URx]`; stu cannot know which) or, with .L2::cache_hint, the
  // 64-bit policy register.
  st.cache_policy = ins.cache_hint;
  const bool wide = st.opcode == SassOpcode::STG || st.opcode == SassOpcode::ST;
  std::string addr = sass_address(ins.addr, wide);
  if (wide) addr = "desc[" + (ins.policy ? print(*ins.policy) : std::string("URx")) + "]" + addr;
  st.operands = addr + ", " + sources(ins);
  if (sem == Sem::Release && ins.scope) release_barriers(*ins.scope, out);
  out.push_back(st);
  return out;
}

bool emits_no_store(const Instruction& ins, const Target& target) {
  if (ins.op != Opcode::StAsync) return false;
  return ins.stores_nothing() || (!ins.mbar && target.sm < 100);
}

}  // namespace stu::isa
