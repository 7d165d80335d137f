// PayloadPool: the TLM memory manager (tlm::tlm_mm_interface) of the model's payloads, part of
// the model's engine (docs/tlm.md, "Model and engine"). acquire() hands out a write payload of
// one line (data and byte-enable arrays of 128 bytes) with a StoreExtension and a
// RouteExtension attached, its reference count 1; the last gp.release() returns it through
// free(). Once warm the model allocates nothing per transaction. Each payload lays the generic
// payload, both extensions and the line's bytes out in one block (a Slot), which the engine's
// prefetch hints load ahead of the module that reads it; no module depends on that layout.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include <tlm>

#include "host_prefetch.h"
#include "route_extension.h"
#include "store_extension.h"
#include "stu/golden/access.h"

namespace stu::sim {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  // A write payload of one line with both extensions attached (their fields as the last user
  // left them: a user sets what it sends), its reference count 1.
  tlm::tlm_generic_payload& acquire();
  // tlm_mm_interface: the payload's last reference went (gp.release()). A payload freed while
  // already free is a model bug (two owners would share it): std::logic_error.
  void free(tlm::tlm_generic_payload* gp) override;

  std::size_t allocated() const { return all_.size(); }
  std::size_t in_use() const { return all_.size() - free_.size(); }

  bool hints = true;  // prefetch the next payload handed out (SimContext::hints)

  struct Slot;  // a payload's block (below), for the engine's prefetch hints

 private:
  std::vector<std::unique_ptr<Slot>> all_;
  std::vector<Slot*> free_;
};

// A payload of the pool and everything it points to, in one block: the line's bytes, the
// extensions, then the generic payload, last: the payload allocates its array of extension
// pointers as it is constructed, right after the block is, so the heap usually puts that array
// just past the block, where the hint below asks for it with the payload's own lines.
struct PayloadPool::Slot {
  std::array<std::uint8_t, golden::kLineBytes> data{};
  std::array<std::uint8_t, golden::kLineBytes> be{};
  StoreExtension store;
  RouteExtension route;
  bool pooled = false;  // in the pool's free list
  tlm::tlm_generic_payload gp;

  explicit Slot(PayloadPool* pool) {
    gp.set_mm(pool);
    gp.set_extension(&store);
    gp.set_extension(&route);
    gp.set_data_ptr(data.data());
    gp.set_byte_enable_ptr(be.data());
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_streaming_width(golden::kLineBytes);
  }
  ~Slot() {  // the extensions are the slot's, not gp's to free
    gp.clear_extension(&store);
    gp.clear_extension(&route);
  }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  static Slot* of(const tlm::tlm_generic_payload* gp);
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"  // (a Slot has no virtual base)
inline PayloadPool::Slot* PayloadPool::Slot::of(const tlm::tlm_generic_payload* gp) {
  auto* p = reinterpret_cast<char*>(const_cast<tlm::tlm_generic_payload*>(gp));
  return reinterpret_cast<Slot*>(p - offsetof(Slot, gp));
}
#pragma GCC diagnostic pop

inline PayloadPool::~PayloadPool() = default;

// A host-speed hint (the engine's): asks for the cache lines a stage reads of a payload it
// will handle next: the generic payload's fields and the extensions' (with `whole`, the data
// and byte enables too). The model keeps thousands of payloads in flight, so the next one is
// usually out of the host's caches. The hint reads nothing of the payload: it would wait for
// the very load it asks for (checking the memory manager first did: a tenth of the AT long
// run's host time). So every payload is hinted as if it were laid out as a Slot; for a
// caller's own payload that asks for a few lines past it, which a prefetch may (it reads
// nothing and never faults).
inline void prefetch(const tlm::tlm_generic_payload* gp, bool whole = false) {
  const auto* s = PayloadPool::Slot::of(gp);
  const char* from =
      whole ? reinterpret_cast<const char*>(s) : reinterpret_cast<const char*>(&s->store);
  const char* to = reinterpret_cast<const char*>(s + 1) + 64;  // and the extensions' array
  prefetch_lines(from, std::size_t(to - from));
}

inline tlm::tlm_generic_payload& PayloadPool::acquire() {
  Slot* s;
  if (free_.empty()) {
    all_.push_back(std::make_unique<Slot>(this));
    s = all_.back().get();
  } else {
    s = free_.back();
    free_.pop_back();
    s->pooled = false;
    if (hints && !free_.empty()) prefetch(&free_.back()->gp, true);  // the next one handed out
  }
  s->gp.acquire();
  return s->gp;
}

inline void PayloadPool::free(tlm::tlm_generic_payload* gp) {
  Slot* s = Slot::of(gp);
  if (s->pooled) throw std::logic_error("stu tlm: a payload was released twice");
  s->pooled = true;
  free_.push_back(s);
}

}  // namespace stu::sim
