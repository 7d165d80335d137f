// Address resolution: a PTX/SASS address to (space, CTA rank, thread, offset) or a fault.
// Pure functions over the configuration; no memory state is consulted, except that the
// global-allocation check is a separate step (see state.h).
#pragma once

#include <cstdint>

#include "stu/golden/config.h"
#include "stu/golden/fault.h"
#include "stu/isa/types.h"

namespace stu::golden {

// The spaces a store can land in (after generic resolution).
enum class MemSpace : uint8_t { Global, Shared, Local, ParamFunc, KernelParam, Const, Tmem };
std::string_view to_string(MemSpace s);
// The PTX state space a memory space is addressed as (.shared::cta for Shared, .param::entry
// for KernelParam). No st form addresses TMEM: it maps to .const, which every st refuses.
isa::Space isa_space(MemSpace s);

// Who executes: CTA rank in the cluster, warp in the CTA, lane in the warp.
struct ThreadId {
  uint16_t cta = 0;
  uint16_t warp = 0;
  uint8_t lane = 0;
  uint32_t thread() const { return uint32_t(warp) * 32 + lane; }  // index in the CTA
};

// A destination memory: the space, and for per-CTA / per-thread spaces which one.
struct Dest {
  MemSpace space = MemSpace::Global;
  uint16_t cta = 0;     // Shared, Local, ParamFunc, Tmem: the CTA rank
  uint32_t thread = 0;  // Local, ParamFunc: the thread index in the CTA
  bool operator==(const Dest& o) const {
    return space == o.space && cta == o.cta && thread == o.thread;
  }
  bool operator!=(const Dest& o) const { return !(*this == o); }
  bool operator<(const Dest& o) const;
};

struct Resolved {
  Dest dest;
  uint64_t offset = 0;  // address within the space (global: the 64-bit address itself)
  Fault fault;          // kind None when resolution succeeded
};

// The space of a generic address (window detection).
Resolved resolve_generic(const ModelConfig& cfg, uint64_t addr, ThreadId who);

// The space of an address qualified with an explicit PTX state space (`.global`, `.local`,
// `.shared{::cta,::cluster}`, `.param{::func,::entry}`, `.const`).
Resolved resolve_space(const ModelConfig& cfg, isa::Space space, uint64_t addr, ThreadId who);

// The generic address of a space location (the inverse of resolve_generic; `cvta.to` in
// reverse). ParamFunc and Tmem have no generic window: returns false.
bool to_generic(const ModelConfig& cfg, const Dest& d, uint64_t offset, uint64_t& out);

// `mapa`: the `.shared::cluster` space address of offset `off` in CTA `rank`.
inline uint64_t shared_cluster_addr(const ModelConfig& cfg, uint64_t rank, uint64_t off) {
  return rank * cfg.map.shared_cta_stride + off;
}

// Natural alignment: true when `addr` is a multiple of `size` (a power of two).
inline bool is_aligned(uint64_t addr, unsigned size) { return (addr & (size - 1)) == 0; }

}  // namespace stu::golden
