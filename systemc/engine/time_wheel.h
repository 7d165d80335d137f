// TimeWheel: the timed queue behind the Agenda (part of the TLM model's engine, docs/tlm.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "timing.h"

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
      // The slot's items in order, and those that the items run push into it meanwhile (no
      // push lands before the cursor, so the slot stays the first in use while it has any).
      Slot& s = slot(t);
      bool not_yet = false;
      while (s.head != kNil) {
        const Node& first = nodes_[s.head];
        if (first.e.at > now) {  // this tick's items are not due yet
          not_yet = true;
          break;
        }
        const Item item = first.e.item;
        pop_front(s, t);
        if (s.head != kNil) {
          const Node& next = nodes_[s.head];
          prefetch(next.e.item);
          if (next.next != kNil) {
            const Node& after = nodes_[next.next];
            look_ahead(after.e.item);
            // The node after that, by address: the list's nodes lie anywhere in nodes_, and
            // the next round's look-ahead reads it.
            if (after.next != kNil) __builtin_prefetch(&nodes_[after.next]);
          }
        }
        fn(item);  // (may push, and so move nodes_)
      }
      if (not_yet) break;
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
  // The slots' lists share one array of nodes; a slot is its first and last node. Free nodes
  // are reused last freed first (warm in the host's caches), their numbers kept on a stack of
  // their own: a list through the free nodes made every push wait for the free node's line
  // (each push reads the next free node, often freed long before and cold).
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
    std::uint32_t n;
    if (!free_.empty()) {
      n = free_.back();
      free_.pop_back();
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
    free_.push_back(n);
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
  std::vector<std::uint32_t> free_;  // the free nodes, a stack (the last freed on top)
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
