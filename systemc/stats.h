// What a simulation counts: Nsight Compute's metric names where one exists (docs/tlm.md,
// "Statistics"), stu's own (`stu__...`) elsewhere; store latency per store class as a
// histogram (percentiles); elapsed cycles. Counters are an array indexed by Metric, so
// counting costs an add; names are only used when writing.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "store_extension.h"

namespace stu::sim {

enum class Metric : std::uint8_t {
  InstGlobalSt,         // smsp__inst_executed_op_global_st.sum
  InstSharedSt,         // smsp__inst_executed_op_shared_st.sum
  InstLocalSt,          // smsp__inst_executed_op_local_st.sum
  InstTmemSt,           // stu__inst_executed_op_tmem_st.sum (tcgen05.st)
  InstAsyncSt,          // stu__inst_executed_op_st_async.sum
  L1GlobalRequests,     // l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  L1GlobalSectors,      // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  L1LocalSectors,       // l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
  L1SectorHits,         // l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
  SharedWavefronts,     // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  SharedConflicts,      // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  DsmemBytes,           // stu__dsmem_bytes_write.sum
  WbMerges,             // stu__l1_write_buffer_merges.sum
  WbEntriesOut,         // stu__l1_write_buffer_entries_out.sum
  L2Requests,           // lts__t_requests_op_write.sum
  L2Sectors,            // lts__t_sectors_op_write.sum
  L2SectorHits,         // lts__t_sectors_op_write_lookup_hit.sum
  L2SectorMisses,       // lts__t_sectors_op_write_lookup_miss.sum
  L2Evictions,          // stu__lts_evictions_dirty.sum
  L2PartialSentAhead,   // stu__lts_sectors_partial_sent_ahead.sum (l2.partial_lines)
  L2DirtySentAhead,     // stu__lts_sectors_dirty_sent_ahead.sum (l2.dirty_lines)
  DramBytesWrite,       // dram__bytes_write.sum
  DramSectorsWrite,     // dram__sectors_write.sum
  DramBytesRead,        // dram__bytes_read.sum (the fill reads of partly written bursts)
  DramSectorsRead,      // dram__sectors_read.sum
  TmemBytes,            // stu__tmem_bytes_write.sum
  MbarCompleteTx,       // stu__mbarrier_complete_tx.sum
  MbarPhases,           // stu__mbarrier_phases_completed.sum
  BytesStored,          // stu__bytes_stored.sum (all spaces, as the stores wrote them)
  LsuStallOutstanding,  // stu__lsu_stall_outstanding_cycles.sum
  LsuStallOrdering,     // stu__lsu_stall_ordering_cycles.sum (release / strong / waits)
  kCount
};
const char* metric_name(Metric m);

// Store latency (issue to acknowledgement) in cycles: exact below 1024, then 16-cycle bins
// up to 1024 + 16 * 4096, then one overflow bin (its value is the largest seen).
class LatencyHistogram {
 public:
  void add(std::uint64_t cycles);
  std::uint64_t count() const { return count_; }
  double mean() const { return count_ ? double(sum_) / double(count_) : 0.0; }
  std::uint64_t max() const { return max_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  // The p-th percentile (0 < p <= 100): the smallest value v with at least p% of samples <= v.
  std::uint64_t percentile(double p) const;

 private:
  static constexpr std::size_t kExact = 1024, kCoarse = 4096, kStep = 16;
  std::vector<std::uint64_t> bins_ = std::vector<std::uint64_t>(kExact + kCoarse + 1, 0);
  std::uint64_t count_ = 0, sum_ = 0, max_ = 0, min_ = ~std::uint64_t(0);
};

inline constexpr std::size_t kStoreClasses = 6;

struct Stats {
  std::array<double, std::size_t(Metric::kCount)> counters{};
  std::array<LatencyHistogram, kStoreClasses> latency;
  std::uint64_t cycles = 0;  // the simulated time, in core cycles
  // gpu.launch_cycles: what the kernel's launch adds to `cycles` in its time (kernel_seconds())
  std::uint64_t launch_cycles = 0;
  double core_mhz = 0;
  std::uint64_t warp_ops = 0;  // workload ops run (stores, arrives, waits)
  double host_seconds = 0;     // wall-clock time of the simulation
  // DRAM bytes written before the final drain and flush (the run's own write-backs); the
  // DRAM bandwidth is these over the run's time. dram__bytes_write.sum counts the flush too.
  double dram_bytes_in_run = 0;
  double dram_read_bytes_in_run = 0;  // the same for the reads (dram__bytes_read.sum counts all)
  double dram_bytes_at_flush() const { return get(Metric::DramBytesWrite) - dram_bytes_in_run; }

  void add(Metric m, double v = 1.0) { counters[std::size_t(m)] += v; }
  double get(Metric m) const { return counters[std::size_t(m)]; }
  LatencyHistogram& lat(StoreClass c) { return latency[std::size_t(c)]; }
  // The stores' time (the bandwidths' divisor).
  double seconds() const { return core_mhz > 0 ? double(cycles) / (core_mhz * 1e6) : 0.0; }
  // The kernel's time as CUDA events around its launch see it: the stores' and the launch's.
  double kernel_seconds() const {
    return core_mhz > 0 ? double(cycles + launch_cycles) / (core_mhz * 1e6) : 0.0;
  }
  // Bytes per second at the core clock (0 when no time passed).
  double bandwidth(double bytes) const { return seconds() > 0 ? bytes / seconds() : 0.0; }

  // {"config": ..., "metrics": {...}, "latency": {"global": {"count":..,"p50":..}}, ...}
  std::string to_json(const std::string& config_json, const std::string& workload,
                      const std::string& mode) const;
  // metric,value rows (latency rows as latency.<class>.<p50|p90|p99|max|mean|count>).
  std::string to_csv() const;
};

}  // namespace stu::sim
