// Cosimulation of rtl/stu_addr_resolve.sv against golden::resolve_generic / resolve_space.
#include <cstdio>
#include <string>

#include "Vstu_addr_resolve.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/address.h"

namespace stu::tb {
namespace {

using golden::ModelConfig;
using golden::Resolved;

// A random configuration that passes ModelConfig::check() (windows 4 KiB aligned, not
// overlapping, a power-of-two stride, 1..16 CTAs); a window may be disabled (size 0).
ModelConfig random_config(Rng& r) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    ModelConfig c;
    c.cluster_ctas = 1 + uint32_t(r.below(16));
    c.map.shared_cta_stride = uint64_t(1) << (12 + r.below(13));
    c.shared_bytes = std::min<uint64_t>(c.map.shared_cta_stride, 48 << 10);
    const uint64_t region = uint64_t(0x10 + r.below(0x60)) << 40;  // four windows in a region
    c.map.shared = {region, c.map.shared_cta_stride * (c.cluster_ctas + r.below(4))};
    c.map.local = {region + (uint64_t(1) << 36), uint64_t(1 + r.below(1 << 12)) << 12};
    c.map.param = {region + (uint64_t(2) << 36),
                   r.chance(0.1) ? 0 : uint64_t(1 + r.below(16)) << 12};
    c.map.konst = {region + (uint64_t(3) << 36), uint64_t(1 + r.below(256)) << 12};
    c.local_bytes = std::min<uint64_t>(c.local_bytes, c.map.local.size);
    c.kernel_param_bytes = std::min<uint64_t>(c.kernel_param_bytes, c.map.param.size);
    c.const_bytes = std::min<uint64_t>(c.const_bytes, c.map.konst.size);
    if (r.chance(0.1)) c.map.local = {~uint64_t(0) - 0xFFFFF, 0x100000};  // ends at 2^64
    if (c.check().empty()) return c;
  }
  return ModelConfig{};
}

struct AddrResolveBench : StreamPorts<Vstu_addr_resolve> {
  struct In {
    uint64_t addr = 0;
    bool generic = true;
    isa::Space space = isa::Space::Global;
    golden::ThreadId who;
  };
  using Out = Resolved;
  ModelConfig cfg;

  void setup(Clocked<Dut>& sim, Rng& r) {
    cfg = r.chance(0.1) ? ModelConfig{} : random_config(r);
    const uint64_t regs[] = {cfg.map.shared.base, cfg.map.shared.size, cfg.map.shared_cta_stride,
                             cfg.map.local.base,  cfg.map.local.size,  cfg.map.param.base,
                             cfg.map.param.size,  cfg.map.konst.base,  cfg.map.konst.size,
                             cfg.cluster_ctas};
    Dut& d = sim.dut();
    for (unsigned i = 0; i < 10; ++i) {
      d.cfg_valid_i = 1;
      d.cfg_sel_i = uint8_t(i);
      d.cfg_data_i = regs[i];
      sim.settle();
      sim.rise();
    }
    d.cfg_valid_i = 0;
  }

  // Functional coverage: every request (generic or a state space) x where it resolves, the
  // edges of every window a generic address is tested against, and the cluster ranks of a
  // shared::cluster address.
  Crossed req_res_, edge_;
  CoverPoint* rank_ = nullptr;
  static constexpr size_t kGeneric = 9;  // request bin after the 9 spaces
  static constexpr size_t kFaulted = 6;  // result bin after the 6 memory spaces
  static std::string why_not(size_t req, size_t res) {
    // The results each request can have (golden::resolve_generic / resolve_space).
    using S = isa::Space;
    auto is = [&](golden::MemSpace m) { return res == size_t(m); };
    if (req == kGeneric)
      return is(golden::MemSpace::ParamFunc) ? "no generic window maps to .param::func" : "";
    switch (isa::effective(S(req))) {
      case S::Global:
        return is(golden::MemSpace::Global) ? "" : "a .global address is the address";
      case S::Local:
        return is(golden::MemSpace::Local) || res == kFaulted ? "" : "a .local address is local";
      case S::SharedCta:
      case S::SharedCluster:
        return is(golden::MemSpace::Shared) || res == kFaulted ? "" : "a .shared address is shared";
      case S::ParamFunc:
        return is(golden::MemSpace::ParamFunc) ? "" : "a .param::func address is the function's";
      case S::ParamEntry:
        return is(golden::MemSpace::KernelParam) ? "" : "a .param::entry address is the kernel's";
      case S::Const:
        return is(golden::MemSpace::Const) ? "" : "a .const address is constant memory";
      default:
        return "";
    }
  }
  void declare_coverage(Coverage& c) {
    std::vector<std::string> reqs;
    for (size_t i = 0; i < kGeneric; ++i) reqs.emplace_back(isa::to_string(isa::Space(i)));
    reqs.emplace_back("generic");
    req_res_ = c.crossed("addr_resolve.request_x_result", c.point("addr_resolve.request", reqs),
                         c.point("addr_resolve.result", {"global", "shared", "local", "param_func",
                                                         "kernel_param", "const", "out_of_window"}),
                         why_not);
    edge_ = c.crossed(
        "addr_resolve.window_x_edge",
        c.point("addr_resolve.window", {"shared", "local", "param", "const"}),
        c.point("addr_resolve.edge", {"first_byte", "last_byte", "just_below", "just_past"}));
    rank_ =
        &c.point("addr_resolve.cluster_rank", {"first", "middle", "last", "beyond_the_cluster"});
  }
  void cover_in(const In& in) {
    const size_t req = in.generic ? kGeneric : size_t(in.space);
    const Resolved r = in.generic ? golden::resolve_generic(cfg, in.addr, in.who)
                                  : golden::resolve_space(cfg, in.space, in.addr, in.who);
    const size_t res = r.fault.kind != golden::FaultKind::None ? kFaulted : size_t(r.dest.space);
    if (res <= kFaulted) req_res_.hit(req, res);
    uint64_t rel = 0;
    bool cluster = false;
    if (in.generic) {
      const golden::Window* ws[] = {&cfg.map.shared, &cfg.map.local, &cfg.map.param,
                                    &cfg.map.konst};
      for (size_t w = 0; w < 4; ++w) {
        const golden::Window& x = *ws[w];
        if (x.size == 0) continue;
        const size_t e = in.addr == x.base                ? 0
                         : in.addr == x.base + x.size - 1 ? 1
                         : in.addr == x.base - 1          ? 2
                         : in.addr == x.base + x.size     ? 3
                                                          : 4;
        if (e < 4) edge_.hit(w, e);
      }
      cluster = cfg.map.shared.contains(in.addr);
      rel = in.addr - cfg.map.shared.base;
    } else if (in.space == isa::Space::SharedCluster) {
      cluster = true;
      rel = in.addr;
    }
    if (cluster) {
      const uint64_t rank = rel / cfg.map.shared_cta_stride;
      rank_->hit(rank >= cfg.cluster_ctas       ? 3
                 : rank == 0                    ? 0
                 : rank + 1 == cfg.cluster_ctas ? 2
                                                : 1);
    }
  }
  void cover_out(const Out&) {}

  uint64_t near(Rng& r, const golden::Window& w) {
    switch (r.below(4)) {
      case 0:  // inside, its first bytes often
        return w.base + (r.chance(0.25) ? r.below(4) : r.below(w.size + 1));
      case 1:
        return w.base + w.size - 1 - r.below(64);  // the last bytes (and past them)
      case 2:
        return w.base - 1 - r.below(64);  // just below
      default:
        return w.base + w.size + r.below(64);  // just past
    }
  }

  In gen(Rng& r) {
    In in;
    in.who = {uint16_t(r.below(cfg.cluster_ctas)), uint16_t(r.below(32)), uint8_t(r.below(32))};
    in.generic = r.chance(0.5);
    in.space = isa::Space(r.below(9));
    switch (r.below(7)) {
      case 0:
        in.addr = near(r, cfg.map.shared);
        break;
      case 1:
        in.addr = near(r, cfg.map.local);
        break;
      case 2:
        in.addr = near(r, cfg.map.param);
        break;
      case 3:
        in.addr = near(r, cfg.map.konst);
        break;
      case 4:  // a small space address: shared offset, rank bits, local offset
        in.addr = r.below(cfg.map.shared_cta_stride * (cfg.cluster_ctas + 2));
        break;
      case 5:
        in.addr = r.below(cfg.map.local.size + 64);
        break;
      default:
        in.addr = r.next();
        break;
    }
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    out.push_back(in.generic ? golden::resolve_generic(cfg, in.addr, in.who)
                             : golden::resolve_space(cfg, in.space, in.addr, in.who));
  }
  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    d.in_valid_i = 1;
    d.addr_i = in.addr;
    d.generic_i = in.generic;
    d.space_i = uint8_t(in.space);
    d.cta_i = in.who.cta;
    d.warp_i = in.who.warp;
    d.lane_i = in.who.lane;
  }
  Out sample(Dut& d) {
    namespace L = rtl::layout::dest;
    Out o;
    const uint64_t dest = d.dest_o;
    o.dest.space = golden::MemSpace((dest >> L::space.lsb) & ((1u << L::space.width) - 1));
    o.dest.cta = uint16_t(dest >> L::cta.lsb);
    o.dest.thread = uint32_t(dest >> L::thread.lsb);
    o.offset = d.offset_o;
    o.fault.kind = golden::FaultKind(d.fault_o);
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    return a.dest == b.dest && a.offset == b.offset && a.fault.kind == b.fault.kind;
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    field("space", std::string(golden::to_string(w.dest.space)),
          std::string(golden::to_string(g.dest.space)));
    field("cta", std::to_string(w.dest.cta), std::to_string(g.dest.cta));
    field("thread", std::to_string(w.dest.thread), std::to_string(g.dest.thread));
    field("offset", hex(w.offset), hex(g.offset));
    field("fault", std::string(golden::to_string(w.fault.kind)),
          std::string(golden::to_string(g.fault.kind)));
    return field.str();
  }
  static std::string show(const Out& o) {
    if (o.fault.kind != golden::FaultKind::None)
      return "fault " + std::string(golden::to_string(o.fault.kind));
    return std::string(golden::to_string(o.dest.space)) + " cta " + std::to_string(o.dest.cta) +
           " thread " + std::to_string(o.dest.thread) + " offset " + hex(o.offset);
  }
};

static_assert(rtl::layout::dest::kWidth <= 64, "dest_t is read as one 64-bit port");

}  // namespace

CosimResult cosim_addr_resolve(const CosimOptions& o) {
  AddrResolveBench b;
  return run_stream(b, "addr_resolve", o);
}

}  // namespace stu::tb
