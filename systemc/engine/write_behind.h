// WriteBehind: writes that another host thread applies behind their producer, part of the
// model's engine (docs/tlm.md, "Model and engine"). During a workload run the DRAM model hands
// its memory's writes to one (Dram::start_write_behind): the simulation thread copies each
// written line into a small ring, and the plan thread, between the ops it plans, writes them
// into the DRAM model's memory. That memory is a sparse image of the whole footprint: its
// lines are cold in the host's caches and the first write to each 4 KiB page is a page fault,
// costs the simulation thread no longer pays.
//
// What an item holds and how it is applied is the user's. Items are applied one at a time,
// in the order they were committed, so the memory ends exactly as if the producer had written
// it itself.
//
// Threads: one producer fills the ring's next slot in place (slot(), then commit()). One
// helper at a time calls apply_ready(); the producer must not read what apply() writes
// until finish(). Items are handed over in groups of `group` (a constructor argument, 1 by
// default): the helper sees a group once its last item is committed, or earlier when the
// producer calls publish(), waits for room or calls finish(). So with groups the counter the
// two threads share moves between their cores once a group, not once an item. finish() is called by
// the producer once no helper calls apply_ready() any more (the helper thread has ended or been
// joined): it applies what is left on the calling thread. A producer that finds the ring full spins
// briefly and then yields until a helper has made room, so a helper must keep calling apply_ready()
// until the producer is done.
//
// An exception thrown by apply() ends the applying (later items are dropped) and is thrown
// again by finish().
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "spin_wait.h"

namespace stu::sim {

template <class T>
class WriteBehind {
 public:
  using Apply = std::function<void(const T&)>;

  // `capacity`: slots in the ring, a power of two of at least 2. `hint`, if given, is called
  // with an item kAhead items before it is applied (a host-speed hint: what apply() will
  // touch, asked of the host's caches early; it must change nothing).
  // `group`: 1 to `capacity`.
  static constexpr std::uint64_t kAhead = 4;
  WriteBehind(std::size_t capacity, Apply apply, Apply hint = {}, std::size_t group = 1)
      : slots_(capacity), apply_(std::move(apply)), hint_(std::move(hint)), group_(group) {
    if (capacity < 2 || (capacity & (capacity - 1)) != 0)
      throw std::invalid_argument("WriteBehind: capacity must be a power of two >= 2");
    if (group < 1 || group > capacity)
      throw std::invalid_argument("WriteBehind: group must be 1 to the capacity");
  }
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Producer: the next slot to fill (its storage reused from an earlier item), waiting while
  // the ring is full. Hand it over with commit().
  T& slot() {
    if (committed_ - applied_seen_ >= slots_.size()) {
      publish();  // (the helper may be waiting for these)
      for (unsigned spins = 0;; ++spins) {
        applied_seen_ = applied_.value.load(std::memory_order_acquire);
        if (committed_ - applied_seen_ < slots_.size()) break;
        spin_wait(spins, [] { std::this_thread::yield(); });
      }
    }
    return slots_[committed_ & mask()];
  }
  void commit() {
    if (++committed_ - published_own_ >= group_) publish();
  }
  // Producer: hands over every item committed so far, whatever the group.
  void publish() {
    if (published_own_ != committed_)
      published_.value.store(published_own_ = committed_, std::memory_order_release);
  }

  // Helper: applies every item committed so far; returns how many it applied.
  std::size_t apply_ready() {
    const std::uint64_t from = applied_.value.load(std::memory_order_relaxed);
    const std::uint64_t to = published_.value.load(std::memory_order_acquire);
    if (from == to) return 0;
    if (hint_)
      for (std::uint64_t i = from; i < to && i < from + kAhead; ++i) hint_(slots_[i & mask()]);
    for (std::uint64_t i = from; i < to; ++i) {
      if (hint_ && i + kAhead < to) hint_(slots_[(i + kAhead) & mask()]);
      apply_one(slots_[i & mask()]);
    }
    applied_.value.store(to, std::memory_order_release);
    return std::size_t(to - from);
  }

  // Producer, with no helper any more: applies what is left here, then throws what apply()
  // threw, if it did.
  void finish() {
    publish();
    apply_ready();
    applied_seen_ = committed_;
    if (error_) std::rethrow_exception(error_);
  }

  // Items committed so far.
  std::uint64_t committed() const { return committed_; }

 private:
  std::size_t mask() const { return slots_.size() - 1; }
  void apply_one(const T& item) {
    if (error_) return;
    try {
      apply_(item);
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  std::vector<T> slots_;
  Apply apply_;
  Apply hint_;
  std::size_t group_;
  // The producer's own counts (its thread only).
  std::uint64_t committed_ = 0;
  std::uint64_t published_own_ = 0;  // what it last stored in published_
  std::uint64_t applied_seen_ = 0;
  // Shared between the threads, each on its own host cache line.
  SharedCounter published_;  // items committed (written by the producer)
  SharedCounter applied_;    // items applied (written by the helper, then by finish())
  // The applying thread's (the helper's, then the producer's after finish() took over).
  alignas(64) std::exception_ptr error_;
};

}  // namespace stu::sim
