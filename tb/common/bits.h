// Packing and unpacking of Verilated ports: scalars (CData..QData) and wide ports (VlWide),
// by field position (stu_pkg_layout.h gives the positions of every packed-struct field).
#pragma once

#include <algorithm>
#include <cstdint>

#include "stu_pkg_layout.h"
#include "verilated.h"

namespace stu::tb {

using rtl::layout::BitField;

// Wide ports: 32-bit words, least significant first.
template <std::size_t N>
void put_bits(VlWide<N>& w, unsigned lsb, unsigned width, uint64_t value) {
  unsigned i = 0;
  while (i < width) {  // word-sized steps where the field allows
    const unsigned b = lsb + i, off = b % 32, n = std::min(32 - off, width - i);
    const uint32_t mask = uint32_t(((uint64_t(1) << n) - 1) << off);
    const uint32_t part = uint32_t(((value >> i) << off) & mask);
    w[b / 32] = (w[b / 32] & ~mask) | part;
    i += n;
  }
}
template <std::size_t N>
uint64_t get_bits(const VlWide<N>& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  unsigned i = 0;
  while (i < width) {  // word-sized steps where the field allows
    const unsigned b = lsb + i, off = b % 32, n = std::min(32 - off, width - i);
    const uint64_t part = (uint64_t(w[b / 32]) >> off) & ((uint64_t(1) << n) - 1);
    v |= part << i;
    i += n;
  }
  return v;
}
template <std::size_t N>
void put_field(VlWide<N>& w, unsigned base, BitField f, uint64_t value) {
  put_bits(w, base + f.lsb, f.width, value);
}
template <std::size_t N>
uint64_t get_field(const VlWide<N>& w, unsigned base, BitField f) {
  return get_bits(w, base + f.lsb, f.width);
}
// Byte fields (data): byte i of `bytes` at bits [lsb + 8i, lsb + 8i + 8).
template <std::size_t N>
void put_bytes(VlWide<N>& w, unsigned lsb, const uint8_t* bytes, unsigned n) {
  if (lsb % 32 == 0) {
    for (unsigned i = 0; i < n; i += 4) {
      uint32_t v = 0;
      for (unsigned k = 0; k < 4 && i + k < n; ++k) v |= uint32_t(bytes[i + k]) << (8 * k);
      w[(lsb + 8 * i) / 32] = v;
    }
    return;
  }
  for (unsigned i = 0; i < n; ++i) put_bits(w, lsb + 8 * i, 8, bytes[i]);
}
template <std::size_t N>
void get_bytes(const VlWide<N>& w, unsigned lsb, uint8_t* bytes, unsigned n) {
  if (lsb % 32 == 0) {
    for (unsigned i = 0; i < n; ++i) bytes[i] = uint8_t(w[(lsb + 8 * i) / 32] >> (8 * (i % 4)));
    return;
  }
  for (unsigned i = 0; i < n; ++i) bytes[i] = uint8_t(get_bits(w, lsb + 8 * i, 8));
}

}  // namespace stu::tb
