// Cosimulation of rtl/stu_coalescer.sv against golden::coalesce. The same bench also drives the
// deliberately broken variant (Vstu_coalescer_broken, docs/cosim.md).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vstu_coalescer.h"
#include "Vstu_coalescer_broken.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/access.h"
#include "stu/golden/store_align.h"

namespace stu::tb {
namespace {

using golden::LaneAccess;
using golden::LineRequest;
namespace LA = rtl::layout::lane_access;
namespace LR = rtl::layout::line_req;

static_assert(port_words<decltype(Vstu_coalescer::acc_i)> == words_for_bits(32 * LA::kWidth),
              "stu_coalescer input is 32 lane_access_t");
static_assert(port_words<decltype(Vstu_coalescer::req_o)> == words_for_bits(LR::kWidth),
              "stu_coalescer output is one line_req_t");
static_assert(LR::data.width == golden::kLineBytes * 8, "line data != golden::kLineBytes");
static_assert(LA::data.width == golden::kMaxAccessBytes * 8, "lane data != kMaxAccessBytes");

template <typename DutT>
struct CoalescerBench : StreamPorts<DutT> {
  using Dut = DutT;
  struct In {
    uint64_t id = 0;
    uint32_t lanes = 0;  // lanes with an access
    golden::LaneGroup group = golden::LaneGroup::whole_warp();
    std::array<LaneAccess, 32> acc{};
  };
  struct Out {
    LineRequest line;
    bool last = false;
  };
  uint64_t next_id = 1, driven_id = 0;

  void setup(Clocked<Dut>&, Rng&) {}

  // Functional coverage: active lanes, access sizes, lines per warp, and the same-location
  // rule: for every pair of active lanes writing a byte in common, which one's data lands
  // (the higher or the lower lane), crossed with the lane group that decides it.
  CoverPoint *lanes_ = nullptr, *size_ = nullptr, *lines_ = nullptr, *group_ = nullptr,
             *space_ = nullptr;
  Crossed group_winner_;
  unsigned lines_seen_ = 0;
  void declare_coverage(Coverage& c) {
    lanes_ = &c.point("coalescer.active_lanes", {"none", "one", "some", "all"});
    size_ = &c.point("coalescer.access_bytes", {"1", "2", "4", "8", "16", "32"});
    lines_ = &c.point("coalescer.lines_per_warp", {"1", "2-4", "5-16", "17-32"});
    // The group of a store: 128 bytes / access bytes, at most 32 lanes (LaneGroup::for_access);
    // 1 for .mmio and st.async. No access is 64 bytes: a group of 2 lanes never decides.
    group_ = &c.point("coalescer.lane_group", {"1", "2", "4", "8", "16", "32"});
    group_->mark_illegal(1, "no access is 64 bytes (LaneGroup::for_access never gives 2 lanes)");
    group_winner_ =
        c.crossed("coalescer.lane_group_x_winner", *group_,
                  c.point("coalescer.same_byte_winner", {"higher_lane", "lower_lane"}),
                  [](size_t g, size_t w) {
                    return g == 0 && w == 1   ? "groups of one lane: the higher lane always wins"
                           : g == 5 && w == 0 ? "one group of 32: the lower lane always wins"
                           : g == 1           ? "no group of 2 lanes"
                                              : "";
                  });
    space_ = &c.point("coalescer.dest_space", {"global", "shared", "local"});
  }
  void cover_in(const In& in) {
    const unsigned n = unsigned(__builtin_popcount(in.lanes));
    lanes_->hit(n == 0 ? 0 : n == 1 ? 1 : n == 32 ? 3 : 2);
    group_->hit(in.group.log2());
    for (unsigned a = 0; a < 32; ++a) {
      if (!(in.lanes >> a & 1)) continue;
      const LaneAccess& x = in.acc[a];
      size_->hit(size_t(__builtin_ctz(x.size)));
      space_->hit(x.dest.space == golden::MemSpace::Shared  ? 1
                  : x.dest.space == golden::MemSpace::Local ? 2
                                                            : 0);
      for (unsigned b = a + 1; b < 32; ++b) {
        if (!(in.lanes >> b & 1)) continue;
        const LaneAccess& y = in.acc[b];
        if (!(x.dest == y.dest)) continue;
        const uint64_t lo = std::max(x.offset, y.offset);
        const uint64_t hi = std::min(x.offset + x.size, y.offset + y.size);
        bool common = false;
        for (uint64_t o = lo; o < hi && !common; ++o)
          common = (x.byte_mask >> (o - x.offset) & 1) && (y.byte_mask >> (o - y.offset) & 1);
        if (!common) continue;
        const size_t w = in.group.rank(b) > in.group.rank(a) ? 0 : 1;  // b is the higher lane
        group_winner_.ab->hit(group_winner_.index(in.group.log2(), w));
        group_winner_.b->hit(w);
      }
    }
  }
  void cover_out(const Out& o) {
    ++lines_seen_;
    if (!o.last) return;
    const unsigned k = lines_seen_;
    lines_seen_ = 0;
    lines_->hit(k == 1 ? 0 : k <= 4 ? 1 : k <= 16 ? 2 : 3);
  }

  // A destination for a lane: global, or shared/local (per CTA / per thread) to mix keys.
  golden::Dest dest(Rng& r, unsigned lane, unsigned pattern) {
    golden::Dest d;
    if (pattern == 0) return d;
    switch (r.below(4)) {
      case 0:
        d.space = golden::MemSpace::Shared;
        d.cta = uint16_t(r.below(3));
        break;
      case 1:
        d.space = golden::MemSpace::Local;
        d.cta = uint16_t(r.below(2));
        d.thread = lane % 3;
        break;
      default:
        break;
    }
    return d;
  }
  In gen(Rng& r) {
    In in;
    in.id = next_id++;
    in.lanes = r.chance(0.5) ? ~0u : uint32_t(r.next());
    if (r.chance(0.03)) in.lanes = 1u << r.below(32);  // one lane
    if (r.chance(0.01)) in.lanes = 0;                  // none: no line
    const unsigned size_log2 = unsigned(r.below(6));
    const unsigned size = 1u << size_log2;
    const unsigned pattern = unsigned(r.below(5));
    // The same-location rule's group: usually that of the access size; any group sometimes.
    in.group = golden::LaneGroup::for_access(size, r.chance(0.15));
    if (r.chance(0.1)) in.group = golden::LaneGroup::for_access(1u << r.below(6), false);
    const uint64_t base = (r.next() & ~uint64_t(4095)) >> (r.chance(0.1) ? 0 : 16);
    const uint64_t stride = size << r.below(4);
    for (unsigned l = 0; l < 32; ++l) {
      LaneAccess& a = in.acc[l];
      a.lane = uint8_t(l);
      a.size = uint8_t(r.chance(0.8) ? size : 1u << r.below(6));
      a.dest = dest(r, l, pattern);
      switch (pattern) {
        case 0:
        case 1:  // coalesced: consecutive
          a.offset = base + uint64_t(l) * a.size;
          break;
        case 2:  // strided
          a.offset = base + uint64_t(l) * stride;
          break;
        case 3:  // a few lines, colliding bytes
          a.offset = base + r.below(256);
          break;
        default:  // scattered
          a.offset = r.chance(0.5) ? r.next() : base + r.below(1 << 16);
          break;
      }
      a.offset &= ~uint64_t(a.size - 1);  // aligned to its size: within one sector
      a.byte_mask = golden::access_byte_mask(a.size);
      if (r.chance(0.15)) a.byte_mask &= uint32_t(r.next());  // sinks
      for (unsigned b = 0; b < golden::kMaxAccessBytes; ++b) a.data[b] = uint8_t(r.next());
    }
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    LaneAccess list[32];
    size_t n = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (in.lanes >> l & 1) list[n++] = in.acc[l];
    std::vector<LineRequest> lines;
    golden::coalesce(list, n, in.group, lines);
    for (size_t i = 0; i < lines.size(); ++i) out.push_back(Out{lines[i], i + 1 == lines.size()});
  }
  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    d.in_valid_i = 1;
    if (driven_id == in.id) return;  // the same warp as last cycle: the port already holds it
    driven_id = in.id;
    d.lane_valid_i = in.lanes;
    d.group_log2_i = uint8_t(in.group.log2());
    for (unsigned l = 0; l < 32; ++l) {
      const LaneAccess& a = in.acc[l];
      const unsigned base = l * LA::kWidth;
      put_field(d.acc_i, base, LA::dest_space, uint64_t(a.dest.space));
      put_field(d.acc_i, base, LA::dest_cta, a.dest.cta);
      put_field(d.acc_i, base, LA::dest_thread, a.dest.thread);
      put_field(d.acc_i, base, LA::offset, a.offset);
      put_field(d.acc_i, base, LA::size, a.size);
      put_field(d.acc_i, base, LA::byte_mask, a.byte_mask);
      for (unsigned b = 0; b < golden::kMaxAccessBytes; b += 8) {
        uint64_t v;
        std::memcpy(&v, a.data.data() + b, 8);
        put_bits(d.acc_i, base + LA::data.lsb + 8 * b, 64, v);
      }
    }
  }
  Out sample(Dut& d) {
    Out o;
    o.line = read_line_req(d.req_o);
    o.last = d.last_o;
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    const LineRequest &x = a.line, &y = b.line;
    return a.last == b.last && x.dest == y.dest && x.line == y.line &&
           x.sector_mask == y.sector_mask && x.bytes == y.bytes && x.lane_mask == y.lane_mask &&
           x.first_lane == y.first_lane && x.data == y.data;  // bytes outside the mask are 0
  }
  static std::string diff(const Out& w, const Out& g) {
    std::string s = golden::compare(w.line, g.line);
    if (s.empty() && w.line.data != g.line.data) s = "data outside the byte mask is not zero";
    if (w.last != g.last)
      s += std::string(s.empty() ? "" : "; ") + "last: expected " + std::to_string(w.last) +
           ", actual " + std::to_string(g.last);
    return s;
  }
  static std::string show(const Out& o) {
    return golden::to_string(o.line) + " first_lane " + std::to_string(o.line.first_lane) +
           (o.last ? " last" : "");
  }
};

}  // namespace

CosimResult cosim_coalescer(const CosimOptions& o) {
  CoalescerBench<Vstu_coalescer> b;
  return run_stream(b, "coalescer", o);
}

CosimResult cosim_coalescer_broken(const CosimOptions& o) {
  CoalescerBench<Vstu_coalescer_broken> b;
  return run_stream(b, "coalescer:broken", o);
}

}  // namespace stu::tb
