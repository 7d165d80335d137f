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
// per tick (one core cycle) ahead of the current one, each slot a queue sorted by time and
// scheduling order (appended to in the common case), with a bitmap of the slots in use. A
// slot's items lie side by side in chunks of kPerChunk, so running a tick reads a few host
// lines in order, which the wheel asks for a slot ahead (a list through shared nodes made each
// item wait for its node). The slots take their chunks from one shared store, last freed first
// (warm in the host's caches), so the wheel holds memory for the items in it at its fullest,
// not for every slot's own busiest tick (an array per slot kept 50 MiB more in the AT long run).
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
      // The next slot in use is asked for meanwhile: its first items, from the host's memory.
      Slot& s = slot(t);
      if (const std::uint64_t t2 = next_used(t + 1, kSlots - 1); t2 != kNone) {
        const Slot& s2 = slot(t2);
        const Entry* const e2 = &chunks_[s2.head].e[s2.first];
        __builtin_prefetch(e2);
        __builtin_prefetch(e2 + 1);
      }
      bool not_yet = false;
      while (s.head != kNil) {
        const Entry& first = chunks_[s.head].e[s.first];
        if (first.at > now) {  // this tick's items are not due yet
          not_yet = true;
          break;
        }
        const Item item = first.item;
        pop_front(s, t);
        if (s.head != kNil) {
          const Chunk& c = chunks_[s.head];
          prefetch(c.e[s.first].item);
          const unsigned n = s.head == s.tail ? s.end : kPerChunk;  // entries in c
          if (s.first + 1 < n) {
            look_ahead(c.e[s.first + 1].item);
          } else if (c.next != kNil) {  // (a chunk in a slot holds an item at least)
            look_ahead(chunks_[c.next].e[0].item);
          }
          if (s.first + 3 < n) {
            __builtin_prefetch(&c.e[s.first + 3]);
          } else if (c.next != kNil) {
            __builtin_prefetch(&chunks_[c.next].e[s.first + 3 - kPerChunk]);
          }
        }
        fn(item);  // (may push, and so move the chunks)
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
  static constexpr std::uint32_t kNil = ~std::uint32_t(0);
  // A slot's items, kPerChunk to a chunk (8 host lines), the chunks in a list.
  static constexpr unsigned kPerChunk = 12;
  struct alignas(64) Chunk {
    Entry e[kPerChunk];
    std::uint32_t next;
  };
  // A slot: its first and last chunks (kNil: empty), the first item not yet run in the first
  // chunk and the items in the last, and the time and scheduling order of its last item (a
  // push after it appends without reading the items).
  struct Slot {
    std::uint32_t head = kNil, tail = kNil;
    std::uint32_t first = 0, end = 0;
    std::uint64_t last_at = 0, last_seq = 0;
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
    Slot& s = slot(tick);
    if (s.head == kNil) {
      append(s, e);
      mark(tick, true);
    } else if (s.last_at < e.at || (s.last_at == e.at && s.last_seq < e.seq)) {  // the last
      append(s, e);
    } else {  // a time within the tick before another's, or an item from the far heap
      insert(s, e);
    }
  }
  std::uint32_t new_chunk() {
    std::uint32_t c;
    if (!free_chunks_.empty()) {
      c = free_chunks_.back();
      free_chunks_.pop_back();
    } else {
      c = std::uint32_t(chunks_.size());
      chunks_.emplace_back();
    }
    chunks_[c].next = kNil;
    return c;
  }
  void append(Slot& s, const Entry& e) {
    if (s.tail == kNil) {
      s.head = s.tail = new_chunk();
      s.first = s.end = 0;
    } else if (s.end == kPerChunk) {
      const std::uint32_t c = new_chunk();
      chunks_[s.tail].next = c;
      s.tail = c;
      s.end = 0;
    }
    chunks_[s.tail].e[s.end++] = e;
    s.last_at = e.at;
    s.last_seq = e.seq;
  }
  // Inserts `e` before the first item it comes before (there is one: it is not the last):
  // each item from there on moves one place back, the last one appended.
  void insert(Slot& s, Entry e) {
    std::uint32_t c = s.head;
    unsigned i = s.first;
    while (!before(e, chunks_[c].e[i])) {
      if (++i == kPerChunk) {
        c = chunks_[c].next;
        i = 0;
      }
    }
    for (;;) {
      std::swap(e, chunks_[c].e[i]);
      if (c == s.tail && i + 1 == s.end) break;
      if (++i == kPerChunk) {
        c = chunks_[c].next;
        i = 0;
      }
    }
    append(s, e);  // the last item, which it still was
  }
  void pop_front(Slot& s, std::uint64_t tick) {
    --size_;
    if (s.head == s.tail && s.first + 1 == s.end) {  // the last item
      free_chunks_.push_back(s.head);
      s.head = s.tail = kNil;
      mark(tick, false);
    } else if (++s.first == kPerChunk) {
      free_chunks_.push_back(s.head);
      s.head = chunks_[s.head].next;
      s.first = 0;
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
    if (t != kNone) {
      const Slot& s = slots_[t & (kSlots - 1)];
      return chunks_[s.head].e[s.first].at;
    }
    return far_.empty() ? kNone : far_.front().at;
  }
  void arm(sc_core::sc_event& wake, std::uint64_t at) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    armed_ = at;
    wake.cancel();
    wake.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
  }

  ExactDivider tick_;
  std::vector<Chunk> chunks_;               // every slot's items
  std::vector<std::uint32_t> free_chunks_;  // the free chunks, a stack (the last freed on top)
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
