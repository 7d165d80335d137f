// FreeTimes: the cycles at which a Stage's places become free (part of the TLM model's engine,
// docs/tlm.md "Model and engine"). A multiset of cycles with three operations: add a cycle,
// take out every cycle up to now (how many), and the earliest one. Exactly what a min-heap
// does, for the one way a Stage uses it: a cycle added is never before the last `now` taken
// out up to (simulated time does not go back).
//
// Why not a heap: a stage adds a cycle for nearly every transaction and takes it out a little
// later, and a binary heap sifts through up to `depth` entries each time (the DRAM model has
// 4 places a bank, thousands): about a hundred host instructions a transaction, a few per cent
// of the AT model's host time. Most stages free their places in the order they took them (a
// bandwidth Calendar's bookings end in order), so the cycles come in a run that never goes
// down: those are kept in a FIFO (added at the back, taken from the front: O(1)); only a cycle
// below the run's last one goes to a heap beside it. The earliest is the smaller of the two
// fronts. test_engine checks it against std::priority_queue on seeded random sequences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace stu::sim {

class FreeTimes {
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
  std::deque<Cycle> run_;  // non-decreasing, front the earliest of them
  std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> rest_;
};

}  // namespace stu::sim
