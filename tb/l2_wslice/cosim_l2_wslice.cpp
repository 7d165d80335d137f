// Cosimulation of rtl/stu_l2_wslice.sv (64 sets x 4 ways) against a golden::SectoredCache of the
// same geometry: every write's CacheWriteResult and the DRAM writes MemoryHierarchy derives from
// it (a dirty victim, a write-through), and every flush's lines (SectoredCache::flush), in
// order. The stimulus crowds a few sets with a few more lines than ways so that evictions are
// frequent, and mixes full lines, sectors and scattered bytes, every class (and "keep"),
// write-back / write-through, and flushes.
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "Vstu_l2_wslice.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/cache.h"

namespace stu::tb {
namespace {

namespace L = rtl::layout;
using golden::CacheLineOut;
using golden::DramCause;
using golden::EvictClass;
using golden::kLineBytes;
using golden::LineByteMask;

constexpr unsigned kSets = 64, kWays = 4;  // the RTL's default parameters

static_assert(port_words<decltype(Vstu_l2_wslice::req_i)> == words_for_bits(L::l2_write::kWidth),
              "req_i is l2_write_t");
static_assert(port_words<decltype(Vstu_l2_wslice::res_o)> == words_for_bits(L::l2_result::kWidth),
              "res_o is l2_result_t");
static_assert(port_words<decltype(Vstu_l2_wslice::dram_o)> == words_for_bits(L::dram_write::kWidth),
              "dram_o is dram_write_t");
static_assert(L::l2_write::bytes.width == kLineBytes && L::l2_write::data.width == kLineBytes * 8,
              "l2_write_t carries one golden line");
static_assert(L::dram_write::data.width == kLineBytes * 8, "dram_write_t carries one golden line");

std::string hex_mask(const LineByteMask& m) {
  char b[40];
  std::snprintf(b, sizeof b, "%016llx%016llx", static_cast<unsigned long long>(m.hi),
                static_cast<unsigned long long>(m.lo));
  return b;
}

// Masks to/from the 128-bit port fields.
template <std::size_t N>
void put_mask(VlWide<N>& w, BitField f, const LineByteMask& m) {
  put_bits(w, f.lsb, 64, m.lo);
  put_bits(w, f.lsb + 64, 64, m.hi);
}
template <std::size_t N>
LineByteMask get_mask(const VlWide<N>& w, BitField f) {
  return {get_bits(w, f.lsb, 64), get_bits(w, f.lsb + 64, 64)};
}

}  // namespace

struct L2WsliceBench {
  using Dut = Vstu_l2_wslice;
  struct In {
    bool flush = false;
    uint64_t line = 0;
    LineByteMask bytes;
    std::array<uint8_t, kLineBytes> data{};  // 0 outside the mask
    golden::L2StoreAction act;
  };
  // One output transaction: a result, or a DRAM write.
  struct Out {
    bool dram = false;
    // result
    bool flush = false, hit = false, allocated = false, evicted = false;
    uint32_t set = 0, way = 0, flushed = 0;
    uint64_t victim_line = 0;
    EvictClass victim_cls = EvictClass::Normal;
    LineByteMask victim_valid, victim_dirty;
    // DRAM write
    uint64_t line = 0;
    LineByteMask bytes;
    DramCause cause = DramCause::Eviction;
    std::array<uint8_t, kLineBytes> data{};
  };

  golden::SectoredCache cache =
      *golden::SectoredCache::create({uint64_t(kSets) * kWays * kLineBytes, kWays});
  std::vector<CacheLineOut> flushed;

  // The geometry and replacement in use, drawn per seed: the configuration ports choose the
  // sets, ways and replacement at run time (`stu sim --rtl` gives them the model's), so a
  // quarter of the seeds use the parameters' whole and the rest a smaller one (2..64 sets, 1,
  // 2 or 4 ways), and half replace at random; the reference takes the same.
  bool random_ = false;
  void setup(Clocked<Dut>& sim, Rng& r) {
    unsigned sets = kSets, ways = kWays;
    if (!r.chance(0.25)) {
      sets = 2u << r.below(6);
      ways = 1u << r.below(3);
    }
    random_ = r.chance(0.5);
    sim.dut().cfg_set_mask_i = sets - 1;
    sim.dut().cfg_ways_i = ways;
    sim.dut().cfg_random_i = random_;
    cache = *golden::SectoredCache::create(
        {uint64_t(sets) * ways * kLineBytes, ways,
         random_ ? golden::Replacement::Random : golden::Replacement::LeastRecentlyWritten});
  }

  static LineByteMask random_mask(Rng& r) {
    LineByteMask m;
    switch (r.below(5)) {
      case 0:
        m = {~uint64_t(0), ~uint64_t(0)};  // a whole line (streaming)
        break;
      case 1: {  // whole sectors
        const unsigned s = unsigned(1 + r.below(15));
        for (unsigned i = 0; i < 4; ++i)
          if (s >> i & 1) {
            const uint64_t sec = 0xFFFFFFFFull << (32 * (i & 1));
            (i < 2 ? m.lo : m.hi) |= sec;
          }
        break;
      }
      case 2:  // partial sector: an aligned run of 1..32 bytes
      {
        const unsigned size = 1u << r.below(6);
        const unsigned at = unsigned(r.below(kLineBytes / size)) * size;
        for (unsigned i = 0; i < size; ++i) m.set(at + i);
        break;
      }
      case 3:  // scattered bytes
        m = {r.next() & r.next(), r.next() & r.next()};
        break;
      default:
        m = {r.next(), r.next()};
    }
    if (m.empty()) m.set(unsigned(r.below(kLineBytes)));
    return m;
  }

  static golden::L2StoreAction random_action(Rng& r) {
    if (r.chance(0.25)) {  // any combination, "keep the class" included
      golden::L2StoreAction a;
      const unsigned c = unsigned(r.below(4));
      a.cls = std::nullopt;
      if (c < 3) a.cls = EvictClass(c);
      a.mode = r.chance(0.3) ? golden::WriteMode::Through : golden::WriteMode::Back;
      return a;
    }
    // What the policy table gives for a store's qualifiers.
    golden::CacheAttrs attrs;
    if (r.chance(0.5)) attrs.cop = isa::CacheOp(r.below(4));
    if (r.chance(0.5)) attrs.l2 = isa::L2Evict(r.below(3));
    return golden::l2_store_action(attrs, 0);
  }

  // Functional coverage: eviction class x write mode x hit/miss, what an eviction
  // took (its class, dirty or clean) and by which replacement rule, and the DRAM writes (from
  // the golden step ref() just took, which the scoreboard proves equal to the DUT's).
  Crossed cls_mode_, with_lookup_;
  CoverPoint *victim_ = nullptr, *dram_ = nullptr, *replacement_ = nullptr;
  std::vector<Out> last_;  // ref()'s outputs, kept only while coverage is counted
  bool covering_ = false;
  void declare_coverage(Coverage& c) {
    covering_ = true;
    cls_mode_ = c.crossed("l2_wslice.evict_class_x_write_mode",
                          c.point("l2_wslice.evict_class", {"first", "normal", "last", "keep"}),
                          c.point("l2_wslice.write_mode", {"back", "through"}));
    with_lookup_ = c.crossed("l2_wslice.evict_class_x_write_mode_x_lookup", *cls_mode_.ab,
                             c.point("l2_wslice.lookup", {"hit", "miss"}));
    victim_ = &c.point("l2_wslice.victim", {"first_dirty", "normal_dirty", "last_dirty", "clean"});
    dram_ = &c.point("l2_wslice.dram_write", {"eviction", "write_through", "flush"});
    replacement_ = &c.point("l2_wslice.evicted_by", {"least_recently_written", "random"});
  }
  void cover_in(const In& in) {
    for (const Out& o : last_) {
      if (o.dram) {
        dram_->hit(o.cause == DramCause::Eviction ? 0 : o.cause == DramCause::WriteThrough ? 1 : 2);
        continue;
      }
      if (in.flush) continue;
      const size_t cls = in.act.cls ? size_t(*in.act.cls) : 3;
      const size_t mode = in.act.mode == golden::WriteMode::Through ? 1 : 0;
      cls_mode_.a->hit(cls);
      cls_mode_.b->hit(mode);
      with_lookup_.hit(cls_mode_.index(cls, mode), o.hit ? 0 : 1);
      if (o.evicted) {
        victim_->hit(o.victim_dirty.empty() ? 3 : size_t(o.victim_cls));
        replacement_->hit(random_ ? 1 : 0);
      }
    }
  }
  void cover_out(const Out&) {}

  In gen(Rng& r) {
    In in;
    if (r.chance(0.01)) {
      in.flush = true;
      return in;
    }
    // A few hot sets with Ways + 2 lines each, sometimes anywhere.
    const uint64_t set = r.chance(0.8) ? r.below(4) : r.below(kSets);
    const uint64_t tag = r.chance(0.9) ? r.below(kWays + 2) : r.next() >> 20;
    in.line = (tag * kSets + set) * kLineBytes;
    in.bytes = random_mask(r);
    for (unsigned i = 0; i < kLineBytes; ++i) in.data[i] = in.bytes.test(i) ? uint8_t(r.next()) : 0;
    in.act = random_action(r);
    return in;
  }

  static Out dram_out(const CacheLineOut& l, DramCause cause) {
    Out o;
    o.dram = true;
    o.line = l.line;
    o.bytes = l.dirty;
    o.cause = cause;
    for (unsigned i = 0; i < kLineBytes; ++i) o.data[i] = l.dirty.test(i) ? l.data[i] : 0;
    return o;
  }

  void ref(const In& in, std::vector<Out>& out) {
    ref_step(in, out);
    if (covering_) last_ = out;  // the harness clears `out` before each input
  }
  void ref_step(const In& in, std::vector<Out>& out) {
    if (in.flush) {
      flushed.clear();
      const size_t n = cache.flush(flushed);
      for (const CacheLineOut& l : flushed) out.push_back(dram_out(l, DramCause::Flush));
      Out o;
      o.flush = true;
      o.flushed = uint32_t(n);
      out.push_back(o);
      return;
    }
    golden::CacheWrite w;
    w.line = in.line;
    w.bytes = in.bytes;
    w.data = in.data.data();
    w.cls = in.act.cls;
    w.mode = in.act.mode;
    const golden::CacheWriteResult res = cache.write(w);
    Out o;
    o.hit = res.hit;
    o.allocated = res.allocated;
    o.evicted = res.evicted;
    o.set = res.set;
    o.way = res.way;
    o.victim_line = res.victim.line;
    o.victim_cls = res.victim.cls;
    o.victim_valid = res.victim.valid;
    o.victim_dirty = res.victim.dirty;
    out.push_back(o);
    if (res.evicted && !res.victim.dirty.empty())
      out.push_back(dram_out(res.victim, DramCause::Eviction));
    if (in.act.mode == golden::WriteMode::Through) {
      Out d;
      d.dram = true;
      d.line = in.line;
      d.bytes = in.bytes;
      d.cause = DramCause::WriteThrough;
      d.data = in.data;
      out.push_back(d);
    }
  }

  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    namespace F = L::l2_write;
    d.req_valid_i = 1;
    auto& w = d.req_i;
    put_field(w, 0, F::flush, in.flush);
    put_field(w, 0, F::line, in.line);
    put_mask(w, F::bytes, in.bytes);
    put_field(w, 0, F::cls, uint64_t(in.act.cls.value_or(EvictClass::Normal)));
    put_field(w, 0, F::keep_cls, !in.act.cls.has_value());
    put_field(w, 0, F::through, in.act.mode == golden::WriteMode::Through);
    put_bytes(w, F::data.lsb, in.data.data(), kLineBytes);
  }
  void idle(Dut& d) { d.req_valid_i = 0; }
  bool in_ready(Dut& d) { return d.req_ready_o; }
  bool out_valid(Dut& d) { return d.res_valid_o || d.dram_valid_o; }
  void set_out_ready(Dut& d, bool r) {
    d.res_ready_i = r;
    d.dram_ready_i = r;
  }
  Out sample(Dut& d) {
    Out o;
    if (d.dram_valid_o) {  // the RTL asserts that only one is valid
      namespace F = L::dram_write;
      const auto& w = d.dram_o;
      o.dram = true;
      o.line = get_field(w, 0, F::line);
      o.bytes = get_mask(w, F::bytes);
      o.cause = DramCause(get_field(w, 0, F::cause));
      get_bytes(w, F::data.lsb, o.data.data(), kLineBytes);
      return o;
    }
    namespace R = L::l2_result;
    const auto& w = d.res_o;
    o.flush = get_field(w, 0, R::flush);
    o.hit = get_field(w, 0, R::hit);
    o.allocated = get_field(w, 0, R::allocated);
    o.evicted = get_field(w, 0, R::evicted);
    o.set = uint32_t(get_field(w, 0, R::set_idx));
    o.way = uint32_t(get_field(w, 0, R::way));
    o.flushed = uint32_t(get_field(w, 0, R::flushed));
    o.victim_line = get_field(w, 0, R::victim_line);
    o.victim_cls = EvictClass(get_field(w, 0, R::victim_cls));
    o.victim_valid = get_mask(w, R::victim_valid);
    o.victim_dirty = get_mask(w, R::victim_dirty);
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    if (a.dram != b.dram) return false;
    if (a.dram)
      return a.line == b.line && a.bytes == b.bytes && a.cause == b.cause && a.data == b.data;
    return a.flush == b.flush && a.hit == b.hit && a.allocated == b.allocated &&
           a.evicted == b.evicted && a.set == b.set && a.way == b.way && a.flushed == b.flushed &&
           a.victim_line == b.victim_line && a.victim_cls == b.victim_cls &&
           a.victim_valid == b.victim_valid && a.victim_dirty == b.victim_dirty;
  }
  static std::string show(const Out& o) {
    if (o.dram) {
      std::string d;
      for (unsigned i = 0; i < 8; ++i) d += hex(o.data[i]).substr(2) + " ";
      return "dram " + std::string(golden::to_string(o.cause)) + " line " + hex(o.line) +
             " bytes " + hex_mask(o.bytes) + " data[0..7] " + d;
    }
    if (o.flush) return "flush done, " + std::to_string(o.flushed) + " lines written back";
    std::string s = std::string(o.hit         ? "hit"
                                : o.allocated ? "allocated"
                                              : "miss (no allocate)") +
                    " set " + std::to_string(o.set) + " way " + std::to_string(o.way);
    if (o.evicted)
      s += " evicted " + hex(o.victim_line) + " (" + std::string(golden::to_string(o.victim_cls)) +
           ", valid " + hex_mask(o.victim_valid) + ", dirty " + hex_mask(o.victim_dirty) + ")";
    return s;
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    field("kind", w.dram ? "dram" : "result", g.dram ? "dram" : "result");
    if (w.dram != g.dram) return field.str();
    if (w.dram) {
      field("line", hex(w.line), hex(g.line));
      field("bytes", hex_mask(w.bytes), hex_mask(g.bytes));
      field("cause", std::string(golden::to_string(w.cause)),
            std::string(golden::to_string(g.cause)));
      for (unsigned i = 0; i < kLineBytes; ++i)
        if (w.data[i] != g.data[i]) {
          field(("data[" + std::to_string(i) + "]").c_str(), hex(w.data[i]), hex(g.data[i]));
          break;
        }
      return field.str();
    }
    field("flush", std::to_string(w.flush), std::to_string(g.flush));
    field("hit", std::to_string(w.hit), std::to_string(g.hit));
    field("allocated", std::to_string(w.allocated), std::to_string(g.allocated));
    field("evicted", std::to_string(w.evicted), std::to_string(g.evicted));
    field("set", std::to_string(w.set), std::to_string(g.set));
    field("way", std::to_string(w.way), std::to_string(g.way));
    field("flushed", std::to_string(w.flushed), std::to_string(g.flushed));
    field("victim_line", hex(w.victim_line), hex(g.victim_line));
    field("victim_cls", std::string(golden::to_string(w.victim_cls)),
          std::string(golden::to_string(g.victim_cls)));
    field("victim_valid", hex_mask(w.victim_valid), hex_mask(g.victim_valid));
    field("victim_dirty", hex_mask(w.victim_dirty), hex_mask(g.victim_dirty));
    return field.str();
  }
};

CosimResult cosim_l2_wslice(const CosimOptions& o) {
  L2WsliceBench b;
  return run_stream(b, "l2_wslice", o);
}

}  // namespace stu::tb
