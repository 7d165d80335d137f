// The cache piece: an untimed, functional, deterministic model of the caches global stores
// go through (docs/golden.md, section "Caches").
//
// - SectoredCache: one sectored cache (128-byte lines of four 32-byte sectors, power-of-two
//   sets and ways), with per-byte valid and dirty masks, the line's data, an eviction class
//   per line and a two-line replacement rule. The L1 and one L2 slice are both instances.
// - The policy functions: l1_store_action and l2_store_action / l2_store_class turn a store's
//   cache operator, eviction qualifiers, decoded cache policy and ordering into what each
//   level does. Pure functions, one table each.
// - WriteBuffer: the L1-to-L2 write buffer, with its merge rule (weak stores only) and the
//   release drain point.
// - MemoryHierarchy: L1 + write buffer + L2 + the DRAM port, fed with the golden StoreResult
//   of global stores; it reports every L1 action, L2 write and DRAM write in order.
//
// Every decision is an output (a result struct). No global state, no exceptions: a bad
// geometry is an error string, and create() returns nothing. After construction no access
// allocates memory (results are fixed-size; event lists are the caller's, reused).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "stu/golden/access.h"
#include "stu/golden/executor.h"
#include "stu/golden/host_arena.h"
#include "stu/golden/policy.h"
#include "stu/host_prefetch.h"

namespace stu::golden {

inline constexpr unsigned kSectorsPerLine = kLineBytes / kSectorBytes;  // 4

// Eviction class of a line. The victim of a full set is taken from the lowest class present:
// First before Normal before Last.
enum class EvictClass : uint8_t { First, Normal, Last };
std::string_view to_string(EvictClass c);  // "first", "normal", "last"
std::optional<EvictClass> evict_class_from_string(std::string_view s);

// What a level does with the bytes it writes: Back keeps them dirty in the cache; Through
// sends them on to the next level now, so they are clean here (the L1 always; the L2 for
// .wt and .mmio stores).
enum class WriteMode : uint8_t { Back, Through };

// Size and associativity. Lines are kLineBytes (128) of kSectorsPerLine (4) sectors.
struct CacheGeometry {
  uint64_t bytes = 0;
  uint32_t ways = 0;

  static constexpr uint32_t kMaxWays = 64;
  static constexpr uint64_t kMaxBytes = uint64_t(64) << 20;  // 64 MiB: a whole H100 L2 fits

  uint32_t sets() const { return ways ? uint32_t(bytes / kLineBytes / ways) : 0; }
  // Empty when valid; otherwise the first bad field and why:
  //   "ways: must be a power of two in 1..64 (got 3)"
  //   "bytes: must be a power of two in 128*ways .. 64 MiB (got 1000)"
  std::string check() const;
};

// A victim or a flushed line: its bytes as they leave the cache.
struct CacheLineOut {
  uint64_t line = 0;  // address of the line's first byte
  LineByteMask valid;
  LineByteMask dirty;
  EvictClass cls = EvictClass::Normal;
  std::array<uint8_t, kLineBytes> data{};  // every valid byte; bytes not valid are 0 (all 0
                                           // from a CacheData::Drop cache)
};

// One write into a cache: the bytes of one line.
struct CacheWrite {
  uint64_t line = 0;              // any address in the line (the low 7 bits are ignored)
  LineByteMask bytes;             // bytes written
  const uint8_t* data = nullptr;  // 128 bytes, indexed by line offset; nullptr: masks only
  std::optional<EvictClass> cls;  // the line's class after the write; nullopt: a hit keeps
                                  // the line's class, an allocation takes Normal
  bool allocate = true;           // allocate on a miss (write-validate: no fill from below)
  WriteMode mode = WriteMode::Back;
};

struct CacheWriteResult {
  bool hit = false;        // the line was present
  bool allocated = false;  // a miss that took a way
  uint32_t set = 0;        // the line's set
  uint32_t way = 0;        // the way written (hit or allocated)
  bool evicted = false;    // the allocation replaced a present line: `victim`
  CacheLineOut victim;
};

struct CacheLookup {
  bool hit = false;
  uint32_t set = 0;
  uint32_t way = 0;
  LineByteMask valid;
  LineByteMask dirty;
  EvictClass cls = EvictClass::Normal;
};

// Whether a SectoredCache keeps the lines' data bytes. Drop keeps tags, classes, stamps and the
// valid and dirty masks only (no data array is allocated): data() returns nullptr and the
// data of every CacheLineOut it returns (victims, invalidated and flushed lines) is all 0.
// Hits, victims, masks and classes are exactly those of a Keep cache given the same calls.
// For a cache whose bytes are never read back, e.g. a write-through L1 (never dirty).
enum class CacheData : uint8_t { Keep, Drop };

namespace detail {
// std::allocator with 64-byte (host cache line) alignment; from a HostArena when given one
// (then deallocate is a no-op: the arena returns its memory when it is destroyed). A copy of
// a container starts without the arena, so it owns its memory and may outlive the arena.
template <class T>
struct LineAlignedAllocator {
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  static constexpr std::align_val_t kAlign{64};
  LineAlignedAllocator() = default;
  explicit LineAlignedAllocator(HostArena* arena) : arena(arena) {}
  template <class U>
  LineAlignedAllocator(const LineAlignedAllocator<U>& o) : arena(o.arena) {}
  LineAlignedAllocator select_on_container_copy_construction() const { return {}; }
  T* allocate(size_t n) {
    if (arena) return static_cast<T*>(arena->allocate(n * sizeof(T)));
    return static_cast<T*>(::operator new(n * sizeof(T), kAlign));
  }
  void deallocate(T* p, size_t) {
    if (!arena) ::operator delete(p, kAlign);
  }
  template <class U>
  bool operator==(const LineAlignedAllocator<U>& o) const {
    return arena == o.arena;
  }
  template <class U>
  bool operator!=(const LineAlignedAllocator<U>& o) const {
    return arena != o.arena;
  }
  HostArena* arena = nullptr;
};
}  // namespace detail

// A sectored cache. Address mapping: set = (addr >> 7) & (sets - 1); the tag is
// addr >> (7 + log2(sets)) (the model keeps the whole line address).
//
// Replacement (the whole rule):
//   1. a miss that allocates takes the lowest-numbered free way of its set;
//   2. if none is free, the victim is the line of the lowest class (First < Normal < Last)
//      and, within that class, the least recently written (oldest stamp).
// Each write that hits or allocates stamps its line with the cache's write counter (1, 2, ...).
// A lookup does not touch stamps.
class SectoredCache {
 public:
  // nullopt (and `*error` set) when the geometry is invalid. `data`: whether the lines'
  // bytes are kept (CacheData above). `arena`: where the arrays are taken from (it must
  // outlive the cache; a copy of the cache owns its own arrays); null: the heap.
  static std::optional<SectoredCache> create(const CacheGeometry& g, std::string* error = nullptr,
                                             CacheData data = CacheData::Keep,
                                             HostArena* arena = nullptr);

  const CacheGeometry& geometry() const { return g_; }
  CacheData data_mode() const { return keep_data_ ? CacheData::Keep : CacheData::Drop; }
  uint32_t set_of(uint64_t addr) const { return uint32_t(addr >> 7) & (sets_ - 1); }

  CacheLookup lookup(uint64_t addr) const;
  // The data of a present line (128 bytes), or nullptr (also always with CacheData::Drop).
  const uint8_t* data(uint64_t addr) const;
  // Hit: the bytes are merged into the line (valid |= bytes; with Back dirty |= bytes, with
  // Through dirty &= ~bytes), the class set when given, the stamp renewed. Miss and
  // allocate: a way is taken by the replacement rule (the victim is returned with its dirty
  // bytes; writing them back is the caller's job) and only the written bytes are valid.
  // Miss without allocate: nothing changes.
  CacheWriteResult write(const CacheWrite& w);
  // Drops the line if present; returns it (with its dirty bytes) in `out`. True on a hit.
  bool invalidate(uint64_t addr, CacheLineOut* out = nullptr);
  // Every line with dirty bytes, in ascending set and then way order, is appended to `out`
  // and made clean (its lines stay valid). Returns how many.
  size_t flush(std::vector<CacheLineOut>& out);
  // Lines present.
  size_t lines_present() const;
  // A hint, no effect on the state: asks the host to start loading the tags and keys of
  // `addr`'s set, so that a write() issued a little later does not wait for them. A model
  // that knows its next lines early (the performance model, at planning) calls it.
  void prefetch(uint64_t addr) const { host_view().prefetch(addr); }
  // Where the sets lie in host memory (fixed for the cache's life): a model keeps these in one
  // small array for all its caches and issues the hints above without touching the caches'
  // own objects (which are cold themselves when the lines are).
  struct HostView {
    const char* base = nullptr;  // set 0's block
    uint32_t set_mask = 0;
    uint32_t set_bytes = 0;    // one set's block
    uint32_t probe_bytes = 0;  // its tags and keys, which write() reads first
    uint32_t meta_bytes = 0;   // its tags, keys and masks
    uint32_t ways = 0;
    uint32_t data_bytes = 0;  // offset of data[] in a set's block; 0: no data kept
    const char* set_block(uint64_t addr) const {
      return base + size_t(uint32_t(addr >> 7) & set_mask) * set_bytes;
    }
    void prefetch(uint64_t addr) const {
      const char* p = set_block(addr);
      prefetch_lines(p, probe_bytes);
    }
    // The whole of the set's metadata: tags, keys and masks (a write reads the masks of the
    // way it takes: of a victim, to write it back).
    void prefetch_meta(uint64_t addr) const {
      const char* p = set_block(addr);
      prefetch_lines(p, meta_bytes);
    }
    // The second hint, once the metadata is in the host's caches (prefetch_meta() a good
    // while before): the masks and data of the way a write of `addr` takes (the line's own
    // on a hit, else the victim, which the write reads out). Reads the tags and keys.
    // The masks' word is loaded, not prefetched, and the data prefetched beside it, not after
    // it: measured the fastest of five ways on the long LT run (a prefetch of the masks, here
    // or in prefetch_meta alone, left the write waiting for them about as often as none).
    // Returns the line the write would evict (its tag), if any.
    std::optional<uint64_t> prefetch_way(uint64_t addr) const {
      const char* p = set_block(addr);
      const auto* tags = reinterpret_cast<const uint64_t*>(p);
      const WayChoice c = choose_way(tags, ways, addr & ~uint64_t(kLineBytes - 1));
      const uint32_t w = c.found >= 0 ? uint32_t(c.found) : c.victim;
      const uint64_t masks = tags[2 * size_t(ways) + kMaskWords * w];
      asm volatile("" : : "r"(masks));  // the load is kept: nothing else uses the value
      if (data_bytes) {
        const char* d = p + data_bytes + size_t(kLineBytes) * w;
        __builtin_prefetch(d);
        __builtin_prefetch(d + 64);
      }
      if (c.found >= 0 || tags[w] == kNoLine) return std::nullopt;
      return tags[w];
    }
  };
  HostView host_view() const {
    return {reinterpret_cast<const char*>(mem_.data()),
            sets_ - 1,
            uint32_t(set_words_ * 8),
            16 * ways_,
            uint32_t(8 * (2 + kMaskWords) * ways_),
            ways_,
            keep_data_ ? uint32_t(data_word_ * 8) : 0};
  }

 private:
  // A way's replacement key: 0 when free, else (class + 1) << 56 | stamp, so the victim of
  // a set is its way of smallest key (a free way first, then rule 2), the lowest way on ties.
  static constexpr uint64_t kNoLine = 1;  // tag of a free way (no line address is odd)
  static constexpr unsigned kClassShift = 56;
  static uint64_t key(EvictClass c, uint64_t stamp) {
    return (uint64_t(c) + 1) << kClassShift | stamp;
  }
  static EvictClass class_of_key(uint64_t k) { return EvictClass((k >> kClassShift) - 1); }
  SectoredCache(const CacheGeometry& g, CacheData data, HostArena* arena);

  // Storage, chosen so that a write touches few and adjacent host cache lines: one block
  // per set (64-byte aligned, `set_words_` words apart), laid out as
  //   tags[ways]      the line address, or kNoLine          (8 bytes a way)
  //   keys[ways]      replacement keys                      (8 bytes a way)
  //   masks[ways]     valid.lo, valid.hi, dirty.lo, dirty.hi (32 bytes a way)
  //   (padding to a multiple of 64 bytes)
  //   data[ways]      128 bytes a way, 64-byte aligned (CacheData::Keep only)
  // write() reads the tags and keys in one pass (adjacent lines; a single line for 4 ways),
  // then the way's masks and data in the same block. The data bytes of a free way are
  // unspecified: an allocation writes all 128 (the written bytes, the others 0).
  uint64_t* tags_of(uint32_t set) { return &mem_[size_t(set) * set_words_]; }
  const uint64_t* tags_of(uint32_t set) const { return &mem_[size_t(set) * set_words_]; }
  static constexpr size_t kMaskWords = 4;               // a way's masks, in words
  static constexpr size_t kDataWords = kLineBytes / 8;  // a way's data, in words
  // A way's masks (valid.lo, valid.hi, dirty.lo, dirty.hi) and data, from its set's tags.
  uint64_t* masks_of(uint64_t* tags, uint32_t way) const {
    return tags + 2 * ways_ + kMaskWords * way;
  }
  const uint64_t* masks_of(const uint64_t* tags, uint32_t way) const {
    return tags + 2 * ways_ + kMaskWords * way;
  }
  uint8_t* data_of(uint64_t* tags, uint32_t way) const {  // CacheData::Keep only
    return reinterpret_cast<uint8_t*>(tags + data_word_ + kDataWords * way);
  }
  const uint8_t* data_of(const uint64_t* tags, uint32_t way) const {
    return reinterpret_cast<const uint8_t*>(tags + data_word_ + kDataWords * way);
  }
  // The way of `line` in a set (found, -1 when absent) and the way an allocation would take
  // (the smallest key, the lowest way on ties; a free way has key 0): the one place of the
  // replacement rule, used by write() and by the hint above.
  struct WayChoice {
    int found = -1;
    uint32_t victim = 0;
  };
  static WayChoice choose_way(const uint64_t* tags, uint32_t ways, uint64_t line) {
    const uint64_t* const keys = tags + ways;
    WayChoice c;
    uint64_t vk = keys[0];
    for (uint32_t w = 0; w < ways; ++w) {
      if (tags[w] == line) c.found = int(w);
      if (keys[w] < vk) {
        vk = keys[w];
        c.victim = w;
      }
    }
    return c;
  }
  int find(const uint64_t* tags, uint64_t line) const;
  void take_out(const uint64_t* tags, uint32_t way, CacheLineOut& out, bool out_zeroed) const;

  CacheGeometry g_;
  uint32_t sets_ = 1;
  uint32_t ways_ = 1;
  bool keep_data_ = true;
  size_t data_word_ = 0;  // offset of data[] in a set's block, in words
  size_t set_words_ = 0;  // a set's block, in 8-byte words
  uint64_t counter_ = 0;  // write stamps (below 2^56)
  std::vector<uint64_t, detail::LineAlignedAllocator<uint64_t>> mem_;
};

// --- policy functions (docs/golden.md has the tables) ------------------------------------

enum class L1OnHit : uint8_t { Update, Invalidate };

struct L1StoreAction {
  L1OnHit on_hit = L1OnHit::Update;
  bool allocate = true;
  std::optional<EvictClass> cls = EvictClass::Normal;  // nullopt: keep the class on a hit
  bool operator==(const L1StoreAction& o) const {
    return on_hit == o.on_hit && allocate == o.allocate && cls == o.cls;
  }
};
// What the (write-through) L1 does with a global store.
L1StoreAction l1_store_action(const CacheAttrs& attrs, const Ordering& order);

// The L2 eviction class of a store to `line`: the .L2::evict_* qualifier, else the decoded
// .L2::cache_hint policy, else .cs (first), else Normal. nullopt: keep (evict_unchanged).
std::optional<EvictClass> l2_store_class(const CacheAttrs& attrs, uint64_t line);

struct L2StoreAction {
  std::optional<EvictClass> cls = EvictClass::Normal;
  WriteMode mode = WriteMode::Back;
  bool allocate = true;
  bool operator==(const L2StoreAction& o) const {
    return cls == o.cls && mode == o.mode && allocate == o.allocate;
  }
};
// What the L2 slice does with a global store to `line`.
L2StoreAction l2_store_action(const CacheAttrs& attrs, const Ordering& order, uint64_t line);

// --- write buffer ------------------------------------------------------------------------

// One entry: the bytes of one line on their way to the L2.
struct WbEntry {
  uint64_t line = 0;
  LineByteMask bytes;
  std::array<uint8_t, kLineBytes> data{};  // bytes not in the mask are 0
  L2StoreAction l2;
  bool mergeable = true;  // weak: later weak stores to the line may merge in
  uint32_t stores = 1;    // line requests merged into this entry
};

struct WbPush {
  bool merged = false;   // the request merged into an existing entry
  uint32_t drained = 0;  // entries that left the buffer (appended to `out`, oldest first)
};

// The L1-to-L2 write buffer (untimed): a FIFO of up to `entries` lines.
//   push(e, release):
//     1. release: every entry leaves, oldest first (the release waits for earlier stores);
//     2. a mergeable request merges into the youngest entry of its line when that entry is
//        mergeable and has the same L2 action; a strong or .mmio store never merges, and
//        nothing merges into it;
//     3. otherwise, when full, the oldest entry leaves; then the request is appended.
//   drain(): every entry leaves, oldest first.
class WriteBuffer {
 public:
  static constexpr unsigned kMaxEntries = 64;
  // Empty when 1..kMaxEntries; else "entries: must be 1..64 (got 0)".
  static std::string check(unsigned entries);
  explicit WriteBuffer(unsigned entries);  // clamped to 1..kMaxEntries

  WbPush push(const WbEntry& e, bool release, std::vector<WbEntry>& out);
  uint32_t drain(std::vector<WbEntry>& out);
  // The oldest entry leaves (appended to `out`); false when the buffer is empty. A timed
  // model drains this way, one entry whenever its port to the L2 is free.
  bool pop_oldest(std::vector<WbEntry>& out);
  unsigned size() const { return count_; }
  unsigned capacity() const { return unsigned(ring_.size()); }
  // Entry i, oldest first (i < size()).
  const WbEntry& entry(unsigned i) const { return ring_[slot(i)]; }
  // The line of the oldest entry (the next to leave); false when empty. Reads one host line.
  bool oldest_line(uint64_t& line) const {
    if (!count_) return false;
    line = lines_[head_];
    return true;
  }

 private:
  // The ring index of entry i (i <= size() < 2 * capacity), without a division.
  unsigned slot(unsigned i) const {
    const unsigned k = head_ + i;
    return k >= capacity() ? k - capacity() : k;
  }
  void pop(std::vector<WbEntry>& out);
  std::vector<WbEntry> ring_;
  // The line of each ring slot, beside the entries: push() looks for its line's youngest entry
  // in these few host lines instead of one WbEntry (three host lines) per entry.
  std::array<uint64_t, kMaxEntries> lines_{};
  unsigned head_ = 0;
  unsigned count_ = 0;
};

// --- the composed hierarchy --------------------------------------------------------------

struct HierarchyConfig {
  CacheGeometry l1{32 << 10, 4};
  CacheGeometry l2{256 << 10, 16};
  unsigned write_buffer = 8;  // entries, 1..64
  // Empty when valid; else "l1 ways: ...", "l2 bytes: ...", "write_buffer entries: ...".
  std::string check() const;
};

// One per global line request: what the L1 did, and the write buffer's answer.
struct L1Event {
  uint64_t line = 0;
  L1StoreAction action;
  bool hit = false;
  bool allocated = false;
  bool invalidated = false;  // a hit dropped by the action
  bool evicted = false;      // the allocation replaced a line (never dirty: write-through)
  uint64_t victim_line = 0;
  WbPush wb;  // merged, or how many entries it pushed out (they are the next L2 writes)
};

// The steps MemoryHierarchy composes, one level at a time (the TLM model's cache modules
// compose the same steps with timing between them):
//   l1_store_line  the L1 half of a global line request: its action, then update,
//                  invalidate or allocate (write-through; the write buffer is not touched);
//   wb_entry_of    the write-buffer entry of a line request (its L2 action, mergeability);
//   l2_write       a write-buffer entry written into an L2 slice with its action.
L1Event l1_store_line(SectoredCache& l1, const LineRequest& req, const CacheAttrs& attrs,
                      const Ordering& order);
WbEntry wb_entry_of(const LineRequest& req, const CacheAttrs& attrs, const Ordering& order);
CacheWriteResult l2_write(SectoredCache& l2, const WbEntry& e);

struct L2Write {
  WbEntry req;  // what left the write buffer
  bool hit = false;
  bool allocated = false;
  bool evicted = false;
  uint64_t victim_line = 0;
};

enum class DramCause : uint8_t { Eviction, WriteThrough, Flush };
std::string_view to_string(DramCause c);  // "eviction", "write_through", "flush"
std::optional<DramCause> dram_cause_from_string(std::string_view s);

struct DramWrite {
  uint64_t line = 0;
  LineByteMask bytes;                      // the bytes written (dirty, or written through)
  std::array<uint8_t, kLineBytes> data{};  // bytes not in the mask are 0
  DramCause cause = DramCause::Eviction;
};

// What a call did, in order. The caller owns it and clears it (capacity is kept).
struct HierarchyEvents {
  std::vector<L1Event> l1;
  std::vector<L2Write> l2;
  std::vector<DramWrite> dram;
  // Line requests merged in the write buffer.
  uint32_t merged() const {
    uint32_t n = 0;
    for (const L1Event& e : l1) n += e.wb.merged;
    return n;
  }
  void clear() {
    l1.clear();
    l2.clear();
    dram.clear();
  }
};

// L1 (write-through) -> write buffer -> L2 slice (write-back) -> DRAM. For each global line
// request: the L1 action, then the write buffer push; entries leaving the buffer are written
// into the L2 in order; a dirty victim or a write-through goes to DRAM.
class MemoryHierarchy {
 public:
  static std::optional<MemoryHierarchy> create(const HierarchyConfig& c,
                                               std::string* error = nullptr);

  // The global line requests of one warp store (other spaces are skipped), with its cache
  // attributes and ordering. A release drains the write buffer once, before its first line.
  void store(const StoreResult& r, HierarchyEvents& out);
  // One line request.
  void store_line(const LineRequest& req, const CacheAttrs& attrs, const Ordering& order,
                  bool release_point, HierarchyEvents& out);
  // The write buffer drains into the L2.
  void drain(HierarchyEvents& out);
  // drain(), then every dirty L2 line goes to DRAM (SectoredCache::flush order).
  void flush(HierarchyEvents& out);

  const HierarchyConfig& config() const { return cfg_; }
  const SectoredCache& l1() const { return l1_; }
  const SectoredCache& l2() const { return l2_; }
  const WriteBuffer& write_buffer() const { return wb_; }

 private:
  MemoryHierarchy(const HierarchyConfig& c, SectoredCache l1, SectoredCache l2);
  void to_l2(HierarchyEvents& out);
  void to_dram(const CacheLineOut& l, DramCause cause, HierarchyEvents& out);

  HierarchyConfig cfg_;
  SectoredCache l1_;
  SectoredCache l2_;
  WriteBuffer wb_;
  std::vector<WbEntry> leaving_;       // scratch: entries leaving the buffer
  std::vector<CacheLineOut> flushed_;  // scratch: lines flushed from the L2
};

}  // namespace stu::golden
