// AheadFeed: a producer thread that fills items ahead of one consumer, part of the model's
// engine (docs/tlm.md, "Model and engine"). The LT and AT runs read their workload through it:
// a second host thread generates each warp op and plans its store (golden::plan) while the
// simulation thread runs the model on the ops already planned. What an item holds and how it
// is filled is the user's; the feed only hands items over, in the order they were filled.
//
// The hand-over is a ring of `capacity` slots, each reused (its storage kept) from one item to
// the next. The consumer holds one item at a time: next() gives back the item it returned
// before and returns the following one, so an item stays valid until the next call. It tells
// the producer what it gave back in groups (kReturnGroup items, at most an eighth of the ring,
// and all of it before it waits), so that the counter's host line moves between the two
// threads' cores once a group, not once an item.
//
// Waiting costs the consumer no system call. When the ring is full the producer naps (short
// sleeps, so an idle producer takes no core) until half of it is free again; the consumer
// waits for a slow producer by spinning briefly and then yielding.
//
// Deterministic: the items come in fill order whatever the threads' timing. An exception
// thrown by fill() ends the feed and is thrown again by next() on the consumer's thread.
//
// Side work: the producer thread may also run work the consumer hands off to it (`side`,
// WriteBehind::apply_ready): after each item, while it waits for room, and after the last
// item until stop(). It must not throw.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "spin_wait.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace stu::sim {

template <class T>
class AheadFeed {
 public:
  // Writes the next item into `slot` (reusing its storage); false: no more items (the slot
  // is not handed over).
  using Fill = std::function<bool(T&)>;
  using Side = std::function<void()>;

  // `capacity`: slots in the ring, a power of two of at least 2. `side`: the side work, if any.
  static constexpr std::size_t kReturnGroup = 16;
  AheadFeed(std::size_t capacity, Fill fill, Side side = {})
      : slots_(capacity), fill_(std::move(fill)), side_(std::move(side)) {
    if (capacity < 2 || (capacity & (capacity - 1)) != 0)
      throw std::invalid_argument("AheadFeed: capacity must be a power of two >= 2");
    return_group_ = std::max<std::size_t>(1, std::min(kReturnGroup, capacity / 8));
    producer_ = std::thread([this] { produce(); });
  }
  AheadFeed(const AheadFeed&) = delete;
  AheadFeed& operator=(const AheadFeed&) = delete;
  ~AheadFeed() { stop(); }

  // The next item, or nullptr at the end; gives back the item returned before.
  T* next() {
    if (taken_ - returned_own_ >= return_group_) give_back();
    if (!available(taken_)) return nullptr;
    return &slots_[taken_++ & mask()];
  }

  // The item next() will return after `later` more calls (peek(): the next one), when it is
  // filled already; nullptr when it is not (yet) or at the end. A look ahead for host-speed
  // hints: the consumer must not change it.
  const T* peek(std::uint64_t later = 0) {
    const std::uint64_t i = taken_ + later;
    if (seen_ <= i) seen_ = produced_.value.load(std::memory_order_acquire);
    return seen_ > i ? &slots_[i & mask()] : nullptr;
  }

  // Stops the producer (items not taken are dropped) and waits for it. Idempotent.
  void stop() {
    if (!producer_.joinable()) return;
    stop_.store(true, std::memory_order_relaxed);
    producer_.join();
  }

 private:
  std::size_t mask() const { return slots_.size() - 1; }

  // Consumer: tells the producer every item before the one it holds is given back.
  void give_back() {
    if (returned_own_ != taken_)
      returned_.value.store(returned_own_ = taken_, std::memory_order_release);
  }
  // Consumer: waits until item `i` is filled; false when the feed ended before it.
  bool available(std::uint64_t i) {
    if (seen_ <= i) give_back();  // (it may wait: what it holds goes back first)
    for (unsigned spins = 0; seen_ <= i; ++spins) {
      seen_ = produced_.value.load(std::memory_order_acquire);
      if (seen_ > i) break;
      if (ended_.load(std::memory_order_acquire)) {
        seen_ = produced_.value.load(std::memory_order_acquire);
        if (seen_ > i) break;
        if (error_) std::rethrow_exception(error_);
        return false;
      }
      spin_wait(spins, [] { std::this_thread::yield(); });
    }
    return true;
  }

  // Producer: waits until the consumer has given back `target` items (or stop()).
  void wait_returned(std::uint64_t target) {
    for (unsigned spins = 0; !stop_.load(std::memory_order_relaxed); ++spins) {
      returned_cache_ = returned_.value.load(std::memory_order_acquire);
      if (returned_cache_ >= target) return;
      if (side_) side_();
      spin_wait(spins, [] { std::this_thread::sleep_for(std::chrono::microseconds(20)); });
    }
  }

  void produce() {
#ifdef __linux__
    prctl(PR_SET_TIMERSLACK, 1000UL);  // naps of 20 us, not 20 us + the default 50 us slack
#endif
    const std::uint64_t n = slots_.size();
    try {
      for (std::uint64_t i = 0; !stop_.load(std::memory_order_relaxed); ++i) {
        if (i - returned_cache_ >= n)
          returned_cache_ = returned_.value.load(std::memory_order_acquire);
        if (i - returned_cache_ >= n) {  // full: wait until half the ring is free
          wait_returned(i - n / 2);
          if (stop_.load(std::memory_order_relaxed)) break;
        }
        if (!fill_(slots_[i & mask()])) break;
        produced_.value.store(i + 1, std::memory_order_release);
        if (side_) side_();
      }
    } catch (...) {
      error_ = std::current_exception();
    }
    ended_.store(true, std::memory_order_release);
    if (!side_) return;
    // The consumer still runs the items taken, and may hand off side work until stop().
    for (unsigned spins = 0; !stop_.load(std::memory_order_relaxed); ++spins) {
      side_();
      spin_wait(spins, [] { std::this_thread::sleep_for(std::chrono::microseconds(20)); });
    }
  }

  std::vector<T> slots_;
  Fill fill_;
  Side side_;
  // Shared between the threads, each on its own host cache line.
  SharedCounter produced_;  // items filled (written by the producer)
  SharedCounter returned_;  // items given back (written by the consumer)
  alignas(64) std::atomic<bool> ended_{false};
  std::atomic<bool> stop_{false};
  std::exception_ptr error_;  // written before ended_ (release), read after it (acquire)
  // The consumer's own counts.
  alignas(64) std::uint64_t taken_ = 0;  // items next() returned
  std::uint64_t seen_ = 0;               // produced_ as last read
  std::uint64_t returned_own_ = 0;       // what it last stored in returned_
  std::size_t return_group_ = 1;         // gives back in groups of this many items
  // The producer's own.
  alignas(64) std::uint64_t returned_cache_ = 0;
  std::thread producer_;
};

}  // namespace stu::sim
