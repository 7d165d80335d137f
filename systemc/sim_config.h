// The parameters of the TLM-2.0 performance model (`stu sim`): one value type, the presets
// a100 / h100 / b200, JSON loading with validation, and writing the effective configuration
// back as JSON.
//
// This header needs no SystemC: the configuration is plain data, built as its own library
// (stu_sim_config) so the unit tests check it without a SystemC kernel. Every parameter, its
// unit and the source of each preset value are listed in docs/tlm.md ("Configuration").
//
// Latencies are in core clock cycles and are the published end-to-end load latencies of
// ../shared/spec/microbench.md (pointer chase); the modules split them (docs/tlm.md):
//   crossbar one way       xbar.latency
//   L2 slice own time      l2.hit_latency - l1.hit_latency - 2 * xbar.latency
//   DRAM beyond the L2     dram.latency - l2.hit_latency
// validate() checks that each of these is positive.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stu/golden/cache.h"

namespace stu::sim {

enum class SliceHash : std::uint8_t {
  Modulo,   // slice = (addr >> 7) % slices
  XorFold,  // slice = (xor of the 16-bit chunks of addr >> 7) % slices
};

enum class SimMode : std::uint8_t { Lt, At };  // loosely / approximately timed

// When write-buffer entries leave the L1 for the L2 (docs/tlm.md, "Write buffer").
enum class WbPolicy : std::uint8_t {
  Eager,   // as soon as the L1's port to the crossbar is free (the timed default); strong
           // stores of .gpu/.sys scope are acknowledged by the L2
  OnFull,  // only when the buffer is full, at a release or a drain: the golden rule, exactly
           // (`.sts` tests run this way, so their cache expectations hold)
};

struct ClockConfig {
  std::uint32_t core_mhz = 0;
};

struct GpuConfig {
  std::uint32_t sms = 0;  // streaming multiprocessors (one LSU, L1 and crossbar port each)
  // What a kernel launch adds to its stores' time, as CUDA events around the launch see it
  // (the grid's launch, dispatch and end): in Stats::kernel_seconds(), not in the cycles,
  // seconds or bandwidths of the stores.
  std::uint32_t launch_cycles = 0;
};

// An SM's instruction issue: the workload's non-store instructions (WarpOp::instructions)
// take issue slots before the store they precede.
struct SmConfig {
  std::uint32_t issue_per_clk = 0;       // instructions an SM issues per cycle, all its schedulers
  std::uint32_t warp_issue_per_clk = 0;  // instructions one warp issues per cycle
  // What an SM holds at once (traces: the block scheduler's occupancy limits).
  std::uint32_t max_ctas = 0;      // resident CTAs
  std::uint32_t max_warps = 0;     // resident warps
  std::uint32_t max_threads = 0;   // resident threads
  std::uint32_t registers = 0;     // 32-bit registers
  std::uint64_t shared_bytes = 0;  // shared memory for CTAs
};

struct LsuConfig {
  std::uint32_t issue_width = 0;            // warp store instructions accepted per cycle
  std::uint32_t outstanding_stores = 0;     // stores in flight per SM before the LSU stalls
  std::uint32_t mmio_cycles_per_lane = 0;   // .mmio: one lane at a time, this long each (per SM)
  std::uint32_t mmio_cycles_per_store = 0;  // .mmio: this long a store besides its lanes
  // A warp's global stores (not .mmio) issue at least this many cycles apart, whatever else it
  // issues between them; 0: no such limit.
  std::uint32_t warp_store_cycles = 0;
};

// Fences (fence.*, and the fence a release store implies; docs/tlm.md, "Write buffer,
// ordering and completion"). A .cta fence orders within the SM; a .cluster/.gpu fence first
// waits for the warp's earlier stores to be acknowledged, then takes gpu_cycles; a .sys fence
// ends no earlier than sys_cycles after it started, nor than that drain plus gpu_cycles. The
// fences wider than .cta of one SM start at most one every `interval` cycles.
struct FenceConfig {
  std::uint32_t cta_cycles = 0;
  std::uint32_t gpu_cycles = 0;
  std::uint32_t sys_cycles = 0;
  std::uint32_t interval = 0;
};

struct L1Config {
  std::uint64_t bytes = 0;  // L1 data capacity left to the cache (power of two)
  std::uint32_t ways = 0;
  std::uint32_t hit_latency = 0;           // cycles
  std::uint32_t bytes_per_clk = 0;         // L1 write bandwidth per SM
  std::uint32_t tag_lookups_per_clk = 0;   // sets looked up per cycle
  std::uint32_t write_buffer_entries = 0;  // L1 -> L2 write buffer
  WbPolicy write_buffer_policy = WbPolicy::Eager;
};

struct XbarConfig {
  std::uint32_t latency = 0;        // cycles, one way SM -> L2 slice
  std::uint32_t bytes_per_clk = 0;  // per SM port
};

struct L2Config {
  std::uint32_t slices = 0;
  SliceHash slice_hash = SliceHash::XorFold;
  std::uint64_t slice_bytes = 0;  // power of two
  std::uint32_t ways = 0;
  // The victim among a set's lines of the lowest class (golden::SectoredCache, rule 2).
  golden::Replacement replacement = golden::Replacement::LeastRecentlyWritten;
  std::uint32_t hit_latency = 0;    // cycles, end to end as published
  std::uint32_t bytes_per_clk = 0;  // all slices together
  // Partitions the slices and the SMs are split into (slice s: s * partitions / slices; SM m:
  // m * partitions / sms). A write into another partition's slice passes its own partition
  // first: the home slice is booked, and counts the request and sectors, twice.
  std::uint32_t partitions = 1;
  // Lines with partly written sectors the L2 holds as they are (byte-masked, not filled), all
  // slices together; beyond that the oldest such line's partly written sectors are filled from
  // DRAM and written back at once (docs/tlm.md, "L2"). 0: no limit (filled only at eviction).
  std::uint32_t partial_lines = 0;
  // Lines the L2 allocated for writes that it keeps dirty, all slices together; beyond that
  // the oldest such line's dirty sectors are written back at once and the line stays, clean
  // (docs/tlm.md, "L2"). 0: no limit (written back only at eviction).
  std::uint32_t dirty_lines = 0;
};

// What DRAM does with a burst the write enables only in part (docs/tlm.md, "DRAM").
enum class PartialWrite : std::uint8_t {
  Masked,           // the enabled bytes are written under a byte mask: no read
  ReadModifyWrite,  // the burst is read first and written whole (ECC on every burst): a
                    // partly written sector costs a read and a write
};

struct DramConfig {
  std::uint32_t latency = 0;  // cycles, end to end as published
  std::uint32_t gbytes_per_s = 0;
  std::uint32_t banks = 0;
  std::uint32_t burst_bytes = 0;
  PartialWrite partial_writes = PartialWrite::Masked;
  // Line accesses DRAM starts per core cycle, all channels: a line's write is one, its fill
  // read (partial_writes) another, whatever their bytes (row and column command overhead).
  std::uint32_t accesses_per_clk = 0;
  // Accesses a cycle to a line whose 256-byte pair partner was just accessed (a DRAM row's
  // neighbouring lines, docs/tlm.md "DRAM"); 0: every access at accesses_per_clk.
  std::uint32_t pair_accesses_per_clk = 0;
  // The channels' rate when a write needs a fill read (reads and writes mixed: bus
  // turnarounds), GB/s; 0: gbytes_per_s.
  std::uint32_t read_write_gbytes_per_s = 0;
};

struct SharedConfig {
  std::uint32_t banks = 0;
  std::uint32_t bank_bytes = 0;
  std::uint32_t latency = 0;  // cycles
};

struct DsmemConfig {
  bool enabled = false;       // thread-block clusters exist (sm_90 and later)
  std::uint32_t latency = 0;  // cycles, SM to peer SM
  std::uint32_t bytes_per_clk = 0;
};

struct TmemConfig {
  bool enabled = false;                  // tensor memory exists (sm_100 and later)
  std::uint32_t write_gbytes_per_s = 0;  // per SM
};

struct MbarrierConfig {
  std::uint32_t latency = 0;  // cycles, arrive / complete-tx update
};

struct RunConfig {
  SimMode mode = SimMode::Lt;
  std::uint32_t quantum_cycles = 0;  // LT: tlm_quantumkeeper global quantum
};

struct SimConfig {
  std::string preset;  // the preset the values started from
  ClockConfig clock;
  GpuConfig gpu;
  SmConfig sm;
  LsuConfig lsu;
  FenceConfig fence;
  L1Config l1;
  XbarConfig xbar;
  L2Config l2;
  DramConfig dram;
  SharedConfig shared;
  DsmemConfig dsmem;
  TmemConfig tmem;
  MbarrierConfig mbarrier;
  RunConfig sim;
};

bool operator==(const SimConfig& a, const SimConfig& b);
inline bool operator!=(const SimConfig& a, const SimConfig& b) { return !(a == b); }

// One problem, at a full key path: str() is "l2.slices: must be in 1..128, got 0".
// The key is empty for a problem with the document itself (malformed JSON).
struct ConfigError {
  std::string key;
  std::string message;
  std::string str() const { return key.empty() ? message : key + ": " + message; }
};

// What loading gives: the configuration when `errors` is empty.
struct ConfigLoad {
  SimConfig config;
  std::vector<ConfigError> errors;
  bool ok() const { return errors.empty(); }
};

// "a100", "h100", "h200", "b200"; std::nullopt for any other name.
std::optional<SimConfig> preset(std::string_view name);
std::vector<std::string> preset_names();

// Every problem of a configuration (ranges, then relations between fields); empty when valid.
std::vector<ConfigError> validate(const SimConfig& c);

// Parses a JSON document: {"preset": "h100", "l2": {"slices": 48}, ...}. The preset (default
// "h100") gives every value, the sections override them. Never throws: malformed JSON is one
// error "line L, column C: ...", every unknown key, wrong type and bad value is reported.
ConfigLoad load_config(std::string_view json_text);
// The same from a file; a file that cannot be read is an error naming it.
ConfigLoad load_config_file(const std::string& path);

// The effective configuration as JSON, every key written, loadable by load_config.
std::string to_json(const SimConfig& c, int indent = 2);

// The golden cache piece's configuration for the L1, write buffer and one L2 slice.
golden::HierarchyConfig hierarchy_of(const SimConfig& c);

// Unit conversions the modules need: one core cycle in nanoseconds, and a bandwidth in GB/s
// (DRAM, TMEM) as bytes per core cycle.
double cycle_ns(const ClockConfig& clock);
double bytes_per_cycle(std::uint32_t gbytes_per_s, const ClockConfig& clock);

// The L2 slice that owns the line of `addr`.
std::uint32_t l2_slice_of(const L2Config& l2, std::uint64_t addr);

}  // namespace stu::sim
