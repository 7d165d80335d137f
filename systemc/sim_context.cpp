#include "sim_context.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace stu::sim {

const char* event_name(Event e) {
  switch (e) {
    case Event::Issue:
      return "issue";
    case Event::L1Write:
      return "l1_write";
    case Event::WbOut:
      return "wb_out";
    case Event::L2Write:
      return "l2_write";
    case Event::DramWrite:
      return "dram_write";
    case Event::SharedWrite:
      return "shared_write";
    case Event::TmemWrite:
      return "tmem_write";
    case Event::MbarUpdate:
      return "mbar_update";
    case Event::MbarPhase:
      return "mbar_phase";
    case Event::FenceDone:
      return "fence_done";
    case Event::Ack:
      return "ack";
  }
  return "?";
}

void throw_no_store_extension() {
  throw std::logic_error("stu tlm: a payload without a StoreExtension reached a store module");
}

bool write_enabled(std::uint8_t* base, std::uint64_t size, std::uint64_t offset,
                   const tlm::tlm_generic_payload& p) {
  // By runs of enabled bytes (the mask, equal to the byte enables), not byte by byte.
  const golden::LineByteMask m = store_ext(p).bytes;
  const std::uint8_t* data = p.get_data_ptr();
  for (unsigned half = 0; half < 2; ++half) {
    std::uint64_t w = half ? m.hi : m.lo;
    while (w) {
      const unsigned from = unsigned(__builtin_ctzll(w));
      const std::uint64_t above = ~w >> from;  // zero bits of the run, from its first byte
      const unsigned len = above ? unsigned(__builtin_ctzll(above)) : 64 - from;
      const unsigned i = 64 * half + from;
      if (offset + i + len > size) {  // the bytes inside, then the failure
        for (unsigned j = i; j < i + len && offset + j < size; ++j) base[offset + j] = data[j];
        return false;
      }
      std::memcpy(base + offset + i, data + i, len);
      w = from + len >= 64 ? 0 : w & (~std::uint64_t(0) << (from + len));
    }
  }
  return true;
}

std::size_t calendar_window_bins(const SimConfig& c) {
  constexpr std::uint64_t kMinCycles = 4096;
  const std::uint64_t cycles =
      std::max<std::uint64_t>(4 * std::uint64_t(c.sim.quantum_cycles), kMinCycles);
  return std::size_t(std::min<std::uint64_t>(
      (cycles + Calendar::kBinCycles - 1) / Calendar::kBinCycles, Calendar::kMaxWindowBins));
}

}  // namespace stu::sim
