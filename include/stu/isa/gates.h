// Version and target gates of the store family, as data: one row per feature with the first
// PTX ISA version and the lowest target that have it (in the style of LLVM NVPTX's
// `Requires<[hasPTX<..>, hasSM<..>]>`). The validator applies them (`require`), and
// docs/check.md lists the same rows (a unit test keeps the two equal). Values: the ISA text
// refined by ptxas 13.0 probes (../shared/spec/store-family.md, tests/conformance).
#pragma once

#include <cstdint>
#include <string_view>

#include "stu/isa/target.h"

namespace stu::isa {

enum class Feature : uint8_t {
  Semantics,        // any semantics qualifier (.volatile)
  StrongSemantics,  // .weak, .relaxed, .release
  Mmio,
  Scope,
  ClusterScope,
  VolatileLocal,
  CacheOperator,
  L1Eviction,
  L2Eviction,
  CacheHint,
  GenericAddressing,
  ParamFunc,
  SharedCta,
  SharedCluster,
  B128,
  B128Sys,
  Vector256,
  StAsync,
  StAsyncRelease,
  StBulk,
  Tcgen05St,
  Tcgen05StFamily,
};

struct Gate {
  Feature feature;
  std::string_view name;  // as diagnostics name it (the docs' first column)
  PtxVersion ptx;         // first PTX ISA version
  unsigned sm;            // lowest sm_ target; 0: any
};

// Every gate, in Feature order.
inline constexpr Gate kGates[] = {
    {Feature::Semantics, "'.volatile'", {1, 1}, 0},
    {Feature::StrongSemantics, "'.weak', '.relaxed', '.release'", {6, 0}, 70},
    {Feature::Mmio, "'.mmio'", {8, 2}, 70},
    {Feature::Scope, "scope qualifiers", {6, 0}, 0},
    {Feature::ClusterScope, "scope '.cluster'", {7, 8}, 90},
    {Feature::VolatileLocal, "'.volatile' with '.local'", {9, 1}, 0},
    {Feature::CacheOperator, "cache operators", {2, 0}, 0},
    {Feature::L1Eviction, "'.L1::evict_*', '.L1::no_allocate'", {7, 4}, 70},
    {Feature::L2Eviction, "'.L2::evict_*'", {8, 8}, 100},
    {Feature::CacheHint, "'.L2::cache_hint'", {7, 4}, 80},
    {Feature::GenericAddressing, "generic addressing", {2, 0}, 0},
    {Feature::ParamFunc, "'.param::func'", {8, 3}, 0},
    {Feature::SharedCta, "'.shared::cta'", {7, 8}, 0},
    {Feature::SharedCluster, "'.shared::cluster'", {7, 8}, 90},
    {Feature::B128, "'.b128'", {8, 3}, 70},
    {Feature::B128Sys, "'.b128' with scope '.sys'", {8, 4}, 0},
    {Feature::Vector256, "'.v8.b32', '.v4.b64' (256-bit vectors)", {8, 8}, 100},
    {Feature::StAsync, "'st.async'", {8, 1}, 90},
    {Feature::StAsyncRelease, "'st.async' release form", {8, 7}, 100},
    {Feature::StBulk, "'st.bulk'", {8, 6}, 100},
    {Feature::Tcgen05St, "'tcgen05.st'", {8, 6}, 0},
    {Feature::Tcgen05StFamily, "'tcgen05.st' on a family target (sm_100f, sm_110f)", {8, 8}, 0},
};

constexpr const Gate& gate(Feature f) { return kGates[static_cast<size_t>(f)]; }

}  // namespace stu::isa
