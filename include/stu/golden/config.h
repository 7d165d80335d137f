// Configuration of the golden model: machine geometry and the generic address map.
//
// Window bases are configuration, not architectural constants (real drivers choose them);
// the defaults below are documented in docs/golden.md. Addresses are 64-bit end to end.
#pragma once

#include <cstdint>
#include <string>

namespace stu::golden {

// A window of the generic address space: [base, base + size).
// Byte ranges [base, base + size) of the 64-bit address space. A range may end exactly at
// 2^64, where base + size is 0 in uint64_t, so every rule is written on the last byte,
// base + size - 1 (one rule, used by windows, global allocations and the .sts runner).
inline bool range_valid(uint64_t base, uint64_t size) {
  return size != 0 && base + (size - 1) >= base;
}
inline bool ranges_overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  return a_size != 0 && b_size != 0 && a <= b + (b_size - 1) && b <= a + (a_size - 1);
}

struct Window {
  uint64_t base = 0;
  uint64_t size = 0;
  bool contains(uint64_t a) const { return a >= base && a - base < size; }
};

// How SASS `ST` treats a misaligned address (the seed allows both).
enum class MisalignMode : uint8_t {
  ForceAlign,  // the address is forced down to the access size; no fault
  Fault,       // the lane faults with FaultKind::Misaligned
};

// The generic windows. Any generic address outside every window is global.
struct AddressMap {
  // `.shared::cluster`: CTA rank r's shared memory is [base + r*cta_stride, ... + cta_stride).
  // The `.shared::cta` window of a CTA is its own slice. `.shared::cluster` space addresses
  // are `rank * cta_stride + offset` (what `mapa` returns); `.shared::cta` space addresses
  // are the offset alone.
  Window shared{0x0000'7F00'0000'0000ull, 16ull << 24};
  uint64_t shared_cta_stride = 1ull << 24;  // 16 MiB per CTA rank
  // `.local`: the executing thread's local memory at offset (address - base).
  Window local{0x0000'7E00'0000'0000ull, 1ull << 24};
  // Kernel `.param` (read-only for stores) and `.const` (read-only).
  Window param{0x0000'7D00'0000'0000ull, 1ull << 16};
  Window konst{0x0000'7C00'0000'0000ull, 1ull << 20};
};

struct ModelConfig {
  AddressMap map;
  uint32_t cluster_ctas = 1;            // CTAs in the cluster, 1..16
  uint32_t warps_per_cta = 4;           // 1..32
  uint64_t shared_bytes = 48 << 10;     // per CTA, up to 228 KiB
  uint64_t local_bytes = 4 << 10;       // per thread
  uint64_t param_func_bytes = 4 << 10;  // `.param::func` frame per thread
  uint64_t kernel_param_bytes = 4 << 10;
  uint64_t const_bytes = 64 << 10;
  uint8_t fill = 0x00;  // value of every byte never written
  MisalignMode sass_misalign = MisalignMode::Fault;
  uint32_t sass_regs = 255;  // Ra at or beyond this (or RZ) means an absolute address

  static constexpr uint32_t kMaxClusterCtas = 16;
  static constexpr uint64_t kMaxSharedBytes = 228 << 10;

  uint32_t threads_per_cta() const { return warps_per_cta * 32; }
  // Empty when consistent; otherwise what is wrong (windows overlapping, sizes out of range).
  std::string check() const;
};

}  // namespace stu::golden
