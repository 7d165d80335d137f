// Cosimulation of rtl/stu_store_align.sv against golden::store_align.
#include <cstdio>
#include <string>

#include "Vstu_store_align.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/access.h"
#include "stu/golden/store_align.h"

namespace stu::tb {
namespace {

using golden::LanePlacement;
using golden::LaneStore;
using golden::MisalignMode;

static_assert(port_words<decltype(Vstu_store_align::data_i)> ==
                  words_for_bits(golden::kMaxAccessBytes * 8),
              "stu_store_align data width != golden::kMaxAccessBytes");
static_assert(port_words<decltype(Vstu_store_align::sector_data_o)> ==
                  words_for_bits(golden::kSectorBytes * 8),
              "stu_store_align sector width != golden::kSectorBytes");

unsigned log2u(unsigned v) { return unsigned(__builtin_ctz(v)); }

struct StoreAlignBench : StreamPorts<Vstu_store_align> {
  struct In {
    LaneStore lane;
    MisalignMode mode = MisalignMode::Fault;
  };
  using Out = LanePlacement;

  void setup(Clocked<Dut>&, Rng&) {}

  // Functional coverage: the access shapes (element size x count), where the lane lands, what
  // happens to a misaligned one, and the sinks.
  Crossed shape_;
  CoverPoint *outcome_ = nullptr, *sector_ = nullptr, *sinks_ = nullptr, *place_ = nullptr;
  void declare_coverage(Coverage& c) {
    shape_ = c.crossed(
        "store_align.elem_bytes_x_elems",
        c.point("store_align.elem_bytes", {"1", "2", "4", "8", "16"}),
        c.point("store_align.elems", {"1", "2", "4", "8"}), [](size_t i, size_t j) {
          return i + j > 5 ? "more than 32 bytes: st.v8.b32 and st.v4.b64 are the widest" : "";
        });
    outcome_ =
        &c.point("store_align.outcome", {"aligned", "misaligned_fault", "misaligned_forced_down"});
    sector_ = &c.point("store_align.sector", {"0", "1", "2", "3"});
    sinks_ = &c.point("store_align.sinks", {"none", "some", "all"});
    place_ = &c.point("store_align.address", {"anywhere", "line_end", "top_of_memory"});
  }
  void cover_in(const In& in) {
    const size_t i = size_t(__builtin_ctz(in.lane.elem_bytes));
    const size_t j = size_t(__builtin_ctz(in.lane.elems));
    shape_.hit(i, j);
    const unsigned all = (1u << in.lane.elems) - 1;
    sinks_->hit(in.lane.sinks == 0 ? 0 : (in.lane.sinks & all) == all ? 2 : 1);
    const unsigned size = unsigned(in.lane.elem_bytes) * in.lane.elems;
    const uint64_t in_line = in.lane.addr & 127;
    place_->hit(in.lane.addr >= ~uint64_t(0) - 255 ? 2 : in_line + size > 128 - size ? 1 : 0);
  }
  void cover_out(const Out& o) {
    outcome_->hit(o.at.fault ? 1 : o.at.forced ? 2 : 0);
    if (!o.at.fault) sector_->hit(o.sector & 3);
  }

  In gen(Rng& r) {
    In in;
    // Element size and count: a legal access of at most 32 bytes (st.v8.b32, st.v4.b64, b128).
    const unsigned elem_log2 = unsigned(r.below(5));
    const unsigned elems_log2 = unsigned(r.below(std::min(4u, 6 - elem_log2)));
    in.lane.elem_bytes = uint8_t(1u << elem_log2);
    in.lane.elems = uint8_t(1u << elems_log2);
    in.lane.sinks = r.chance(0.2) ? uint8_t(r.next() & ((1u << in.lane.elems) - 1)) : 0;
    const unsigned size = 1u << (elem_log2 + elems_log2);
    switch (r.below(4)) {
      case 0:  // aligned anywhere
        in.lane.addr = r.next() & ~uint64_t(size - 1);
        break;
      case 1:  // anything
        in.lane.addr = r.next();
        break;
      case 2:  // near the end of a line or sector
        in.lane.addr = (r.next() & ~uint64_t(127)) + 128 - r.below(size * 2 + 1);
        break;
      default:  // the top of the address space
        in.lane.addr = ~uint64_t(0) - r.below(256);
        break;
    }
    for (uint8_t& b : in.lane.data) b = uint8_t(r.next());
    in.mode = r.chance(0.5) ? MisalignMode::Fault : MisalignMode::ForceAlign;
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    out.push_back(golden::store_align(in.lane, in.mode));
  }
  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    d.in_valid_i = 1;
    d.addr_i = in.lane.addr;
    d.elem_log2_i = uint8_t(log2u(in.lane.elem_bytes));
    d.elems_log2_i = uint8_t(log2u(in.lane.elems));
    d.sinks_i = in.lane.sinks;
    d.mode_i = in.mode == MisalignMode::Fault ? 1 : 0;
    put_bytes(d.data_i, 0, in.lane.data.data(), golden::kMaxAccessBytes);
  }
  Out sample(Dut& d) {
    Out o;
    o.at.addr = d.addr_o;
    o.at.forced = d.forced_o;
    o.at.fault = d.fault_o;
    o.line = d.line_o;
    o.sector = d.sector_o;
    o.sector_mask = d.sector_mask_o;
    get_bytes(d.sector_data_o, 0, o.sector_data.data(), golden::kSectorBytes);
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    return a.at.addr == b.at.addr && a.at.forced == b.at.forced && a.at.fault == b.at.fault &&
           a.line == b.line && a.sector == b.sector && a.sector_mask == b.sector_mask &&
           a.sector_data == b.sector_data;
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    field("addr", w.at.addr, g.at.addr);
    field("forced", w.at.forced, g.at.forced);
    field("fault", w.at.fault, g.at.fault);
    field("line", w.line, g.line);
    field("sector", w.sector, g.sector);
    field("sector_mask", w.sector_mask, g.sector_mask);
    for (unsigned i = 0; i < golden::kSectorBytes; ++i) {
      if (w.sector_data[i] != g.sector_data[i]) {
        field(("data[" + std::to_string(i) + "]").c_str(), w.sector_data[i], g.sector_data[i]);
        break;
      }
    }
    return field.str();
  }
  static std::string show(const Out& o) {
    return "addr " + hex(o.at.addr) + (o.at.fault ? " misaligned" : "") +
           (o.at.forced ? " forced" : "") + " line " + hex(o.line) + " sector " +
           std::to_string(o.sector) + " mask " + hex(o.sector_mask);
  }
};

}  // namespace

CosimResult cosim_store_align(const CosimOptions& o) {
  StoreAlignBench b;
  return run_stream(b, "store_align", o);
}

}  // namespace stu::tb
