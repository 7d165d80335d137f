// Golden transaction types read from (and written to) Verilated ports, by the field positions
// of stu_pkg_layout.h: one reader per packed struct, shared by the benches and the RTL model.
// Also the handshake ports every streaming block has (in_valid_i/in_ready_o,
// out_valid_o/out_ready_i), for run_stream's Bench.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "bits.h"
#include "stu/golden/access.h"
#include "stu/golden/tmem.h"

namespace stu::tb {

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// A bench's field-by-field difference (Bench::diff): each field that differs adds
// "name: expected A, actual B", separated by "; ". Numbers are shown in hex.
class FieldDiff {
 public:
  void operator()(const char* name, const std::string& want, const std::string& got) {
    if (want != got)
      text_ +=
          std::string(text_.empty() ? "" : "; ") + name + ": expected " + want + ", actual " + got;
  }
  void operator()(const char* name, uint64_t want, uint64_t got) {
    if (want != got) (*this)(name, hex(want), hex(got));
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// A line_req_t port.
template <std::size_t N>
golden::LineRequest read_line_req(const VlWide<N>& w) {
  namespace LR = rtl::layout::line_req;
  golden::LineRequest l;
  l.dest.space = golden::MemSpace(get_field(w, 0, LR::dest_space));
  l.dest.cta = uint16_t(get_field(w, 0, LR::dest_cta));
  l.dest.thread = uint32_t(get_field(w, 0, LR::dest_thread));
  l.line = get_field(w, 0, LR::line);
  l.sector_mask = uint8_t(get_field(w, 0, LR::sector_mask));
  l.bytes.lo = get_bits(w, LR::byte_mask.lsb, 64);
  l.bytes.hi = get_bits(w, LR::byte_mask.lsb + 64, 64);
  l.lane_mask = uint32_t(get_field(w, 0, LR::lane_mask));
  l.first_lane = uint8_t(get_field(w, 0, LR::first_lane));
  get_bytes(w, LR::data.lsb, l.data.data(), golden::kLineBytes);
  return l;
}

// A tmem_write_t port.
template <std::size_t N>
golden::TmemWrite read_tmem_write(const VlWide<N>& w) {
  namespace TW = rtl::layout::tmem_write;
  golden::TmemWrite t;
  t.cta = uint16_t(get_field(w, 0, TW::cta));
  t.lane = uint16_t(get_field(w, 0, TW::lane));
  t.col = uint16_t(get_field(w, 0, TW::col));
  t.col_mask = uint32_t(get_field(w, 0, TW::col_mask));
  t.unpacked = get_field(w, 0, TW::unpacked) != 0;
  for (unsigned i = 0; i < 32; ++i) t.data[i] = uint32_t(get_bits(w, TW::data.lsb + 32 * i, 32));
  return t;
}

// The handshake of a block with one valid/ready input and one valid/ready output, named as
// every stu block names them. A Bench for run_stream derives from it.
template <typename DutT>
struct StreamPorts {
  using Dut = DutT;
  void idle(Dut& d) { d.in_valid_i = 0; }
  bool in_ready(Dut& d) { return d.in_ready_o; }
  bool out_valid(Dut& d) { return d.out_valid_o; }
  void set_out_ready(Dut& d, bool r) { d.out_ready_i = r; }
};

}  // namespace stu::tb
