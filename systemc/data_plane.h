// DataPlane: where a model's global bytes go once they leave the L1s: into the L2 slices'
// lines and from there into DRAM's memory. The timing modules decide what moves where and
// when (the L2 slice: a write's slot, its victim, a write-through, the final flush); the data
// plane moves the bytes, in the order the decisions were made. It owns DRAM's memory (what the
// golden-image check compares at the end, Dram::memory()).
//
// An L2 slice whose cache core keeps no bytes (L2Core::keeps_data() false: the C++ core, the
// golden cache piece in CacheData::Drop) keeps its lines' bytes itself, 128 a slot, and hands
// them here by slot; a core that keeps its bytes (the RTL slice) reports its victims' and
// flushed lines' bytes, which come here as bytes.
//
// Each move is made at once, or, during a workload run with the plan thread
// (start_behind()), queued and made on that thread behind the simulation (WriteBehind). The
// simulation thread then never touches the bytes of the L2's lines nor DRAM's memory: a
// 50 MiB L2 and a footprint-sized memory whose lines are cold in the host's caches, with a
// page fault at the first write of each 4 KiB page. The order, and so every byte, is the same
// either way.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "stu/golden/state.h"
#include "write_behind.h"

namespace stu::sim {

class DataPlane {
 public:
  DataPlane();
  ~DataPlane();
  DataPlane(const DataPlane&) = delete;
  DataPlane& operator=(const DataPlane&) = delete;

  // A line leaving an L2 slot for DRAM's memory: its address and the bytes that go.
  struct Leaving {
    std::uint64_t line = 0;
    golden::LineByteMask bytes;
  };
  // An L2 slot's 128 bytes take a write of the bytes `m` of `data`: first the slot's line
  // leaves, where `leaving` is given (a dirty victim); then the write is merged into the
  // line (`hit`), or makes the line's bytes anew (a miss: those bytes, the others 0).
  void write_slot(std::uint8_t* slot, const Leaving* leaving, bool hit,
                  const golden::LineByteMask& m, const std::uint8_t* data);
  // DRAM's memory takes the bytes `m` of a line from an L2 slot (a flushed line), or from
  // `data` (a write-through; a victim or flushed line of a core that keeps its bytes).
  void slot_to_memory(std::uint64_t line, const golden::LineByteMask& m, const std::uint8_t* slot);
  void to_memory(std::uint64_t line, const golden::LineByteMask& m, const std::uint8_t* data);

  // DRAM's memory. Not while moves are behind: memory() throws std::logic_error then.
  const golden::SparseMemory& memory() const;
  golden::SparseMemory& memory();
  // The bytes of a line of memory where the line's page exists, for a host-speed hint;
  // nullptr while moves are behind (the page table is the other thread's to change).
  const std::uint8_t* line_if_present(std::uint64_t line) const;

  // From now on the moves are queued, until stop_behind(). Returns the other thread's work:
  // it calls it again and again until its caller is done with the model; stop_behind() then
  // makes what is left on the caller's thread (and throws what a move threw, if one did).
  std::function<void()> start_behind();
  void stop_behind();
  bool behind() const { return behind_ != nullptr; }

 private:
  struct Move {  // one queued move (three host cache lines)
    enum class Kind : std::uint8_t { WriteSlot, SlotToMemory, ToMemory };
    Kind kind;
    bool hit;            // WriteSlot
    bool leaves;         // WriteSlot: `leaving` first
    std::uint8_t* slot;  // WriteSlot, SlotToMemory
    std::uint64_t line;  // SlotToMemory, ToMemory
    golden::LineByteMask bytes;
    Leaving leaving;
    std::array<std::uint8_t, golden::kLineBytes> data;  // WriteSlot, ToMemory
  };
  // The next move in the ring, filled but for its own fields (`data`: 128 bytes, or null).
  Move& queue(Move::Kind kind, std::uint8_t* slot, std::uint64_t line,
              const golden::LineByteMask& m, const std::uint8_t* data);
  void make(const Move& m);
  void hint(const Move& m) const;  // (on the other thread, kAhead moves before make())

  golden::SparseMemory memory_;
  std::unique_ptr<WriteBehind<Move>> behind_;
};

}  // namespace stu::sim
