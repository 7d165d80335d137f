// CycleQueue: a multiset of cycles, earliest first (part of the TLM model's engine, docs/tlm.md
// "Model and engine"): add a cycle, take out every cycle up to now (how many), take out the
// earliest, read the earliest. What a min-heap does, for any order of additions; faster for
// the order a model's cycles mostly come in. A Stage keeps the cycles its places free at, the
// LSU (LT) the cycles its SM's outstanding stores are acknowledged at.
//
// Why not a heap: such a queue gets a cycle for nearly every transaction and gives it back a
// little later, and a binary heap sifts through up to all its entries each time (the DRAM
// model has 4 places a bank, thousands): about a hundred host instructions a transaction.
// Most cycles come in an order that never goes down (a bandwidth Calendar's bookings end in
// order), so those are kept in a FIFO (added at the back, taken from the front: O(1); a ring
// in one array that only grows, so the same few host cache lines are reused, where a
// std::deque would allocate and free blocks as it goes); only a cycle below the FIFO's last one
// goes to a heap beside it. The earliest is the smaller of the
// two fronts. test_engine checks it against std::priority_queue on seeded random sequences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace stu::sim {

class CycleQueue {
 public:
  using Cycle = std::uint64_t;

  bool empty() const { return run_size_ == 0 && rest_.empty(); }
  std::size_t size() const { return run_size_ + rest_.size(); }
  // The earliest cycle (not empty()).
  Cycle earliest() const {
    if (rest_.empty()) return run_front();
    if (run_size_ == 0) return rest_.top();
    return run_front() < rest_.top() ? run_front() : rest_.top();
  }
  void add(Cycle c) {
    if (run_size_ == 0 || c >= run_back_) {
      if (run_size_ == ring_.size()) grow();
      ring_[(head_ + run_size_) & (ring_.size() - 1)] = c;
      ++run_size_;
      run_back_ = c;
    } else {
      rest_.push(c);
    }
  }
  // Takes out the earliest cycle (not empty()).
  void take_earliest() {
    if (rest_.empty() || (run_size_ != 0 && run_front() <= rest_.top())) {
      pop_run();
    } else {
      rest_.pop();
    }
  }
  // Takes out every cycle <= now; returns how many.
  unsigned take_due(Cycle now) {
    unsigned n = 0;
    while (run_size_ != 0 && run_front() <= now) {
      pop_run();
      ++n;
    }
    while (!rest_.empty() && rest_.top() <= now) {
      rest_.pop();
      ++n;
    }
    return n;
  }

 private:
  Cycle run_front() const { return ring_[head_]; }
  void pop_run() {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --run_size_;
  }
  void grow() {  // twice the ring (16 at first), the run first in it
    std::vector<Cycle> r(ring_.empty() ? 16 : 2 * ring_.size());
    for (std::size_t i = 0; i < run_size_; ++i) r[i] = ring_[(head_ + i) & (ring_.size() - 1)];
    ring_ = std::move(r);
    head_ = 0;
  }
  // The run: non-decreasing, in a ring of a power-of-two size (run_size_ from head_).
  std::vector<Cycle> ring_;
  std::size_t head_ = 0, run_size_ = 0;
  Cycle run_back_ = 0;  // its last cycle (while run_size_ > 0)
  std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> rest_;
};

}  // namespace stu::sim
