// SimConfig (systemc/sim_config.h): the presets against the figures of
// ../shared/spec/microbench.md (typed in here by hand), overrides, every diagnostic kind with
// its key path, the JSON round trip, the golden cache geometry and the L2 slice hash.
#include "sim_config.h"

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace stu::sim {
namespace {

SimConfig must_preset(const char* name) {
  auto c = preset(name);
  EXPECT_TRUE(c.has_value()) << name;
  return c.value_or(SimConfig{});
}

// The one error of loading `json`, as "key: message".
std::string only_error(const std::string& json) {
  const ConfigLoad r = load_config(json);
  if (r.errors.size() != 1) return "expected one error, got " + std::to_string(r.errors.size());
  return r.errors[0].str();
}

// --- presets against microbench.md --------------------------------------------------------

TEST(SimConfigPreset, A100LatenciesAreLuo2024TableIV) {
  const SimConfig c = must_preset("a100");
  EXPECT_EQ(c.shared.latency, 29u);
  EXPECT_EQ(c.l1.hit_latency, 38u);
  EXPECT_EQ(c.l2.hit_latency, 262u);
  EXPECT_EQ(c.dram.latency, 466u);
}

TEST(SimConfigPreset, A100StructureAndBandwidths) {
  const SimConfig c = must_preset("a100");
  EXPECT_EQ(c.l2.slices, 80u);                // 2 partitions x 40 slices
  EXPECT_EQ(c.l2.slice_bytes, 512u * 1024u);  // x 512 KB
  EXPECT_EQ(c.l2.bytes_per_clk, 5120u);       // whitepaper
  EXPECT_GE(c.dram.gbytes_per_s, 1400u);      // 1.4-1.8 TB/s
  EXPECT_LE(c.dram.gbytes_per_s, 1800u);
  EXPECT_GE(c.l1.bytes_per_clk, 100u);  // ~100-120 B/clk
  EXPECT_LE(c.l1.bytes_per_clk, 120u);
  EXPECT_EQ(c.shared.banks * c.shared.bank_bytes, 128u);  // 128 B/clk shared
  EXPECT_FALSE(c.dsmem.enabled);                          // sm_80: no clusters
  EXPECT_FALSE(c.tmem.enabled);
}

TEST(SimConfigPreset, H100LatenciesAreThePublicReproductionOfLuo) {
  const SimConfig c = must_preset("h100");
  EXPECT_EQ(c.shared.latency, 29u);
  EXPECT_EQ(c.l1.hit_latency, 41u);
  EXPECT_EQ(c.l2.hit_latency, 272u);
  EXPECT_EQ(c.dram.latency, 484u);
}

TEST(SimConfigPreset, H100StructureAndBandwidths) {
  const SimConfig c = must_preset("h100");
  EXPECT_EQ(c.l2.slices, 80u);  // GPGPU-Sim's H100 configuration
  EXPECT_GE(c.l2.bytes_per_clk, 4200u);
  EXPECT_LE(c.l2.bytes_per_clk, 4800u);
  EXPECT_EQ(c.dram.gbytes_per_s, 3000u);  // ~3.0 TB/s measured
  EXPECT_TRUE(c.dsmem.enabled);
  EXPECT_FALSE(c.tmem.enabled);
}

// The measured device (data/hw/h200-2026-11-26.json) where it was measured, the vendor's HBM3e
// figure, and h100's SM otherwise: 120 slices x 512 KiB = 60 MiB of L2.
TEST(SimConfigPreset, H200FromTheMeasuredDevice) {
  const SimConfig c = must_preset("h200");
  const SimConfig h100 = must_preset("h100");
  EXPECT_EQ(c.clock.core_mhz, 1980u);
  EXPECT_EQ(c.gpu.sms, 132u);
  EXPECT_EQ(std::uint64_t(c.l2.slices) * c.l2.slice_bytes, 60ull << 20);
  EXPECT_EQ(c.dram.gbytes_per_s, 4800u);
  EXPECT_EQ(c.l1.hit_latency, h100.l1.hit_latency);
  EXPECT_EQ(c.l2.hit_latency, h100.l2.hit_latency);
  EXPECT_TRUE(c.dsmem.enabled);
  EXPECT_FALSE(c.tmem.enabled);
  // What the 2026-11-26 device run measured (tests/data/silicon/h200-2026-11-26-device):
  EXPECT_EQ(c.l2.bytes_per_clk, 3100u);  // 3.95-4.31 TB/s L2-resident x 1.5 L2 sectors / 1980 MHz
  EXPECT_EQ(c.l2.partitions, 2u);        // 1.50 L2 write sectors per L1 sector
  EXPECT_EQ(c.l1.bytes_per_clk, 32u);    // a 128-byte line every 4.0 cycles per SM
  EXPECT_EQ(c.lsu.mmio_cycles_per_lane, 2u);   // 63-64 cycles a 32-lane st.mmio,
  EXPECT_EQ(c.lsu.mmio_cycles_per_store, 3u);  // 5.1 a one-lane one
  EXPECT_EQ(c.fence.gpu_cycles, 269u);
  EXPECT_EQ(c.fence.sys_cycles, 1025u);
  EXPECT_EQ(c.fence.cta_cycles, 13u);
  EXPECT_EQ(c.fence.interval, 24u);
  EXPECT_EQ(c.dsmem.bytes_per_clk, 21u);         // 512 B of st.async every 24.2 cycles
  EXPECT_EQ(c.sm.issue_per_clk, 3u);             // 2.9-3.3 instructions a cycle when issue-bound
  EXPECT_EQ(c.gpu.launch_cycles, 10260u);        // the empty grid: 5.18 us at 1980 MHz
  EXPECT_EQ(c.dram.accesses_per_clk, 18u);       // 17.2-18.0 G lines/s, a sector every 2-16 lines
  EXPECT_EQ(c.dram.pair_accesses_per_clk, 33u);  // 22.8-23.4 G lines/s, every line
  EXPECT_EQ(c.dram.read_write_gbytes_per_s, 4000u);  // reads + writes, partly written sectors
  EXPECT_EQ(c.l2.partial_lines, 61000u);             // 48-73 k lines left unfilled
  EXPECT_EQ(c.l2.dirty_lines, 210000u);              // 24.6-27.3 MB of dirty lines kept
  EXPECT_EQ(c.l2.replacement, golden::Replacement::Random);  // rewrites of 48-96 MiB
  EXPECT_EQ(c.dram.partial_writes, PartialWrite::ReadModifyWrite);
  EXPECT_EQ(h100.l2.partitions, 1u);  // not measured there
}

TEST(SimConfigPreset, B200FromThePublicNotes) {
  const SimConfig c = must_preset("b200");
  EXPECT_EQ(c.l1.hit_latency, 40u);
  EXPECT_EQ(c.l2.hit_latency, 295u);
  EXPECT_EQ(c.dram.latency, 860u);
  EXPECT_EQ(c.dram.gbytes_per_s, 7500u);  // ~7.5 TB/s triad
  EXPECT_TRUE(c.tmem.enabled);
  EXPECT_EQ(c.tmem.write_gbytes_per_s, 8000u);  // ~8 TB/s/SM
}

TEST(SimConfigPreset, EveryPresetHas128ByteLinesAnd4TagLookups) {
  for (const char* name : {"a100", "h100", "h200", "b200"}) {
    const SimConfig c = must_preset(name);
    EXPECT_EQ(c.l1.tag_lookups_per_clk, 4u) << name;
    EXPECT_EQ(c.preset, name);
  }
}

TEST(SimConfigPreset, EveryPresetIsValid) {
  for (const std::string& name : preset_names()) {
    const auto errs = validate(must_preset(name.c_str()));
    EXPECT_TRUE(errs.empty()) << name << ": " << (errs.empty() ? "" : errs[0].str());
  }
}

TEST(SimConfigPreset, UnknownNameIsNullopt) {
  EXPECT_FALSE(preset("v100").has_value());
  EXPECT_FALSE(preset("H100").has_value());
}

// --- loading and overrides -----------------------------------------------------------------

TEST(SimConfigLoad, EmptyObjectIsH100) {
  const ConfigLoad r = load_config("{}");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.config.preset, "h100");
  EXPECT_EQ(r.config.l1.hit_latency, 41u);
}

TEST(SimConfigLoad, OverrideChangesOnlyItsKey) {
  const ConfigLoad r = load_config(R"({"preset": "h100", "l2": {"slices": 48}})");
  ASSERT_TRUE(r.ok()) << r.errors[0].str();
  EXPECT_EQ(r.config.l2.slices, 48u);
  SimConfig expected = must_preset("h100");
  expected.l2.slices = 48;
  EXPECT_EQ(r.config, expected);
}

TEST(SimConfigLoad, OverridesOfEveryType) {
  const ConfigLoad r = load_config(R"({"preset": "a100",
    "l1": {"bytes": 32768, "ways": 8}, "l2": {"slice_hash": "modulo"},
    "dsmem": {"enabled": true}, "sim": {"mode": "at", "quantum_cycles": 250}})");
  ASSERT_TRUE(r.ok()) << r.errors[0].str();
  EXPECT_EQ(r.config.l1.bytes, 32768u);
  EXPECT_EQ(r.config.l1.ways, 8u);
  EXPECT_EQ(r.config.l2.slice_hash, SliceHash::Modulo);
  EXPECT_TRUE(r.config.dsmem.enabled);
  EXPECT_EQ(r.config.sim.mode, SimMode::At);
  EXPECT_EQ(r.config.sim.quantum_cycles, 250u);
  EXPECT_EQ(r.config.l1.hit_latency, 38u);  // still a100
}

// --- diagnostics: one _bad case per kind -----------------------------------------------------

TEST(SimConfigLoad, UnknownSection_bad) {
  const std::string e = only_error(R"({"l3": {"slices": 4}})");
  EXPECT_EQ(
      e.rfind("l3: unknown key (known: preset, clock, gpu, sm, lsu, fence, l1, xbar, l2, dram,", 0),
      0u)
      << e;
}

TEST(SimConfigLoad, UnknownKey_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slcies": 4}})"),
            "l2.slcies: unknown key (known: slices, slice_hash, slice_bytes, ways, replacement, "
            "hit_latency, "
            "bytes_per_clk, partitions, partial_lines, dirty_lines)");
}

TEST(SimConfigLoad, MorePartitionsThanSlices_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slices": 2, "partitions": 4}})"),
            "l2.partitions: must be at most l2.slices = 2, got 4");
}

TEST(SimConfigLoad, WrongTypeString_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slices": "48"}})"),
            "l2.slices: must be an integer, got string \"48\"");
}

TEST(SimConfigLoad, WrongTypeFraction_bad) {
  EXPECT_EQ(only_error(R"({"l1": {"hit_latency": 41.5}})"),
            "l1.hit_latency: must be an integer, got number 41.5");
}

TEST(SimConfigLoad, WrongTypeBool_bad) {
  EXPECT_EQ(only_error(R"({"dsmem": {"enabled": 1}})"),
            "dsmem.enabled: must be true or false, got number 1");
}

TEST(SimConfigLoad, WrongTypeNull_bad) {
  EXPECT_EQ(only_error(R"({"sim": {"mode": null}})"),
            "sim.mode: must be one of \"lt\", \"at\", got null");
}

TEST(SimConfigLoad, SectionNotAnObject_bad) {
  EXPECT_EQ(only_error(R"({"l2": 5})"), "l2: must be an object, got number 5");
}

TEST(SimConfigLoad, OutOfRangeZero_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slices": 0}})"), "l2.slices: must be in 1..128, got 0");
}

TEST(SimConfigLoad, OutOfRangeNegative_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slices": -3}})"), "l2.slices: must be in 1..128, got -3");
}

TEST(SimConfigLoad, OutOfRangeHuge_bad) {
  EXPECT_EQ(only_error(R"({"lsu": {"outstanding_stores": 4294967297}})"),
            "lsu.outstanding_stores: must be in 1..4096, got 4294967297");
}

TEST(SimConfigLoad, NotAPowerOfTwo_bad) {
  EXPECT_EQ(only_error(R"({"l1": {"ways": 3}})"),
            "l1.ways: must be a power of two in 1..64, got 3");
}

TEST(SimConfigLoad, BadEnumName_bad) {
  EXPECT_EQ(only_error(R"({"l2": {"slice_hash": "crc"}})"),
            "l2.slice_hash: must be one of \"modulo\", \"xor_fold\", got \"crc\"");
}

TEST(SimConfigLoad, ReplacementByName) {
  const ConfigLoad r = load_config(R"({"l2": {"replacement": "least_recently_written"}})");
  ASSERT_TRUE(r.ok()) << r.errors[0].str();
  EXPECT_EQ(r.config.l2.replacement, golden::Replacement::LeastRecentlyWritten);
  EXPECT_EQ(only_error(R"({"l2": {"replacement": "lru"}})"),
            "l2.replacement: must be one of \"least_recently_written\", \"random\", got \"lru\"");
}

TEST(SimConfigLoad, BadPresetName_bad) {
  EXPECT_EQ(only_error(R"({"preset": "v100"})"),
            "preset: must be one of \"a100\", \"h100\", \"h200\", \"b200\", got \"v100\"");
}

TEST(SimConfigLoad, PresetNotAString_bad) {
  EXPECT_EQ(only_error(R"({"preset": 100})"), "preset: must be a string, got number 100");
}

TEST(SimConfigLoad, MalformedJsonGivesLineAndColumn_bad) {
  // The '}' after the trailing comma is line 2, column 23.
  const ConfigLoad r = load_config("{\n  \"l2\": {\"slices\": 48,}\n}\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].key, "");
  EXPECT_EQ(r.errors[0].message.rfind("line 2, column 23: ", 0), 0u) << r.errors[0].message;
}

TEST(SimConfigLoad, DocumentNotAnObject_bad) {
  EXPECT_EQ(only_error("[1]"), "the configuration must be a JSON object, got array [1]");
}

TEST(SimConfigLoad, EveryErrorIsReported_bad) {
  const ConfigLoad r = load_config(R"({"l2": {"slices": 0, "ways": 3}, "l9": {}})");
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(r.errors[0].key, "l2.slices");
  EXPECT_EQ(r.errors[1].key, "l2.ways");
  EXPECT_EQ(r.errors[2].key, "l9");
}

TEST(SimConfigLoad, CacheSmallerThanOneLinePerWay_bad) {
  EXPECT_EQ(only_error(R"({"l1": {"bytes": 256, "ways": 4}})"),
            "l1.bytes: must be at least 128 x l1.ways = 512, got 256");
}

TEST(SimConfigLoad, CrossbarLongerThanTheL2Hit_bad) {
  // h100: 41 + 2 x 200 = 441 >= 272.
  EXPECT_EQ(only_error(R"({"xbar": {"latency": 200}})"),
            "l2.hit_latency: must exceed l1.hit_latency + 2 x xbar.latency = 441, got 272");
}

TEST(SimConfigLoad, DramFasterThanL2_bad) {
  EXPECT_EQ(only_error(R"({"dram": {"latency": 100}})"),
            "dram.latency: must exceed l2.hit_latency = 272, got 100");
}

TEST(SimConfigLoad, ExampleFile) {
  const ConfigLoad r = load_config_file(STU_SOURCE_DIR "/examples/sim/h100_48_slices.json");
  ASSERT_TRUE(r.ok()) << r.errors[0].str();
  EXPECT_EQ(r.config.preset, "h100");
  EXPECT_EQ(r.config.l2.slices, 48u);
  EXPECT_EQ(r.config.l2.slice_hash, SliceHash::Modulo);
  EXPECT_EQ(r.config.sim.mode, SimMode::At);
  EXPECT_EQ(r.config.dram.latency, 484u);
}

TEST(SimConfigLoad, MalformedFileNamesTheFile_bad) {
  const std::string path = ::testing::TempDir() + "stu_sim_config_bad.json";
  {
    std::ofstream out(path);
    out << "{\"l2\": }";
  }
  const ConfigLoad r = load_config_file(path);
  std::remove(path.c_str());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].str().rfind(path + ": line 1, column 8: ", 0), 0u) << r.errors[0].str();
}

TEST(SimConfigLoad, MissingFile_bad) {
  const ConfigLoad r = load_config_file("/nonexistent/stu-sim.json");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].str(), "/nonexistent/stu-sim.json: cannot read the file");
}

TEST(SimConfigValidate, ProgrammaticConfigIsCheckedToo_bad) {
  SimConfig c = must_preset("b200");
  c.l2.slices = 200;
  c.shared.banks = 0;
  const auto errs = validate(c);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].str(), "l2.slices: must be in 1..128, got 200");
  EXPECT_EQ(errs[1].str(), "shared.banks: must be a power of two in 1..64, got 0");
}

// --- writing it back ------------------------------------------------------------------------

TEST(SimConfigJson, RoundTrip) {
  const ConfigLoad first = load_config(R"({"preset": "b200", "l2": {"slices": 48},
                                           "sim": {"mode": "at"}})");
  ASSERT_TRUE(first.ok());
  const ConfigLoad again = load_config(to_json(first.config));
  ASSERT_TRUE(again.ok()) << again.errors[0].str();
  EXPECT_EQ(again.config, first.config);
}

TEST(SimConfigJson, WritesEveryKeyWithItsValue) {
  SimConfig c = must_preset("h100");
  c.l2.slices = 48;
  const auto doc = nlohmann::json::parse(to_json(c));
  EXPECT_EQ(doc.at("preset"), "h100");
  EXPECT_EQ(doc.at("l2").at("slices"), 48);
  EXPECT_EQ(doc.at("l2").at("slice_hash"), "xor_fold");
  EXPECT_EQ(doc.at("dram").at("latency"), 484);
  EXPECT_EQ(doc.at("dsmem").at("enabled"), true);
  EXPECT_EQ(doc.at("sim").at("mode"), "lt");
  EXPECT_EQ(doc.at("gpu").at("sms"), 132);
  EXPECT_EQ(doc.at("l1").at("write_buffer_policy"), "eager");
  EXPECT_EQ(doc.at("dram").at("partial_writes"), "read_modify_write");
  EXPECT_EQ(doc.at("lsu").at("mmio_cycles_per_lane"), 2);
  EXPECT_EQ(doc.at("lsu").at("mmio_cycles_per_store"), 3);
  EXPECT_EQ(doc.at("fence").at("sys_cycles"), 1025);
  EXPECT_EQ(doc.at("sm").at("issue_per_clk"), 3);
  EXPECT_EQ(doc.at("gpu").at("launch_cycles"), 10260);
  EXPECT_EQ(doc.at("sm").at("max_warps"), 64);
  EXPECT_EQ(doc.at("sm").at("shared_bytes"), 228 * 1024);
  // h100's, from the H200's proportions: an eighth of 80 x 512 KiB of lines, 5/6 of 3000 GB/s
  EXPECT_EQ(doc.at("l2").at("partial_lines"), 40960);
  EXPECT_EQ(doc.at("dram").at("pair_accesses_per_clk"), 33);
  EXPECT_EQ(doc.at("dram").at("read_write_gbytes_per_s"), 2500);
  // preset + 14 sections; 57 parameters.
  EXPECT_EQ(doc.size(), 15u);
  std::size_t params = 0;
  for (const auto& [section, body] : doc.items()) {
    if (section != "preset") params += body.size();
  }
  EXPECT_EQ(params, 57u);
  EXPECT_EQ(doc.at("l2").at("replacement"), "random");
}

// --- what the modules use -----------------------------------------------------------------

TEST(SimConfigUse, HierarchyOfH100) {
  const golden::HierarchyConfig h = hierarchy_of(must_preset("h100"));
  EXPECT_EQ(h.l1.bytes, 128u * 1024u);
  EXPECT_EQ(h.l1.ways, 4u);
  EXPECT_EQ(h.l2.bytes, 512u * 1024u);
  EXPECT_EQ(h.l2.ways, 16u);
  EXPECT_EQ(h.write_buffer, 8u);
  EXPECT_EQ(h.check(), "");
}

TEST(SimConfigUse, CycleOfH100Is0p505Ns) {
  EXPECT_NEAR(cycle_ns(must_preset("h100").clock), 1000.0 / 1980.0, 1e-12);  // 1980 MHz
}

TEST(SimConfigUse, DramBytesPerCycle) {
  // a100: 1600 GB/s at 1410 MHz = 1600e9 / 1410e6 = 1134.75 B/clk
  const SimConfig c = must_preset("a100");
  EXPECT_NEAR(bytes_per_cycle(c.dram.gbytes_per_s, c.clock), 1134.7518, 1e-3);
}

TEST(SimConfigUse, SliceHashModulo) {
  L2Config l2;
  l2.slices = 80;
  l2.slice_hash = SliceHash::Modulo;
  // line 0x2468ad = 2386093 = 80 x 29826 + 13
  EXPECT_EQ(l2_slice_of(l2, 0x12345680), 13u);
  EXPECT_EQ(l2_slice_of(l2, 0x123456ff), 13u);  // the last byte of the same line
  EXPECT_EQ(l2_slice_of(l2, 0x80 * 80), 0u);
}

TEST(SimConfigUse, SliceHashXorFold) {
  L2Config l2;
  l2.slices = 80;
  l2.slice_hash = SliceHash::XorFold;
  // line 0x2468ad: 0x68ad ^ 0x0024 = 0x6889 = 26761 = 80 x 334 + 41
  EXPECT_EQ(l2_slice_of(l2, 0x12345680), 41u);
  // lines 0x10000 and 0x1: both fold to 1
  EXPECT_EQ(l2_slice_of(l2, std::uint64_t(0x10000) << 7), 1u);
  EXPECT_EQ(l2_slice_of(l2, 0x80), 1u);
}

}  // namespace
}  // namespace stu::sim
