// The C++ cache cores: the golden cache piece, composed as golden::MemoryHierarchy composes
// it (L1 action, write buffer, L2 action), one level at a time.
#include <stdexcept>

#include "cache_hints.h"
#include "cores.h"
#include "timing.h"

namespace stu::sim {
namespace {

class GoldenL1 final : public L1Core {
 public:
  GoldenL1(golden::SectoredCache c, unsigned wb) : l1_(std::move(c)), wb_(wb) {}
  std::string name() const override { return "c++"; }
  L1Result store(const golden::LineRequest& req, const golden::CacheAttrs& attrs,
                 const golden::Ordering& order, bool release_point,
                 std::vector<golden::WbEntry>& out) override {
    L1Result r;
    r.hit = golden::l1_store_line(l1_, req, attrs, order).hit;
    r.merged = wb_.push(golden::wb_entry_of(req, attrs, order), release_point, out).merged;
    return r;
  }
  void drain(std::vector<golden::WbEntry>& out) override { wb_.drain(out); }
  bool pop_oldest(std::vector<golden::WbEntry>& out) override { return wb_.pop_oldest(out); }
  bool can_pop() const override { return true; }
  golden::CacheLookup lookup(std::uint64_t addr) const override { return l1_.lookup(addr); }
  unsigned wb_entries() const override { return wb_.size(); }
  void prefetch(std::uint64_t addr) const override { hints_.prefetch(addr); }
  const golden::WriteBuffer* write_buffer() const override { return &wb_; }
  const golden::SectoredCache* cache_array() const override { return &l1_; }

 private:
  golden::SectoredCache l1_;
  CacheHints hints_{l1_.layout()};  // (after l1_)
  golden::WriteBuffer wb_;
};

class GoldenL2 final : public L2Core {
 public:
  explicit GoldenL2(golden::SectoredCache c) : l2_(std::move(c)) {}
  std::string name() const override { return "c++"; }
  L2Result write(const golden::WbEntry& e) override {
    golden::CacheWriteResult res = golden::l2_write(l2_, e);
    L2Result r;
    r.hit = res.hit;
    r.set = res.set;
    r.way = res.way;
    r.evicted = res.evicted && !res.victim.dirty.empty();
    if (r.evicted) r.victim = res.victim;
    return r;
  }
  void flush(std::vector<golden::CacheLineOut>& out) override { l2_.flush(out); }
  bool keeps_data() const override { return false; }
  golden::CacheLookup lookup(std::uint64_t addr) const override { return l2_.lookup(addr); }
  void prefetch(std::uint64_t addr) const override { hints_.prefetch(addr); }
  const golden::SectoredCache* cache_array() const override { return &l2_; }

 private:
  golden::SectoredCache l2_;
  CacheHints hints_{l2_.layout()};  // (after l2_)
};

golden::SectoredCache cache_or_throw(const golden::CacheGeometry& g, golden::CacheData data,
                                     std::pmr::memory_resource* memory) {
  std::string err;
  auto c = golden::SectoredCache::create(g, &err, data, memory);
  if (!c) throw std::invalid_argument(err);  // validate() checked the geometry already
  return std::move(*c);
}

}  // namespace

std::unique_ptr<L1Core> make_l1_core(const golden::CacheGeometry& g, unsigned wb_entries,
                                     std::pmr::memory_resource* memory) {
  // The L1 is write-through (l1_store_line writes with WriteMode::Through and invalidates
  // without taking the line out), so its lines are never dirty and their bytes are never
  // read: it keeps no data.
  return std::make_unique<GoldenL1>(cache_or_throw(g, golden::CacheData::Drop, memory), wb_entries);
}
std::unique_ptr<L2Core> make_l2_core(const golden::CacheGeometry& g,
                                     std::pmr::memory_resource* memory) {
  // The tags, masks and classes only: the slice keeps the bytes (L2Core::keeps_data), so that
  // they can be moved on another host thread (DataPlane).
  return std::make_unique<GoldenL2>(cache_or_throw(g, golden::CacheData::Drop, memory));
}

}  // namespace stu::sim
