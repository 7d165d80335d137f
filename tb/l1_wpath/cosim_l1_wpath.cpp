// Cosimulation of rtl/stu_l1_wpath.sv (16 sets x 4 ways, 4-entry write buffer) against the golden
// L1 write path: golden::l1_store_action, a golden::SectoredCache of the same geometry as the
// (write-through) L1 and a golden::WriteBuffer of the same size, composed as
// MemoryHierarchy::store_line and drain do. Every L1Event (the decoded action, what the L1 did,
// merged, entries drained) and every entry leaving the buffer (an L2 write: line, bytes, data,
// L2 action) is compared in order. The stimulus crowds a few sets with a few more lines than
// ways, mixes every cache operator and .L1:: priority, weak / strong / .mmio / release
// orderings, full lines, sectors and scattered bytes, and drains.
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "Vstu_l1_wpath.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/cache.h"

namespace stu::tb {
namespace {

namespace L = rtl::layout;
using golden::EvictClass;
using golden::kLineBytes;
using golden::LineByteMask;

constexpr unsigned kSets = 16, kWays = 4, kWbEntries = 4;  // the RTL's default parameters

static_assert(port_words<decltype(Vstu_l1_wpath::req_i)> == words_for_bits(L::l1_req::kWidth),
              "req_i is l1_req_t");
static_assert(port_words<decltype(Vstu_l1_wpath::l2_o)> == words_for_bits(L::l2_write::kWidth),
              "l2_o is l2_write_t");
static_assert(L::l1_req::bytes.width == kLineBytes && L::l1_req::data.width == kLineBytes * 8,
              "l1_req_t carries one golden line");
static_assert(L::l1_event::drained.width >= 7, "drained counts up to WriteBuffer::kMaxEntries");

std::string hex_mask(const LineByteMask& m) {
  char b[40];
  std::snprintf(b, sizeof b, "%016llx%016llx", static_cast<unsigned long long>(m.hi),
                static_cast<unsigned long long>(m.lo));
  return b;
}
std::string cls_name(const std::optional<EvictClass>& c) {
  return c ? std::string(golden::to_string(*c)) : "keep";
}

LineByteMask random_mask(Rng& r) {
  LineByteMask m;
  switch (r.below(5)) {
    case 0:
      m = {~uint64_t(0), ~uint64_t(0)};
      break;
    case 1: {  // whole sectors
      const unsigned s = unsigned(1 + r.below(15));
      for (unsigned i = 0; i < 4; ++i)
        if (s >> i & 1) (i < 2 ? m.lo : m.hi) |= 0xFFFFFFFFull << (32 * (i & 1));
      break;
    }
    case 2: {  // an aligned run of 1..32 bytes (one lane's access)
      const unsigned size = 1u << r.below(6);
      const unsigned at = unsigned(r.below(kLineBytes / size)) * size;
      for (unsigned i = 0; i < size; ++i) m.set(at + i);
      break;
    }
    case 3:
      m = {r.next() & r.next(), r.next() & r.next()};
      break;
    default:
      m = {r.next(), r.next()};
  }
  if (m.empty()) m.set(unsigned(r.below(kLineBytes)));
  return m;
}

}  // namespace

struct L1WpathBench {
  using Dut = Vstu_l1_wpath;
  struct In {
    bool drain = false;
    uint64_t line = 0;
    LineByteMask bytes;
    std::array<uint8_t, kLineBytes> data{};  // 0 outside the mask
    golden::CacheAttrs attrs;
    golden::Ordering order;
    golden::L2StoreAction l2;
  };
  struct Out {
    bool l2w = false;  // an L2 write; else an event
    // event
    bool drain = false;
    golden::L1StoreAction action;
    bool hit = false, allocated = false, invalidated = false, evicted = false, merged = false;
    uint64_t victim_line = 0;
    uint32_t drained = 0;
    // L2 write (never a flush: the L1's writes are CacheWrites, golden::WbEntry)
    bool flush = false;
    uint64_t line = 0;
    LineByteMask bytes;
    golden::L2StoreAction l2;
    std::array<uint8_t, kLineBytes> data{};
  };

  golden::SectoredCache l1 =
      *golden::SectoredCache::create({uint64_t(kSets) * kWays * kLineBytes, kWays});
  golden::WriteBuffer wb{kWbEntries};
  std::vector<golden::WbEntry> leaving;

  // Functional coverage: cache operator x eviction priority x hit/miss, the strengths, and
  // what the L1 and its write buffer did (the golden step ref() just took, which the scoreboard
  // proves equal to the DUT's event).
  Crossed cop_evict_, with_lookup_;
  CoverPoint *order_ = nullptr, *event_ = nullptr;
  Out last_event_;
  void declare_coverage(Coverage& c) {
    std::vector<std::string> cops{"none"}, evicts{"none"};  // none: not written
    for (unsigned i = 0; i < 4; ++i) cops.emplace_back(isa::to_string(isa::CacheOp(i)));
    for (unsigned i = 0; i < 5; ++i) evicts.emplace_back(isa::to_string(isa::L1Evict(i)));
    cop_evict_ = c.crossed("l1_wpath.cache_op_x_l1_evict", c.point("l1_wpath.cache_op", cops),
                           c.point("l1_wpath.l1_evict", evicts));
    with_lookup_ = c.crossed("l1_wpath.cache_op_x_l1_evict_x_lookup", *cop_evict_.ab,
                             c.point("l1_wpath.lookup", {"hit", "miss"}));
    order_ = &c.point("l1_wpath.order", {"weak", "strong", "release", "mmio"});
    event_ = &c.point("l1_wpath.event", {"allocated", "evicted", "invalidated", "merged",
                                         "drained_by_release", "drain_op", "wb_full_drain"});
  }
  void cover_in(const In& in) {
    const Out& e = last_event_;
    if (in.drain) {
      event_->hit(5);
      return;
    }
    const size_t cop = in.attrs.cop ? size_t(*in.attrs.cop) + 1 : 0;
    const size_t ev = in.attrs.l1 ? size_t(*in.attrs.l1) + 1 : 0;
    cop_evict_.a->hit(cop);
    cop_evict_.b->hit(ev);
    with_lookup_.hit(cop_evict_.index(cop, ev), e.hit ? 0 : 1);  // the pair, the lookup, all three
    order_->hit(in.order.mmio ? 3 : in.order.release ? 2 : in.order.strong ? 1 : 0);
    if (e.allocated) event_->hit(0);
    if (e.evicted) event_->hit(1);
    if (e.invalidated) event_->hit(2);
    if (e.merged) event_->hit(3);
    if (e.drained && in.order.release) event_->hit(4);
    if (e.drained && !in.order.release) event_->hit(6);
  }
  void cover_out(const Out&) {}

  // The geometry in use, drawn per seed: the configuration ports choose the sets, ways and
  // write-buffer entries at run time (`stu sim --rtl` gives them the model's), so a quarter of
  // the seeds use the parameters' whole and the rest a smaller one (2..16 sets, 1, 2 or 4 ways,
  // 1..4 entries); the reference takes the same.
  void setup(Clocked<Dut>& sim, Rng& r) {
    unsigned sets = kSets, ways = kWays, entries = kWbEntries;
    if (!r.chance(0.25)) {
      sets = 2u << r.below(4);
      ways = 1u << r.below(3);
      entries = 1 + unsigned(r.below(kWbEntries));
    }
    sim.dut().cfg_set_mask_i = sets - 1;
    sim.dut().cfg_ways_i = ways;
    sim.dut().cfg_wb_entries_i = entries;
    l1 = *golden::SectoredCache::create({uint64_t(sets) * ways * kLineBytes, ways});
    wb = golden::WriteBuffer{entries};
  }

  In gen(Rng& r) {
    In in;
    if (r.chance(0.02)) {
      in.drain = true;
      return in;
    }
    const uint64_t set = r.chance(0.8) ? r.below(3) : r.below(kSets);
    const uint64_t tag = r.chance(0.9) ? r.below(kWays + 2) : r.next() >> 20;
    in.line = (tag * kSets + set) * kLineBytes;
    in.bytes = random_mask(r);
    for (unsigned i = 0; i < kLineBytes; ++i) in.data[i] = in.bytes.test(i) ? uint8_t(r.next()) : 0;
    // Mostly plain weak stores, so that merges happen; every operator and priority often.
    if (r.chance(0.4)) in.attrs.cop = isa::CacheOp(r.below(4));
    if (r.chance(0.4)) in.attrs.l1 = isa::L1Evict(r.below(5));
    if (r.chance(0.3)) in.attrs.l2 = isa::L2Evict(r.below(3));
    in.order.strong = r.chance(0.15);
    in.order.mmio = r.chance(0.05);
    in.order.release = r.chance(0.05);
    if (in.order.mmio || in.order.release) in.order.strong = true;
    in.l2 = golden::l2_store_action(in.attrs, in.line);
    // The store path sends every device-memory store write-back (docs/golden.md); the through
    // bit (system memory) is the L2's to act on, and this path carries it and merges on it.
    if (r.chance(0.2)) in.l2.mode = golden::WriteMode::Through;
    return in;
  }

  void emit_leaving(std::vector<Out>& out) {
    for (const golden::WbEntry& e : leaving) {
      Out o;
      o.l2w = true;
      o.line = e.line;
      o.bytes = e.bytes;
      o.l2 = e.l2;
      o.data = e.data;
      out.push_back(o);
    }
  }

  void ref(const In& in, std::vector<Out>& out) {
    leaving.clear();
    Out ev;
    if (in.drain) {
      ev.drain = true;
      ev.drained = wb.drain(leaving);
      ev.action = {golden::L1OnHit::Update, false, EvictClass::Normal};  // the port's zeros
      out.push_back(ev);
      emit_leaving(out);
      return;
    }
    // As MemoryHierarchy::store_line.
    ev.action = golden::l1_store_action(in.attrs, in.order);
    if (ev.action.on_hit == golden::L1OnHit::Invalidate) {
      ev.hit = ev.invalidated = l1.invalidate(in.line);
    } else {
      golden::CacheWrite w;
      w.line = in.line;
      w.bytes = in.bytes;
      w.data = in.data.data();
      w.cls = ev.action.cls;
      w.allocate = ev.action.allocate;
      w.mode = golden::WriteMode::Through;
      const golden::CacheWriteResult res = l1.write(w);
      ev.hit = res.hit;
      ev.allocated = res.allocated;
      ev.evicted = res.evicted;
      ev.victim_line = res.victim.line;
    }
    golden::WbEntry e;
    e.line = in.line;
    e.bytes = in.bytes;
    e.data = in.data;
    e.l2 = in.l2;
    e.mergeable = !in.order.strong && !in.order.mmio;
    const golden::WbPush p = wb.push(e, in.order.release, leaving);
    ev.merged = p.merged;
    ev.drained = p.drained;
    last_event_ = ev;
    out.push_back(ev);
    emit_leaving(out);
  }

  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    namespace F = L::l1_req;
    auto& w = d.req_i;
    d.req_valid_i = 1;
    put_field(w, 0, F::drain, in.drain);
    put_field(w, 0, F::line, in.line);
    put_bits(w, F::bytes.lsb, 64, in.bytes.lo);
    put_bits(w, F::bytes.lsb + 64, 64, in.bytes.hi);
    put_field(w, 0, F::has_cop, in.attrs.cop.has_value());
    put_field(w, 0, F::cop, in.attrs.cop ? unsigned(*in.attrs.cop) : 0);
    put_field(w, 0, F::has_l1, in.attrs.l1.has_value());
    put_field(w, 0, F::l1, in.attrs.l1 ? unsigned(*in.attrs.l1) : 0);
    put_field(w, 0, F::is_strong, in.order.strong);
    put_field(w, 0, F::is_mmio, in.order.mmio);
    put_field(w, 0, F::is_release, in.order.release);
    put_field(w, 0, F::l2_cls, uint64_t(in.l2.cls.value_or(EvictClass::Normal)));
    put_field(w, 0, F::l2_keep_cls, !in.l2.cls.has_value());
    put_field(w, 0, F::l2_through, in.l2.mode == golden::WriteMode::Through);
    put_bytes(w, F::data.lsb, in.data.data(), kLineBytes);
  }
  void idle(Dut& d) { d.req_valid_i = 0; }
  bool in_ready(Dut& d) { return d.req_ready_o; }
  bool out_valid(Dut& d) { return d.ev_valid_o || d.l2_valid_o; }
  void set_out_ready(Dut& d, bool r) {
    d.ev_ready_i = r;
    d.l2_ready_i = r;
  }
  Out sample(Dut& d) {
    Out o;
    if (d.l2_valid_o) {  // the RTL asserts that only one is valid
      namespace W = L::l2_write;
      const auto& w = d.l2_o;
      o.l2w = true;
      o.flush = get_field(w, 0, W::flush);
      o.line = get_field(w, 0, W::line);
      o.bytes = {get_bits(w, W::bytes.lsb, 64), get_bits(w, W::bytes.lsb + 64, 64)};
      o.l2.cls = EvictClass(get_field(w, 0, W::cls));
      if (get_field(w, 0, W::keep_cls)) o.l2.cls = std::nullopt;
      o.l2.mode =
          get_field(w, 0, W::through) ? golden::WriteMode::Through : golden::WriteMode::Back;
      get_bytes(w, W::data.lsb, o.data.data(), kLineBytes);
      return o;
    }
    namespace E = L::l1_event;
    const auto& w = d.ev_o;
    o.drain = get_field(w, 0, E::drain);
    o.action.on_hit =
        get_field(w, 0, E::invalidate) ? golden::L1OnHit::Invalidate : golden::L1OnHit::Update;
    o.action.allocate = get_field(w, 0, E::allocate);
    o.action.cls = EvictClass(get_field(w, 0, E::cls));
    if (get_field(w, 0, E::keep_cls)) o.action.cls = std::nullopt;
    o.hit = get_field(w, 0, E::hit);
    o.allocated = get_field(w, 0, E::allocated);
    o.invalidated = get_field(w, 0, E::invalidated);
    o.evicted = get_field(w, 0, E::evicted);
    o.victim_line = get_field(w, 0, E::victim_line);
    o.merged = get_field(w, 0, E::merged);
    o.drained = uint32_t(get_field(w, 0, E::drained));
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    if (a.l2w != b.l2w) return false;
    if (a.l2w)
      return a.flush == b.flush && a.line == b.line && a.bytes == b.bytes && a.l2 == b.l2 &&
             a.data == b.data;
    return a.drain == b.drain && a.action == b.action && a.hit == b.hit &&
           a.allocated == b.allocated && a.invalidated == b.invalidated && a.evicted == b.evicted &&
           a.victim_line == b.victim_line && a.merged == b.merged && a.drained == b.drained;
  }
  static std::string show(const Out& o) {
    if (o.l2w)
      return std::string(o.flush ? "l2 flush (with a write's fields) " : "") + "l2 write line " +
             hex(o.line) + " bytes " + hex_mask(o.bytes) + " (" + cls_name(o.l2.cls) +
             (o.l2.mode == golden::WriteMode::Through ? ", through" : "") + ")";
    if (o.drain) return "drain, " + std::to_string(o.drained) + " entries";
    std::string s =
        std::string(o.action.on_hit == golden::L1OnHit::Invalidate ? "bypass" : "update") +
        (o.action.allocate ? " allocate " : " no-allocate ") + cls_name(o.action.cls) + ": " +
        (o.invalidated ? "invalidated"
         : o.hit       ? "hit"
         : o.allocated ? "allocated"
                       : "miss");
    if (o.evicted) s += " evicted " + hex(o.victim_line);
    s += o.merged ? ", merged" : "";
    if (o.drained) s += ", " + std::to_string(o.drained) + " left the buffer";
    return s;
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    field("kind", w.l2w ? "l2 write" : "event", g.l2w ? "l2 write" : "event");
    if (w.l2w != g.l2w) return field.str();
    if (w.l2w) {
      field("flush", std::to_string(w.flush), std::to_string(g.flush));
      field("line", hex(w.line), hex(g.line));
      field("bytes", hex_mask(w.bytes), hex_mask(g.bytes));
      field("l2 cls", cls_name(w.l2.cls), cls_name(g.l2.cls));
      field("l2 through", std::to_string(w.l2.mode == golden::WriteMode::Through),
            std::to_string(g.l2.mode == golden::WriteMode::Through));
      for (unsigned i = 0; i < kLineBytes; ++i)
        if (w.data[i] != g.data[i]) {
          field(("data[" + std::to_string(i) + "]").c_str(), hex(w.data[i]), hex(g.data[i]));
          break;
        }
      return field.str();
    }
    field("drain", std::to_string(w.drain), std::to_string(g.drain));
    field("on_hit", std::to_string(int(w.action.on_hit)), std::to_string(int(g.action.on_hit)));
    field("allocate", std::to_string(w.action.allocate), std::to_string(g.action.allocate));
    field("cls", cls_name(w.action.cls), cls_name(g.action.cls));
    field("hit", std::to_string(w.hit), std::to_string(g.hit));
    field("allocated", std::to_string(w.allocated), std::to_string(g.allocated));
    field("invalidated", std::to_string(w.invalidated), std::to_string(g.invalidated));
    field("evicted", std::to_string(w.evicted), std::to_string(g.evicted));
    field("victim_line", hex(w.victim_line), hex(g.victim_line));
    field("merged", std::to_string(w.merged), std::to_string(g.merged));
    field("drained", std::to_string(w.drained), std::to_string(g.drained));
    return field.str();
  }
};

CosimResult cosim_l1_wpath(const CosimOptions& o) {
  L1WpathBench b;
  return run_stream(b, "l1_wpath", o);
}

}  // namespace stu::tb
