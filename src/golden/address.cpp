#include "stu/golden/address.h"

#include <tuple>

namespace stu::golden {

std::string_view to_string(MemSpace s) {
  switch (s) {
    case MemSpace::Global:
      return "global";
    case MemSpace::Shared:
      return "shared";
    case MemSpace::Local:
      return "local";
    case MemSpace::ParamFunc:
      return "param::func";
    case MemSpace::KernelParam:
      return "param::entry";
    case MemSpace::Const:
      return "const";
    case MemSpace::Tmem:
      return "tmem";
  }
  return "?";
}

isa::Space isa_space(MemSpace s) {
  switch (s) {
    case MemSpace::Global:
      return isa::Space::Global;
    case MemSpace::Shared:
      return isa::Space::SharedCta;
    case MemSpace::Local:
      return isa::Space::Local;
    case MemSpace::ParamFunc:
      return isa::Space::ParamFunc;
    case MemSpace::KernelParam:
      return isa::Space::ParamEntry;
    case MemSpace::Const:
    case MemSpace::Tmem:
      break;
  }
  return isa::Space::Const;
}

bool Dest::operator<(const Dest& o) const {
  return std::tie(space, cta, thread) < std::tie(o.space, o.cta, o.thread);
}

namespace {
Resolved fault(FaultKind k, uint64_t addr) {
  Resolved r;
  r.fault = Fault{k, addr};
  return r;
}
Resolved at(MemSpace s, uint16_t cta, uint32_t thread, uint64_t off) {
  Resolved r;
  r.dest = Dest{s, cta, thread};
  r.offset = off;
  return r;
}
Resolved shared_cluster(const ModelConfig& cfg, uint64_t rel, uint64_t addr) {
  const uint64_t rank = rel / cfg.map.shared_cta_stride;
  if (rank >= cfg.cluster_ctas) return fault(FaultKind::OutOfWindow, addr);
  return at(MemSpace::Shared, uint16_t(rank), 0, rel % cfg.map.shared_cta_stride);
}
}  // namespace

Resolved resolve_generic(const ModelConfig& cfg, uint64_t addr, ThreadId who) {
  const AddressMap& m = cfg.map;
  if (m.shared.contains(addr)) return shared_cluster(cfg, addr - m.shared.base, addr);
  if (m.local.contains(addr))
    return at(MemSpace::Local, who.cta, who.thread(), addr - m.local.base);
  if (m.param.contains(addr)) return at(MemSpace::KernelParam, 0, 0, addr - m.param.base);
  if (m.konst.contains(addr)) return at(MemSpace::Const, 0, 0, addr - m.konst.base);
  return at(MemSpace::Global, 0, 0, addr);
}

Resolved resolve_space(const ModelConfig& cfg, isa::Space space, uint64_t addr, ThreadId who) {
  switch (isa::effective(space)) {
    case isa::Space::Global:
      return at(MemSpace::Global, 0, 0, addr);
    case isa::Space::Local:
      if (addr >= cfg.map.local.size) return fault(FaultKind::OutOfWindow, addr);
      return at(MemSpace::Local, who.cta, who.thread(), addr);
    case isa::Space::SharedCta:
      if (addr >= cfg.map.shared_cta_stride) return fault(FaultKind::OutOfWindow, addr);
      return at(MemSpace::Shared, who.cta, 0, addr);
    case isa::Space::SharedCluster:
      return shared_cluster(cfg, addr, addr);
    case isa::Space::ParamFunc:
      return at(MemSpace::ParamFunc, who.cta, who.thread(), addr);
    case isa::Space::ParamEntry:
      return at(MemSpace::KernelParam, 0, 0, addr);
    case isa::Space::Const:
      return at(MemSpace::Const, 0, 0, addr);
    default:
      break;
  }
  return fault(FaultKind::OutOfWindow, addr);
}

bool to_generic(const ModelConfig& cfg, const Dest& d, uint64_t offset, uint64_t& out) {
  const AddressMap& m = cfg.map;
  switch (d.space) {
    case MemSpace::Global:
      out = offset;
      return true;
    case MemSpace::Shared:
      if (offset >= m.shared_cta_stride || d.cta >= cfg.cluster_ctas) return false;
      out = m.shared.base + uint64_t(d.cta) * m.shared_cta_stride + offset;
      return true;
    case MemSpace::Local:
      if (offset >= m.local.size) return false;
      out = m.local.base + offset;
      return true;
    case MemSpace::KernelParam:
      if (offset >= m.param.size) return false;
      out = m.param.base + offset;
      return true;
    case MemSpace::Const:
      if (offset >= m.konst.size) return false;
      out = m.konst.base + offset;
      return true;
    default:
      return false;
  }
}

}  // namespace stu::golden
