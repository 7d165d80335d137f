// TimeWheel (systemc/engine/time_wheel.h), the Agenda's queue, against a binary heap of (time,
// scheduling order), the order it must keep exactly. Two runners, one per structure, start from the
// same seeded items; every item run logs (time, id) and schedules children derived from its id
// alone: at the same time, a few ticks later, within the same tick (a time not on a tick), beyond
// the wheel (far items), and in the past (late, run at once). Both runners thus see the same pushes
// in the same order relative to their own runs, so their logs must be equal. Seeded (STU_SEED
// reproduces a run).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "time_wheel.h"

namespace {

using stu::sim::TimeWheel;

constexpr std::uint64_t kTickPs = 500;
constexpr std::uint32_t kMaxItems = 40000;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The reference: a std::priority_queue of (time, scheduling order, item), the definition of
// the order, with the same interface as TimeWheel.
template <class Item>
class HeapQueue {
 public:
  void push(std::uint64_t at, const Item& item, sc_core::sc_event& wake) {
    q_.push(Entry{at, seq_++, item});
    arm(wake);
  }
  template <class Fn, class Prefetch, class LookAhead>
  void run_due(sc_core::sc_event& wake, Fn fn, Prefetch, LookAhead) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    while (!q_.empty() && q_.top().at <= now) {
      const Item item = q_.top().item;
      q_.pop();
      fn(item);
    }
    arm(wake);
  }

 private:
  struct Entry {
    std::uint64_t at, seq;
    Item item;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void arm(sc_core::sc_event& wake) {
    if (q_.empty()) return;
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t at = q_.top().at;
    wake.cancel();
    wake.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> q_;
  std::uint64_t seq_ = 0;
};

struct Log {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> runs;  // (time in ps, id)
};

template <class Queue>
class Runner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Runner);
  Runner(const sc_core::sc_module_name& n, Queue q,
         std::vector<std::pair<std::uint64_t, std::uint32_t>> seeds, std::uint64_t salt)
      : sc_module(n), q_(std::move(q)), seeds_(std::move(seeds)), salt_(salt) {
    SC_METHOD(start);  // once, at the start (a method: see test_sender.cpp)
    SC_METHOD(run);
    sensitive << ev_;
    dont_initialize();
  }
  Log log;

 private:
  void start() {
    for (const auto& [at, id] : seeds_) q_.push(at, id, ev_);
  }
  void run() {
    q_.run_due(
        ev_,
        [this](std::uint32_t id) {
          const std::uint64_t now = sc_core::sc_time_stamp().value();
          log.runs.emplace_back(now, id);
          const std::uint64_t h = mix(id ^ salt_);
          const unsigned children = 1 + unsigned(h % 3 == 0);  // 4/3 on average
          for (unsigned c = 0; c < children && made_ < kMaxItems; ++c, ++made_) {
            const std::uint64_t g = mix(h + c);
            std::uint64_t at = now;
            switch (g % 6) {
              case 0:  // now
                break;
              case 1:  // a few ticks on
                at = now + kTickPs * (1 + (g >> 8) % 40);
                break;
              case 2:  // not on a tick
                at = now + (g >> 8) % (3 * kTickPs);
                break;
              case 3:  // beyond the wheel
                at = now + kTickPs * (4096 + (g >> 8) % 20000);
                break;
              case 4:  // late
                at = now - std::min<std::uint64_t>(now, (g >> 8) % (2 * kTickPs));
                break;
              default:  // a while on
                at = now + kTickPs * (40 + (g >> 8) % 3000);
            }
            q_.push(at, next_++, ev_);
          }
        },
        [](std::uint32_t) {}, [](std::uint32_t) {});
  }
  Queue q_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> seeds_;
  std::uint64_t salt_;
  std::uint32_t next_ = 1u << 20;  // children's ids (seeds are below)
  std::uint32_t made_ = 0;
  sc_core::sc_event ev_;
};

unsigned seed_of() {
  const char* env = std::getenv("STU_SEED");
  return env ? unsigned(std::strtoul(env, nullptr, 0)) : 20261125u;
}

Runner<HeapQueue<std::uint32_t>>* heap_runner = nullptr;
Runner<TimeWheel<std::uint32_t>>* wheel_runner = nullptr;
// A wheel whose tick is 64 of the others': its slots hold many items at once, in several
// chunks, and most items that land within a tick come before others there (inserted).
constexpr std::uint64_t kCoarse = 64;
Runner<TimeWheel<std::uint32_t>>* coarse_runner = nullptr;

TEST(TimeWheel, RunsEveryItemInTheHeapsOrder) {
  sc_core::sc_start();
  const Log& a = heap_runner->log;
  const Log& b = wheel_runner->log;
  EXPECT_GT(a.runs.size(), 10000u);  // the children were scheduled, far items included
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i)
    ASSERT_EQ(a.runs[i], b.runs[i]) << "run " << i << " (seed " << seed_of() << ")";
  // Time never goes back and every item ran at or after its time (the late ones at once).
  for (std::size_t i = 1; i < b.runs.size(); ++i) ASSERT_LE(b.runs[i - 1].first, b.runs[i].first);
}

TEST(TimeWheel, KeepsTheOrderWithManyItemsInATick) {
  if (sc_core::sc_pending_activity()) sc_core::sc_start();  // (the test above may have run it)
  const Log& a = heap_runner->log;
  const Log& c = coarse_runner->log;
  ASSERT_EQ(a.runs.size(), c.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i)
    ASSERT_EQ(a.runs[i], c.runs[i]) << "run " << i << " (seed " << seed_of() << ")";
  // The test is worth something: ticks of the coarse wheel held hundreds of items.
  std::size_t most = 0, n = 0;
  for (std::size_t i = 0; i < c.runs.size(); ++i) {
    const bool same =
        i && c.runs[i].first / (kTickPs * kCoarse) == c.runs[i - 1].first / (kTickPs * kCoarse);
    n = same ? n + 1 : 1;
    most = std::max(most, n);
  }
  EXPECT_GT(most, 100u);
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const unsigned seed = seed_of();
  std::printf("TimeWheel seed %u (STU_SEED=%u reproduces)\n", seed, seed);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> seeds;
  for (std::uint32_t i = 0; i < 300; ++i) {
    std::uint64_t at = rng() % (3000 * kTickPs);
    if (i % 7 == 0) at -= at % kTickPs;                          // on a tick
    if (i % 11 == 0) at += 8000 * kTickPs;                       // far from the start
    if (i % 13 == 0 && !seeds.empty()) at = seeds.back().first;  // equal times
    seeds.emplace_back(at, i);
  }
  const std::uint64_t salt = rng();
  Runner<HeapQueue<std::uint32_t>> heap("heap", HeapQueue<std::uint32_t>(), seeds, salt);
  Runner<TimeWheel<std::uint32_t>> wheel("wheel", TimeWheel<std::uint32_t>(kTickPs), seeds, salt);
  Runner<TimeWheel<std::uint32_t>> coarse("coarse", TimeWheel<std::uint32_t>(kTickPs * kCoarse),
                                          seeds, salt);
  heap_runner = &heap;
  wheel_runner = &wheel;
  coarse_runner = &coarse;
  return RUN_ALL_TESTS();
}
