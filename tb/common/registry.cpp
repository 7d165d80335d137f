// The block registry (rtl/blocks.json, embedded) and the cosimulation benches it names.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "blocks.h"
#include "cosim.h"
#include "harness.h"

namespace stu::tb {
namespace {

constexpr const char* kRegistryJson =
#include "stu_blocks_json.inc"
    ;

using Run = CosimResult (*)(const CosimOptions&);

// The benches this program has, by registry name ("block" or "block:variant"). A registry
// entry with "cosim": true needs one here, and every one here needs its registry entry
// (registry_consistent).
const std::map<std::string, Run>& benches() {
  static const std::map<std::string, Run> kBenches = {
      {"sector_mask", cosim_sector_mask},
      {"store_align", cosim_store_align},
      {"addr_resolve", cosim_addr_resolve},
      {"mbarrier", cosim_mbarrier},
      {"coalescer", cosim_coalescer},
      {"coalescer:broken", cosim_coalescer_broken},
      {"tmem_wdp", cosim_tmem_wdp},
      {"l1_wpath", cosim_l1_wpath},
      {"l2_wslice", cosim_l2_wslice},
      // The top, through the `stu run --on rtl` model, against the warp executor (one
      // transaction: one warp store).
      {"store_unit", cosim_store_unit},
  };
  return kBenches;
}

std::string text(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct Parsed {
  std::vector<RegistryBlock> blocks;
  std::map<std::string, std::string> variant_rtl;  // "block:variant" -> its defines
  std::string error;
};

const Parsed& parsed() {
  static const Parsed kParsed = [] {
    Parsed p;
    const nlohmann::json j = nlohmann::json::parse(kRegistryJson, nullptr, false);
    if (j.is_discarded() || !j.contains("blocks") || !j["blocks"].is_array()) {
      p.error = "rtl/blocks.json: not a JSON object with a \"blocks\" array";
      return p;
    }
    for (const nlohmann::json& b : j["blocks"]) {
      RegistryBlock r;
      r.name = text(b, "name");
      r.module = text(b, "module");
      r.golden = text(b, "golden");
      r.harness = text(b, "harness");
      r.harness_note = text(b, "harness_note");
      r.transactions = text(b, "transactions");
      r.tlm = text(b, "tlm");
      r.cosim = b.value("cosim", false);
      r.sim_rtl = b.value("sim_rtl", false);
      if (r.name.empty() || r.module.empty()) {
        p.error = "rtl/blocks.json: a block without a name or module";
        return p;
      }
      for (const nlohmann::json& t : b.value("through", nlohmann::json::array()))
        r.through.push_back(t.get<std::string>());
      for (const nlohmann::json& v : b.value("verilate", nlohmann::json::array()))
        r.verilated.push_back(v.value("prefix", "V" + r.module));
      for (const nlohmann::json& v : b.value("variants", nlohmann::json::array())) {
        const std::string name = text(v, "name");
        r.variants.push_back(name);
        r.verilated.push_back(v.value("prefix", "V" + r.module + "_" + name));
        std::string defines;
        for (const nlohmann::json& a : v.value("verilator_args", nlohmann::json::array()))
          defines += (defines.empty() ? "" : " ") + a.get<std::string>();
        p.variant_rtl[r.name + ":" + name] = defines;
      }
      p.blocks.push_back(std::move(r));
    }
    return p;
  }();
  return kParsed;
}

}  // namespace

const std::vector<RegistryBlock>& registry() { return parsed().blocks; }
const std::string& registry_error() { return parsed().error; }

const RegistryBlock* find_registry_block(const std::string& name) {
  for (const RegistryBlock& b : registry())
    if (b.name == name) return &b;
  return nullptr;
}

const std::vector<BlockEntry>& blocks() {
  static const std::vector<BlockEntry> kBlocks = [] {
    std::vector<BlockEntry> out;
    auto add = [&](const std::string& name, const std::string& rtl, const std::string& golden,
                   bool in_all) {
      const auto it = benches().find(name);
      if (it == benches().end()) return;  // registry_consistent reports it
      const Run run = it->second;
      out.push_back(BlockEntry{name, rtl, golden, in_all, [name, run](const CosimOptions& o) {
                                 return run_with_wave(file_name_of(name).c_str(), o, run);
                               }});
    };
    for (const RegistryBlock& b : registry())
      if (b.cosim) add(b.name, b.module, b.golden, true);
    for (const RegistryBlock& b : registry())
      for (const std::string& v : b.variants) {
        const std::string name = b.name + ":" + v;
        add(name, b.module + " (" + parsed().variant_rtl.at(name) + ")", b.golden, false);
      }
    return out;
  }();
  return kBlocks;
}

const BlockEntry* find_block(const std::string& name, const std::string& variant) {
  const std::string key = variant.empty() ? name : name + ":" + variant;
  for (const BlockEntry& b : blocks())
    if (key == b.name) return &b;
  return nullptr;
}

std::vector<std::string> bench_names() {
  std::vector<std::string> out;
  for (const auto& [name, run] : benches()) out.push_back(name);
  return out;
}

std::string repro_command(const std::string& block, uint64_t seed, uint64_t txns) {
  const std::size_t colon = block.find(':');
  const std::string which =
      colon == std::string::npos
          ? "--block " + block
          : "--block " + block.substr(0, colon) + " --variant " + block.substr(colon + 1);
  return "stu cosim " + which + " --seed " + std::to_string(seed) + " --txns " +
         std::to_string(txns);
}

std::string file_name_of(const std::string& block) {
  std::string s = block;
  for (char& c : s)
    if (c == ':') c = '_';
  return s;
}

}  // namespace stu::tb
