// The golden-image check (docs/tlm.md, "Always checked"): the first difference between the
// TLM model's final memory image and the golden model's, space by space, and of the DRAM
// model's contents against the golden global memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "stu/golden/state.h"

namespace stu::sim {

struct ImageDiff {
  std::string where;  // "global 0x10040", "shared cta 1 0x80", "tmem cta 0 lane 3 col 7", ...
  std::string space;  // "global", "shared", "local", "param_func", "tmem", "mbarrier", "dram"
  std::uint64_t addr = 0;
  std::uint64_t want = 0;  // golden
  std::uint64_t got = 0;   // model
  unsigned width = 1;      // bytes compared (1, or 4 for TMEM cells, 8 for barriers)
  std::string str() const;
};

// Which spaces compare_images looks at: all, or all but global (a workload run, whose global
// memory is compared where it ends up, in DRAM: compare_dram with `all`).
enum class ImageSpaces : std::uint8_t { All, AllButGlobal };

// The first difference of every space of `model` from `golden`, in the order global, shared
// (CTA by CTA), local, .param::func, TMEM, mbarriers; nullopt when equal.
std::optional<ImageDiff> compare_images(const golden::MachineState& golden,
                                        const golden::MachineState& model,
                                        ImageSpaces spaces = ImageSpaces::All);

// DRAM after the final flush. `written`: the bytes DRAM received per line; with `all`, every
// byte of every golden global page must equal DRAM's (DRAM was loaded with the initial
// image); without, only the bytes DRAM received are compared.
std::optional<ImageDiff> compare_dram(
    const golden::MachineState& golden, const golden::SparseMemory& dram,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& written, bool all);

// A `.sts` run (DRAM compared only where it was written): the lowest global byte the L1s took
// (`taken`, per line) that DRAM never received (`written`), a store lost between the L1 and
// DRAM; nullopt when every one arrived.
std::optional<ImageDiff> missing_in_dram(
    const golden::MachineState& golden, const golden::SparseMemory& dram,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& taken,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& written);

}  // namespace stu::sim
