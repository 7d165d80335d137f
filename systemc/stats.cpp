#include "stats.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

namespace stu::sim {

const char* metric_name(Metric m) {
  static constexpr const char* kNames[] = {
      "smsp__inst_executed_op_global_st.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "smsp__inst_executed_op_local_st.sum",
      "stu__inst_executed_op_tmem_st.sum",
      "stu__inst_executed_op_st_async.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "stu__dsmem_bytes_write.sum",
      "stu__l1_write_buffer_merges.sum",
      "stu__l1_write_buffer_entries_out.sum",
      "lts__t_requests_op_write.sum",
      "lts__t_sectors_op_write.sum",
      "lts__t_sectors_op_write_lookup_hit.sum",
      "lts__t_sectors_op_write_lookup_miss.sum",
      "stu__lts_evictions_dirty.sum",
      "stu__lts_sectors_partial_sent_ahead.sum",
      "stu__lts_sectors_dirty_sent_ahead.sum",
      "dram__bytes_write.sum",
      "dram__sectors_write.sum",
      "dram__bytes_read.sum",
      "dram__sectors_read.sum",
      "stu__tmem_bytes_write.sum",
      "stu__mbarrier_complete_tx.sum",
      "stu__mbarrier_phases_completed.sum",
      "stu__bytes_stored.sum",
      "stu__lsu_stall_outstanding_cycles.sum",
      "stu__lsu_stall_ordering_cycles.sum",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == std::size_t(Metric::kCount));
  return kNames[std::size_t(m)];
}

void LatencyHistogram::add(std::uint64_t c) {
  ++count_;
  sum_ += c;
  max_ = std::max(max_, c);
  min_ = std::min(min_, c);
  std::size_t bin;
  if (c < kExact) {
    bin = std::size_t(c);
  } else if (c < kExact + kCoarse * kStep) {
    bin = kExact + std::size_t((c - kExact) / kStep);
  } else {
    bin = kExact + kCoarse;
  }
  ++bins_[bin];
}

std::uint64_t LatencyHistogram::percentile(double p) const {
  if (count_ == 0) return 0;
  const double want = p / 100.0 * double(count_);
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < bins_.size(); ++b) {
    seen += bins_[b];
    if (seen > 0 && double(seen) >= want) {
      if (b < kExact) return b;
      if (b < kExact + kCoarse)
        return std::min<std::uint64_t>(max_, kExact + (b - kExact + 1) * kStep - 1);
      return max_;
    }
  }
  return max_;
}

namespace {
nlohmann::ordered_json latency_json(const LatencyHistogram& h) {
  nlohmann::ordered_json j;
  j["count"] = h.count();
  j["mean"] = h.mean();
  j["min"] = h.min();
  j["p50"] = h.percentile(50);
  j["p90"] = h.percentile(90);
  j["p99"] = h.percentile(99);
  j["max"] = h.max();
  return j;
}
}  // namespace

std::string Stats::to_json(const std::string& config_json, const std::string& workload,
                           const std::string& mode) const {
  nlohmann::ordered_json j;
  j["workload"] = workload;
  j["mode"] = mode;
  j["cycles"] = cycles;
  j["launch_cycles"] = launch_cycles;
  j["seconds"] = seconds();
  j["kernel_seconds"] = kernel_seconds();
  j["warp_ops"] = warp_ops;
  j["host_seconds"] = host_seconds;
  j["warp_ops_per_host_second"] = host_seconds > 0 ? double(warp_ops) / host_seconds : 0.0;
  nlohmann::ordered_json m;
  for (std::size_t i = 0; i < std::size_t(Metric::kCount); ++i)
    m[metric_name(Metric(i))] = counters[i];
  j["metrics"] = m;
  nlohmann::ordered_json bw;
  bw["stored_bytes_per_second"] = bandwidth(get(Metric::BytesStored));
  bw["l2_write_bytes_per_second"] = bandwidth(get(Metric::L2Sectors) * 32);
  bw["dram_write_bytes_per_second"] = bandwidth(dram_bytes_in_run);
  j["dram_bytes_at_final_flush"] = dram_bytes_at_flush();
  j["dram_read_bytes_at_final_flush"] = get(Metric::DramBytesRead) - dram_read_bytes_in_run;
  j["bandwidth"] = bw;
  nlohmann::ordered_json lat;
  for (std::size_t c = 0; c < kStoreClasses; ++c)
    if (latency[c].count()) lat[store_class_name(StoreClass(c))] = latency_json(latency[c]);
  j["latency_cycles"] = lat;
  if (!config_json.empty()) j["config"] = nlohmann::json::parse(config_json, nullptr, false);
  return j.dump(2) + "\n";
}

std::string Stats::to_csv() const {
  std::ostringstream o;
  o.precision(17);
  o << "metric,value\n";
  o << "cycles," << cycles << "\n";
  o << "launch_cycles," << launch_cycles << "\n";
  o << "kernel_seconds," << kernel_seconds() << "\n";
  o << "warp_ops," << warp_ops << "\n";
  for (std::size_t i = 0; i < std::size_t(Metric::kCount); ++i)
    o << metric_name(Metric(i)) << "," << counters[i] << "\n";
  o << "bandwidth.stored_bytes_per_second," << bandwidth(get(Metric::BytesStored)) << "\n";
  o << "dram_bytes_at_final_flush," << dram_bytes_at_flush() << "\n";
  o << "dram_read_bytes_at_final_flush," << get(Metric::DramBytesRead) - dram_read_bytes_in_run
    << "\n";
  o << "bandwidth.dram_write_bytes_per_second," << bandwidth(dram_bytes_in_run) << "\n";
  for (std::size_t c = 0; c < kStoreClasses; ++c) {
    const LatencyHistogram& h = latency[c];
    if (!h.count()) continue;
    const std::string p = std::string("latency.") + store_class_name(StoreClass(c)) + ".";
    o << p << "count," << h.count() << "\n" << p << "mean," << h.mean() << "\n";
    o << p << "p50," << h.percentile(50) << "\n" << p << "p90," << h.percentile(90) << "\n";
    o << p << "p99," << h.percentile(99) << "\n" << p << "max," << h.max() << "\n";
  }
  return o.str();
}

}  // namespace stu::sim
