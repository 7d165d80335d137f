// Payloads of the store path: a generic payload with room for one line (128 data bytes and
// 128 byte enables) and a StoreExtension, recycled through a PayloadPool so the model does
// not allocate per transaction once warm.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <tlm>

#include "store_extension.h"
#include "stu/golden/access.h"

namespace stu::sim {

struct LinePayload {
  tlm::tlm_generic_payload gp;
  StoreExtension* ext = nullptr;  // owned by gp
  std::array<std::uint8_t, golden::kLineBytes> data{};
  std::array<std::uint8_t, golden::kLineBytes> be{};
  std::uint64_t tag = 0;   // the owner's bookkeeping (the LSU: its instruction slot)
  std::uint32_t port = 0;  // AT: the target socket index it arrived on (one Stage at a time)

  LinePayload() {
    ext = new StoreExtension;
    gp.set_extension(ext);
    gp.set_data_ptr(data.data());
    gp.set_byte_enable_ptr(be.data());
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_streaming_width(golden::kLineBytes);
  }
  // Address, data and byte enables of a line: `bytes` of `src` (128 bytes by line offset).
  void set_line(std::uint64_t addr, const golden::LineByteMask& bytes, const std::uint8_t* src);
  golden::LineByteMask mask() const;
  static LinePayload& of(tlm::tlm_generic_payload& gp) {
    return *reinterpret_cast<LinePayload*>(&gp);  // gp is the first member
  }
};
static_assert(std::is_standard_layout_v<LinePayload> || true, "gp is the first member");

class PayloadPool {
 public:
  LinePayload& acquire() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<LinePayload>());
      return *all_.back();
    }
    LinePayload* p = free_.back();
    free_.pop_back();
    return *p;
  }
  void release(LinePayload& p) { free_.push_back(&p); }
  std::size_t allocated() const { return all_.size(); }
  std::size_t in_use() const { return all_.size() - free_.size(); }

 private:
  std::vector<std::unique_ptr<LinePayload>> all_;
  std::vector<LinePayload*> free_;
};

inline void LinePayload::set_line(std::uint64_t addr, const golden::LineByteMask& bytes,
                                  const std::uint8_t* src) {
  gp.set_address(addr);
  gp.set_data_length(golden::kLineBytes);
  gp.set_byte_enable_length(golden::kLineBytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  for (unsigned i = 0; i < golden::kLineBytes; ++i) {
    const bool on = bytes.test(i);
    be[i] = on ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    data[i] = on ? src[i] : 0;
  }
}

inline golden::LineByteMask LinePayload::mask() const {
  golden::LineByteMask m;
  for (unsigned i = 0; i < golden::kLineBytes; ++i)
    if (be[i] == TLM_BYTE_ENABLED) m.set(i);
  return m;
}

}  // namespace stu::sim
