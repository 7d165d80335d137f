// LineMap: a small value per line address, in one flat open-addressing table (linear probing,
// backward-shift deletion, no tombstones), part of the model's engine (docs/tlm.md, "Model and
// engine"). The L2 slices keep their partly written and sent-ahead sectors in it: tens of
// thousands of lines each, looked up on every write. A lookup touches one or two host cache
// lines where std::unordered_map follows a bucket to a node allocated apart (a third of the
// host time of the `scatter` workload went to those lookups). The contents and every answer
// are those of a map: the layout is a host-speed matter only.
//
// Keys are line addresses (multiples of 128): the odd value 1 marks a free slot, so it is not a
// valid key. Pointers returned by find() and try_emplace() are valid until the next insertion
// or erasure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace stu::sim {

template <typename V>
class LineMap {
 public:
  static constexpr std::uint64_t kFree = 1;

  LineMap() { rehash(kMinSlots); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Room for n lines without growing.
  void reserve(std::size_t n) {
    std::size_t want = kMinSlots;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
  }

  V* find(std::uint64_t line) {
    for (std::size_t i = home(line);; i = next(i)) {
      Slot& s = slots_[i];
      if (s.key == line) return &s.value;
      if (s.key == kFree) return nullptr;
    }
  }
  const V* find(std::uint64_t line) const { return const_cast<LineMap*>(this)->find(line); }

  // The line's value, inserted as `v` when absent; true when it was inserted.
  std::pair<V*, bool> try_emplace(std::uint64_t line, V v) {
    check(line);
    if (2 * (size_ + 1) > slots_.size()) rehash(2 * slots_.size());
    for (std::size_t i = home(line);; i = next(i)) {
      Slot& s = slots_[i];
      if (s.key == line) return {&s.value, false};
      if (s.key == kFree) {
        s.key = line;
        s.value = v;
        ++size_;
        return {&s.value, true};
      }
    }
  }
  V& operator[](std::uint64_t line) { return *try_emplace(line, V{}).first; }

  // Removes the line; false when it was not there.
  bool erase(std::uint64_t line) {
    std::size_t i = home(line);
    for (;; i = next(i)) {
      if (slots_[i].key == line) break;
      if (slots_[i].key == kFree) return false;
    }
    // Backward shift: move later entries of the probe run into the hole while their home slot
    // does not lie cyclically in (hole, j], so every entry stays reachable from its home.
    std::size_t hole = i;
    for (std::size_t j = next(i); slots_[j].key != kFree; j = next(j)) {
      const std::size_t h = home(slots_[j].key);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole].key = kFree;
    --size_;
    return true;
  }

 private:
  static constexpr std::size_t kMinSlots = 16;
  struct Slot {
    std::uint64_t key = kFree;
    V value{};
  };
  static void check(std::uint64_t line) {
    if (line == kFree) throw std::logic_error("LineMap: 1 is not a line address");
  }
  std::size_t home(std::uint64_t line) const {
    return std::size_t((line * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void rehash(std::size_t n) {  // n: a power of two
    std::vector<Slot> old(n);
    old.swap(slots_);
    shift_ = 64;
    for (std::size_t k = n; k > 1; k >>= 1) --shift_;
    size_ = 0;
    for (const Slot& s : old)
      if (s.key != kFree) *try_emplace(s.key, s.value).first = s.value;
  }

  std::vector<Slot> slots_;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace stu::sim
