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

// Exact unsigned division by a constant, by one multiplication where that is exact (the
// round-up method: with m = ceil(2^64 / d), floor(n * m / 2^64) = floor(n / d) for every
// n < 2^(64 - ceil(log2 d)); Lemire, Kaser and Kurz, "Faster remainder by direct computation",
// 2019, theorem 1), by a division above that and for d = 1.
class ExactDivider {
 public:
  explicit ExactDivider(std::uint64_t d)
      : d_(std::max<std::uint64_t>(d, 1)),
        m_(d_ > 1 ? ~std::uint64_t(0) / d_ + 1 : 0),
        below_(d_ > 1 ? std::uint64_t(1) << __builtin_clzll(d_ - 1) : 0) {}
  std::uint64_t operator()(std::uint64_t n) const {
    if (n < below_) return std::uint64_t((unsigned __int128)n * m_ >> 64);
    return n / d_;
  }

 private:
  std::uint64_t d_;
  std::uint64_t m_;      // ceil(2^64 / d), d > 1
  std::uint64_t below_;  // the multiplication is exact for n < below_ (0: never used)
};

// Cycles and SystemC time of one model. Built after the model's simulation context exists and
// its time resolution (1 ps) is set: it keeps the clock period as an sc_time and reads the
// context's current time directly (the same value sc_time_stamp() returns, without a call into
// the library per conversion: the LT path converts several times per store).
class Timebase {
 public:
  Timebase(const ClockConfig& c, const sc_core::sc_simcontext& sim)
      : sim_(sim),
        period_ps_(std::max<std::uint64_t>(1, std::uint64_t(cycle_ns(c) * 1000.0 + 0.5))),
        div_(period_ps_),
        period_(sc_core::sc_time::from_value(period_ps_)),
        exact_cycles_(((std::uint64_t(1) << 53) - 1) / period_ps_) {}
  std::uint64_t period_ps() const { return period_ps_; }
  sc_core::sc_time time(Cycle c) const {
    // sc_time *= double is exact while the product stays below 2^53 ps (about 2.5 simulated
    // hours); from_value above that.
    if (c > exact_cycles_) return sc_core::sc_time::from_value(c * period_ps_);
    sc_core::sc_time t = period_;
    t *= double(c);
    return t;
  }
  // The current simulation time (sc_time_stamp()).
  const sc_core::sc_time& stamp() const { return sim_.time_stamp(); }
  // The cycle of a time (rounded down).
  Cycle cycle(const sc_core::sc_time& t) const { return div_(t.value()); }
  Cycle now() const { return cycle(sim_.time_stamp()); }
  // The cycle `delay` after now.
  Cycle at(const sc_core::sc_time& delay) const {
    return div_(sim_.time_stamp().value() + delay.value());
  }

 private:
  const sc_core::sc_simcontext& sim_;
  std::uint64_t period_ps_;
  ExactDivider div_;
  sc_core::sc_time period_;
  Cycle exact_cycles_;
};

// A resource that moves `per_cycle` units (bytes, lookups, wavefronts) per cycle. book(t, n)
// gives the cycle in which the last of n units moves when they ask at cycle t: the units take
// the capacity left in t's bin of kBinCycles cycles and the bins after it. Within a bin the
// order is the order of booking, so requests may arrive out of time order (loosely timed
// initiators run ahead of each other) and still never get more than the resource's
// bandwidth over any bin, nor lose capacity. Bins more than the window (window_bins(), a power
// of two) behind the latest are forgotten: a request that far in the past is served at the
// window's start. Memory is fixed: one counter and one bit per bin of the window. A model
// sizes the window to the spread of its booking times (calendar_window_bins() in
// sim_context.h): a model has thousands of Calendars and touches one line of each per booking,
// so their total size is what the host's caches see.
class Calendar {
 public:
  static constexpr Cycle kBinCycles = 16;
  static constexpr std::size_t kMinWindowBins = 64;    // one bitmap word
  static constexpr std::size_t kMaxWindowBins = 4096;  // 65536 cycles

  // `window_bins` is rounded up to a power of two in [kMinWindowBins, kMaxWindowBins].
  explicit Calendar(double per_cycle = 1.0, std::size_t window_bins = kMaxWindowBins)
      : per_cycle_(per_cycle > 0 ? per_cycle : 1.0),
        cap_(per_cycle_ * double(kBinCycles)),
        window_(round_window(window_bins)),
        used_(window_, 0.0),
        full_(window_ / 64, 0) {}

  static std::size_t round_window(std::size_t bins) {
    std::size_t w = kMinWindowBins;
    while (w < bins && w < kMaxWindowBins) w *= 2;
    return w;
  }
  std::size_t window_bins() const { return window_; }
  // For host-speed hints: the bins' arrays (fixed for the Calendar's life) and the latest
  // bin booked so far (0 before any).
  const double* bins() const { return used_.data(); }
  const std::uint64_t* full_bits() const { return full_.data(); }
  std::uint64_t top_bin() const { return top_ == kNone ? 0 : top_; }

  Cycle book(Cycle t, double units) {
    std::uint64_t bin = t / kBinCycles;
    if (bin < base_) bin = base_;
    if (bin < full_below_) bin = full_below_;      // every bin before it is full
    if (bin < written_from_) written_from_ = bin;  // this booking writes from `bin` on
    double left = units;
    busy_ += units;
    for (;;) {
      advance_to(bin);
      double& u = used_[bin & (window_ - 1)];
      const double room = cap_ - u;
      if (room <= 0) {  // full: never look at it again; on to the next bin that is not
        const std::uint64_t open = next_open(bin + 1);
        if (bin == full_below_) full_below_ = open;  // every bin between is full too
        bin = open;
        continue;
      }
      if (room >= left) {
        u += left;
        if (cap_ - u <= 0) mark_full(bin);
        // The bin is a bucket: its units move in arrival order of booking, so the booking
        // ends when the bin has moved `u` units.
        const Cycle end = bin * kBinCycles + Cycle(u / per_cycle_ + 0.999999) - 1;
        // ... and never before the request's own units could have moved from t.
        const Cycle own = t + Cycle(units / per_cycle_ + 0.999999) - 1;
        return std::max({t, end, own});
      }
      left -= room;
      u = cap_;
      mark_full(bin);
      if (bin == full_below_) ++full_below_;
      ++bin;
    }
  }
  double busy_units() const { return busy_; }

 private:
  // full_ has bit (b % window_) set when bin b (base_ <= b <= top_) is full (cap_ - used
  // <= 0), so that a booking skips a run of full bins a word at a time.
  void mark_full(std::uint64_t bin) {
    const std::size_t i = bin & (window_ - 1);
    full_[i / 64] |= std::uint64_t(1) << (i % 64);
  }
  // The first bin from `bin` on that is not full: at most top_ + 1 (bins above top_ are empty).
  std::uint64_t next_open(std::uint64_t bin) const {
    while (bin <= top_) {
      const std::size_t i = bin & (window_ - 1);
      const std::uint64_t open = ~full_[i / 64] >> (i % 64);
      if (open) return std::min(bin + std::uint64_t(__builtin_ctzll(open)), top_ + 1);
      bin += 64 - i % 64;  // the next word (may pass top_ + 1)
    }
    return std::min(bin, top_ + 1);  // called with bin <= top_ + 1
  }
  void advance_to(std::uint64_t bin) {
    if (bin < top_ + 1 && top_ != kNone) return;
    // The new bins (top_, bin] start empty. They take the ring slots of the old bins
    // (top_ - window_, bin - window_], of which only those booked, [written_from_, top_], may
    // hold counts: only those are cleared (a Calendar touched now and then would otherwise
    // clear its whole window each time).
    if (top_ != kNone && bin >= window_) {
      const std::uint64_t oldest = top_ + 1 >= window_ ? top_ + 1 - window_ : 0;
      const std::uint64_t lo = std::max(written_from_, oldest);
      const std::uint64_t hi = std::min(bin - window_, top_);
      if (lo <= hi) clear(lo, hi - lo + 1);
    }
    top_ = bin;
    if (top_ + 1 > window_ && top_ + 1 - window_ > base_) base_ = top_ + 1 - window_;
  }
  // Empties the n bins from `from` (n <= window_): at most two ranges of the ring, the bitmap a
  // word at a time.
  void clear(std::uint64_t from, std::uint64_t n) {
    std::size_t i = from & (window_ - 1);
    while (n) {
      const std::size_t len = std::size_t(std::min<std::uint64_t>(n, window_ - i));
      std::fill_n(used_.begin() + std::ptrdiff_t(i), len, 0.0);
      for (std::size_t b = i, end = i + len; b < end;) {
        const std::size_t in_word = std::min<std::size_t>(64 - b % 64, end - b);
        const std::uint64_t bits =
            in_word == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << in_word) - 1) << (b % 64);
        full_[b / 64] &= ~bits;
        b += in_word;
      }
      n -= len;
      i = 0;
    }
  }
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  double per_cycle_;
  double cap_;
  std::size_t window_;
  std::vector<double> used_;
  std::vector<std::uint64_t> full_;
  std::uint64_t base_ = 0;
  std::uint64_t top_ = kNone;
  std::uint64_t full_below_ = 0;        // the bins in [base_, full_below_) are full
  std::uint64_t written_from_ = kNone;  // no bin before it has been booked
  double busy_ = 0.0;
};

}  // namespace stu::sim
