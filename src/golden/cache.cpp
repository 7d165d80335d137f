#include "stu/golden/cache.h"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stu::golden {

namespace {

bool pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
uint64_t line_of(uint64_t addr) { return addr & ~uint64_t(kLineBytes - 1); }

LineByteMask operator|(LineByteMask a, LineByteMask b) { return {a.lo | b.lo, a.hi | b.hi}; }

// kByteLanes[b]: byte i is 0xFF when bit i of b is set (8 mask bits -> 8 data bytes).
struct ByteLanes {
  uint64_t v[256];
};
constexpr ByteLanes make_byte_lanes() {
  ByteLanes t{};
  for (unsigned b = 0; b < 256; ++b)
    for (unsigned i = 0; i < 8; ++i)
      if (b >> i & 1) t.v[b] |= uint64_t(0xFF) << (8 * i);
  return t;
}
constexpr ByteLanes kByteLanes = make_byte_lanes();

uint64_t lanes_of(const LineByteMask& m, unsigned word) {  // word 0..15: bytes 8w..8w+7
  return kByteLanes.v[((word < 8 ? m.lo : m.hi) >> (8 * (word & 7))) & 0xFF];
}

// Copies the bytes of `src` under `mask` into `dst`.
void merge_bytes(uint8_t* dst, const uint8_t* src, const LineByteMask& mask) {
  if ((mask.lo & mask.hi) == ~uint64_t(0)) {
    std::memcpy(dst, src, kLineBytes);
    return;
  }
  for (unsigned w = 0; w < kLineBytes / 8; ++w) {
    const uint64_t m = lanes_of(mask, w);
    uint64_t d, s;
    std::memcpy(&d, dst + 8 * w, 8);
    std::memcpy(&s, src + 8 * w, 8);
    d = (d & ~m) | (s & m);
    std::memcpy(dst + 8 * w, &d, 8);
  }
}

// Keeps only the bytes under `mask` (the others become 0).
void keep_bytes(uint8_t* data, const LineByteMask& mask) {
  if ((mask.lo & mask.hi) == ~uint64_t(0)) return;
  for (unsigned w = 0; w < kLineBytes / 8; ++w) {
    uint64_t d;
    std::memcpy(&d, data + 8 * w, 8);
    d &= lanes_of(mask, w);
    std::memcpy(data + 8 * w, &d, 8);
  }
}

std::optional<EvictClass> class_of(L2Priority p) {
  switch (p) {
    case L2Priority::First:
      return EvictClass::First;
    case L2Priority::Last:
      return EvictClass::Last;
    case L2Priority::Normal:
      return EvictClass::Normal;
    case L2Priority::Unchanged:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(EvictClass c) {
  switch (c) {
    case EvictClass::First:
      return "first";
    case EvictClass::Normal:
      return "normal";
    case EvictClass::Last:
      return "last";
  }
  return "?";
}

std::string_view to_string(Replacement r) {
  return r == Replacement::Random ? "random" : "least_recently_written";
}

std::optional<EvictClass> evict_class_from_string(std::string_view s) {
  for (EvictClass c : {EvictClass::First, EvictClass::Normal, EvictClass::Last})
    if (s == to_string(c)) return c;
  return std::nullopt;
}

std::optional<DramCause> dram_cause_from_string(std::string_view s) {
  for (DramCause c : {DramCause::Eviction, DramCause::WriteThrough, DramCause::Flush})
    if (s == to_string(c)) return c;
  return std::nullopt;
}

std::string_view to_string(DramCause c) {
  switch (c) {
    case DramCause::Eviction:
      return "eviction";
    case DramCause::WriteThrough:
      return "write_through";
    case DramCause::Flush:
      return "flush";
  }
  return "?";
}

// --- geometry ------------------------------------------------------------------------------

std::string CacheGeometry::check() const {
  if (!pow2(ways) || ways > kMaxWays)
    return "ways: must be a power of two in 1.." + std::to_string(kMaxWays) + " (got " +
           std::to_string(ways) + ")";
  if (!pow2(bytes) || bytes < uint64_t(kLineBytes) * ways || bytes > kMaxBytes)
    return "bytes: must be a power of two in 128*ways (" +
           std::to_string(uint64_t(kLineBytes) * ways) + ") .. 64 MiB (got " +
           std::to_string(bytes) + ")";
  return {};
}

// --- sectored cache ------------------------------------------------------------------------

namespace {

// Writes the bytes of `src` under `mask` into all of `dst`, the others 0 (`src` nullptr: all 0).
void store_bytes(uint8_t* dst, const uint8_t* src, const LineByteMask& mask) {
#if defined(__SSE2__)
  // A way being allocated is written whole and not read again soon (a large cache's sets are
  // far apart in host memory): streaming stores skip reading its old host lines first (a
  // host write miss, the cost of every allocation in a cache of tens of MiB). The same bytes.
  // `dst` is 64-byte aligned (the set blocks are).
  for (unsigned w = 0; w < kLineBytes / 8; w += 2) {
    uint64_t s0 = 0, s1 = 0;
    if (src) {
      std::memcpy(&s0, src + 8 * w, 8);
      std::memcpy(&s1, src + 8 * w + 8, 8);
      s0 &= lanes_of(mask, w);
      s1 &= lanes_of(mask, w + 1);
    }
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 8 * w),
                     _mm_set_epi64x(static_cast<long long>(s1), static_cast<long long>(s0)));
  }
#else
  if (!src) {
    std::memset(dst, 0, kLineBytes);
    return;
  }
  if ((mask.lo & mask.hi) == ~uint64_t(0)) {
    std::memcpy(dst, src, kLineBytes);
    return;
  }
  for (unsigned w = 0; w < kLineBytes / 8; ++w) {
    uint64_t s;
    std::memcpy(&s, src + 8 * w, 8);
    s &= lanes_of(mask, w);
    std::memcpy(dst + 8 * w, &s, 8);
  }
#endif
}

}  // namespace

std::optional<SectoredCache> SectoredCache::create(const CacheGeometry& g, std::string* error,
                                                   CacheData data,
                                                   std::pmr::memory_resource* memory) {
  const std::string bad = g.check();
  if (!bad.empty()) {
    if (error) *error = bad;
    return std::nullopt;
  }
  return SectoredCache(g, data, memory ? memory : std::pmr::get_default_resource());
}

SectoredCache::SectoredCache(const CacheGeometry& g, CacheData data,
                             std::pmr::memory_resource* memory)
    : g_(g),
      sets_(g.sets()),
      ways_(g.ways),
      keep_data_(data == CacheData::Keep),
      data_word_((size_t(ways_) * (2 + kMaskWords) + 7) / 8 * 8),  // whole 64-byte lines
      set_words_(data_word_ + (keep_data_ ? size_t(ways_) * kDataWords : 0)),
      // Zero-filled (so every page is touched now, not during the first accesses).
      mem_(size_t(sets_) * set_words_ + 1, memory) {  // + the generator's state
  *random_state() = kRandomSeed;
  for (uint32_t s = 0; s < sets_; ++s) {  // the tags of free ways
    uint64_t* tags = tags_of(s);
    for (uint32_t w = 0; w < ways_; ++w) tags[w] = kNoLine;
  }
}

int SectoredCache::find(const uint64_t* tags, uint64_t line) const {
  for (uint32_t w = 0; w < ways_; ++w)
    if (tags[w] == line) return int(w);
  return -1;
}

void SectoredCache::take_out(const uint64_t* tags, uint32_t way, CacheLineOut& out,
                             bool out_zeroed) const {
  const uint64_t* m = masks_of(tags, way);
  out.line = tags[way];
  out.valid = {m[0], m[1]};
  out.dirty = {m[2], m[3]};
  out.cls = class_of_key(tags[ways_ + way]);
  if (keep_data_ && !out.valid.empty())  // the bytes not valid are 0 in the cache too
    std::memcpy(out.data.data(), data_of(tags, way), kLineBytes);
  else if (!out_zeroed)
    out.data.fill(0);
}

CacheLookup SectoredCache::lookup(uint64_t addr) const {
  CacheLookup r;
  const uint64_t line = line_of(addr);
  r.set = set_of(line);
  const uint64_t* tags = tags_of(r.set);
  const int w = find(tags, line);
  if (w < 0) return r;
  const uint64_t* m = masks_of(tags, uint32_t(w));
  r.hit = true;
  r.way = uint32_t(w);
  r.valid = {m[0], m[1]};
  r.dirty = {m[2], m[3]};
  r.cls = class_of_key(tags[ways_ + unsigned(w)]);
  return r;
}

const uint8_t* SectoredCache::data(uint64_t addr) const {
  if (!keep_data_) return nullptr;
  const uint64_t line = line_of(addr);
  const uint64_t* tags = tags_of(set_of(line));
  const int w = find(tags, line);
  if (w < 0) return nullptr;
  return data_of(tags, uint32_t(w));
}

CacheWriteResult SectoredCache::write(const CacheWrite& wr) {
  CacheWriteResult r;
  const uint64_t line = line_of(wr.line);
  r.set = set_of(line);
  uint64_t* const tags = tags_of(r.set);
  uint64_t* const keys = tags + ways_;
  // (The generator's state is read only by a cache that draws: it lies alone past the sets.)
  const bool draws = g_.replacement == Replacement::Random;
  const uint32_t draw = draws ? next_random(uint32_t(*random_state())) : 0;
  const WayChoice choice = choose_way(tags, ways_, line, g_.replacement, draw & (ways_ - 1));
  const int found = choice.found;
  const uint32_t v = choice.victim;
  if (found >= 0) {
    r.hit = true;
    r.way = uint32_t(found);
    uint64_t* const m = masks_of(tags, r.way);
    keys[r.way] = key(wr.cls.value_or(class_of_key(keys[r.way])), ++counter_);
    m[0] |= wr.bytes.lo;
    m[1] |= wr.bytes.hi;
    if (wr.mode == WriteMode::Back) {
      m[2] |= wr.bytes.lo;
      m[3] |= wr.bytes.hi;
    } else {
      m[2] &= ~wr.bytes.lo;
      m[3] &= ~wr.bytes.hi;
    }
    if (keep_data_ && wr.data) merge_bytes(data_of(tags, r.way), wr.data, wr.bytes);
    return r;
  }
  if (!wr.allocate) return r;
  r.allocated = true;
  r.way = v;
  if (tags[v] != kNoLine) {
    r.evicted = true;
    take_out(tags, v, r.victim, true);
    if (draws) *random_state() = draw;
  }
  // Write-validate: no fill from below. The slot is written once, whole (its bytes not
  // written become 0), so neither take_out nor invalidate clears it.
  tags[v] = line;
  keys[v] = key(wr.cls.value_or(EvictClass::Normal), ++counter_);
  uint64_t* const m = masks_of(tags, v);
  m[0] = wr.bytes.lo;
  m[1] = wr.bytes.hi;
  m[2] = wr.mode == WriteMode::Back ? wr.bytes.lo : 0;
  m[3] = wr.mode == WriteMode::Back ? wr.bytes.hi : 0;
  if (keep_data_) store_bytes(data_of(tags, v), wr.data, wr.bytes);
  return r;
}

bool SectoredCache::invalidate(uint64_t addr, CacheLineOut* out) {
  const uint64_t line = line_of(addr);
  uint64_t* const tags = tags_of(set_of(line));
  const int w = find(tags, line);
  if (w < 0) return false;
  if (out) take_out(tags, uint32_t(w), *out, false);
  tags[w] = kNoLine;
  tags[ways_ + unsigned(w)] = 0;
  uint64_t* m = masks_of(tags, uint32_t(w));
  m[0] = m[1] = m[2] = m[3] = 0;
  return true;
}

size_t SectoredCache::flush(std::vector<CacheLineOut>& out) {
  size_t n = 0;
  for (uint32_t s = 0; s < sets_; ++s) {  // set-major, then way
    uint64_t* const tags = tags_of(s);
    for (uint32_t w = 0; w < ways_; ++w) {
      uint64_t* m = masks_of(tags, uint32_t(w));
      if (tags[w] == kNoLine || (m[2] | m[3]) == 0) continue;
      out.emplace_back();
      take_out(tags, w, out.back(), true);
      m[2] = m[3] = 0;
      ++n;
    }
  }
  return n;
}

size_t SectoredCache::lines_present() const {
  size_t n = 0;
  for (uint32_t s = 0; s < sets_; ++s) {
    const uint64_t* tags = tags_of(s);
    for (uint32_t w = 0; w < ways_; ++w) n += tags[w] != kNoLine;
  }
  return n;
}

// --- policy functions ------------------------------------------------------------------------

L1StoreAction l1_store_action(const CacheAttrs& a, const Ordering& o) {
  using isa::CacheOp;
  using isa::L1Evict;
  constexpr L1StoreAction kBypass{L1OnHit::Invalidate, false, std::nullopt};
  if (o.mmio) return kBypass;  // never cached
  // `.cg` and `.wt` update a hit and allocate a miss as `.wb` does: silicon (H200, 2026-11-27,
  // device run 25, docs/golden.md) reads a line they wrote back from the L1 like any store's.
  if (a.cop) {
    switch (*a.cop) {
      case CacheOp::Wb:
      case CacheOp::Cg:
      case CacheOp::Wt:
        return {L1OnHit::Update, true, EvictClass::Normal};
      case CacheOp::Cs:
        return {L1OnHit::Update, true, EvictClass::First};  // streaming: evict-first
    }
  }
  if (a.l1) {
    switch (*a.l1) {
      case L1Evict::EvictNormal:
        return {L1OnHit::Update, true, EvictClass::Normal};
      case L1Evict::EvictUnchanged:
        return {L1OnHit::Update, true, std::nullopt};
      case L1Evict::EvictFirst:
        return {L1OnHit::Update, true, EvictClass::First};
      case L1Evict::EvictLast:
        return {L1OnHit::Update, true, EvictClass::Last};
      case L1Evict::NoAllocate:
        return {L1OnHit::Update, false, std::nullopt};
    }
  }
  return {L1OnHit::Update, true, EvictClass::Normal};
}

std::optional<EvictClass> l2_store_class(const CacheAttrs& a, uint64_t line) {
  if (a.l2) {
    switch (*a.l2) {
      case isa::L2Evict::EvictNormal:
        return EvictClass::Normal;
      case isa::L2Evict::EvictFirst:
        return EvictClass::First;
      case isa::L2Evict::EvictLast:
        return EvictClass::Last;
    }
  }
  if (a.has_policy && (a.policy.kind == CachePolicy::Kind::Named ||
                       a.policy.kind == CachePolicy::Kind::Fractional)) {
    // A fraction of n/16 gives the primary priority to the lines whose bits 10:7 are below n
    // (n of every 16 consecutive lines), the secondary to the others.
    const unsigned n = unsigned(a.policy.fraction * 16.0f + 0.5f);
    const bool primary = ((line >> 7) & 15) < n;
    return class_of(primary ? a.policy.primary : a.policy.secondary);
  }
  if (a.cop == isa::CacheOp::Cs) return EvictClass::First;
  return EvictClass::Normal;
}

L2StoreAction l2_store_action(const CacheAttrs& a, uint64_t line) {
  L2StoreAction r;
  r.cls = l2_store_class(a, line);
  // Every global store is written back, `.wt` and `.mmio` included: silicon keeps both in the
  // L2 (H200, 2026-11-27: `.mmio` in device run 17, `.wt` in run 21; docs/golden.md). `.wt`
  // writes through only to system memory (PTX ISA), which stu does not model: its global
  // addresses are device memory. `.mmio`'s "performed exactly once" is the write buffer's (it
  // never merges) and the L1's (it is never cached).
  return r;
}

// --- write buffer --------------------------------------------------------------------------

std::string WriteBuffer::check(unsigned entries) {
  if (entries >= 1 && entries <= kMaxEntries) return {};
  return "entries: must be 1.." + std::to_string(kMaxEntries) + " (got " + std::to_string(entries) +
         ")";
}

WriteBuffer::WriteBuffer(unsigned entries)
    : ring_(entries < 1             ? 1
            : entries > kMaxEntries ? kMaxEntries
                                    : entries) {}

void WriteBuffer::pop(std::vector<WbEntry>& out) {
  out.push_back(ring_[head_]);
  head_ = slot(1);
  --count_;
}

bool WriteBuffer::pop_oldest(std::vector<WbEntry>& out) {
  if (!count_) return false;
  pop(out);
  return true;
}

uint32_t WriteBuffer::drain(std::vector<WbEntry>& out) {
  const uint32_t n = count_;
  while (count_) pop(out);
  return n;
}

WbPush WriteBuffer::push(const WbEntry& e, bool release, std::vector<WbEntry>& out) {
  WbPush r;
  if (release) r.drained += drain(out);
  const uint64_t line = line_of(e.line);
  if (e.mergeable) {
    for (unsigned i = count_; i-- > 0;) {  // the youngest entry of the line decides
      const unsigned k = slot(i);
      if (lines_[k] != line) continue;
      WbEntry& old = ring_[k];
      if (old.mergeable && old.l2 == e.l2) {
        merge_bytes(old.data.data(), e.data.data(), e.bytes);
        old.bytes = old.bytes | e.bytes;
        old.stores += e.stores;
        r.merged = true;
        return r;
      }
      break;
    }
  }
  if (count_ == ring_.size()) {
    pop(out);
    ++r.drained;
  }
  const unsigned k = slot(count_);
  ring_[k] = e;
  ring_[k].line = line;
  lines_[k] = line;
  ++count_;
  return r;
}

// --- hierarchy -----------------------------------------------------------------------------

std::string HierarchyConfig::check() const {
  std::string bad = l1.check();
  if (!bad.empty()) return "l1 " + bad;
  bad = l2.check();
  if (!bad.empty()) return "l2 " + bad;
  bad = WriteBuffer::check(write_buffer);
  if (!bad.empty()) return "write_buffer " + bad;
  return {};
}

std::optional<MemoryHierarchy> MemoryHierarchy::create(const HierarchyConfig& c,
                                                       std::string* error) {
  const std::string bad = c.check();
  if (!bad.empty()) {
    if (error) *error = bad;
    return std::nullopt;
  }
  return MemoryHierarchy(c, *SectoredCache::create(c.l1), *SectoredCache::create(c.l2));
}

MemoryHierarchy::MemoryHierarchy(const HierarchyConfig& c, SectoredCache l1, SectoredCache l2)
    : cfg_(c), l1_(std::move(l1)), l2_(std::move(l2)), wb_(c.write_buffer) {
  leaving_.reserve(c.write_buffer + 1);
}

void MemoryHierarchy::store(const StoreResult& r, HierarchyEvents& out) {
  bool release = r.order.release;
  for (const LineRequest& req : r.lines) {
    if (req.dest.space != MemSpace::Global) continue;
    store_line(req, r.cache, r.order, release, out);
    release = false;
  }
}

L1Event l1_store_line(SectoredCache& l1, const LineRequest& req, const CacheAttrs& attrs,
                      const Ordering& order) {
  // Write-through; update or invalidate on a hit, allocate or not on a miss.
  L1Event ev;
  ev.line = line_of(req.line);
  ev.action = l1_store_action(attrs, order);
  if (ev.action.on_hit == L1OnHit::Invalidate) {
    ev.hit = ev.invalidated = l1.invalidate(ev.line);
  } else {
    CacheWrite w;
    w.line = ev.line;
    w.bytes = req.bytes;
    w.data = req.data.data();
    w.cls = ev.action.cls;
    w.allocate = ev.action.allocate;
    w.mode = WriteMode::Through;
    const CacheWriteResult res = l1.write(w);
    ev.hit = res.hit;
    ev.allocated = res.allocated;
    ev.evicted = res.evicted;
    ev.victim_line = res.victim.line;
  }
  return ev;
}

WbEntry wb_entry_of(const LineRequest& req, const CacheAttrs& attrs, const Ordering& order) {
  WbEntry e;
  e.line = line_of(req.line);
  e.bytes = req.bytes;
  e.data = req.data;
  e.l2 = l2_store_action(attrs, e.line);
  e.mergeable = !order.strong && !order.mmio;
  return e;
}

CacheWriteResult l2_write(SectoredCache& l2, const WbEntry& e) {
  CacheWrite w;
  w.line = e.line;
  w.bytes = e.bytes;
  w.data = e.data.data();
  w.cls = e.l2.cls;
  w.allocate = true;  // every store allocates in the L2 (L2StoreAction)
  w.mode = e.l2.mode;
  return l2.write(w);
}

void MemoryHierarchy::store_line(const LineRequest& req, const CacheAttrs& attrs,
                                 const Ordering& order, bool release_point, HierarchyEvents& out) {
  L1Event ev = l1_store_line(l1_, req, attrs, order);
  // Write buffer, then whatever left it into the L2.
  leaving_.clear();
  ev.wb = wb_.push(wb_entry_of(req, attrs, order), release_point, leaving_);
  out.l1.push_back(ev);
  to_l2(out);
}

void MemoryHierarchy::to_l2(HierarchyEvents& out) {
  for (const WbEntry& e : leaving_) {
    const CacheWriteResult res = l2_write(l2_, e);
    L2Write lw;
    lw.req = e;
    lw.hit = res.hit;
    lw.allocated = res.allocated;
    lw.evicted = res.evicted;
    lw.victim_line = res.victim.line;
    out.l2.push_back(lw);
    if (res.evicted && !res.victim.dirty.empty()) to_dram(res.victim, DramCause::Eviction, out);
    if (e.l2.mode == WriteMode::Through) {
      out.dram.emplace_back();
      DramWrite& d = out.dram.back();
      d.line = e.line;
      d.bytes = e.bytes;
      d.data = e.data;
      d.cause = DramCause::WriteThrough;
    }
  }
  leaving_.clear();
}

void MemoryHierarchy::to_dram(const CacheLineOut& l, DramCause cause, HierarchyEvents& out) {
  out.dram.emplace_back();
  DramWrite& d = out.dram.back();
  d.line = l.line;
  d.bytes = l.dirty;
  d.data = l.data;
  d.cause = cause;
  keep_bytes(d.data.data(), d.bytes);
}

void MemoryHierarchy::drain(HierarchyEvents& out) {
  leaving_.clear();
  wb_.drain(leaving_);
  to_l2(out);
}

void MemoryHierarchy::flush(HierarchyEvents& out) {
  drain(out);
  flushed_.clear();
  l2_.flush(flushed_);
  for (const CacheLineOut& l : flushed_) to_dram(l, DramCause::Flush, out);
}

}  // namespace stu::golden
