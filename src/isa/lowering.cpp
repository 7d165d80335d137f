#include "stu/isa/lowering.h"

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
    case SassOpcode::MEMBAR:
      return "MEMBAR";
    case SassOpcode::ERRBAR:
      return "ERRBAR";
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

}  // namespace

std::string SassInstr::str() const {
  std::string s = opcode_name(opcode);
  if (opcode == SassOpcode::MEMBAR) {
    s += ".ALL";
    s += scope == SassScope::CTA ? ".CTA" : scope == SassScope::GPU ? ".GPU" : ".SYS";
    return s;
  }
  if (opcode == SassOpcode::ERRBAR) return s;
  if (opcode == SassOpcode::STTM) {
    s += " " + operands;
    return s;
  }
  if (extended && (opcode == SassOpcode::STG || opcode == SassOpcode::ST)) s += ".E";
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
  if (cache_policy) s += " (L2 policy in descriptor)";
  s += " " + operands;
  if (size_bits == 256) {
    char buf[16];
    snprintf(buf, sizeof buf, " mask=0x%02x", write_mask);
    s += buf;
  }
  return s;
}

std::vector<SassInstr> lower(const Instruction& ins) {
  std::vector<SassInstr> out;
  SassInstr st;
  st.operands = print_operands(ins);
  if (ins.op == Opcode::StBulk) return out;  // no observed SASS for st.bulk: not lowered
  if (ins.op == Opcode::Tcgen05St) {
    st.opcode = SassOpcode::STTM;
    out.push_back(st);
    return out;
  }
  // Size.
  if (ins.type) {
    unsigned bits = bits_of(*ins.type) * ins.vec_lanes();
    st.size_bits = bits;
    st.signed_size = kind_of(*ins.type) == TypeKind::Signed;
    if (bits == 256) {
      for (size_t i = 0; i < ins.src.size(); ++i) {
        if (ins.src[i].kind == Operand::Kind::Sink) continue;
        unsigned per = bits_of(*ins.type) / 32;  // 1 (v8.b32) or 2 (v4.b64) mask bits
        for (unsigned k = 0; k < per; ++k)
          st.write_mask |= static_cast<uint8_t>(1u << (i * per + k));
      }
    }
  }
  // Opcode by state space.
  Space sp = ins.space ? effective(*ins.space) : Space::Global;
  if (ins.op == Opcode::StAsync) {
    bool release = ins.sem == Sem::Release || ins.mmio || (!ins.complete_tx && !ins.mbar);
    st.opcode = release ? SassOpcode::STG : SassOpcode::STAS;
  } else if (!ins.space) {
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
  // Ordering.
  Sem sem = ins.effective_sem();
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
  if (st.opcode == SassOpcode::STAS) st.order = SassOrder::Weak;
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
  st.cache_policy = ins.cache_hint || ins.l2.has_value();
  // Release: a MEMBAR of the scope first (and an error barrier for gpu/sys scope).
  if (sem == Sem::Release && ins.scope) {
    SassInstr mb;
    mb.opcode = SassOpcode::MEMBAR;
    mb.scope = membar_scope(*ins.scope);
    out.push_back(mb);
    if (mb.scope != SassScope::CTA) {
      SassInstr eb;
      eb.opcode = SassOpcode::ERRBAR;
      out.push_back(eb);
    }
  }
  out.push_back(st);
  return out;
}

bool emits_no_store(const Instruction& ins, const Target& target) {
  if (ins.op != Opcode::StAsync) return false;
  return ins.stores_nothing() || (!ins.mbar && target.sm < 100);
}

}  // namespace stu::isa
