// Cosimulation of rtl/stu_tmem_wdp.sv against golden::tmem_write: one instruction is
// regs_per_rep * num register beats in; out come its non-empty 32-column runs in (lane, column)
// order, then one status beat with every thread's fault.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "Vstu_tmem_wdp.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/tmem.h"
#include "stu/isa/types.h"

namespace stu::tb {
namespace {

using golden::Fault;
using golden::FaultKind;
using golden::TmemWrite;
using isa::TmemShape;
namespace TW = rtl::layout::tmem_write;

static_assert(port_words<decltype(Vstu_tmem_wdp::data_i)> == words_for_bits(32 * 32),
              "stu_tmem_wdp input beat is one 32-bit register of 32 threads");
static_assert(port_words<decltype(Vstu_tmem_wdp::wr_o)> == words_for_bits(TW::kWidth),
              "stu_tmem_wdp output is one tmem_write_t");
static_assert(port_words<decltype(Vstu_tmem_wdp::fault_o)> ==
                  words_for_bits(32 * rtl::layout::kFaultWidth),
              "stu_tmem_wdp fault_o is 32 fault_e");
static_assert(port_words<decltype(Vstu_tmem_wdp::fault_addr_o)> == words_for_bits(32 * 32),
              "stu_tmem_wdp fault_addr_o is 32 TMEM addresses");
static_assert(TW::data.width == 32 * 32 && TW::col_mask.width == 32, "a run is 32 cells");
static_assert(golden::kTmemColumns / golden::kTmemAllocUnit == 16, "alloc_i is 16 units");

struct TmemWdpBench : StreamPorts<Vstu_tmem_wdp> {
  struct In {
    uint64_t id = 0;
    golden::TmemWriteIn w;
    std::vector<uint64_t> regs;  // regs[j * 32 + t]
  };
  struct Out {
    bool write = false;  // a run (else the status beat)
    TmemWrite run;
    bool last = false;
    std::array<Fault, 32> fault{};  // the status beat
  };
  uint64_t next_id = 1, driven_id = 0, driven_beat = 0;

  void setup(Clocked<Dut>&, Rng&) {}

  // Functional coverage: every shape x .num x .unpack::16b, and what each thread's write did.
  Crossed shape_num_, shape_unpack_;
  CoverPoint* thread_ = nullptr;
  void declare_coverage(Coverage& c) {
    std::vector<std::string> shapes, nums;
    for (TmemShape sh : kShapes) shapes.emplace_back(isa::to_string(sh));
    for (unsigned n = 1; n <= 128; n *= 2) nums.push_back("x" + std::to_string(n));
    CoverPoint& shape = c.point("tmem_wdp.shape", shapes);
    shape_num_ = c.crossed(
        "tmem_wdp.shape_x_num", shape, c.point("tmem_wdp.num", nums), [](size_t i, size_t j) {
          return (1u << j) > isa::max_num(kShapes[i])
                     ? "more than 128 registers (isa::max_num: the shape's largest .num)"
                     : "";
        });
    shape_unpack_ = c.crossed("tmem_wdp.shape_x_unpack", shape,
                              c.point("tmem_wdp.unpack", {"packed", "unpack_16b"}));
    thread_ =
        &c.point("tmem_wdp.thread_result", {"writes", "lane_quarter_fault", "column_range_fault"});
  }
  void cover_in(const In& in) {
    size_t sh = 0;
    while (kShapes[sh] != in.w.shape) ++sh;
    const size_t n = size_t(__builtin_ctz(in.w.num));
    shape_num_.hit(sh, n);  // the shape once
    shape_unpack_.b->hit(in.w.unpack);
    shape_unpack_.ab->hit(shape_unpack_.index(sh, in.w.unpack));
  }
  void cover_out(const Out& o) {
    if (o.write) return;
    for (const Fault& f : o.fault) {
      thread_->hit(f.kind == golden::FaultKind::TmemLaneQuarter   ? 1
                   : f.kind == golden::FaultKind::TmemColumnRange ? 2
                                                                  : 0);
    }
  }

  static constexpr std::array<TmemShape, 5> kShapes = {TmemShape::S32x32b, TmemShape::S16x64b,
                                                       TmemShape::S16x128b, TmemShape::S16x256b,
                                                       TmemShape::S16x32bx2};

  // An allocation: everything, one power-of-two allocation, a few, or random units.
  static uint16_t alloc_mask(Rng& r) {
    switch (r.below(5)) {
      case 0:
        return 0xFFFF;
      case 1:
      case 2: {
        const unsigned n = 1u << r.below(5);  // units
        const unsigned at = unsigned(r.below(16 / n)) * n;
        return uint16_t(n == 16 ? 0xFFFFu : ((1u << n) - 1) << at);
      }
      case 3:
        return uint16_t(r.next());
      default:
        return uint16_t(r.next() | r.next());
    }
  }

  In gen(Rng& r) {
    In in;
    in.id = next_id++;
    golden::TmemWriteIn& w = in.w;
    w.shape = r.pick(kShapes);
    const unsigned max = isa::max_num(w.shape);
    // .num: every power of two up to the shape's maximum; the small ones more often.
    unsigned log2max = 0;
    while ((1u << (log2max + 1)) <= max) ++log2max;
    w.num = 1u << (r.chance(0.6) ? r.below(std::min(log2max, 3u) + 1) : r.below(log2max + 1));
    w.unpack = r.chance(0.5);
    w.quarter = unsigned(r.below(4));
    w.alloc_units = alloc_mask(r);
    w.cta = uint16_t(r.next());
    const unsigned regs = isa::regs_per_rep(w.shape) * w.num;
    const unsigned per_reg =
        (w.shape == TmemShape::S32x32b || w.shape == TmemShape::S16x32bx2) ? 1 : 2;
    const unsigned cols = regs * per_reg * (w.unpack ? 2 : 1);  // footprint in columns
    const unsigned lanes = w.shape == TmemShape::S32x32b ? 32 : 16;
    // Lane: the quarter (at a 16-lane half for 16-lane shapes), an offset in it, or anywhere.
    uint32_t lane = 0;
    const uint64_t lc = r.below(10);
    if (lc < 6)
      lane = 32 * w.quarter + (lanes == 16 ? 16 * unsigned(r.below(2)) : 0);
    else if (lc < 8)
      lane = 32 * w.quarter + unsigned(r.below(32));
    else if (lc < 9)
      lane = unsigned(r.below(128));
    else
      lane = uint32_t(r.next() & 0xFFFF);
    // Column: at an allocated unit, near a unit edge, near 511, anywhere.
    uint32_t col = 0;
    const uint64_t cc = r.below(10);
    if (cc < 4) {
      unsigned u = unsigned(r.below(16));
      for (unsigned k = 0; k < 16; ++k, u = (u + 1) % 16)
        if (w.alloc_units >> u & 1) break;
      col = 32 * u + (r.chance(0.5) ? 0 : unsigned(r.below(32)));
    } else if (cc < 6) {
      col = 32 * unsigned(r.below(17)) + unsigned(r.below(5)) - 2;
    } else if (cc < 8) {
      col = 512 - cols + unsigned(r.below(5)) - 2;
    } else if (cc < 9) {
      col = unsigned(r.below(512));
    } else {
      col = uint32_t(r.next() & 0xFFFF);
    }
    col &= 0xFFFF;
    w.taddr = (lane << 16) | col;
    // Split offset: the other 16-lane half, small, overlapping, negative (wraps), large.
    switch (r.below(6)) {
      case 0:
        w.split = 16u << 16;
        break;
      case 1:
        w.split = uint32_t((r.below(33) << 16) + r.below(64));
        break;
      case 2:
        w.split = uint32_t(r.below(16) << 16 | r.below(8));  // overlapping
        break;
      case 3:
        w.split = uint32_t(0) - uint32_t((r.below(33) << 16) + r.below(64));  // negative
        break;
      case 4:
        w.split = uint32_t(r.below(8)) << 16 | uint32_t(r.below(512));
        break;
      default:
        w.split = uint32_t(r.next());  // large
        break;
    }
    // A legal placement (about 40 %): the access (both of .16x32bx2) inside the quarter and
    // inside allocated columns, so that most threads write.
    if (r.chance(0.4)) {
      auto place = [&](uint32_t& addr) {
        const uint32_t l = 32 * w.quarter + (lanes == 16 ? 16 * unsigned(r.below(2)) : 0);
        const uint32_t c = unsigned(r.below(512 - cols + 1));
        for (uint32_t u = c / 32; u <= (c + cols - 1) / 32; ++u)
          w.alloc_units = uint16_t(w.alloc_units | 1u << u);
        addr = l << 16 | c;
      };
      place(w.taddr);
      if (w.shape == TmemShape::S16x32bx2) {
        uint32_t second = 0;
        place(second);
        w.split = second - w.taddr;
      }
    }
    in.regs.resize(size_t(regs) * 32);
    for (uint64_t& v : in.regs) v = r.next();  // bits 63:32 must be ignored
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    golden::TmemWriteIn w = in.w;
    w.regs = in.regs.data();
    w.stride = 1;
    golden::tmem_write(w, scratch);
    for (const TmemWrite& run : scratch.runs) {
      Out o;
      o.write = true;
      o.run = run;
      out.push_back(o);
    }
    Out s;
    s.last = true;
    s.fault = scratch.fault;
    out.push_back(s);
  }
  size_t beats(const In& in) { return in.regs.size() / 32; }
  void drive(Dut& d, const In& in, size_t beat) {
    d.in_valid_i = 1;
    if (driven_id == in.id && driven_beat == beat) return;  // the port already holds it
    driven_id = in.id;
    driven_beat = beat;
    d.in_last_i = beat + 1 == beats(in);
    d.shape_i = uint8_t(in.w.shape);
    d.num_i = uint8_t(in.w.num);
    d.unpack_i = in.w.unpack;
    d.taddr_i = in.w.taddr;
    d.split_i = in.w.split;
    d.quarter_i = uint8_t(in.w.quarter);
    d.alloc_i = in.w.alloc_units;
    d.cta_i = in.w.cta;
    for (unsigned t = 0; t < 32; ++t) d.data_i[t] = uint32_t(in.regs[beat * 32 + t]);
  }
  Out sample(Dut& d) {
    Out o;
    o.write = d.write_valid_o;
    o.last = d.last_o;
    if (o.write) o.run = read_tmem_write(d.wr_o);
    if (o.last) {
      for (unsigned t = 0; t < 32; ++t) {
        o.fault[t].kind =
            FaultKind(get_bits(d.fault_o, t * rtl::layout::kFaultWidth, rtl::layout::kFaultWidth));
        o.fault[t].addr = d.fault_addr_o[t];
      }
    }
    return o;
  }

  static bool same_run(const TmemWrite& a, const TmemWrite& b) {
    return a.cta == b.cta && a.lane == b.lane && a.col == b.col && a.col_mask == b.col_mask &&
           a.unpacked == b.unpacked && a.data == b.data;  // cells outside the mask are 0
  }
  static bool same_faults(const Out& a, const Out& b) {
    for (unsigned t = 0; t < 32; ++t)
      if (a.fault[t].kind != b.fault[t].kind || a.fault[t].addr != b.fault[t].addr) return false;
    return true;
  }
  static bool equal(const Out& a, const Out& b) {
    if (a.write != b.write || a.last != b.last) return false;
    return a.write ? same_run(a.run, b.run) : same_faults(a, b);
  }
  static std::string diff(const Out& w, const Out& g) {
    std::string s;
    auto add = [&](const std::string& name, uint64_t e, uint64_t a) {
      if (e == a) return;
      s += (s.empty() ? "" : "; ") + name + ": expected " + hex(e) + ", actual " + hex(a);
    };
    add("write", w.write, g.write);
    add("last", w.last, g.last);
    if (w.write && g.write) {
      add("cta", w.run.cta, g.run.cta);
      add("lane", w.run.lane, g.run.lane);
      add("col", w.run.col, g.run.col);
      add("col_mask", w.run.col_mask, g.run.col_mask);
      add("unpacked", w.run.unpacked, g.run.unpacked);
      for (unsigned i = 0; i < 32; ++i)
        add("data[" + std::to_string(i) + "]", w.run.data[i], g.run.data[i]);
    }
    if (w.last && g.last) {
      for (unsigned t = 0; t < 32; ++t) {
        add("fault[" + std::to_string(t) + "]", uint64_t(w.fault[t].kind),
            uint64_t(g.fault[t].kind));
        add("fault_addr[" + std::to_string(t) + "]", w.fault[t].addr, g.fault[t].addr);
      }
    }
    return s;
  }
  static std::string show(const Out& o) {
    if (o.write) {
      const TmemWrite& w = o.run;
      return "run cta " + std::to_string(w.cta) + " lane " + std::to_string(w.lane) + " col " +
             std::to_string(w.col) + " mask " + hex(w.col_mask) + (w.unpacked ? " unpacked" : "") +
             " data[first] " + hex(w.col_mask ? w.data[unsigned(__builtin_ctz(w.col_mask))] : 0);
    }
    std::string s = "status";
    unsigned n = 0;
    for (unsigned t = 0; t < 32; ++t) {
      if (o.fault[t].kind == FaultKind::None) continue;
      if (n++ < 4)
        s += " t" + std::to_string(t) + ":" + std::to_string(unsigned(o.fault[t].kind)) + "@" +
             hex(o.fault[t].addr);
    }
    s += n > 4 ? " ... (" + std::to_string(n) + " faults)" : n ? "" : " no faults";
    return s + (o.last ? " last" : "");
  }

  golden::TmemWriteOut scratch;
};

}  // namespace

CosimResult cosim_tmem_wdp(const CosimOptions& o) {
  TmemWdpBench b;
  return run_stream(b, "tmem_wdp", o);
}

}  // namespace stu::tb
