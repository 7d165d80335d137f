#include "data_plane.h"

#include <cstring>
#include <stdexcept>

namespace stu::sim {

namespace {
void fill_slot(std::uint8_t* slot, bool hit, const golden::LineByteMask& m,
               const std::uint8_t* data) {
  if (!hit && !(m.lo == ~std::uint64_t(0) && m.hi == ~std::uint64_t(0)))
    std::memset(slot, 0, golden::kLineBytes);
  golden::copy_masked(slot, m, data);
}
}  // namespace

DataPlane::DataPlane() = default;
DataPlane::~DataPlane() = default;  // (moves still queued are dropped with the model)

DataPlane::Move& DataPlane::queue(Move::Kind kind, std::uint8_t* slot, std::uint64_t line,
                                  const golden::LineByteMask& m, const std::uint8_t* data) {
  Move& v = behind_->slot();
  v.kind = kind;
  v.slot = slot;
  v.line = line;
  v.bytes = m;
  if (data) std::memcpy(v.data.data(), data, golden::kLineBytes);
  return v;
}

void DataPlane::write_slot(std::uint8_t* slot, const Leaving* leaving, bool hit,
                           const golden::LineByteMask& m, const std::uint8_t* data) {
  if (!behind_) {
    if (leaving) memory_.write_line(leaving->line, leaving->bytes, slot);
    return fill_slot(slot, hit, m, data);
  }
  Move& v = queue(Move::Kind::WriteSlot, slot, 0, m, data);
  v.hit = hit;
  v.leaves = leaving != nullptr;
  if (leaving) v.leaving = *leaving;
  behind_->commit();
}

void DataPlane::slot_to_memory(std::uint64_t line, const golden::LineByteMask& m,
                               const std::uint8_t* slot) {
  if (!behind_) return memory_.write_line(line, m, slot);
  queue(Move::Kind::SlotToMemory, const_cast<std::uint8_t*>(slot), line, m, nullptr);  // (read)
  behind_->commit();
}

void DataPlane::to_memory(std::uint64_t line, const golden::LineByteMask& m,
                          const std::uint8_t* data) {
  if (!behind_) return memory_.write_line(line, m, data);
  queue(Move::Kind::ToMemory, nullptr, line, m, data);
  behind_->commit();
}

void DataPlane::make(const Move& v) {
  switch (v.kind) {
    case Move::Kind::WriteSlot:
      if (v.leaves) memory_.write_line(v.leaving.line, v.leaving.bytes, v.slot);
      fill_slot(v.slot, v.hit, v.bytes, v.data.data());
      break;
    case Move::Kind::SlotToMemory:
      memory_.write_line(v.line, v.bytes, v.slot);
      break;
    case Move::Kind::ToMemory:
      memory_.write_line(v.line, v.bytes, v.data.data());
      break;
  }
}

void DataPlane::hint(const Move& v) const {
  using golden::SparseMemory;
  if (v.kind != Move::Kind::ToMemory) {
    __builtin_prefetch(v.slot, 1);
    __builtin_prefetch(v.slot + 64, 1);
  }
  const bool to_memory = v.kind != Move::Kind::WriteSlot || v.leaves;
  const std::uint64_t line = v.kind == Move::Kind::WriteSlot ? v.leaving.line : v.line;
  if (!to_memory) return;
  if (const std::uint8_t* p = memory_.page(line >> SparseMemory::kPageBits)) {
    p += line & (SparseMemory::kPageBytes - 1);
    __builtin_prefetch(p, 1);
    __builtin_prefetch(p + 64, 1);
  }
}

const golden::SparseMemory& DataPlane::memory() const {
  if (behind_) throw std::logic_error("DRAM's memory read while its writes are behind");
  return memory_;
}

golden::SparseMemory& DataPlane::memory() {
  if (behind_) throw std::logic_error("DRAM's memory written while its writes are behind");
  return memory_;
}

const std::uint8_t* DataPlane::line_if_present(std::uint64_t line) const {
  using golden::SparseMemory;
  if (behind_) return nullptr;
  const std::uint8_t* p = memory_.page(line >> SparseMemory::kPageBits);
  return p ? p + (line & (SparseMemory::kPageBytes - 1)) : nullptr;
}

std::function<void()> DataPlane::start_behind() {
  stop_behind();
  // 256 moves (48 KiB): the ring stays in the host's caches. Handed over 16 at a time: the
  // simulation thread commits a move every L2 write, and a counter both threads read at that
  // rate would move between their cores every time (docs/performance-notes.md).
  behind_ = std::make_unique<WriteBehind<Move>>(
      256, [this](const Move& v) { make(v); }, [this](const Move& v) { hint(v); }, 16);
  return [b = behind_.get()] { b->apply_ready(); };
}

void DataPlane::stop_behind() {
  if (!behind_) return;
  const auto b = std::move(behind_);  // (the memory is the caller's again, whatever is thrown)
  b->finish();
}

}  // namespace stu::sim
