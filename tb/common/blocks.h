// The cosimulation of each block (tb/<block>/cosim_<block>.cpp), listed in the registry
// (registry.cpp). Each runs one seed.
#pragma once

#include <cstddef>
#include <type_traits>

#include "cosim.h"
#include "verilated.h"

namespace stu::tb {

CosimResult cosim_sector_mask(const CosimOptions& o);
CosimResult cosim_store_align(const CosimOptions& o);
CosimResult cosim_addr_resolve(const CosimOptions& o);
CosimResult cosim_mbarrier(const CosimOptions& o);
CosimResult cosim_coalescer(const CosimOptions& o);
CosimResult cosim_coalescer_broken(const CosimOptions& o);
CosimResult cosim_tmem_wdp(const CosimOptions& o);
CosimResult cosim_store_unit(const CosimOptions& o);
CosimResult cosim_l1_wpath(const CosimOptions& o);
CosimResult cosim_l2_wslice(const CosimOptions& o);

// Port widths of a Verilated model, for the static_asserts that tie them to the golden sizes.
template <typename T>
struct PortWords;
template <std::size_t N>
struct PortWords<VlWide<N>> {
  static constexpr std::size_t value = N;
};
// The 32-bit words of a port member (Verilated ports are references).
template <typename T>
constexpr std::size_t port_words = PortWords<std::remove_cv_t<std::remove_reference_t<T>>>::value;
constexpr std::size_t words_for_bits(std::size_t bits) { return (bits + 31) / 32; }

}  // namespace stu::tb
