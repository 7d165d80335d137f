// The TLM model's engine (systemc/engine/, docs/tlm.md "Model and engine"): the look-ahead feed
// (AheadFeed) and its side work, the writes left behind to another thread (WriteBehind), the
// payload pool as a TLM-2.0 memory manager and set_line, the arena as a standard
// memory resource, a stage's free times against a heap, and the cache hints' victim against the
// golden cache's own writes (seeded: STU_SEED). The pool needs the SystemC library, so this is a
// SystemC process (no module is elaborated).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ahead_feed.h"
#include "cache_hints.h"
#include "cycle_queue.h"
#include "host_arena.h"
#include "line_map.h"
#include "payload.h"
#include "payload_pool.h"
#include "ring_fifo.h"
#include "stu/golden/cache.h"
#include "write_behind.h"

namespace stu::sim {
namespace {

using golden::CacheData;
using golden::CacheGeometry;
using golden::CacheWrite;
using golden::CacheWriteResult;
using golden::EvictClass;
using golden::kLineBytes;
using golden::SectoredCache;

// --- AheadFeed ---------------------------------------------------------------------------------

struct FedItem {
  std::uint64_t n = 0;
  std::vector<std::uint64_t> data;  // storage reused from one item to the next
};

// Every item in fill order, none lost or repeated, through a ring many times over, with the
// consumer sometimes slower than the producer and sometimes faster; each item's storage intact
// while held. A ring of 4 gives back every item; one of 64, in groups of 8.
void hand_over_every_item_in_order(std::size_t capacity) {
  constexpr std::uint64_t kItems = 20000;
  std::uint64_t filled = 0;
  AheadFeed<FedItem> feed(capacity, [&](FedItem& it) {
    if (filled == kItems) return false;
    it.n = filled++;
    it.data.assign(3 + it.n % 5, it.n * 7);
    if (it.n % 1000 < 10) std::this_thread::sleep_for(std::chrono::microseconds(50));
    return true;
  });
  std::uint64_t want = 0;
  while (FedItem* it = feed.next()) {
    ASSERT_EQ(it->n, want);
    ASSERT_EQ(it->data.size(), 3 + want % 5);
    if (want % 1500 < 10) std::this_thread::sleep_for(std::chrono::microseconds(50));
    for (std::uint64_t v : it->data) ASSERT_EQ(v, want * 7);
    ++want;
  }
  EXPECT_EQ(want, kItems);
  EXPECT_EQ(feed.next(), nullptr);  // the end stays the end
}

TEST(AheadFeed, HandsOverEveryItemInOrder) {
  hand_over_every_item_in_order(4);
  hand_over_every_item_in_order(64);
}

// peek() shows the item after the one held, once filled, without taking it.
TEST(AheadFeed, PeekShowsTheNextItemWithoutTakingIt) {
  std::uint64_t filled = 0;
  AheadFeed<FedItem> feed(8, [&](FedItem& it) {
    if (filled == 3) return false;
    it.n = filled++;
    return true;
  });
  FedItem* a = feed.next();
  ASSERT_NE(a, nullptr);
  const FedItem* p = nullptr;
  while (!(p = feed.peek())) std::this_thread::yield();
  EXPECT_EQ(p->n, 1u);
  EXPECT_EQ(a->n, 0u);  // still held
  FedItem* b = feed.next();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b, p);
  EXPECT_EQ(b->n, 1u);
  ASSERT_NE(feed.next(), nullptr);
  EXPECT_EQ(feed.peek(), nullptr);  // nothing after the last
  EXPECT_EQ(feed.next(), nullptr);
}

// An exception in the producer ends the feed after the items filled before it and is thrown
// again on the consumer's thread; a feed stopped early (or destroyed) with items not taken
// ends its thread; the capacity must be a power of two.
TEST(AheadFeed, AnErrorIsThrownToTheConsumerAndStopEndsTheThread) {
  std::uint64_t filled = 0;
  AheadFeed<FedItem> bad(4, [&](FedItem& it) {
    if (filled == 5) throw std::runtime_error("trace line 6: bad");
    it.n = filled++;
    return true;
  });
  for (std::uint64_t i = 0; i < 5; ++i) {
    FedItem* it = bad.next();
    ASSERT_NE(it, nullptr);
    EXPECT_EQ(it->n, i);
  }
  EXPECT_THROW(bad.next(), std::runtime_error);

  std::atomic<std::uint64_t> endless{0};
  {
    AheadFeed<FedItem> feed(8, [&](FedItem& it) {
      it.n = endless.fetch_add(1);
      return true;
    });
    ASSERT_NE(feed.next(), nullptr);
    feed.stop();
    feed.stop();  // idempotent
  }
  EXPECT_LE(endless.load(), 9u);  // a full ring (8) and the one held, no more
  EXPECT_THROW(AheadFeed<FedItem>(6, [](FedItem&) { return false; }), std::invalid_argument);
}

// --- WriteBehind ------------------------------------------------------------------------------

struct Write {
  std::uint64_t n = 0;
  std::uint64_t key = 0;
};

// A helper thread applies every write in commit order, none lost or repeated, through a ring
// of 4 slots many times over (the producer waits while it is full), and finish() applies what
// the helper left. Each write's key lands in a small table, so a later write to a key must
// land after an earlier one: the table ends as the producer's own writes would leave it.
// Handed over one write at a time, and in groups of 3 (which the ring's 4 slots do not divide:
// the producer hands over a part group when it waits for room, finish() the last one).
void apply_every_write_in_commit_order(std::size_t group) {
  constexpr std::uint64_t kWrites = 20000;
  std::vector<std::uint64_t> applied;
  std::array<std::uint64_t, 16> table{};
  WriteBehind<Write> wb(
      4,
      [&](const Write& w) {
        applied.push_back(w.n);
        table[w.key] = w.n;
      },
      {}, group);
  std::atomic<bool> done{false};
  std::thread helper([&] {
    for (std::uint64_t k = 0; !done.load(std::memory_order_relaxed); ++k) {
      wb.apply_ready();
      if (k % 1000 < 3) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  std::array<std::uint64_t, 16> want{};
  for (std::uint64_t n = 0; n < kWrites; ++n) {
    Write& w = wb.slot();
    w.n = n;
    w.key = (n * 7) % 16;
    want[w.key] = n;
    wb.commit();
  }
  done.store(true);
  helper.join();
  wb.finish();
  ASSERT_EQ(applied.size(), kWrites);
  for (std::uint64_t n = 0; n < kWrites; ++n) ASSERT_EQ(applied[n], n);
  EXPECT_EQ(table, want);
  EXPECT_EQ(wb.committed(), kWrites);
}

TEST(WriteBehind, AppliesEveryWriteInCommitOrder) {
  apply_every_write_in_commit_order(1);
  apply_every_write_in_commit_order(3);
}

// In groups of 4 the helper sees writes only once a group is committed, or when the producer
// publishes the part group; finish() hands over and applies the rest. The group must be 1 to
// the capacity.
TEST(WriteBehind, HandsOverInGroups) {
  std::vector<std::uint64_t> applied;
  WriteBehind<Write> wb(  // (16 slots: the ring never fills here)
      16, [&](const Write& w) { applied.push_back(w.n); }, {}, 4);
  std::uint64_t n = 0;
  const auto commit = [&](int k) {
    for (; k > 0; --k) {
      wb.slot().n = n++;
      wb.commit();
    }
  };
  commit(3);
  EXPECT_EQ(wb.apply_ready(), 0u);  // a part group: not handed over yet
  commit(1);
  EXPECT_EQ(wb.apply_ready(), 4u);
  commit(2);
  EXPECT_EQ(wb.apply_ready(), 0u);
  wb.publish();
  EXPECT_EQ(wb.apply_ready(), 2u);
  wb.publish();  // nothing new
  EXPECT_EQ(wb.apply_ready(), 0u);
  commit(5);  // a group and one more
  EXPECT_EQ(wb.apply_ready(), 4u);
  wb.finish();
  EXPECT_EQ(applied, (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  const auto none = [](const Write&) {};
  EXPECT_THROW(WriteBehind<Write>(8, none, {}, 0), std::invalid_argument);
  EXPECT_THROW(WriteBehind<Write>(8, none, {}, 9), std::invalid_argument);
  EXPECT_NO_THROW(WriteBehind<Write>(8, none, {}, 8));
}

// With no helper, finish() applies everything on the producer's thread; a write that throws
// drops the writes after it, and finish() throws it; the capacity must be a power of two.
TEST(WriteBehind, FinishAppliesTheRestAndThrowsAWritesError) {
  std::vector<std::uint64_t> applied;
  WriteBehind<Write> wb(8, [&](const Write& w) {
    if (w.n == 5) throw std::runtime_error("no memory for page 5");
    applied.push_back(w.n);
  });
  for (std::uint64_t n = 0; n < 8; ++n) {
    wb.slot().n = n;
    wb.commit();
  }
  EXPECT_EQ(wb.apply_ready(), 8u);
  EXPECT_EQ(wb.apply_ready(), 0u);  // nothing new
  EXPECT_THROW(wb.finish(), std::runtime_error);
  EXPECT_EQ(applied, (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));

  std::vector<std::uint64_t> later;
  WriteBehind<Write> ok(4, [&](const Write& w) { later.push_back(w.n); });
  for (std::uint64_t n = 0; n < 3; ++n) {
    ok.slot().n = n;
    ok.commit();
  }
  ok.finish();
  EXPECT_EQ(later, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_THROW(WriteBehind<Write>(6, [](const Write&) {}), std::invalid_argument);
}

// The feed's producer thread runs the side work between items and, after the last item, until
// stop(): writes committed after the workload has ended are still applied, through a ring
// smaller than their number. (The writes wait for room with a deadline here, so that a feed
// without the side work fails the test instead of hanging it.)
TEST(AheadFeed, SideWorkGoesOnAfterTheLastItem) {
  std::vector<std::uint64_t> applied;
  std::atomic<std::uint64_t> count{0};
  WriteBehind<Write> wb(4, [&](const Write& w) {
    applied.push_back(w.n);
    count.fetch_add(1, std::memory_order_release);
  });
  std::uint64_t filled = 0;
  AheadFeed<FedItem> feed(
      4,
      [&](FedItem& it) {
        if (filled == 3) return false;
        it.n = filled++;
        return true;
      },
      [&] { wb.apply_ready(); });
  std::uint64_t n = 0;
  const auto write = [&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (n - count.load(std::memory_order_acquire) >= 4) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    wb.slot().n = n++;
    wb.commit();
    return true;
  };
  while (const FedItem* it = feed.next()) {  // one write per item while the feed runs ...
    ASSERT_TRUE(write()) << "no room after " << n << " writes";
    EXPECT_LT(it->n, 3u);
  }
  for (int i = 0; i < 100; ++i)  // ... and many after its last item
    ASSERT_TRUE(write()) << "no room after " << n << " writes: the side work stopped";
  feed.stop();
  wb.finish();
  ASSERT_EQ(applied.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(applied[i], i);
}

uint64_t seed_from_env() {
  const char* env = std::getenv("STU_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 20261127u;
}

struct Payload {
  std::array<uint8_t, kLineBytes> data{};
};

// A write of bytes [first, first+n) of `line`, byte i holding value + i.
CacheWrite wr(uint64_t line, unsigned first, unsigned n, Payload& p, uint8_t value,
              std::optional<EvictClass> cls) {
  for (unsigned i = first; i < first + n; ++i) p.data[i] = uint8_t(value + i);
  CacheWrite w;
  w.line = line;
  for (unsigned i = first; i < first + n; ++i) w.bytes.set(i);
  w.data = p.data.data();
  w.cls = cls;
  return w;
}

// set_line's byte enables for whole halves of a line (set_line writes those without its table)
// and for masks mixing whole and partial halves: exactly the mask's bytes enabled.
TEST(PayloadPool, SetLineEnablesWholeAndPartialHalves) {
  PayloadPool pool;
  tlm::tlm_generic_payload& p = pool.acquire();
  const std::uint64_t words[] = {0, ~std::uint64_t(0), 0x00000000FFFFFFFFull,
                                 0x8000000000000001ull};
  std::array<std::uint8_t, golden::kLineBytes> src{};
  for (const std::uint64_t lo : words) {
    for (const std::uint64_t hi : words) {
      golden::LineByteMask m;
      m.lo = lo;
      m.hi = hi;
      std::memset(p.get_byte_enable_ptr(), 0x5A, golden::kLineBytes);  // stale bytes
      set_line(p, 0x80, m, src.data());
      for (unsigned i = 0; i < golden::kLineBytes; ++i)
        ASSERT_EQ(p.get_byte_enable_ptr()[i], m.test(i) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED)
            << std::hex << "lo " << lo << " hi " << hi << std::dec << " byte " << i;
    }
  }
  p.release();
}

// --- RingFifo --------------------------------------------------------------------------------

// RingFifo holds what a std::deque used as a FIFO holds, in order, through growth and
// wrap-around: random pushes and pops (in runs, so that the queue grows, drains and grows again),
// every entry read by its place after each step.
TEST(RingFifo, HoldsWhatADequeHolds) {
  const uint64_t seed = seed_from_env();
  std::cout << "RingFifo seed " << seed << " (STU_SEED)\n";
  std::mt19937_64 rng(seed);
  stu::sim::RingFifo<uint64_t> ring;
  std::deque<uint64_t> ref;
  for (int step = 0; step < 20000; ++step) {
    const bool grow_phase = (step / 500) % 2 == 0;
    if (rng() % 8 < (grow_phase ? 5u : 2u)) {
      const uint64_t v = rng();
      ring.push_back(v);
      ref.push_back(v);
    } else if (!ref.empty()) {
      ASSERT_EQ(ring.front(), ref.front()) << "step " << step;
      ring.pop_front();
      ref.pop_front();
    }
    ASSERT_EQ(ring.size(), ref.size()) << "step " << step;
    ASSERT_EQ(ring.empty(), ref.empty()) << "step " << step;
    if (!ref.empty()) {
      ASSERT_EQ(ring.back(), ref.back()) << "step " << step;
      const std::size_t i = std::size_t(rng() % ref.size());
      ASSERT_EQ(ring[i], ref[i]) << "step " << step << " entry " << i;
    }
  }
  ring.clear();
  EXPECT_TRUE(ring.empty());
  ring.push_back(7);
  EXPECT_EQ(ring.front(), 7u);
}

// --- CycleQueue -----------------------------------------------------------------------------

// CycleQueue answers as a min-heap does (std::priority_queue, the structure it replaced in
// Stage and the LSU), for what they do: time goes forward in steps; at each step cycles are
// added, none before now (in order mostly, as bandwidth bookings end, with some out of order
// and some far ahead), now and then the earliest is taken out (the LSU when its SM is full),
// every cycle up to now is taken out, and the earliest is read.
TEST(CycleQueue, AnswersAsAHeapDoes) {
  const uint64_t seed = seed_from_env();
  std::cout << "CycleQueue seed " << seed << " (STU_SEED)\n";
  std::mt19937_64 rng(seed);
  stu::sim::CycleQueue ft;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap;
  uint64_t now = 0, last_in_order = 0;
  for (int step = 0; step < 20000; ++step) {
    now += rng() % 4;  // 0..3 cycles on (several steps in one cycle too)
    const int adds = int(rng() % 4);
    for (int a = 0; a < adds; ++a) {
      uint64_t c;
      switch (rng() % 8) {
        case 0:  // out of order: anywhere from now to a little ahead
          c = now + rng() % 50;
          break;
        case 1:  // far ahead
          c = now + 1000 + rng() % 5000;
          break;
        case 2:  // now exactly
          c = now;
          break;
        default:  // the common case: after the last one in order
          c = std::max(now, last_in_order) + rng() % 5;
          last_in_order = c;
      }
      ft.add(c);
      heap.push(c);
    }
    ASSERT_EQ(ft.empty(), heap.empty()) << "step " << step;
    ASSERT_EQ(ft.size(), heap.size()) << "step " << step;
    if (!heap.empty()) {
      ASSERT_EQ(ft.earliest(), heap.top()) << "step " << step;
    }
    if (!heap.empty() && rng() % 5 == 0) {  // the LSU takes out the earliest when full
      ft.take_earliest();
      heap.pop();
      ASSERT_EQ(ft.size(), heap.size()) << "step " << step;
      if (!heap.empty()) {
        ASSERT_EQ(ft.earliest(), heap.top()) << "step " << step;
      }
    }
    if (rng() % 3 == 0) {  // a stage takes out the due places only now and then
      unsigned due = 0;
      while (!heap.empty() && heap.top() <= now) {
        heap.pop();
        ++due;
      }
      ASSERT_EQ(ft.take_due(now), due) << "step " << step;
      if (!heap.empty()) {
        ASSERT_EQ(ft.earliest(), heap.top()) << "step " << step;
      }
    }
  }
  EXPECT_EQ(ft.take_due(~uint64_t(0)), heap.size());
  EXPECT_TRUE(ft.empty());
}

// --- PayloadPool ---------------------------------------------------------------------------

// The pool is a TLM-2.0 memory manager: a payload comes with one reference and both extensions
// (found by get_extension), goes back on its last release() and is handed out again; a
// reference taken by a module keeps it out of the pool until that module lets go.
TEST(PayloadPool, IsATlmMemoryManager) {
  PayloadPool pool;
  tlm::tlm_generic_payload& a = pool.acquire();
  EXPECT_TRUE(a.has_mm());
  EXPECT_EQ(a.get_ref_count(), 1);
  EXPECT_NE(a.get_extension<StoreExtension>(), nullptr);
  EXPECT_NE(a.get_extension<RouteExtension>(), nullptr);
  EXPECT_EQ(a.get_command(), tlm::TLM_WRITE_COMMAND);
  tlm::tlm_generic_payload& b = pool.acquire();
  EXPECT_NE(&a, &b);
  EXPECT_EQ(pool.allocated(), 2u);
  EXPECT_EQ(pool.in_use(), 2u);
  a.acquire();  // a second holder
  a.release();
  EXPECT_EQ(pool.in_use(), 2u);  // still held once
  a.release();
  EXPECT_EQ(pool.in_use(), 1u);
  tlm::tlm_generic_payload& c = pool.acquire();  // a again, not a new one
  EXPECT_EQ(&c, &a);
  EXPECT_EQ(pool.allocated(), 2u);
  EXPECT_EQ(c.get_ref_count(), 1);
  // free() of a payload already in the pool (two owners): a model bug, reported.
  c.release();
  EXPECT_THROW(pool.free(&c), std::logic_error);
  b.release();
  EXPECT_EQ(pool.in_use(), 0u);
}

// set_line: the address, the data, the byte enables (TLM_BYTE_ENABLED exactly on the mask's
// bytes) and the extension's mask, all of one line.
TEST(PayloadPool, SetLineWritesEnablesAndMaskAlike) {
  PayloadPool pool;
  tlm::tlm_generic_payload& p = pool.acquire();
  golden::LineByteMask m;
  m.set_range(3, 5);    // bytes 3..7
  m.set_range(64, 1);   // byte 64
  m.set_range(120, 8);  // bytes 120..127
  std::array<std::uint8_t, golden::kLineBytes> src{};
  for (unsigned i = 0; i < golden::kLineBytes; ++i) src[i] = std::uint8_t(i + 1);
  set_line(p, 0x4080, m, src.data());
  EXPECT_EQ(p.get_address(), 0x4080u);
  EXPECT_EQ(p.get_data_length(), golden::kLineBytes);
  EXPECT_EQ(p.get_byte_enable_length(), golden::kLineBytes);
  EXPECT_EQ(p.get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(store_ext(p).bytes, m);
  for (unsigned i = 0; i < golden::kLineBytes; ++i) {
    const bool on = (i >= 3 && i < 8) || i == 64 || i >= 120;
    EXPECT_EQ(p.get_byte_enable_ptr()[i], on ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED) << i;
    EXPECT_EQ(p.get_data_ptr()[i], std::uint8_t(i + 1)) << i;
  }
  p.release();
}

// A payload of the model's path without a StoreExtension is a wiring error, reported.
TEST(PayloadPool, StoreExtIsRequired) {
  tlm::tlm_generic_payload plain;
  EXPECT_THROW(store_ext(plain), std::logic_error);
  RouteExtension& r = route_of(plain);  // attached on demand, owned by the payload
  EXPECT_EQ(&r, plain.get_extension<RouteExtension>());
  EXPECT_EQ(r.tag, 0u);
}

// --- HostArena -------------------------------------------------------------------------------

TEST(HostArena, HandsOutZeroedAlignedDisjointMemory) {
  HostArena arena(HostArena::kPage);  // blocks of one 2 MiB page
  std::vector<std::pair<char*, size_t>> got;
  for (size_t bytes : {size_t(1), size_t(100), size_t(64), size_t(4096), size_t(1) << 20}) {
    char* p = static_cast<char*>(arena.allocate(bytes));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(p[i], 0) << bytes << " byte " << i;
    std::memset(p, 0x5A, bytes);
    got.emplace_back(p, bytes);
  }
  for (size_t i = 0; i < got.size(); ++i)
    for (size_t j = i + 1; j < got.size(); ++j)
      EXPECT_TRUE(got[i].first + got[i].second <= got[j].first ||
                  got[j].first + got[j].second <= got[i].first)
          << i << " overlaps " << j;
  // 1 + 100 + 64 + 4096 + 1 MiB, each rounded up to 64 bytes.
  EXPECT_EQ(arena.used(), size_t(64 + 128 + 64 + 4096 + (1 << 20)));
  EXPECT_EQ(arena.reserved(), HostArena::kPage);
}

TEST(HostArena, GrowsByBlocksAndTakesLargeArraysWhole) {
  HostArena arena(HostArena::kPage);
  char* a = static_cast<char*>(arena.allocate(HostArena::kPage - 64));
  char* b = static_cast<char*>(arena.allocate(128));  // does not fit: a second block
  EXPECT_EQ(arena.reserved(), 2 * HostArena::kPage);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % HostArena::kPage, 0u);  // blocks start on a page
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % HostArena::kPage, 0u);
  char* c = static_cast<char*>(arena.allocate(5 * HostArena::kPage + 1));  // one block of 6 pages
  EXPECT_EQ(arena.reserved(), 8 * HostArena::kPage);
  c[5 * HostArena::kPage] = 1;
  EXPECT_EQ(c[0], 0);
}

// As a std::pmr::memory_resource: a larger alignment is honoured, deallocation does nothing,
// and it equals only itself.
TEST(HostArena, IsAStandardMemoryResource) {
  HostArena arena(HostArena::kPage);
  std::pmr::memory_resource& r = arena;
  void* a = r.allocate(8, 8);
  void* b = r.allocate(100, 4096);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 4096, 0u);
  r.deallocate(a, 8, 8);
  void* c = r.allocate(8, 8);
  EXPECT_NE(c, a);  // never reused
  HostArena other(HostArena::kPage);
  EXPECT_TRUE(r.is_equal(arena));
  EXPECT_FALSE(r.is_equal(other));
  // A golden cache on it: its arrays come from the arena.
  SectoredCache on =
      *SectoredCache::create(CacheGeometry{4 << 10, 4}, nullptr, CacheData::Keep, &arena);
  const char* base = reinterpret_cast<const char*>(on.layout().base);
  EXPECT_GE(arena.used(), 4u << 10);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % 64, 0u);
}

// --- CacheHints --------------------------------------------------------------------------------

// CacheHints::prefetch_way names the line a write will evict: the same victim as write()
// (both use golden's one replacement function), across classes, hits and free ways.
// --- LineMap ------------------------------------------------------------------------------

TEST(LineMap, FindInsertEraseByHand) {
  LineMap<uint8_t> m;
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.find(0x80), nullptr);
  auto [v, fresh] = m.try_emplace(0x80, 3);
  EXPECT_TRUE(fresh);
  EXPECT_EQ(*v, 3);
  EXPECT_FALSE(m.try_emplace(0x80, 9).second);  // present: kept
  EXPECT_EQ(*m.find(0x80), 3);
  m[0x100] |= 4;
  EXPECT_EQ(*m.find(0x100), 4);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_TRUE(m.erase(0x80));
  EXPECT_FALSE(m.erase(0x80));
  EXPECT_EQ(m.find(0x80), nullptr);
  EXPECT_EQ(*m.find(0x100), 4);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_THROW(m.try_emplace(LineMap<uint8_t>::kFree, 0), std::logic_error);
}

// Seeded differential test against std::unordered_map: lines from a small range (long probe
// runs, erasures inside them, growth past the reserve), every answer and the contents equal.
TEST(LineMap, BehavesAsAMapOnRandomOperations) {
  const uint64_t seed = seed_from_env();
  std::cout << "LineMap seed " << seed << " (STU_SEED)\n";
  std::mt19937_64 rng(seed);
  LineMap<uint8_t> m;
  m.reserve(100);
  std::unordered_map<uint64_t, uint8_t> ref;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t line = (rng() % (i < 100000 ? 300 : 5000)) * kLineBytes;
    const uint8_t v = uint8_t(rng());
    switch (rng() % 4) {
      case 0: {
        const auto [p, fresh] = m.try_emplace(line, v);
        const auto [it, ref_fresh] = ref.try_emplace(line, v);
        ASSERT_EQ(fresh, ref_fresh) << "op " << i;
        ASSERT_EQ(*p, it->second) << "op " << i;
        break;
      }
      case 1:
        ASSERT_EQ(m.erase(line), ref.erase(line) == 1) << "op " << i;
        break;
      case 2:
        m[line] |= v;
        ref[line] |= v;
        break;
      default: {
        const uint8_t* p = m.find(line);
        const auto it = ref.find(line);
        ASSERT_EQ(p != nullptr, it != ref.end()) << "op " << i;
        if (p) {
          ASSERT_EQ(*p, it->second) << "op " << i;
        }
      }
    }
    ASSERT_EQ(m.size(), ref.size()) << "op " << i;
  }
  for (const auto& [line, v] : ref) {
    const uint8_t* p = m.find(line);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(*p, v);
  }
}

TEST(CacheHints, PrefetchWayNamesTheVictimTheWriteTakes) {
  const uint64_t seed = seed_from_env();
  std::cout << "CacheHints seed " << seed << " (set STU_SEED to reproduce)\n";
  std::mt19937_64 rng(seed);
  for (const CacheGeometry g : {CacheGeometry{4 << 10, 4}, CacheGeometry{2 << 10, 16}}) {
    SectoredCache c = *SectoredCache::create(g);
    const CacheHints v(c.layout());
    Payload p;
    unsigned evictions = 0;
    for (int i = 0; i < 5000; ++i) {
      const uint64_t line = (rng() % 256) * kLineBytes;  // 256 lines over few sets: evictions
      const EvictClass cls = EvictClass(rng() % 3);
      const std::optional<uint64_t> predicted = v.prefetch_way(line);
      const CacheWriteResult r = c.write(wr(line, 0, 4, p, 0x10, cls));
      ASSERT_EQ(predicted.has_value(), r.evicted) << "write " << i << ", line " << line;
      if (r.evicted) {
        ASSERT_EQ(*predicted, r.victim.line) << "write " << i << ", line " << line;
        ++evictions;
      }
    }
    EXPECT_GT(evictions, 1000u);  // the check above ran on many victims
  }
}

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
