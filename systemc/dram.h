// Dram: the DRAM behind the L2 slices. Timing: the configured bandwidth shared by all
// slices (reads and writes together at dram.read_write_gbytes_per_s where a write needs a fill
// read), line accesses (dram.accesses_per_clk; an access to a line whose 256-byte pair partner
// was just accessed at dram.pair_accesses_per_clk), `banks` banks (a line's bank is a hash of its
// line number, as DRAM controllers hash address bits; one bank moves at most twice its share of the
// bandwidth), bursts of `burst_bytes`, and the latency beyond the L2 (dram.latency -
// l2.hit_latency). Data: its own sparse memory, written with the payload's byte enables, and the
// bytes each line has received (the golden-image check compares them). A DramData::TrafficOnly
// transaction takes time and counts, and writes nothing. During a workload run the memory's
// writes may be left to a helper thread (start_write_behind): a host-speed choice, with the
// same memory in the end.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "host_prefetch.h"
#include "sim_context.h"
#include "stage.h"
#include "write_behind.h"

namespace stu::sim {

class Dram : public Stage {
 public:
  Dram(const sc_core::sc_module_name& name, SimContext& ctx);
  ~Dram() override;
  // The memory as written so far. Not while writes are left behind (stop_write_behind first).
  const golden::SparseMemory& memory() const;
  // Host speed: from now on the memory is written behind this thread (WriteBehind) by
  // another one, until stop_write_behind(). Returns that thread's work: it calls it again and
  // again until its caller is done with the model, and then stop_write_behind() writes what
  // is left on the caller's thread (and throws what a write threw). In between, only this
  // module's serve() may touch the memory.
  std::function<void()> start_write_behind();
  void stop_write_behind();
  bool writes_behind() const { return behind_ != nullptr; }
  // Every write in order (golden::DramWrite), when `keep` (a `.sts` test reads them).
  void keep_log(bool keep) { keep_log_ = keep; }
  const std::vector<golden::DramWrite>& log() const { return log_; }
  // Host-side copy before the first store (the initial global image).
  void preload(const golden::SparseMemory& m);
  // A host-speed hint: a write of this line comes soon. Its bank's timing bins about where
  // the bandwidth's latest booking is (the bank is booked just after it).
  // A host-speed hint: the line's bytes in the DRAM model's memory, which a write of it
  // writes, if its page exists (finding the page reads the page table).
  // (Nothing while the writes are left behind: the helper thread writes those lines, and the
  // page table is its to change.)
  void prefetch_line(std::uint64_t line) const {
    using golden::SparseMemory;
    if (behind_) return;
    if (const std::uint8_t* p = mem_.page(line >> SparseMemory::kPageBits))
      prefetch_lines(p + (line & (SparseMemory::kPageBytes - 1)), golden::kLineBytes);
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
  golden::SparseMemory mem_;
  struct ImageWrite {  // a line's written bytes, on their way into mem_
    std::uint64_t line;
    golden::LineByteMask bytes;
    std::array<std::uint8_t, golden::kLineBytes> data;
  };
  std::unique_ptr<WriteBehind<ImageWrite>> behind_;
  std::unordered_map<std::uint64_t, golden::LineByteMask> written_;
  bool keep_log_ = false;
  std::vector<golden::DramWrite> log_;
};

}  // namespace stu::sim
