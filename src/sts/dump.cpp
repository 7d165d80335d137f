// `stu run --dump`: the model's final memory image as hex rows, per space.
#include "runner.h"

namespace stu::sts {

void Runner::rows(std::ostream& os, const uint8_t* data, size_t n, uint64_t base, int width) {
  const uint8_t fill = p_.cfg.fill;
  for (size_t r = 0; r < n; r += 16) {
    bool all_fill = true;
    for (size_t i = r; i < r + 16 && i < n; ++i) all_fill &= data[i] == fill;
    if (all_fill) continue;
    os << hex(base + r, width) << ":";
    for (size_t i = r; i < r + 16 && i < n; ++i) {
      char b[4];
      std::snprintf(b, sizeof b, " %02x", data[i]);
      os << b;
    }
    os << "\n";
  }
}
void Runner::dump_sparse(std::ostream& os, const golden::SparseMemory& mem, const char* name) {
  for (uint64_t pn : mem.page_numbers()) {
    const uint64_t key = pn << golden::SparseMemory::kPageBits;
    const uint32_t cta = uint32_t(key >> 56), thread = uint32_t((key >> 40) & 0xFFFF);
    os << "[" << name << " cta=" << cta << " thread=" << thread << "]\n";
    rows(os, mem.page(pn), golden::SparseMemory::kPageBytes, key & ((uint64_t(1) << 40) - 1), 8);
  }
}
void Runner::dump(std::ostream& os) {
  os << "# stu memory image: rows of 16 bytes that differ from the fill byte "
     << hex(p_.cfg.fill, 2) << "\n";
  os << "[global]\n";
  for (uint64_t pn : m_.global().page_numbers())
    rows(os, m_.global().page(pn), golden::SparseMemory::kPageBytes,
         pn << golden::SparseMemory::kPageBits, 16);
  for (uint32_t c = 0; c < p_.cfg.cluster_ctas; ++c) {
    os << "[shared cta=" << c << "]\n";
    rows(os, m_.cta(c).shared.data(), m_.cta(c).shared.size(), 0, 8);
  }
  dump_sparse(os, m_.local(), "local");
  dump_sparse(os, m_.param_func(), "param_func");
  os << "[kernel_param]\n";
  rows(os, m_.kernel_param().data(), m_.kernel_param().size(), 0, 8);
  os << "[const]\n";
  rows(os, m_.const_bank().data(), m_.const_bank().size(), 0, 8);
  for (uint32_t c = 0; c < p_.cfg.cluster_ctas; ++c) {
    const golden::CtaState& cs = m_.cta(c);
    if (cs.tmem.empty()) continue;
    os << "[tmem cta=" << c << " allocated-units=" << hex(cs.tmem_alloc.unit_mask(), 4) << "]\n";
    for (uint32_t lane = 0; lane < golden::kTmemLanes; ++lane)
      for (uint32_t col = 0; col < golden::kTmemColumns; col += 8) {
        const uint32_t* p = cs.tmem.data() + lane * golden::kTmemColumns + col;
        bool zero = true;
        for (int i = 0; i < 8; ++i) zero &= p[i] == 0;
        if (zero) continue;
        os << "lane " << lane << " col " << col << ":";
        for (int i = 0; i < 8; ++i) os << " " << hex(p[i], 8);
        os << "\n";
      }
  }
}
}  // namespace stu::sts
