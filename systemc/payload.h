// Payloads of the store path: a generic payload with room for one line (128 data bytes and
// 128 byte enables) and a StoreExtension, recycled through a PayloadPool so the model does
// not allocate per transaction once warm.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <tlm>

#include "store_extension.h"
#include "stu/golden/access.h"
#include "stu/host_prefetch.h"

namespace stu::sim {

struct LinePayload {
  tlm::tlm_generic_payload gp;
  StoreExtension* ext;  // `store`, attached to gp: modules read it here, not by get_extension
  golden::LineByteMask bytes;  // the byte enables as a mask (kept equal to `be` by set_line)
  std::uint64_t tag = 0;       // the owner's bookkeeping (the LSU: its instruction slot)
  std::uint32_t port = 0;      // AT: the target socket index it arrived on (one Stage at a time)
  bool pooled = false;         // in the pool's free list
  bool holds_place = false;    // AT: counted in its Stage's places until its acknowledgement
  // The extension lives in the payload (next to the fields every stage reads, one allocation
  // per payload); gp holds it as an ordinary extension and lets go of it before it is
  // destroyed.
  StoreExtension store;
  std::array<std::uint8_t, golden::kLineBytes> data{};
  std::array<std::uint8_t, golden::kLineBytes> be{};

  LinePayload() : ext(&store) {
    gp.set_extension(ext);
    gp.set_data_ptr(data.data());
    gp.set_byte_enable_ptr(be.data());
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_streaming_width(golden::kLineBytes);
  }
  ~LinePayload() { gp.clear_extension(ext); }  // not gp's to free
  LinePayload(const LinePayload&) = delete;
  LinePayload& operator=(const LinePayload&) = delete;
  // Address, data and byte enables of a line: `bytes` of `src` (128 bytes by line offset).
  void set_line(std::uint64_t addr, const golden::LineByteMask& bytes, const std::uint8_t* src);
  golden::LineByteMask mask() const;
  static LinePayload& of(tlm::tlm_generic_payload& gp) {
    return *reinterpret_cast<LinePayload*>(&gp);  // gp is the first member
  }
};
static_assert(std::is_standard_layout_v<LinePayload> || true, "gp is the first member");

// Asks for the cache lines a stage reads of a payload it will handle next (the generic
// payload's fields, the LinePayload's own and the extension's; with `whole`, the data and
// byte enables too). The model keeps thousands of payloads in flight, so the next one is
// usually out of the host's caches.
inline void prefetch(const LinePayload* lp, bool whole = false) {
  const char* p = reinterpret_cast<const char*>(lp);
  const std::size_t n =
      whole ? sizeof(LinePayload) : std::size_t(reinterpret_cast<const char*>(lp->data.data()) - p);
  prefetch_lines(p, n);
}
inline void prefetch(const tlm::tlm_generic_payload* gp) {
  prefetch(reinterpret_cast<const LinePayload*>(gp));
}

class PayloadPool {
 public:
  LinePayload& acquire() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<LinePayload>());
      return *all_.back();
    }
    LinePayload* p = free_.back();
    free_.pop_back();
    p->pooled = false;
    if (hints && !free_.empty()) prefetch(free_.back(), true);  // the next one handed out
    return *p;
  }
  // Releasing a payload twice is a model bug (two owners would share it): it throws.
  void release(LinePayload& p) {
    if (p.pooled) throw std::logic_error("stu tlm: a payload was released twice");
    p.pooled = true;
    free_.push_back(&p);
  }
  std::size_t allocated() const { return all_.size(); }
  std::size_t in_use() const { return all_.size() - free_.size(); }

  bool hints = true;  // prefetch the next payload handed out (SimContext::hints)

 private:
  std::vector<std::unique_ptr<LinePayload>> all_;
  std::vector<LinePayload*> free_;
};

// The 8 byte-enable bytes of each value of a mask byte.
struct ByteEnableTable {
  std::array<std::uint64_t, 256> v{};
  ByteEnableTable() {
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned b = 0; b < 8; ++b)
        if ((m >> b) & 1) v[m] |= std::uint64_t(TLM_BYTE_ENABLED) << (8 * b);
  }
};

// `src` holds the line's 128 bytes; bytes outside `mask` are copied as they are (golden line
// requests and cache lines keep them 0).
inline void LinePayload::set_line(std::uint64_t addr, const golden::LineByteMask& mask,
                                  const std::uint8_t* src) {
  static const ByteEnableTable table;
  gp.set_address(addr);
  gp.set_data_length(golden::kLineBytes);
  gp.set_byte_enable_length(golden::kLineBytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  bytes = mask;
  std::memcpy(data.data(), src, golden::kLineBytes);
  for (unsigned i = 0; i < 16; ++i) {
    const std::uint64_t w = i < 8 ? mask.lo : mask.hi;
    const std::uint64_t e = table.v[(w >> (8 * (i % 8))) & 0xFF];
    std::memcpy(be.data() + 8 * i, &e, 8);
  }
}

inline golden::LineByteMask LinePayload::mask() const { return bytes; }

}  // namespace stu::sim
