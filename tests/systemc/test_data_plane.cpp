// The model's data plane (systemc/data_plane.h): how an L2 slot takes a write, that a line
// leaves its slot with the bytes the slot held at that point of the order, and that moves made
// behind the simulation on another thread leave the memory exactly as moves made at once
// (seeded: STU_SEED). Expectations are computed here from the rules, never read back from a
// plane. (A SystemC process for its main(), though nothing here needs SystemC.)
#include <gtest/gtest.h>

#include <systemc>  // (sc_main: libsystemc has main())

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "data_plane.h"

namespace stu::sim {
namespace {

using golden::kLineBytes;
using golden::LineByteMask;
using Line = std::array<std::uint8_t, kLineBytes>;

LineByteMask bytes_from_to(unsigned from, unsigned to) {  // bytes [from, to)
  LineByteMask m;
  for (unsigned i = from; i < to; ++i) m.set(i);
  return m;
}

Line line_of(std::uint8_t v) {
  Line l;
  l.fill(v);
  return l;
}

Line read_line(const golden::SparseMemory& m, std::uint64_t addr) {
  Line l{};
  m.read(addr, l.data(), kLineBytes);
  return l;
}

// A miss writes the line anew (its bytes, the others 0); a hit merges; a whole line is copied.
TEST(DataPlane, AMissWritesTheLineAnewAndAHitMerges) {
  DataPlane d;
  Line slot = line_of(0xEE);  // what an earlier line left in the slot
  Line in = line_of(0);
  for (unsigned i = 0; i < kLineBytes; ++i) in[i] = std::uint8_t(i + 1);
  d.write_slot(slot.data(), nullptr, false, bytes_from_to(0, 4), in.data());
  Line want = line_of(0);
  for (unsigned i = 0; i < 4; ++i) want[i] = std::uint8_t(i + 1);
  EXPECT_EQ(slot, want);
  const Line nines = line_of(9);
  d.write_slot(slot.data(), nullptr, true, bytes_from_to(64, 66), nines.data());
  want[64] = want[65] = 9;
  EXPECT_EQ(slot, want);
  d.write_slot(slot.data(), nullptr, false, bytes_from_to(0, kLineBytes), in.data());
  EXPECT_EQ(slot, in);
}

// A victim leaves with the bytes its slot held before the write that takes the slot, a
// write-through's bytes reach memory as they are, and a flushed line's as its slot holds
// them; only the enabled bytes are written.
TEST(DataPlane, AVictimLeavesWithItsOwnBytes) {
  for (const bool behind : {false, true}) {
    DataPlane d;
    std::function<void()> helper_work;
    if (behind) helper_work = d.start_behind();
    Line slot = line_of(0);
    const Line a = line_of(0xA1), b = line_of(0xB2), c = line_of(0xC3);
    const DataPlane::Leaving first{0x1000, bytes_from_to(0, 32)};  // line 0x1000's first sector
    d.write_slot(slot.data(), nullptr, false, bytes_from_to(0, kLineBytes), a.data());
    d.write_slot(slot.data(), &first, false, bytes_from_to(0, kLineBytes), b.data());  // 0x2000
    d.to_memory(0x3000, bytes_from_to(32, 64), c.data());           // a write-through
    d.slot_to_memory(0x2000, bytes_from_to(96, 128), slot.data());  // flushed: its last sector
    if (behind) helper_work();  // the other thread's turn (here: this one)
    d.stop_behind();
    Line want1 = line_of(0), want2 = line_of(0), want3 = line_of(0);
    for (unsigned i = 0; i < 32; ++i) want1[i] = 0xA1;
    for (unsigned i = 96; i < 128; ++i) want2[i] = 0xB2;
    for (unsigned i = 32; i < 64; ++i) want3[i] = 0xC3;
    EXPECT_EQ(read_line(d.memory(), 0x1000), want1) << (behind ? "behind" : "at once");
    EXPECT_EQ(read_line(d.memory(), 0x2000), want2) << (behind ? "behind" : "at once");
    EXPECT_EQ(read_line(d.memory(), 0x3000), want3) << (behind ? "behind" : "at once");
    EXPECT_EQ(slot, b) << (behind ? "behind" : "at once");
  }
}

// While moves are behind, the memory is refused (and the hint finds no line); after
// stop_behind() it is the caller's again, with every move made.
TEST(DataPlane, MemoryIsRefusedWhileMovesAreBehind) {
  DataPlane d;
  const Line a = line_of(7);
  d.to_memory(0x40000, bytes_from_to(0, kLineBytes), a.data());
  EXPECT_NE(d.line_if_present(0x40000), nullptr);
  const auto work = d.start_behind();
  EXPECT_TRUE(d.behind());
  const DataPlane& view = d;
  EXPECT_THROW(view.memory(), std::logic_error);
  EXPECT_THROW(d.memory(), std::logic_error);
  EXPECT_EQ(d.line_if_present(0x40000), nullptr);
  d.to_memory(0x80000, bytes_from_to(0, kLineBytes), a.data());
  d.stop_behind();  // (no helper ran: stop_behind() makes the move here)
  EXPECT_FALSE(d.behind());
  EXPECT_EQ(read_line(view.memory(), 0x80000), a);
}

std::uint64_t seed_from_env() {
  const char* env = std::getenv("STU_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 20261129u;
}

// A random run of an L2 of 8 slots over 64 lines, as a slice drives the plane: each write
// takes a slot (a hit merges, a miss evicts the slot's line, whose dirty bytes leave first),
// some writes are written through, and at the end every slot's line is flushed. Made at once,
// and behind with a helper thread applying through the 256-move ring many times over, the
// memory ends as the model below says, byte for byte.
TEST(DataPlane, MovesBehindEndAsMovesAtOnce) {
  const std::uint64_t seed = seed_from_env();
  std::cout << "seed " << seed << " (STU_SEED)\n";
  constexpr unsigned kSlots = 8, kLines = 64, kWrites = 20000;
  struct Model {  // the expectation: what each slot holds, and memory by line
    std::array<std::int64_t, kSlots> line{};
    std::array<Line, kSlots> bytes{};
    std::array<LineByteMask, kSlots> dirty{};
    std::map<std::uint64_t, Line> memory;
    void to_memory(std::uint64_t l, const LineByteMask& m, const std::uint8_t* src) {
      Line& dst = memory.emplace(l, Line{}).first->second;
      for (unsigned i = 0; i < kLineBytes; ++i)
        if (m.test(i)) dst[i] = src[i];
    }
  };
  for (const bool behind : {false, true}) {
    std::mt19937_64 rng(seed);
    DataPlane d;
    std::vector<Line> slots(kSlots, Line{});
    Model want;
    want.line.fill(-1);
    std::atomic<bool> done{false};
    std::thread helper;
    if (behind) {
      helper = std::thread([&d, &done, work = d.start_behind()] {
        while (!done.load(std::memory_order_relaxed)) work();
      });
    }
    for (unsigned n = 0; n < kWrites; ++n) {
      const std::uint64_t line = 0x100000 + 128 * (rng() % kLines);
      const unsigned s = unsigned(line / 128 % kSlots);
      const unsigned from = unsigned(rng() % kLineBytes);
      const unsigned to = from + 1 + unsigned(rng() % (kLineBytes - from));
      const LineByteMask m = bytes_from_to(from, to);
      Line data;
      for (auto& b : data) b = std::uint8_t(rng());
      const bool hit = want.line[s] == std::int64_t(line);
      DataPlane::Leaving victim;
      const bool leaves = !hit && want.line[s] >= 0 && !want.dirty[s].empty();
      if (leaves) {  // the victim leaves first
        victim = {std::uint64_t(want.line[s]), want.dirty[s]};
        want.to_memory(victim.line, victim.bytes, want.bytes[s].data());
      }
      d.write_slot(slots[s].data(), leaves ? &victim : nullptr, hit, m, data.data());
      if (!hit) {
        want.line[s] = std::int64_t(line);
        want.bytes[s] = Line{};
        want.dirty[s] = LineByteMask{};
      }
      for (unsigned i = from; i < to; ++i) want.bytes[s][i] = data[i];
      if (rng() % 8 == 0) {  // written through: to memory now, not dirty
        d.to_memory(line, m, data.data());
        want.to_memory(line, m, data.data());
      } else {
        want.dirty[s].lo |= m.lo;
        want.dirty[s].hi |= m.hi;
      }
    }
    for (unsigned s = 0; s < kSlots; ++s) {  // the final flush
      if (want.line[s] < 0 || want.dirty[s].empty()) continue;
      d.slot_to_memory(std::uint64_t(want.line[s]), want.dirty[s], slots[s].data());
      want.to_memory(std::uint64_t(want.line[s]), want.dirty[s], want.bytes[s].data());
    }
    done.store(true);
    if (helper.joinable()) helper.join();
    d.stop_behind();
    const char* how = behind ? "behind" : "at once";
    for (const auto& [line, bytes] : want.memory)
      ASSERT_EQ(read_line(d.memory(), line), bytes) << how << ", line 0x" << std::hex << line;
    EXPECT_EQ(d.memory().pages(), 2u) << how;  // 0x100000 .. 0x101fff: two 4 KiB pages
  }
}

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
