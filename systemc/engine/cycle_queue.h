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
// order), so those are kept in a FIFO (a RingFifo: added at the back, taken from the front,
// O(1)); only a cycle below the FIFO's last one goes to a heap beside it. The earliest is the
// smaller of the two fronts. test_engine checks it against std::priority_queue on seeded random
// sequences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "ring_fifo.h"

namespace stu::sim {

class CycleQueue {
 public:
  using Cycle = std::uint64_t;

  bool empty() const { return run_.empty() && rest_.empty(); }
  std::size_t size() const { return run_.size() + rest_.size(); }
  // The earliest cycle (not empty()).
  Cycle earliest() const {
    if (rest_.empty()) return run_.front();
    if (run_.empty()) return rest_.top();
    return run_.front() < rest_.top() ? run_.front() : rest_.top();
  }
  void add(Cycle c) {
    if (run_.empty() || c >= run_.back()) {
      run_.push_back(c);
    } else {
      rest_.push(c);
    }
  }
  // Takes out the earliest cycle (not empty()).
  void take_earliest() {
    if (rest_.empty() || (!run_.empty() && run_.front() <= rest_.top())) {
      run_.pop_front();
    } else {
      rest_.pop();
    }
  }
  // Takes out every cycle <= now; returns how many.
  unsigned take_due(Cycle now) {
    unsigned n = 0;
    while (!run_.empty() && run_.front() <= now) {
      run_.pop_front();
      ++n;
    }
    while (!rest_.empty() && rest_.top() <= now) {
      rest_.pop();
      ++n;
    }
    return n;
  }

 private:
  RingFifo<Cycle> run_;  // non-decreasing, front the earliest of them
  std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> rest_;
};

}  // namespace stu::sim
