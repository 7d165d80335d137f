// Time and bandwidth for the TLM modules: cycles of the core clock, their conversion to
// sc_time, and Calendar, the bandwidth booking every port, bank and pipe uses.
//
// All modules count in core cycles (Cycle). SystemC time is the cycle count times the
// clock period in picoseconds (sc_time::from_value with a 1 ps resolution), so converting
// is one multiplication and never rounds twice.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "sim_config.h"

namespace stu::sim {

using Cycle = std::uint64_t;

class Timebase {
 public:
  explicit Timebase(const ClockConfig& c)
      : period_ps_(std::max<std::uint64_t>(1, std::uint64_t(cycle_ns(c) * 1000.0 + 0.5))) {}
  std::uint64_t period_ps() const { return period_ps_; }
  sc_core::sc_time time(Cycle c) const { return sc_core::sc_time::from_value(c * period_ps_); }
  // The cycle of a time (rounded down).
  Cycle cycle(const sc_core::sc_time& t) const { return t.value() / period_ps_; }
  Cycle now() const { return cycle(sc_core::sc_time_stamp()); }
  // The cycle `delay` after now.
  Cycle at(const sc_core::sc_time& delay) const {
    return (sc_core::sc_time_stamp() + delay).value() / period_ps_;
  }

 private:
  std::uint64_t period_ps_;
};

// A resource that moves `per_cycle` units (bytes, lookups, wavefronts) per cycle. book(t, n)
// gives the cycle in which the last of n units moves when they ask at cycle t: the units take
// the earliest capacity left at or after t. Capacity is kept in bins of kBinCycles cycles, so
// requests may arrive out of time order (loosely timed initiators run ahead of each other)
// and still never get more than the resource's bandwidth over any bin. Bins older than
// kWindowBins behind the latest are forgotten (a request that far in the past is served at
// the window's start). Memory is fixed: kWindowBins counters.
class Calendar {
 public:
  static constexpr Cycle kBinCycles = 16;
  static constexpr std::size_t kWindowBins = 4096;

  explicit Calendar(double per_cycle = 1.0)
      : cap_(std::max(1.0, per_cycle * double(kBinCycles))), used_(kWindowBins, 0.0) {}

  Cycle book(Cycle t, double units) {
    std::uint64_t bin = t / kBinCycles;
    if (bin < base_) bin = base_;
    double left = units;
    // The first bin starts at t: the capacity before t in it is not usable.
    double offset = bin == t / kBinCycles ? double(t % kBinCycles) / double(kBinCycles) : 0.0;
    for (;;) {
      advance_to(bin);
      double& u = used_[bin % kWindowBins];
      const double start = std::max(u, offset * cap_);
      const double room = cap_ - start;
      if (room >= left) {
        u = start + left;
        busy_ += units;
        // The cycle within the bin where the booking ends.
        const Cycle within = Cycle((u / cap_) * double(kBinCycles));
        return std::max(t, bin * kBinCycles + (within ? within - 1 : 0));
      }
      if (room > 0) {
        left -= room;
        u = cap_;
      }
      ++bin;
      offset = 0.0;
    }
  }
  double busy_units() const { return busy_; }

 private:
  void advance_to(std::uint64_t bin) {
    if (bin < top_ + 1 && top_ != kNone) return;
    const std::uint64_t from = top_ == kNone ? bin : top_ + 1;
    for (std::uint64_t b = from; b <= bin && b - from < kWindowBins; ++b) used_[b % kWindowBins] = 0.0;
    top_ = bin;
    if (top_ + 1 > kWindowBins && top_ + 1 - kWindowBins > base_) base_ = top_ + 1 - kWindowBins;
  }
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  double cap_;
  std::vector<double> used_;
  std::uint64_t base_ = 0;
  std::uint64_t top_ = kNone;
  double busy_ = 0.0;
};

}  // namespace stu::sim
