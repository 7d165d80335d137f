// Payloads of the store path. Modules see standard TLM-2.0: a tlm_generic_payload with room for
// one line (128 data bytes, 128 byte enables), the store's attributes in a StoreExtension and
// the model's routing bookkeeping in a RouteExtension (both read with get_extension), and a
// memory manager (tlm_mm_interface, the engine's PayloadPool: engine/payload_pool.h): whoever
// takes a payload from the pool holds one reference, and the last gp.release() hands it back.
// set_line() fills one with a line.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include <tlm>

#include "payload_pool.h"
#include "store_extension.h"
#include "stu/golden/access.h"

namespace stu::sim {

// The bytes of the sectors in `sectors` (bit s: sector s, 32 bytes each).
inline golden::LineByteMask sector_byte_mask(std::uint8_t sectors) {
  static_assert(golden::kLineBytes == 4 * golden::kSectorBytes, "a line is 4 sectors");
  golden::LineByteMask m;
  m.lo = (sectors & 1 ? 0xFFFF'FFFFull : 0) | (sectors & 2 ? ~0ull << 32 : 0);
  m.hi = (sectors & 4 ? 0xFFFF'FFFFull : 0) | (sectors & 8 ? ~0ull << 32 : 0);
  return m;
}

// Writes a line into a payload whose data and byte-enable arrays hold 128 bytes each (every
// payload of the pool): the address, `bytes` of `src` (128 bytes by line offset; the bytes
// outside the mask are copied as they are: golden line requests and cache lines keep them 0;
// null `src`: the data array is left as it was), the byte enables and the StoreExtension's
// mask (`bytes`), the response status incomplete.
void set_line(tlm::tlm_generic_payload& gp, std::uint64_t addr, const golden::LineByteMask& bytes,
              const std::uint8_t* src);

// The 8 byte-enable bytes of each value of a mask byte.
struct ByteEnableTable {
  std::array<std::uint64_t, 256> v{};
  ByteEnableTable() {
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned b = 0; b < 8; ++b)
        if ((m >> b) & 1) v[m] |= std::uint64_t(TLM_BYTE_ENABLED) << (8 * b);
  }
};

inline void set_line(tlm::tlm_generic_payload& gp, std::uint64_t addr,
                     const golden::LineByteMask& mask, const std::uint8_t* src) {
  static const ByteEnableTable table;
  gp.set_address(addr);
  gp.set_data_length(golden::kLineBytes);
  gp.set_byte_enable_length(golden::kLineBytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  store_ext(gp).bytes = mask;
  if (src) std::memcpy(gp.get_data_ptr(), src, golden::kLineBytes);
  std::uint8_t* be = gp.get_byte_enable_ptr();
  for (unsigned half = 0; half < 2; ++half) {  // 64 bytes each: mask.lo, then mask.hi
    const std::uint64_t w = half ? mask.hi : mask.lo;
    std::uint8_t* const out = be + 64 * half;
    if (w == ~std::uint64_t(0)) {  // whole sectors, the common case: no table look-ups
      std::memset(out, TLM_BYTE_ENABLED, 64);
    } else if (w == 0) {
      std::memset(out, TLM_BYTE_DISABLED, 64);
    } else {
      for (unsigned i = 0; i < 8; ++i) {
        const std::uint64_t e = table.v[(w >> (8 * i)) & 0xFF];
        std::memcpy(out + 8 * i, &e, 8);
      }
    }
  }
}

}  // namespace stu::sim
