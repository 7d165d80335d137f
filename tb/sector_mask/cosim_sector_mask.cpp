// Cosimulation of rtl/stu_sector_mask.sv against the golden byte-mask rule: the access's bytes
// (golden::access_byte_mask) placed at its line offset (bytes past the line dropped), the
// sectors they touch (LineByteMask::sectors) and the alignment check (golden::align_access).
//
// The block is combinational and has no clock: the bench wraps it in a Dut with the clock and
// reset the harness drives (they reach nothing), and its handshake passes through (an input is
// taken exactly when its output is, in the same cycle).
#include <algorithm>
#include <string>

#include "Vstu_sector_mask.h"
#include "bits.h"
#include "blocks.h"
#include "harness.h"
#include "ports.h"
#include "stu/golden/access.h"
#include "stu/golden/store_align.h"
#include "verilated_fst_c.h"

namespace stu::tb {
namespace {

static_assert(port_words<decltype(Vstu_sector_mask::byte_mask_o)> ==
                  words_for_bits(golden::kLineBytes),
              "stu_sector_mask byte mask width != golden::kLineBytes");

// The combinational block as the harness's clocked Dut.
struct SectorMaskDut {
  SectorMaskDut(VerilatedContext* ctx, const char* name) : m(ctx, name) {}
  Vstu_sector_mask m;
  uint8_t clk_i = 0, rst_ni = 0;  // driven by the harness, connected to nothing
  void eval() { m.eval(); }
  void trace(VerilatedFstC* t, int levels) { m.trace(t, levels); }
  void final() { m.final(); }
  const char* modelName() const { return m.modelName(); }
};

struct SectorMaskBench {
  using Dut = SectorMaskDut;
  struct In {
    unsigned offset = 0;  // byte offset in the line
    unsigned size = 4;    // 1, 2, 4, 8, 16, 32
  };
  struct Out {
    golden::LineByteMask bytes;
    uint8_t sectors = 0;
    bool misaligned = false;
  };

  void setup(Clocked<Dut>&, Rng&) {}

  // Functional coverage: access size x where it starts, and how many sectors it touches.
  Crossed size_where_;
  CoverPoint* sectors_ = nullptr;
  void declare_coverage(Coverage& c) {
    size_where_ = c.crossed(
        "sector_mask.size_x_offset", c.point("sector_mask.size", {"1", "2", "4", "8", "16", "32"}),
        c.point("sector_mask.offset", {"aligned", "misaligned", "past_line_end"}),
        [](size_t i, size_t j) {
          return i == 0 && j == 1   ? "a byte is always aligned"
                 : i == 0 && j == 2 ? "a byte that starts in the line ends in it"
                                    : "";
        });
    sectors_ = &c.point("sector_mask.sectors_touched", {"1", "2"});
  }
  void cover_in(const In& in) {
    const size_t i = size_t(__builtin_ctz(in.size));
    const size_t j = in.offset + in.size > golden::kLineBytes ? 2 : in.offset % in.size ? 1 : 0;
    size_where_.hit(i, j);
  }
  void cover_out(const Out& o) {
    // An access starts inside the line (at least one sector) and is at most 32 bytes (two).
    sectors_->hit(__builtin_popcount(o.sectors) >= 2 ? 1 : 0);
  }

  In gen(Rng& r) {
    In in;
    in.size = 1u << r.below(6);
    switch (r.below(3)) {
      case 0:  // aligned
        in.offset = unsigned(r.below(golden::kLineBytes / in.size)) * in.size;
        break;
      case 1:  // anywhere
        in.offset = unsigned(r.below(golden::kLineBytes));
        break;
      default:  // at the end of the line (bytes past it are dropped)
        in.offset = golden::kLineBytes - 1 - unsigned(r.below(in.size));
        break;
    }
    return in;
  }
  void ref(const In& in, std::vector<Out>& out) {
    Out o;
    const uint32_t m = golden::access_byte_mask(in.size);
    for (unsigned i = 0; i < in.size && in.offset + i < golden::kLineBytes; ++i)
      if ((m >> i) & 1) o.bytes.set(in.offset + i);
    o.sectors = o.bytes.sectors();
    o.misaligned = golden::align_access(in.offset, in.size, golden::MisalignMode::Fault).fault;
    out.push_back(o);
  }
  size_t beats(const In&) { return 1; }
  void drive(Dut& d, const In& in, size_t) {
    valid_ = true;
    d.m.valid_i = 1;
    d.m.offset_i = uint8_t(in.offset);
    d.m.size_bytes_i = uint8_t(in.size);
  }
  void idle(Dut& d) {
    valid_ = false;
    d.m.valid_i = 0;
  }
  bool in_ready(Dut&) { return ready_; }
  bool out_valid(Dut&) { return valid_; }
  void set_out_ready(Dut&, bool r) { ready_ = r; }
  Out sample(Dut& d) {
    Out o;
    uint8_t b[golden::kLineBytes / 8];
    get_bytes(d.m.byte_mask_o, 0, b, golden::kLineBytes / 8);
    for (unsigned i = 0; i < golden::kLineBytes; ++i)
      if ((b[i / 8] >> (i % 8)) & 1) o.bytes.set(i);
    o.sectors = uint8_t(d.m.sector_mask_o);
    o.misaligned = d.m.misaligned_o;
    return o;
  }

  static bool equal(const Out& a, const Out& b) {
    return a.bytes == b.bytes && a.sectors == b.sectors && a.misaligned == b.misaligned;
  }
  static std::string diff(const Out& w, const Out& g) {
    FieldDiff field;
    field("byte_mask[63:0]", w.bytes.lo, g.bytes.lo);
    field("byte_mask[127:64]", w.bytes.hi, g.bytes.hi);
    field("sector_mask", w.sectors, g.sectors);
    field("misaligned", w.misaligned, g.misaligned);
    return field.str();
  }
  static std::string show(const Out& o) {
    return "bytes " + hex(o.bytes.hi) + ":" + hex(o.bytes.lo) + " sectors " + hex(o.sectors) +
           (o.misaligned ? " misaligned" : "");
  }

 private:
  bool valid_ = false, ready_ = false;
};

}  // namespace

CosimResult cosim_sector_mask(const CosimOptions& o) {
  SectorMaskBench b;
  return run_stream(b, "sector_mask", o);
}

}  // namespace stu::tb
