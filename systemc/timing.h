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
#include "stu/host_prefetch.h"

namespace stu::sim {

using Cycle = std::uint64_t;

// A host-speed hint (no effect on a model): the host caches start loading [from, to).
inline void prefetch_range(const void* from, const void* to) {
  const char* const p = static_cast<const char*>(from);
  const char* const end = static_cast<const char*>(to);
  if (end > p) prefetch_lines(p, std::size_t(end - p));
  __builtin_prefetch(end - 1);
}

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

namespace stu::sim {

// Timed callbacks for a whole model (the Agenda): what every module schedules, run in order of
// time and, at equal times, of scheduling (the order of one binary heap of (time, scheduling
// order); test_time_wheel checks it against one). tlm_utils::peq_with_cb_and_phase keeps its
// timed events in a sorted list, linear per insertion, which thousands of in-flight lines
// make quadratic; this wakes its owner's method through one sc_event. Thousands of items
// from many modules with different latencies are in flight, which a binary heap would sift
// through cold memory on every push and pop; here they sit in a wheel of kSlots slots, one
// per tick (one core cycle) ahead of the current one, each slot a list sorted by time and
// scheduling order (appended to in the common case; the lists share one array of nodes), with
// a bitmap of the slots in use.
// Items beyond the wheel wait in a heap and move into it as time comes near. Push and pop
// are O(1) but for those. `wake` is notified for the earliest item only when a push comes
// before the time it is already notified for.
template <class Item>
class TimeWheel {
 public:
  explicit TimeWheel(std::uint64_t tick_ps) : tick_(tick_ps) {}

  void push(std::uint64_t at_ps, const Item& item, sc_core::sc_event& wake) {
    place(Entry{at_ps, seq_++, item});
    ++size_;
    if (!running_ && at_ps < armed_) arm(wake, at_ps);
  }
  // Calls fn(item) for every item due now (in order; items pushed meanwhile for now are run
  // too), then notifies `wake` for the next one. prefetch(next) is offered the item that
  // comes next in the same tick before each call, and look_ahead(after) the one after it
  // (host-speed hints: look_ahead should load by address only, so that prefetch, one item
  // later, finds what it reads in the host's caches).
  template <class Fn, class Prefetch, class LookAhead>
  void run_due(sc_core::sc_event& wake, Fn fn, Prefetch prefetch, LookAhead look_ahead) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t now_tick = tick_(now);
    running_ = true;
    armed_ = kNone;
    for (;;) {
      // The first slot in use up to now's tick (the cursor is never beyond it: pushes are at
      // now or after); the cursor follows it.
      const std::uint64_t span = std::min<std::uint64_t>(kSlots, now_tick - cursor_ + 1);
      const std::uint64_t t = next_used(cursor_, span);
      if (t == kNone) {  // none: on to now (at once when only far items are left), taking in
                         // the far items that come within reach, which may be due
        const std::uint64_t to =
            size_ == far_.size() ? now_tick : std::min(now_tick, cursor_ + span);
        if (advance(to)) continue;
        break;
      }
      advance(t);
      Slot& s = slot(t);
      Node& first = nodes_[s.head];
      if (first.e.at > now) break;  // this tick's items are not due yet
      const Item item = first.e.item;
      pop_front(s, t);
      if (s.head != kNil) {
        const Node& next = nodes_[s.head];
        prefetch(next.e.item);
        if (next.next != kNil) look_ahead(nodes_[next.next].e.item);
      }
      fn(item);
    }
    running_ = false;
    const std::uint64_t next = earliest();
    if (next != kNone) arm(wake, std::max(next, now));
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kSlots = 1024;  // ticks ahead held in the wheel (a power of 2)
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  static constexpr std::uint32_t kNil = ~std::uint32_t(0);
  struct Entry {
    std::uint64_t at, seq;
    Item item;
  };
  static bool before(const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at < b.at : a.seq < b.seq;
  }
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return before(b, a); }
  };
  // The slots' lists share one array of nodes (a free list reuses the nodes last freed,
  // which are warm in the host's caches); a slot is its first and last node.
  struct Node {
    Entry e;
    std::uint32_t next;
  };
  struct Slot {
    std::uint32_t head = kNil, tail = kNil;
  };
  Slot& slot(std::uint64_t tick) { return slots_[tick & (kSlots - 1)]; }
  void mark(std::uint64_t tick, bool used) {
    const std::uint64_t bit = std::uint64_t(1) << (tick % 64);
    std::uint64_t& w = used_[(tick & (kSlots - 1)) / 64];
    w = used ? w | bit : w & ~bit;
  }

  void place(const Entry& e) {
    const std::uint64_t tick = std::max(tick_(e.at), cursor_);  // late items run first
    if (tick - cursor_ >= kSlots) {
      far_.push_back(e);
      std::push_heap(far_.begin(), far_.end(), Later{});
      return;
    }
    std::uint32_t n = free_;
    if (n != kNil) {
      free_ = nodes_[n].next;
      nodes_[n] = Node{e, kNil};
    } else {
      n = std::uint32_t(nodes_.size());
      nodes_.push_back(Node{e, kNil});
    }
    Slot& s = slot(tick);
    if (s.head == kNil) {
      s.head = s.tail = n;
      mark(tick, true);
    } else if (before(nodes_[s.tail].e, e)) {
      nodes_[s.tail].next = n;
      s.tail = n;
    } else {  // a time within the tick before another's, or an item from the far heap
      std::uint32_t prev = kNil, cur = s.head;
      while (cur != kNil && before(nodes_[cur].e, e)) {
        prev = cur;
        cur = nodes_[cur].next;
      }
      nodes_[n].next = cur;
      (prev == kNil ? s.head : nodes_[prev].next) = n;
    }
  }
  void pop_front(Slot& s, std::uint64_t tick) {
    const std::uint32_t n = s.head;
    s.head = nodes_[n].next;
    nodes_[n].next = free_;
    free_ = n;
    --size_;
    if (s.head == kNil) {
      s.tail = kNil;
      mark(tick, false);
    }
  }
  // The first tick in use among [from, from + count) (count <= kSlots), or kNone.
  std::uint64_t next_used(std::uint64_t from, std::uint64_t count) const {
    std::uint64_t t = from;
    const std::uint64_t end = from + count;
    while (t < end) {
      const std::uint64_t w = used_[(t & (kSlots - 1)) / 64] >> (t % 64);
      if (w) {
        const std::uint64_t hit = t + std::uint64_t(__builtin_ctzll(w));
        return hit < end ? hit : kNone;
      }
      t += 64 - t % 64;
    }
    return kNone;
  }
  // Moves the cursor to `tick` (no slot before it in use) and the far items that come within
  // the wheel's reach into it (every far item stays kSlots ticks or more ahead of the
  // cursor). True when some came in.
  bool advance(std::uint64_t tick) {
    if (tick <= cursor_) return false;
    cursor_ = tick;
    bool moved = false;
    while (!far_.empty() && tick_(far_.front().at) < cursor_ + kSlots) {
      std::pop_heap(far_.begin(), far_.end(), Later{});
      const Entry e = far_.back();
      far_.pop_back();
      place(e);
      moved = true;
    }
    return moved;
  }
  std::uint64_t earliest() const {
    const std::uint64_t t = next_used(cursor_, kSlots);
    if (t != kNone) return nodes_[slots_[t & (kSlots - 1)].head].e.at;
    return far_.empty() ? kNone : far_.front().at;
  }
  void arm(sc_core::sc_event& wake, std::uint64_t at) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    armed_ = at;
    wake.cancel();
    wake.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
  }

  ExactDivider tick_;
  std::vector<Node> nodes_;
  std::uint32_t free_ = kNil;  // the free nodes, a list through Node::next
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
  std::vector<std::uint64_t> used_ = std::vector<std::uint64_t>(kSlots / 64, 0);
  std::vector<Entry> far_;  // a heap: items kSlots ticks or more ahead of the cursor
  std::uint64_t cursor_ = 0;
  std::uint64_t armed_ = kNone;  // the time `wake` is notified for (kNone: none)
  std::size_t size_ = 0;
  std::uint64_t seq_ = 0;
  bool running_ = false;
};

}  // namespace stu::sim
