// Dram: the DRAM behind the L2 slices. Timing: the configured bandwidth shared by all
// slices (reads and writes together at dram.read_write_gbytes_per_s where a write needs a fill
// read), line accesses (dram.accesses_per_clk; an access to a line whose 256-byte pair partner
// was just accessed at dram.pair_accesses_per_clk), `banks` banks (a line's bank is a hash of its
// line number, as DRAM controllers hash address bits; one bank moves at most twice its share of the
// bandwidth), bursts of `burst_bytes`, and the latency beyond the L2 (dram.latency -
// l2.hit_latency). Data: the memory behind the L2 (DataPlane), which the L2 slices write when
// they decide a line's bytes leave (a victim, a write-through, the final flush), so that a
// write's bytes land in the order of those decisions whatever DRAM's own timing; here its
// transactions take time and count, and (keep_log) each one's bytes and the bytes each line
// has received are recorded (a `.sts` test compares them). A DramData::TrafficOnly
// transaction takes time and counts, and is not recorded.
#pragma once

#include <unordered_map>
#include <vector>

#include "data_plane.h"
#include "host_prefetch.h"
#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

class Dram : public Stage {
 public:
  Dram(const sc_core::sc_module_name& name, SimContext& ctx);
  // DRAM's memory and the moves of bytes into it (DataPlane; the L2 slices make them).
  DataPlane& data() { return data_; }
  // The memory as written so far. Not while moves are behind (DataPlane::start_behind).
  const golden::SparseMemory& memory() const { return data_.memory(); }
  // Every write in order (golden::DramWrite), when `keep` (a `.sts` test reads them).
  void keep_log(bool keep) { keep_log_ = keep; }
  const std::vector<golden::DramWrite>& log() const { return log_; }
  // Host-side copy before the first store (the initial global image).
  void preload(const golden::SparseMemory& m);
  // A host-speed hint: a write of this line comes soon. Its bank's timing bins about where
  // the bandwidth's latest booking is (the bank is booked just after it).
  // A host-speed hint: the line's bytes in the DRAM model's memory, which a write of it
  // writes, if its page exists (finding the page reads the page table).
  // (Nothing while the moves are behind: the plan thread writes those lines.)
  void prefetch_line(std::uint64_t line) const {
    if (const std::uint8_t* p = data_.line_if_present(line)) prefetch_lines(p, golden::kLineBytes);
  }
  void prefetch_bank(std::uint64_t line) const {
    const std::size_t b = bank_of(line);
    const Calendar& c = banks_[b];
    const BankBins& h = bank_bins_[b];
    const std::size_t mask = banks_window_ - 1;
    const std::uint64_t bin = bw_.top_bin();
    __builtin_prefetch(&h.used[bin & mask]);
    __builtin_prefetch(&h.used[(bin + 8) & mask]);
    __builtin_prefetch(&h.full[(bin & mask) / 64]);
    prefetch_range(&c, &c + 1);
  }
  // Line address -> the bytes DRAM has received for it (kept with keep_log only: a workload
  // run compares all of DRAM).
  const std::unordered_map<std::uint64_t, golden::LineByteMask>& written() const {
    return written_;
  }

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  // The accesses one access of this line costs: 1, or less when its pair partner was the last
  // pair access in its slot of recent_pairs_ (dram.pair_accesses_per_clk).
  double access_cost(std::uint64_t line);
  // A line's bank: a hash of its line number (DRAM controllers hash address bits into
  // channels and banks: on the H200, strides of 256 B to 2 KiB run at one line rate).
  std::size_t bank_of(std::uint64_t line) const {
    return std::size_t(((line >> 7) * 0x9E3779B97F4A7C15ull) >> 32) % banks_.size();
  }

  SimContext& ctx_;
  Calendar bw_;
  Calendar accesses_;      // dram.accesses_per_clk
  double rw_scale_ = 1.0;  // dram.gbytes_per_s / dram.read_write_gbytes_per_s
  // The 256-byte pairs accessed last, direct-mapped (a pair's slot is taken by pairs 1 MiB
  // apart): empty without dram.pair_accesses_per_clk.
  static constexpr std::size_t kRecentPairs = 4096;
  std::vector<std::uint64_t> recent_pairs_;
  std::vector<Calendar> banks_;
  struct BankBins {  // each bank's bins, in one small array (the hint reads no bank object)
    const double* used;
    const std::uint64_t* full;
  };
  std::vector<BankBins> bank_bins_;
  std::size_t banks_window_ = 1;
  Cycle latency_;
  DataPlane data_;
  std::unordered_map<std::uint64_t, golden::LineByteMask> written_;
  bool keep_log_ = false;
  std::vector<golden::DramWrite> log_;
};

}  // namespace stu::sim
