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

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "stu/golden/access.h"
#include "stu/golden/executor.h"
#include "stu/golden/policy.h"

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

// How a set picks its victim among the lines of its lowest class (SectoredCache, rule 2).
//   LeastRecentlyWritten  the line written longest ago (the default).
//   Random                a pseudo-random way: what the H200's L2 does with footprints near and
//                         beyond its size (docs/golden.md, "Replacement").
enum class Replacement : uint8_t { LeastRecentlyWritten, Random };
std::string_view to_string(Replacement r);  // "least_recently_written", "random"

// Size, associativity and replacement. Lines are kLineBytes (128) of kSectorsPerLine (4)
// sectors.
struct CacheGeometry {
  uint64_t bytes = 0;
  uint32_t ways = 0;
  Replacement replacement = Replacement::LeastRecentlyWritten;

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
// `n` zero-filled words, 64-byte aligned (a host cache line: the set blocks below start on
// one, and allocation writes whole lines with aligned streaming stores), taken from a standard
// memory resource and returned to it. A copy takes its words from the default resource, so it
// may outlive the resource of the original.
class AlignedWords {
 public:
  static constexpr size_t kAlign = 64;
  AlignedWords(size_t n, std::pmr::memory_resource* r)
      : r_(r), n_(n), p_(static_cast<uint64_t*>(r->allocate(bytes(n), kAlign))) {
    std::fill(p_, p_ + n_, uint64_t(0));
  }
  AlignedWords(const AlignedWords& o) : AlignedWords(o.n_, std::pmr::get_default_resource()) {
    std::copy(o.p_, o.p_ + n_, p_);
  }
  AlignedWords(AlignedWords&& o) noexcept : r_(o.r_), n_(o.n_), p_(o.p_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  AlignedWords& operator=(AlignedWords o) noexcept {
    std::swap(r_, o.r_);
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }
  ~AlignedWords() {
    if (p_) r_->deallocate(p_, bytes(n_), kAlign);
  }
  uint64_t* data() { return p_; }
  const uint64_t* data() const { return p_; }

 private:
  static size_t bytes(size_t n) { return n ? n * sizeof(uint64_t) : sizeof(uint64_t); }
  std::pmr::memory_resource* r_;
  size_t n_;
  uint64_t* p_;
};
}  // namespace detail

// A sectored cache. Address mapping: set = (addr >> 7) & (sets - 1); the tag is
// addr >> (7 + log2(sets)) (the model keeps the whole line address).
//
// Replacement (the whole rule):
//   1. a miss that allocates takes the lowest-numbered free way of its set;
//   2. if none is free, the victim is a line of the lowest class (First < Normal < Last);
//      within that class, by the geometry's Replacement:
//        LeastRecentlyWritten: the least recently written line (oldest stamp), the
//          lowest way on ties;
//        Random: the first such line at or after way r, cyclically (r, r + 1, ..., ways - 1,
//          0, ...), where r is the low log2(ways) bits of the next value of the cache's
//          xorshift32 generator (x ^= x << 13; x ^= x >> 17; x ^= x << 5; from kRandomSeed).
//          The generator steps once for each allocation that evicts a line, and only then.
// Each write that hits or allocates stamps its line with the cache's write counter (1, 2, ...).
// A lookup does not touch stamps.
class SectoredCache {
 public:
  // nullopt (and `*error` set) when the geometry is invalid. `data`: whether the lines'
  // bytes are kept (CacheData above). `memory`: where the arrays are taken from (a standard
  // memory resource that outlives the cache; a copy of the cache takes its own from the
  // default resource); null: the default resource (the heap).
  static std::optional<SectoredCache> create(const CacheGeometry& g, std::string* error = nullptr,
                                             CacheData data = CacheData::Keep,
                                             std::pmr::memory_resource* memory = nullptr);

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
  // Where the arrays lie in memory (the storage layout below; fixed for the cache's life),
  // for a reader that looks at them without changing them: the TLM engine's host-speed hints
  // (systemc/engine/cache_hints.h), which load a set's block before the model writes it.
  // Set s's block is the `set_words` words from base + s * set_words: the tags of its ways
  // (a line address, or an odd value when free), then their replacement keys, then 4 mask
  // words a way (valid.lo, valid.hi, dirty.lo, dirty.hi), then from `data_word` (0: no data
  // kept) 128 bytes a way.
  struct Layout {
    const uint64_t* base = nullptr;
    uint32_t sets = 0;
    uint32_t ways = 0;
    size_t set_words = 0;
    size_t keys_word = 0;   // = ways
    size_t masks_word = 0;  // = 2 * ways
    size_t data_word = 0;
    Replacement replacement = Replacement::LeastRecentlyWritten;
    // The generator's state (Random: the next draw is next_random(*random)); it lies in the
    // same storage as the sets, so it moves with them.
    const uint64_t* random = nullptr;
  };
  Layout layout() const {
    return {mem_.data(),
            sets_,
            ways_,
            set_words_,
            size_t(ways_),
            2 * size_t(ways_),
            keep_data_ ? data_word_ : 0,
            g_.replacement,
            random_state()};
  }
  static constexpr size_t kMaskWords = 4;  // a way's masks, in words
  // The replacement rule on one set's block (its tags, then its keys): the way that holds
  // `line` (found, -1 when absent) and the way an allocation takes. A free way has key 0.
  // LeastRecentlyWritten: the smallest key, the lowest way on ties. Random: a free way if
  // any (the lowest), else the lowest class's first way at or after `start` (cyclically).
  // The one place of the rule: write() uses it, and so does a reader of the layout that wants
  // to know the victim ahead.
  struct WayChoice {
    int found = -1;
    uint32_t victim = 0;
  };
  static WayChoice choose_way(const uint64_t* tags, uint32_t ways, uint64_t line,
                              Replacement rule = Replacement::LeastRecentlyWritten,
                              uint32_t start = 0) {
    const uint64_t* const keys = tags + ways;
    WayChoice c;
    if (rule == Replacement::LeastRecentlyWritten) {
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
    // Random: a free way ranks by its number, below any line; a line by its class, then by
    // its distance from `start`.
    uint64_t best = ~uint64_t(0);
    for (uint32_t w = 0; w < ways; ++w) {
      if (tags[w] == line) c.found = int(w);
      const uint64_t k = keys[w];
      const uint64_t rank = k == 0 ? w : (k >> kClassShift) << 32 | ((w - start) & (ways - 1));
      if (rank < best) {
        best = rank;
        c.victim = w;
      }
    }
    return c;
  }
  // Replacement::Random: the generator's seed, and its step (the value after x).
  static constexpr uint32_t kRandomSeed = 0x2545F491u;
  static constexpr uint32_t next_random(uint32_t x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
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
  SectoredCache(const CacheGeometry& g, CacheData data, std::pmr::memory_resource* memory);

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
  uint64_t* tags_of(uint32_t set) { return mem_.data() + size_t(set) * set_words_; }
  const uint64_t* tags_of(uint32_t set) const { return mem_.data() + size_t(set) * set_words_; }
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
  int find(const uint64_t* tags, uint64_t line) const;
  // Replacement::Random's generator state: the word after the last set's block.
  uint64_t* random_state() { return mem_.data() + size_t(sets_) * set_words_; }
  const uint64_t* random_state() const { return mem_.data() + size_t(sets_) * set_words_; }
  void take_out(const uint64_t* tags, uint32_t way, CacheLineOut& out, bool out_zeroed) const;

  CacheGeometry g_;
  uint32_t sets_ = 1;
  uint32_t ways_ = 1;
  bool keep_data_ = true;
  size_t data_word_ = 0;  // offset of data[] in a set's block, in words
  size_t set_words_ = 0;  // a set's block, in 8-byte words
  uint64_t counter_ = 0;  // write stamps (below 2^56)
  detail::AlignedWords mem_;
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

// Every global store allocates in the L2 on a miss and is written back: the L2 is the point of
// coherence, and silicon keeps even `.mmio` and `.wt` stores there (H200, 2026-11-27;
// docs/golden.md). WriteMode::Through is the slice's mode for system memory (`.wt` there, PTX
// ISA), which stu does not model.
struct L2StoreAction {
  std::optional<EvictClass> cls = EvictClass::Normal;
  WriteMode mode = WriteMode::Back;
  bool operator==(const L2StoreAction& o) const { return cls == o.cls && mode == o.mode; }
};
// What the L2 slice does with a global store to `line`. The store's ordering plays no part.
L2StoreAction l2_store_action(const CacheAttrs& attrs, uint64_t line);

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
