// CacheHints: host-speed hints for a golden cache's arrays (part of the TLM model's engine,
// docs/tlm.md "Model and engine"). A model that knows its next lines early (at planning) asks
// the host to start loading the set a write will read, so that the write does not wait for
// host memory. It reads the arrays through golden::SectoredCache::layout() (fixed for the
// cache's life) and never changes them: no effect on any result (HostHints.* tests run every
// generator with the hints on and off). The model keeps one per cache in a small array, so
// that a hint does not touch the caches' own objects (cold themselves when the lines are).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "host_prefetch.h"
#include "stu/golden/cache.h"

namespace stu::sim {

class CacheHints {
 public:
  CacheHints() = default;  // none (an RTL core: no array in host memory)
  explicit CacheHints(const golden::SectoredCache::Layout& l)
      : base_(reinterpret_cast<const char*>(l.base)),
        set_mask_(l.sets - 1),
        set_bytes_(std::uint32_t(l.set_words * 8)),
        probe_bytes_(std::uint32_t(l.masks_word * 8)),
        meta_bytes_(std::uint32_t((l.masks_word + golden::SectoredCache::kMaskWords * l.ways) * 8)),
        ways_(l.ways),
        masks_word_(std::uint32_t(l.masks_word)),
        data_bytes_(std::uint32_t(l.data_word * 8)),
        rule_(l.replacement),
        random_(l.random) {}

  explicit operator bool() const { return base_ != nullptr; }

  // Where the lines' bytes lie when the cache keeps none and its owner keeps them, 128 a slot
  // (set * ways + way: an L2 slice's, L2Core::keeps_data), for prefetch_way(); null: not hinted
  // (while the bytes are the plan thread's to move, DataPlane::start_behind).
  void set_slot_bytes(const std::uint8_t* b) { slot_bytes_ = reinterpret_cast<const char*>(b); }

  // The set's tags and keys, which a write reads first.
  void prefetch(std::uint64_t addr) const {
    prefetch_lines(set_block(addr), probe_bytes_);
    prefetch_random();
  }
  // The whole of the set's metadata: tags, keys and masks (a write reads the masks of the
  // way it takes: of a victim, to write it back).
  void prefetch_meta(std::uint64_t addr) const {
    prefetch_lines(set_block(addr), meta_bytes_);
    prefetch_random();
  }
  // The second hint, once the metadata is in the host's caches (prefetch_meta() a good while
  // before): the masks and data (or slot bytes) of the way a write of `addr` takes (the line's own
  // on a hit, else the victim, which the write reads out), by the cache's own replacement rule
  // (golden::SectoredCache::choose_way). Reads the tags and keys. The masks' word is loaded,
  // not prefetched, and the data prefetched beside it, not after it: measured the fastest of
  // five ways on the long LT run (a prefetch of the masks, here or in prefetch_meta alone,
  // left the write waiting for them about as often as none).
  // Returns the line the write would evict (its tag), if any.
  std::optional<std::uint64_t> prefetch_way(std::uint64_t addr) const {
    const char* p = set_block(addr);
    const auto* tags = reinterpret_cast<const std::uint64_t*>(p);
    const golden::SectoredCache::WayChoice c = golden::SectoredCache::choose_way(
        tags, ways_, addr & ~std::uint64_t(golden::kLineBytes - 1), rule_,
        rule_ == golden::Replacement::Random
            ? golden::SectoredCache::next_random(std::uint32_t(*random_)) & (ways_ - 1)
            : 0);
    const std::uint32_t w = c.found >= 0 ? std::uint32_t(c.found) : c.victim;
    const std::uint64_t masks = tags[masks_word_ + golden::SectoredCache::kMaskWords * w];
    asm volatile("" : : "r"(masks));  // the load is kept: nothing else uses the value
    const char* d = nullptr;
    if (data_bytes_) {
      d = p + data_bytes_ + std::size_t(golden::kLineBytes) * w;
    } else if (slot_bytes_) {
      const std::size_t set = std::uint32_t(addr >> 7) & set_mask_;
      d = slot_bytes_ + (set * ways_ + w) * golden::kLineBytes;
    }
    if (d) {
      __builtin_prefetch(d);
      __builtin_prefetch(d + 64);
    }
    if (c.found >= 0 || tags[w] & 1) return std::nullopt;  // a hit, or a free way (odd tag)
    return tags[w];
  }

 private:
  // The random replacement's generator state, which a write of such a cache reads (a word
  // alone past the sets).
  void prefetch_random() const {
    if (rule_ == golden::Replacement::Random) __builtin_prefetch(random_);
  }
  const char* set_block(std::uint64_t addr) const {
    return base_ + std::size_t(std::uint32_t(addr >> 7) & set_mask_) * set_bytes_;
  }
  const char* base_ = nullptr;  // set 0's block
  const char* slot_bytes_ = nullptr;
  std::uint32_t set_mask_ = 0;
  std::uint32_t set_bytes_ = 0;    // one set's block
  std::uint32_t probe_bytes_ = 0;  // its tags and keys
  std::uint32_t meta_bytes_ = 0;   // its tags, keys and masks
  std::uint32_t ways_ = 0;
  std::uint32_t masks_word_ = 0;
  std::uint32_t data_bytes_ = 0;  // offset of data[] in a set's block; 0: no data kept
  golden::Replacement rule_ = golden::Replacement::LeastRecentlyWritten;
  const std::uint64_t* random_ = nullptr;  // the cache's generator state
};

}  // namespace stu::sim
