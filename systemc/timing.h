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
// the capacity left in t's bin of kBinCycles cycles and the bins after it. Within a bin the
// order is the order of booking, so requests may arrive out of time order (loosely timed
// initiators run ahead of each other) and still never get more than the resource's
// bandwidth over any bin, nor lose capacity. Bins older than
// kWindowBins behind the latest are forgotten (a request that far in the past is served at
// the window's start). Memory is fixed: kWindowBins counters.
class Calendar {
 public:
  static constexpr Cycle kBinCycles = 16;
  static constexpr std::size_t kWindowBins = 4096;

  explicit Calendar(double per_cycle = 1.0)
      : per_cycle_(per_cycle > 0 ? per_cycle : 1.0),
        cap_(per_cycle_ * double(kBinCycles)),
        used_(kWindowBins, 0.0) {}

  Cycle book(Cycle t, double units) {
    std::uint64_t bin = t / kBinCycles;
    if (bin < base_) bin = base_;
    if (bin < full_below_) bin = full_below_;  // every bin before it is full
    double left = units;
    busy_ += units;
    for (;;) {
      advance_to(bin);
      double& u = used_[bin % kWindowBins];
      const double room = cap_ - u;
      if (room <= 0) {  // full: never look at it again
        if (bin == full_below_) ++full_below_;
        ++bin;
        continue;
      }
      if (room >= left) {
        u += left;
        // The bin is a bucket: its units move in arrival order of booking, so the booking
        // ends when the bin has moved `u` units.
        const Cycle end = bin * kBinCycles + Cycle(u / per_cycle_ + 0.999999) - 1;
        // ... and never before the request's own units could have moved from t.
        const Cycle own = t + Cycle(units / per_cycle_ + 0.999999) - 1;
        return std::max({t, end, own});
      }
      left -= room;
      u = cap_;
      if (bin == full_below_) ++full_below_;
      ++bin;
    }
  }
  double busy_units() const { return busy_; }

 private:
  void advance_to(std::uint64_t bin) {
    if (bin < top_ + 1 && top_ != kNone) return;
    const std::uint64_t from = top_ == kNone ? bin : top_ + 1;
    for (std::uint64_t b = from; b <= bin && b - from < kWindowBins; ++b)
      used_[b % kWindowBins] = 0.0;
    top_ = bin;
    if (top_ + 1 > kWindowBins && top_ + 1 - kWindowBins > base_) base_ = top_ + 1 - kWindowBins;
  }
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  double per_cycle_;
  double cap_;
  std::vector<double> used_;
  std::uint64_t base_ = 0;
  std::uint64_t top_ = kNone;
  std::uint64_t full_below_ = 0;  // the bins in [base_, full_below_) are full
  double busy_ = 0.0;
};

}  // namespace stu::sim

namespace stu::sim {

// Timed callbacks in a binary heap: what a module schedules for later (acknowledgements,
// deliveries). tlm_utils::peq_with_cb_and_phase keeps its timed events in a sorted list
// (linear insertion), which thousands of in-flight lines make quadratic; this keeps them in
// O(log n) and wakes its owner's method through one sc_event at the earliest time.
template <class Item>
class TimedHeap {
 public:
  void push(std::uint64_t at_ps, const Item& item, sc_core::sc_event& wake) {
    heap_.push_back(Entry{at_ps, seq_++, item});
    std::push_heap(heap_.begin(), heap_.end(), later);
    if (heap_.front().seq == seq_ - 1) notify(wake);
  }
  // Calls fn(item) for every item due now, then re-arms `wake` for the next one.
  template <class Fn>
  void run_due(sc_core::sc_event& wake, Fn fn) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    while (!heap_.empty() && heap_.front().at <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      const Item item = heap_.back().item;
      heap_.pop_back();
      fn(item);
    }
    if (!heap_.empty()) notify(wake);
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }

 private:
  struct Entry {
    std::uint64_t at, seq;
    Item item;
  };
  static bool later(const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at > b.at : a.seq > b.seq;
  }
  void notify(sc_core::sc_event& wake) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t at = heap_.front().at;
    wake.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
  }
  std::vector<Entry> heap_;
  std::uint64_t seq_ = 0;
};

}  // namespace stu::sim
