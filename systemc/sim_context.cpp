#include "sim_context.h"

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
    case Event::Ack:
      return "ack";
  }
  return "?";
}

bool write_enabled(std::uint8_t* base, std::uint64_t size, std::uint64_t offset,
                   const LinePayload& p) {
  for (unsigned i = 0; i < golden::kLineBytes; ++i) {
    if (p.be[i] != TLM_BYTE_ENABLED) continue;
    if (offset + i >= size) return false;
    base[offset + i] = p.data[i];
  }
  return true;
}

}  // namespace stu::sim
