// RingFifo: a first-in first-out queue in one array used as a ring (part of the TLM model's
// engine, docs/tlm.md "Model and engine"): push at the back, pop at the front, read any entry
// by its place from the front. The array doubles when full and never shrinks, so a queue that
// runs for a whole simulation reuses the same few host cache lines, where a std::deque
// allocates a block as its back moves on and frees one as its front does. The modules' queues
// that every transaction passes through (a stage's waiting requests, a sender's queue, the
// L2 slices' allocated lines, the L1's credits) are RingFifos. test_engine checks it against
// std::deque on seeded random operations.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace stu::sim {

template <class T>
class RingFifo {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The entries from the front (i < size()).
  T& operator[](std::size_t i) { return ring_[(head_ + i) & mask_]; }
  const T& operator[](std::size_t i) const { return ring_[(head_ + i) & mask_]; }
  T& front() { return ring_[head_]; }
  const T& front() const { return ring_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }
  void push_back(const T& v) {
    if (size_ == ring_.size()) grow();
    ring_[(head_ + size_) & mask_] = v;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  void grow() {  // twice the ring (16 at first), the entries first in it, in order
    std::vector<T> r(ring_.empty() ? 16 : 2 * ring_.size());
    for (std::size_t i = 0; i < size_; ++i) r[i] = std::move((*this)[i]);
    ring_ = std::move(r);
    head_ = 0;
    mask_ = ring_.size() - 1;
  }
  std::vector<T> ring_;  // a power-of-two size
  std::size_t mask_ = 0, head_ = 0, size_ = 0;
};

}  // namespace stu::sim
