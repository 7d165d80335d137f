// The request word of the cache write path (rtl/stu_l1_wpath.sv `req_i`, layout l1_req in
// rtl/stu_pkg.svh): one global line request with its cache attributes, ordering and the L2
// action the request format carries (golden::l2_store_action, a pure policy function). One
// packer for every harness that drives the block (tb/store_unit's RTL model, tb/sim's core).
#pragma once

#include <array>
#include <cstdint>

#include "bits.h"
#include "stu/golden/cache.h"
#include "stu_pkg_layout.h"

namespace stu::tb {

template <std::size_t N>
void pack_l1_req(VlWide<N>& w, const golden::LineRequest& req, const golden::CacheAttrs& attrs,
                 const golden::Ordering& order, bool release_point) {
  namespace F = rtl::layout::l1_req;
  const uint64_t line = req.line & ~uint64_t(golden::kLineBytes - 1);
  const golden::L2StoreAction l2 = golden::l2_store_action(attrs, line);
  for (std::size_t i = 0; i < N; ++i) w[i] = 0;
  put_field(w, 0, F::line, line);
  put_bits(w, F::bytes.lsb, 64, req.bytes.lo);
  put_bits(w, F::bytes.lsb + 64, 64, req.bytes.hi);
  put_field(w, 0, F::has_cop, attrs.cop.has_value());
  put_field(w, 0, F::cop, attrs.cop ? unsigned(*attrs.cop) : 0);
  put_field(w, 0, F::has_l1, attrs.l1.has_value());
  put_field(w, 0, F::l1, attrs.l1 ? unsigned(*attrs.l1) : 0);
  put_field(w, 0, F::is_strong, order.strong);
  put_field(w, 0, F::is_mmio, order.mmio);
  put_field(w, 0, F::is_release, release_point);
  put_field(w, 0, F::l2_cls, uint64_t(l2.cls.value_or(golden::EvictClass::Normal)));
  put_field(w, 0, F::l2_keep_cls, !l2.cls.has_value());
  put_field(w, 0, F::l2_through, l2.mode == golden::WriteMode::Through);
  std::array<uint8_t, golden::kLineBytes> data{};
  for (unsigned i = 0; i < golden::kLineBytes; ++i)
    if (req.bytes.test(i)) data[i] = req.data[i];
  put_bytes(w, F::data.lsb, data.data(), golden::kLineBytes);
}

// A cache block's debug read port (stu_l1_wpath / stu_l2_wslice, combinational): the line of
// `addr` as golden::SectoredCache::lookup reports it.
template <typename Dut>
golden::CacheLookup debug_lookup(Dut& m, uint64_t addr) {
  golden::CacheLookup r;
  m.dbg_line_i = addr & ~uint64_t(golden::kLineBytes - 1);
  m.eval();  // combinational: no clock edge
  r.hit = m.dbg_hit_o;
  r.set = m.dbg_set_o;
  r.way = m.dbg_way_o;
  r.valid = {get_bits(m.dbg_valid_o, 0, 64), get_bits(m.dbg_valid_o, 64, 64)};
  r.dirty = {get_bits(m.dbg_dirty_o, 0, 64), get_bits(m.dbg_dirty_o, 64, 64)};
  r.cls = golden::EvictClass(m.dbg_cls_o);
  return r;
}

}  // namespace stu::tb
