// SimConfig: presets, JSON loading, validation, JSON writing (see sim_config.h, docs/tlm.md).
//
// One table (fields()) names every parameter with its key path, type and range; loading,
// validation, equality and writing all walk it, so a parameter is declared once.
#include "sim_config.h"

#include <fstream>
#include <sstream>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

namespace stu::sim {
namespace {

using Json = nlohmann::json;

// --- the field table --------------------------------------------------------------------

struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  bool pow2 = false;
};

struct EnumName {
  std::uint8_t value;
  const char* name;
};

constexpr EnumName kSliceHashNames[] = {{std::uint8_t(SliceHash::Modulo), "modulo"},
                                        {std::uint8_t(SliceHash::XorFold), "xor_fold"}};
constexpr EnumName kReplacementNames[] = {
    {std::uint8_t(golden::Replacement::LeastRecentlyWritten), "least_recently_written"},
    {std::uint8_t(golden::Replacement::Random), "random"}};
constexpr EnumName kWbPolicyNames[] = {{std::uint8_t(WbPolicy::Eager), "eager"},
                                       {std::uint8_t(WbPolicy::OnFull), "on_full"}};
constexpr EnumName kPartialWriteNames[] = {
    {std::uint8_t(PartialWrite::Masked), "masked"},
    {std::uint8_t(PartialWrite::ReadModifyWrite), "read_modify_write"}};
constexpr EnumName kModeNames[] = {{std::uint8_t(SimMode::Lt), "lt"},
                                   {std::uint8_t(SimMode::At), "at"}};

struct EnumRef {
  std::uint8_t* value;
  const EnumName* names;
  std::size_t count;
};

using FieldPtr = std::variant<std::uint32_t*, std::uint64_t*, bool*, EnumRef>;

struct Field {
  const char* section;
  const char* key;
  FieldPtr ptr;
  Range range;
  std::string path() const { return std::string(section) + "." + key; }
};

// An enum field is read and written as its underlying uint8_t (unsigned char may alias it).
template <class E, std::size_t N>
EnumRef enum_ref(E& e, const EnumName (&names)[N]) {
  return {reinterpret_cast<std::uint8_t*>(&e), names, N};
}

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = kKiB * 1024;

// Every parameter of `c`, in the order to_json writes them.
std::vector<Field> fields(SimConfig& c) {
  const Range lat{1, 100000};
  return {
      {"clock", "core_mhz", &c.clock.core_mhz, {100, 10000}},
      {"gpu", "sms", &c.gpu.sms, {1, 1024}},
      {"gpu", "launch_cycles", &c.gpu.launch_cycles, {0, 100000000}},
      {"sm", "issue_per_clk", &c.sm.issue_per_clk, {1, 64}},
      {"sm", "warp_issue_per_clk", &c.sm.warp_issue_per_clk, {1, 8}},
      {"sm", "max_ctas", &c.sm.max_ctas, {1, 512}},
      {"sm", "max_warps", &c.sm.max_warps, {1, 512}},
      {"sm", "max_threads", &c.sm.max_threads, {32, 16384}},
      {"sm", "registers", &c.sm.registers, {256, 1u << 20}},
      {"sm", "shared_bytes", &c.sm.shared_bytes, {kKiB, 16 * kMiB}},
      {"lsu", "issue_width", &c.lsu.issue_width, {1, 8}},
      {"lsu", "outstanding_stores", &c.lsu.outstanding_stores, {1, 4096}},
      {"lsu", "mmio_cycles_per_lane", &c.lsu.mmio_cycles_per_lane, {1, 1000}},
      {"lsu", "mmio_cycles_per_store", &c.lsu.mmio_cycles_per_store, {0, 1000}},
      {"lsu", "warp_store_cycles", &c.lsu.warp_store_cycles, {0, 1000}},
      {"fence", "cta_cycles", &c.fence.cta_cycles, lat},
      {"fence", "gpu_cycles", &c.fence.gpu_cycles, lat},
      {"fence", "sys_cycles", &c.fence.sys_cycles, lat},
      {"fence", "interval", &c.fence.interval, {1, 100000}},
      {"l1", "bytes", &c.l1.bytes, {golden::kLineBytes, golden::CacheGeometry::kMaxBytes, true}},
      {"l1", "ways", &c.l1.ways, {1, golden::CacheGeometry::kMaxWays, true}},
      {"l1", "hit_latency", &c.l1.hit_latency, lat},
      {"l1", "bytes_per_clk", &c.l1.bytes_per_clk, {1, 4096}},
      {"l1", "tag_lookups_per_clk", &c.l1.tag_lookups_per_clk, {1, 64}},
      {"l1", "write_buffer_entries", &c.l1.write_buffer_entries, {1, 64}},
      {"l1", "write_buffer_policy", enum_ref(c.l1.write_buffer_policy, kWbPolicyNames), {}},
      {"xbar", "latency", &c.xbar.latency, lat},
      {"xbar", "bytes_per_clk", &c.xbar.bytes_per_clk, {1, 4096}},
      {"l2", "slices", &c.l2.slices, {1, 128}},
      {"l2", "slice_hash", enum_ref(c.l2.slice_hash, kSliceHashNames), {}},
      {"l2",
       "slice_bytes",
       &c.l2.slice_bytes,
       {golden::kLineBytes, golden::CacheGeometry::kMaxBytes, true}},
      {"l2", "ways", &c.l2.ways, {1, golden::CacheGeometry::kMaxWays, true}},
      {"l2", "replacement", enum_ref(c.l2.replacement, kReplacementNames), {}},
      {"l2", "hit_latency", &c.l2.hit_latency, lat},
      {"l2", "bytes_per_clk", &c.l2.bytes_per_clk, {1, 1u << 20}},
      {"l2", "partitions", &c.l2.partitions, {1, 8}},
      {"l2", "partial_lines", &c.l2.partial_lines, {0, 1u << 28}},
      {"l2", "dirty_lines", &c.l2.dirty_lines, {0, 1u << 28}},
      {"dram", "latency", &c.dram.latency, lat},
      {"dram", "gbytes_per_s", &c.dram.gbytes_per_s, {1, 1000000}},
      {"dram", "banks", &c.dram.banks, {1, 1024, true}},
      {"dram", "burst_bytes", &c.dram.burst_bytes, {8, 256, true}},
      {"dram", "partial_writes", enum_ref(c.dram.partial_writes, kPartialWriteNames), {}},
      {"dram", "accesses_per_clk", &c.dram.accesses_per_clk, {1, 4096}},
      {"dram", "pair_accesses_per_clk", &c.dram.pair_accesses_per_clk, {0, 4096}},
      {"dram", "read_write_gbytes_per_s", &c.dram.read_write_gbytes_per_s, {0, 1000000}},
      {"shared", "banks", &c.shared.banks, {1, 64, true}},
      {"shared", "bank_bytes", &c.shared.bank_bytes, {1, 16, true}},
      {"shared", "latency", &c.shared.latency, lat},
      {"dsmem", "enabled", &c.dsmem.enabled, {}},
      {"dsmem", "latency", &c.dsmem.latency, lat},
      {"dsmem", "bytes_per_clk", &c.dsmem.bytes_per_clk, {1, 4096}},
      {"tmem", "enabled", &c.tmem.enabled, {}},
      {"tmem", "write_gbytes_per_s", &c.tmem.write_gbytes_per_s, {1, 1000000}},
      {"mbarrier", "latency", &c.mbarrier.latency, lat},
      {"sim", "mode", enum_ref(c.sim.mode, kModeNames), {}},
      {"sim", "quantum_cycles", &c.sim.quantum_cycles, {1, 100000000}},
  };
}

bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }

std::string range_text(const Range& r) {
  std::string s = r.pow2 ? "must be a power of two in " : "must be in ";
  return s + std::to_string(r.min) + ".." + std::to_string(r.max);
}

std::optional<std::string> check_range(const Range& r, std::uint64_t v) {
  if (v < r.min || v > r.max || (r.pow2 && !is_pow2(v))) {
    return range_text(r) + ", got " + std::to_string(v);
  }
  return std::nullopt;
}

std::string enum_choices(const EnumRef& e) {
  std::string s;
  for (std::size_t i = 0; i < e.count; ++i) {
    s += (i ? ", \"" : "\"") + std::string(e.names[i].name) + "\"";
  }
  return s;
}

const char* enum_name(const EnumRef& e) {
  for (std::size_t i = 0; i < e.count; ++i) {
    if (e.names[i].value == *e.value) return e.names[i].name;
  }
  return "?";
}

std::uint64_t value_of(const FieldPtr& p) {
  if (auto* u = std::get_if<std::uint32_t*>(&p)) return **u;
  if (auto* u = std::get_if<std::uint64_t*>(&p)) return **u;
  if (auto* b = std::get_if<bool*>(&p)) return **b;
  return *std::get<EnumRef>(p).value;
}

// --- the presets ------------------------------------------------------------------------
// Each value's source is in docs/tlm.md; "(microbench)" lines are ../shared/spec/microbench.md,
// "(assumption)" values are stu's own, where the spec gives nothing.

SimConfig common_assumptions() {
  SimConfig c;
  // assumption, but the .mmio cycles and warp_store_cycles: as h200 (measured there)
  c.lsu = {1, 32, 2, 3, 8};
  c.fence = {13, 269, 1025, 24};  // assumption: as h200 (measured there)
  c.sm.issue_per_clk = 3;         // assumption: as h200 (measured there)
  // CUDA C++ Programming Guide (SIMT architecture; 7.x and later): a warp scheduler issues one
  // instruction a cycle, and a warp belongs to one scheduler
  c.sm.warp_issue_per_clk = 1;
  // CUDA C++ Programming Guide, technical specifications per compute capability (8.0, 9.0,
  // 10.0 alike but shared memory): 32 CTAs, 64 warps, 2048 threads, 64 K registers per SM
  c.sm.max_ctas = 32;
  c.sm.max_warps = 64;
  c.sm.max_threads = 2048;
  c.sm.registers = 65536;
  c.sm.shared_bytes = 228 * kKiB;        // the same guide: 228 KiB on 9.0 and 10.0 (a100: 164)
  c.gpu.launch_cycles = 10260;           // assumption: as h200 (measured there, in cycles)
  c.l1.ways = 4;                         // assumption (golden default)
  c.l1.tag_lookups_per_clk = 4;          // microbench: "looks up 4 sets x 4 sectors per cycle"
  c.l1.write_buffer_entries = 8;         // assumption (golden default)
  c.xbar = {20, 64};                     // assumption
  c.l2.slice_hash = SliceHash::XorFold;  // assumption
  c.l2.ways = 16;                        // assumption (golden default)
  c.l2.replacement = golden::Replacement::Random;  // assumption: as h200 (measured there)
  // assumption: HBM has thousands of banks (H100: 5 stacks x 16 channels x 2 pseudo-channels x
  // 16 banks); 1024 is the range's top. The DRAM model admits 4 x banks writes at a time (AT),
  // each held for dram.latency - l2.hit_latency, so 16 banks capped h100's streaming writes at
  // 4*16*128 B / 212 cycles = 77 GB/s (docs/calibration.md).
  c.dram.banks = 1024;
  c.dram.burst_bytes = 32;  // assumption: one sector
  // assumption: as h200 (measured there): line accesses, and a pair partner's
  c.dram.accesses_per_clk = 18;
  c.dram.pair_accesses_per_clk = 33;
  // assumption for a100/h100/b200 (HBM with ECC on); measured on the H200 (h200 preset)
  c.dram.partial_writes = PartialWrite::ReadModifyWrite;
  c.shared.banks = 32;  // microbench: 128 B/clk shared = 32 x 4 B
  c.shared.bank_bytes = 4;
  c.mbarrier.latency = 16;      // assumption
  c.sim = {SimMode::Lt, 1000};  // assumption
  return c;
}

// assumption for a100/h100/b200: what the H200 showed (h200 preset), in proportion: partly
// written sectors held unfilled in up to an eighth of the L2's lines (H200: 61 k of 480 k),
// and reads mixed with writes at 5/6 of the DRAM bandwidth (H200: 4.0 of 4.8 TB/s)
void h200_ratios(SimConfig& c) {
  const std::uint64_t lines = std::uint64_t(c.l2.slices) * c.l2.slice_bytes / golden::kLineBytes;
  c.l2.partial_lines = std::uint32_t(lines / 8);
  c.l2.dirty_lines = std::uint32_t(lines * 7 / 16);  // H200: 210 k of 480 k
  c.dram.read_write_gbytes_per_s = c.dram.gbytes_per_s * 5 / 6;
}

SimConfig preset_a100() {
  SimConfig c = common_assumptions();
  c.preset = "a100";
  c.clock.core_mhz = 1410;         // assumption (vendor boost clock)
  c.gpu.sms = 108;                 // microbench: A100, 108 SMs
  c.l1.bytes = 64 * kKiB;          // assumption: 192 KB L1+shared, 128 KB carved to shared
  c.l1.hit_latency = 38;           // microbench: A100 PCIe, Luo et al. 2024
  c.l1.bytes_per_clk = 120;        // microbench: ~100-120 B/clk L1 (upper end)
  c.l2.slices = 80;                // microbench: 2 partitions x 40 slices
  c.l2.slice_bytes = 512 * kKiB;   // microbench: x 512 KB
  c.l2.hit_latency = 262;          // microbench: Luo et al. 2024
  c.l2.bytes_per_clk = 5120;       // microbench: 5120 B/clk (whitepaper)
  c.dram.latency = 466;            // microbench: Luo et al. 2024
  c.dram.gbytes_per_s = 1600;      // microbench: 1.4-1.8 TB/s (middle)
  c.shared.latency = 29;           // microbench: Luo et al. 2024
  c.dsmem = {false, 200, 32};      // no clusters on sm_80; values as h100 (assumption)
  c.tmem = {false, 8000};          // no TMEM on sm_80; value as b200
  c.sm.shared_bytes = 164 * kKiB;  // CUDA C++ Programming Guide: 164 KB per SM on 8.0
  h200_ratios(c);
  return c;
}

SimConfig preset_h100() {
  SimConfig c = common_assumptions();
  c.preset = "h100";
  c.clock.core_mhz = 1980;        // assumption (vendor boost clock)
  c.gpu.sms = 132;                // microbench: H100 SXM, 132 SMs
  c.l1.bytes = 128 * kKiB;        // assumption: 256 KB L1+shared, 128 KB carved to shared
  c.l1.hit_latency = 41;          // microbench: H100 SXM, public reproduction of Luo et al.
  c.l1.bytes_per_clk = 128;       // microbench: H800 PCIe ~126 B/clk, rounded to 4 sectors
  c.l2.slices = 80;               // microbench: GPGPU-Sim H100, 80 L2 slices
  c.l2.slice_bytes = 512 * kKiB;  // assumption: 640 KB (GPGPU-Sim) is no power of two
  c.l2.hit_latency = 272;         // microbench
  c.l2.bytes_per_clk = 4500;      // microbench: 4200-4800 B/clk (middle)
  c.dram.latency = 484;           // microbench: ~484
  c.dram.gbytes_per_s = 3000;     // microbench: ~3.0 TB/s measured
  c.shared.latency = 29;          // microbench
  c.dsmem = {true, 200, 32};      // assumption
  c.tmem = {false, 8000};         // no TMEM on sm_90; value as b200
  h200_ratios(c);
  return c;
}

// The H200 a session measured (data/hw/h200-2026-11-26.json: sm_90, 132 SMs at 1980 MHz, 60 MiB
// L2, HBM3e). The same SM as the H100, so what was not measured on it is h100's value. The
// measured bandwidths and costs are what the model is held against, never set here.
SimConfig preset_h200() {
  SimConfig c = preset_h100();
  c.preset = "h200";
  c.clock.core_mhz = 1980;        // measured (data/hw): the clock the H200 ran at
  c.gpu.sms = 132;                // measured (data/hw): 132 SMs
  c.l2.slices = 120;              // assumption: 120 x 512 KiB for the measured 60 MiB
  c.l2.slice_bytes = 512 * kKiB;  // assumption: as h100
  c.dram.gbytes_per_s = 4800;     // vendor: NVIDIA H200 datasheet, HBM3e 4.8 TB/s
  // measured (data/silicon/h200-2026-11-26-device, ncu): 4-byte stores at stride 8 / 32 / 64
  // read 126.7 / 527.9 / 532 MB from DRAM for 119.1 / 521.3 / 530 MB written
  c.dram.partial_writes = PartialWrite::ReadModifyWrite;
  // measured (tests/data/silicon/h200-2026-11-27-device runs 13-14, ncu): 4-byte stores a
  // sector every 2 to 16 lines (strides 256-2048 B), each line's sector read and written (2
  // accesses), move 17.2-18.0 G lines/s: 17.3-18.2 accesses a cycle at 1980 MHz; where every
  // line is written (strides 64, 96, 128 B) 22.8-23.4 G lines/s, 23.0-23.6 a cycle: half the
  // accesses (a pair's second line) at 1 / (2 / 23.4 - 1 / 18) = 33 a cycle. Strides 160 and 192
  // (4 of 5, 2 of 3 lines) at 20.2 and 19.0 G lines/s lie between
  c.dram.accesses_per_clk = 18;
  c.dram.pair_accesses_per_clk = 33;
  // measured (runs 13-14, ncu): stores writing sectors in part at strides 8-32 B and footprints
  // of 100 MiB to 1 GiB move DRAM reads and writes together at 3.97-4.04 TB/s (read + write
  // bytes over gpu__time_duration), where write-only streams reach 4.2-4.3 TB/s
  c.dram.read_write_gbytes_per_s = 4000;
  // measured (runs 13-14, ncu, 4-byte stores writing sectors in part at strides of 8 B to 2 KiB,
  // 16.8 MB to 1.07 GB written once): DRAM reads all but 48-73 k lines' worth (mean 61 k) of
  // the partly written sectors during the kernel, whatever the footprint or the sectors a line
  // (4 at stride 8-32, 1 at 128-2048), also with a 200 us tail after the last store and with the
  // footprint far below the L2's size, and writes them back; whole sectors stay in the L2
  c.l2.partial_lines = 61000;
  // measured (runs 14, 15 and 18, ncu): 16-byte streaming stores written once send DRAM all but
  // 24.6-27.3 MB of footprints from 24 to 96 MiB during the kernel (about 210 k lines), and read
  // back right after, a 32 MiB footprint still hits in the L2 for every line: the L2 writes the
  // oldest lines it allocated for writes back early and keeps them; written again, they send
  // nothing more (32 MiB written 4 times: 9.1 MB in all)
  c.l2.dirty_lines = 210000;
  // measured (tests/data/silicon/h200-2026-11-27-device runs 13, 14 and 19): footprints written
  // again in the same kernel send DRAM about 2 %, 14 % and 57 % of each later pass at 48, 64 and
  // 96 MiB, what a victim drawn at random gives (least recently written: 30 %, 100 %, 100 %)
  c.l2.replacement = golden::Replacement::Random;
  // measured (data/silicon/h200-2026-11-26-device, store_bench warps_mmio_1 / _32; and
  // tests/data/silicon/h200-2026-11-27-device runs 13 and 16, chain_mmio): a 32-lane st.mmio
  // every 63.0 / 64.1 cycles on one SM, one lane at a time; one thread's every 5.1 cycles. A
  // cost a store a plus b a lane fits both: a + 32 b = 63-64, a + b = 5.1; b = 2 (integer
  // cycles), a = 3
  c.lsu.mmio_cycles_per_lane = 2;
  c.lsu.mmio_cycles_per_store = 3;
  // measured (tests/data/silicon/h200-2026-11-27-device runs 13 and 16): one thread's unrolled
  // stores to new lines, 2.44 instructions a store (ncu), issue every 7.6-7.85 cycles
  // (chain_weak, _relaxed_*, _volatile); one warp's whole-line stores every 9.4 (warps_weak_1,
  // 4.35 instructions); .mmio ones every 5.1 (chain_mmio): not the SM's issue, a warp's own
  c.lsu.warp_store_cycles = 8;
  // measured (data/silicon/h200-2026-11-26-device): chain_release_cta 16.5 cycles an iteration,
  // of which its 3.44 instructions (h200-2026-11-27-device run 13, ncu) issue before the fence:
  // 13; chain_fence_ar_gpu / _sc_gpu 268.7; chain_fence_sc_sys 1024.7 (and st.mmio +
  // fence.sc.sys 1030: the drain overlaps a .sys fence); warps_release_32 23.6 cycles per warp
  // store (one SM's fences, one after another); .cluster costs .gpu's (run 21 of 2026-11-27:
  // chain_release_cl 483.0 vs chain_release_gpu 482.9, fence.*.cluster 268.7)
  c.fence = {13, 269, 1025, 24};
  // measured (same run, warps_weak_4 / _16 / _32 and warps_relaxed_*): one SM stores a whole
  // 128-byte line every 4.0 cycles, weak or relaxed
  c.l1.bytes_per_clk = 32;
  // measured lower bound (same run, warps_relaxed_32): a relaxed .gpu line store every 4.0
  // cycles on one SM, each acknowledged by the L2 ~270 cycles later, keeps at least 68 in
  // flight; 128 is assumed
  c.lsu.outstanding_stores = 128;
  // measured (same run, ncu, streaming stores): lts__t_sectors_op_write is 1.50 times the L1's
  // global store sectors (50.3 M / 33.6 M), as when half the lines live in the other of two
  // partitions and pass both
  c.l2.partitions = 2;
  // measured (same run): L2-resident streaming stores (8-48 MiB rewritten) reach 3.95-4.31 TB/s
  // of stored bytes, 1.5 L2 sector writes each: about 3100 B/clk of L2 writes at 1980 MHz
  c.l2.bytes_per_clk = 3100;
  // measured (same run, store_bench async_peer_1): one warp's st.async.v4 into the peer CTA
  // of a 2-CTA cluster moves 512 bytes every 24.2 cycles in steady state, 21 B/clk
  c.dsmem.bytes_per_clk = 21;
  // measured (data/silicon/h200-2026-11-26-device run 11, ncu smsp__inst_executed.sum over
  // sm__cycles_elapsed.avg x 132): an SM whose 8-bit streaming stores leave it issue-bound
  // issues 2.9-3.3 instructions a cycle of its 4 schedulers' 4 (stream_l2_u8 3.06,
  // stream_l2_u8_x4 2.93, stream_l2_u8_pad8 3.30)
  c.sm.issue_per_clk = 3;
  // measured (run 10, store_bench launch_empty): the 1056 x 512 grid with no store takes
  // 5.18 us between CUDA events (6.78 us on run 11's machine) = 10,260 cycles at 1980 MHz
  c.gpu.launch_cycles = 10260;
  return c;
}

SimConfig preset_b200() {
  SimConfig c = common_assumptions();
  c.preset = "b200";
  c.clock.core_mhz = 1965;      // assumption (vendor boost clock)
  c.gpu.sms = 148;              // microbench: B200, 148 SMs
  c.l1.bytes = 128 * kKiB;      // assumption: as h100 (256 KB L1+shared)
  c.l1.hit_latency = 40;        // microbench: ~40
  c.l1.bytes_per_clk = 128;     // assumption: as h100
  c.l2.slices = 128;            // assumption
  c.l2.slice_bytes = 1 * kMiB;  // assumption: 128 x 1 MiB ~ 126 MB (microbench, GB200)
  c.l2.hit_latency = 295;       // microbench: ~295
  c.l2.bytes_per_clk = 4500;    // assumption: as h100
  c.dram.latency = 860;         // microbench: ~860 (another source: ~420)
  c.dram.gbytes_per_s = 7500;   // microbench: ~7.5 TB/s triad
  c.shared.latency = 29;        // assumption: as h100
  c.dsmem = {true, 200, 32};    // assumption
  c.tmem = {true, 8000};        // microbench: TMEM write ~8 TB/s/SM
  h200_ratios(c);
  return c;
}

// --- JSON -------------------------------------------------------------------------------

std::string json_brief(const Json& v) {
  if (v.is_null()) return "null";
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + s;
}

// Sets one field from a JSON value, or says why not.
std::optional<std::string> assign(const Field& f, const Json& v) {
  if (auto* e = std::get_if<EnumRef>(&f.ptr)) {
    if (!v.is_string()) return "must be one of " + enum_choices(*e) + ", got " + json_brief(v);
    const std::string s = v.get<std::string>();
    for (std::size_t i = 0; i < e->count; ++i) {
      if (s == e->names[i].name) {
        *e->value = e->names[i].value;
        return std::nullopt;
      }
    }
    return "must be one of " + enum_choices(*e) + ", got \"" + s + "\"";
  }
  if (auto* b = std::get_if<bool*>(&f.ptr)) {
    if (!v.is_boolean()) return "must be true or false, got " + json_brief(v);
    **b = v.get<bool>();
    return std::nullopt;
  }
  if (!v.is_number_integer()) return "must be an integer, got " + json_brief(v);
  if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) {
    return range_text(f.range) + ", got " + std::to_string(v.get<std::int64_t>());
  }
  const std::uint64_t u = v.get<std::uint64_t>();
  if (auto why = check_range(f.range, u)) return why;
  if (auto* p = std::get_if<std::uint32_t*>(&f.ptr)) {
    **p = static_cast<std::uint32_t>(u);  // every u32 range is below 2^32
  } else {
    *std::get<std::uint64_t*>(f.ptr) = u;
  }
  return std::nullopt;
}

std::string known_keys(const std::vector<Field>& fs, const std::string& section) {
  std::string s;
  for (const Field& f : fs) {
    if (section == f.section) s += std::string(s.empty() ? "" : ", ") + f.key;
  }
  return s;
}

std::string section_list(const std::vector<Field>& fs) {
  std::vector<std::string> names{"preset"};
  for (const Field& f : fs) {
    if (names.back() != f.section) names.emplace_back(f.section);
  }
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// 1-based line and column of a byte offset.
std::pair<std::size_t, std::size_t> line_col(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

}  // namespace

// --- public -----------------------------------------------------------------------------

bool operator==(const SimConfig& a, const SimConfig& b) {
  SimConfig x = a, y = b;
  const auto fx = fields(x), fy = fields(y);
  for (std::size_t i = 0; i < fx.size(); ++i) {
    if (value_of(fx[i].ptr) != value_of(fy[i].ptr)) return false;
  }
  return a.preset == b.preset;
}

std::optional<SimConfig> preset(std::string_view name) {
  if (name == "a100") return preset_a100();
  if (name == "h100") return preset_h100();
  if (name == "h200") return preset_h200();
  if (name == "b200") return preset_b200();
  return std::nullopt;
}

std::vector<std::string> preset_names() { return {"a100", "h100", "h200", "b200"}; }

std::vector<ConfigError> validate(const SimConfig& c) {
  std::vector<ConfigError> errs;
  SimConfig copy = c;
  for (const Field& f : fields(copy)) {
    if (std::holds_alternative<bool*>(f.ptr)) continue;
    if (const auto* e = std::get_if<EnumRef>(&f.ptr)) {
      if (std::string(enum_name(*e)) == "?") {
        errs.push_back({f.path(), "must be one of " + enum_choices(*e)});
      }
      continue;
    }
    if (auto why = check_range(f.range, value_of(f.ptr))) errs.push_back({f.path(), *why});
  }
  if (!errs.empty()) return errs;  // the relations below assume every field in range

  auto lines_needed = [&](const char* key, std::uint64_t bytes, std::uint32_t ways,
                          const char* ways_key) {
    if (bytes < golden::kLineBytes * std::uint64_t(ways)) {
      errs.push_back({key, "must be at least 128 x " + std::string(ways_key) + " = " +
                               std::to_string(golden::kLineBytes * ways) + ", got " +
                               std::to_string(bytes)});
    }
  };
  lines_needed("l1.bytes", c.l1.bytes, c.l1.ways, "l1.ways");
  lines_needed("l2.slice_bytes", c.l2.slice_bytes, c.l2.ways, "l2.ways");

  if (c.l2.hit_latency <= c.l1.hit_latency + 2 * std::uint64_t(c.xbar.latency)) {
    errs.push_back({"l2.hit_latency", "must exceed l1.hit_latency + 2 x xbar.latency = " +
                                          std::to_string(c.l1.hit_latency + 2 * c.xbar.latency) +
                                          ", got " + std::to_string(c.l2.hit_latency)});
  }
  if (c.l2.partitions > c.l2.slices) {
    errs.push_back({"l2.partitions", "must be at most l2.slices = " + std::to_string(c.l2.slices) +
                                         ", got " + std::to_string(c.l2.partitions)});
  }
  if (c.dram.latency <= c.l2.hit_latency) {
    errs.push_back(
        {"dram.latency", "must exceed l2.hit_latency = " + std::to_string(c.l2.hit_latency) +
                             ", got " + std::to_string(c.dram.latency)});
  }
  if (errs.empty()) {
    // The golden cache piece holds the L1/L2 state: it must accept the geometry too.
    const std::string why = hierarchy_of(c).check();
    if (!why.empty()) errs.push_back({"l1", why});
  }
  return errs;
}

ConfigLoad load_config(std::string_view text) {
  ConfigLoad out;
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann's byte is one past the offending character.
    const auto [line, col] = line_col(text, e.byte ? e.byte - 1 : 0);
    std::string what = e.what();
    const auto colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    out.errors.push_back(
        {"", "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what});
    return out;
  }
  if (!doc.is_object()) {
    out.errors.push_back({"", "the configuration must be a JSON object, got " + json_brief(doc)});
    return out;
  }

  std::string base = "h100";
  if (auto it = doc.find("preset"); it != doc.end()) {
    if (!it->is_string()) {
      out.errors.push_back({"preset", "must be a string, got " + json_brief(*it)});
    } else {
      base = it->get<std::string>();
    }
  }
  auto start = preset(base);
  if (!start) {
    std::string names;
    for (const std::string& n : preset_names()) names += (names.empty() ? "\"" : ", \"") + n + "\"";
    out.errors.push_back({"preset", "must be one of " + names + ", got \"" + base + "\""});
    start = preset("h100");
  }
  out.config = *start;

  const std::vector<Field> fs = fields(out.config);
  for (const auto& [section, body] : doc.items()) {
    if (section == "preset") continue;
    bool known = false;
    for (const Field& f : fs) known = known || section == f.section;
    if (!known) {
      out.errors.push_back({section, "unknown key (known: " + section_list(fs) + ")"});
      continue;
    }
    if (!body.is_object()) {
      out.errors.push_back({section, "must be an object, got " + json_brief(body)});
      continue;
    }
    for (const auto& [key, value] : body.items()) {
      const Field* field = nullptr;
      for (const Field& f : fs) {
        if (section == f.section && key == f.key) field = &f;
      }
      const std::string path = section + "." + key;
      if (!field) {
        out.errors.push_back({path, "unknown key (known: " + known_keys(fs, section) + ")"});
        continue;
      }
      if (auto why = assign(*field, value)) out.errors.push_back({path, *why});
    }
  }
  if (out.errors.empty()) out.errors = validate(out.config);
  return out;
}

ConfigLoad load_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ConfigLoad out;
    out.errors.push_back({"", path + ": cannot read the file"});
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  ConfigLoad out = load_config(text.str());
  for (ConfigError& e : out.errors) {
    if (e.key.empty()) e.message = path + ": " + e.message;
  }
  return out;
}

std::string to_json(const SimConfig& c, int indent) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();  // the table's order
  doc["preset"] = c.preset;
  SimConfig copy = c;
  for (const Field& f : fields(copy)) {
    nlohmann::ordered_json& slot = doc[f.section][f.key];
    if (const auto* e = std::get_if<EnumRef>(&f.ptr)) {
      slot = enum_name(*e);
    } else if (const auto* b = std::get_if<bool*>(&f.ptr)) {
      slot = **b;
    } else {
      slot = value_of(f.ptr);
    }
  }
  return doc.dump(indent);
}

golden::HierarchyConfig hierarchy_of(const SimConfig& c) {
  golden::HierarchyConfig h;
  h.l1 = {c.l1.bytes, c.l1.ways};
  h.l2 = {c.l2.slice_bytes, c.l2.ways, c.l2.replacement};
  h.write_buffer = c.l1.write_buffer_entries;
  return h;
}

double cycle_ns(const ClockConfig& clock) { return 1000.0 / clock.core_mhz; }

double bytes_per_cycle(std::uint32_t gbytes_per_s, const ClockConfig& clock) {
  return double(gbytes_per_s) * 1000.0 / clock.core_mhz;  // 1e9 B/s over 1e6 cycles/s
}

std::uint32_t l2_slice_of(const L2Config& l2, std::uint64_t addr) {
  const std::uint64_t line = addr >> 7;
  std::uint64_t h = line;
  if (l2.slice_hash == SliceHash::XorFold) {
    h = 0;
    for (std::uint64_t x = line; x; x >>= 16) h ^= x & 0xFFFF;
  }
  return l2.slices ? static_cast<std::uint32_t>(h % l2.slices) : 0;
}

}  // namespace stu::sim
