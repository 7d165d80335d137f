#include "image_check.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace stu::sim {

namespace {
std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::optional<ImageDiff> sparse_diff(const char* space, const golden::SparseMemory& want,
                                     const golden::SparseMemory& got) {
  // Pages either side: a page only one side has compares against the fill value (0).
  std::vector<std::uint64_t> pages = want.page_numbers();
  for (std::uint64_t p : got.page_numbers()) pages.push_back(p);
  std::sort(pages.begin(), pages.end());
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  for (std::uint64_t n : pages) {
    const std::uint8_t* a = want.page(n);
    const std::uint8_t* b = got.page(n);
    for (std::uint64_t i = 0; i < golden::SparseMemory::kPageBytes; ++i) {
      const std::uint8_t x = a ? a[i] : 0, y = b ? b[i] : 0;
      if (x != y) {
        ImageDiff d;
        d.space = space;
        d.addr = (n << golden::SparseMemory::kPageBits) + i;
        d.where = std::string(space) + " " + hex(d.addr);
        d.want = x;
        d.got = y;
        return d;
      }
    }
  }
  return std::nullopt;
}
}  // namespace

std::string ImageDiff::str() const {
  return where + ": golden " + hex(want) + ", model " + hex(got);
}

std::optional<ImageDiff> compare_images(const golden::MachineState& g,
                                        const golden::MachineState& m, ImageSpaces spaces) {
  if (spaces == ImageSpaces::All)
    if (auto d = sparse_diff("global", g.global(), m.global())) return d;
  const std::uint32_t ctas = g.config().cluster_ctas;
  for (std::uint32_t c = 0; c < ctas; ++c) {
    const auto& a = g.cta(c).shared;
    const auto& b = m.cta(c).shared;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (a[i] != b[i]) {
        ImageDiff d;
        d.space = "shared";
        d.addr = i;
        d.where = "shared cta " + std::to_string(c) + " " + hex(i);
        d.want = a[i];
        d.got = b[i];
        return d;
      }
    }
  }
  if (auto d = sparse_diff("local", g.local(), m.local())) return d;
  if (auto d = sparse_diff("param_func", g.param_func(), m.param_func())) return d;
  for (std::uint32_t c = 0; c < ctas; ++c) {
    const auto& a = g.cta(c).tmem;
    const auto& b = m.cta(c).tmem;
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
      if (x != y) {
        ImageDiff d;
        d.space = "tmem";
        d.addr = i;
        d.width = 4;
        d.where = "tmem cta " + std::to_string(c) + " lane " +
                  std::to_string(i / golden::kTmemColumns) + " column " +
                  std::to_string(i % golden::kTmemColumns);
        d.want = x;
        d.got = y;
        return d;
      }
    }
    for (std::uint64_t off : g.cta(c).mbarriers) {
      const std::uint64_t x = golden::encode(g.mbar(c, off)), y = golden::encode(m.mbar(c, off));
      if (x != y) {
        ImageDiff d;
        d.space = "mbarrier";
        d.addr = off;
        d.width = 8;
        d.where = "mbarrier cta " + std::to_string(c) + " " + hex(off);
        d.want = x;
        d.got = y;
        return d;
      }
    }
  }
  return std::nullopt;
}

std::optional<ImageDiff> compare_dram(
    const golden::MachineState& g, const golden::SparseMemory& dram,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& written, bool all) {
  if (all) {
    auto d = sparse_diff("dram", g.global(), dram);
    if (d) d->where = "dram " + hex(d->addr);
    return d;
  }
  std::vector<std::uint64_t> lines;
  lines.reserve(written.size());
  for (const auto& [line, m] : written) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  for (std::uint64_t line : lines) {
    const golden::LineByteMask& m = written.at(line);
    std::uint8_t a[golden::kLineBytes], b[golden::kLineBytes];
    g.global().read(line, a, golden::kLineBytes);
    dram.read(line, b, golden::kLineBytes);
    for (unsigned i = 0; i < golden::kLineBytes; ++i) {
      if (m.test(i) && a[i] != b[i]) {
        ImageDiff d;
        d.space = "dram";
        d.addr = line + i;
        d.where = "dram " + hex(d.addr);
        d.want = a[i];
        d.got = b[i];
        return d;
      }
    }
  }
  return std::nullopt;
}

std::optional<ImageDiff> missing_in_dram(
    const golden::MachineState& g, const golden::SparseMemory& dram,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& taken,
    const std::unordered_map<std::uint64_t, golden::LineByteMask>& written) {
  std::optional<ImageDiff> first;
  for (const auto& [line, m] : taken) {
    const auto w = written.find(line);
    const golden::LineByteMask got = w == written.end() ? golden::LineByteMask{} : w->second;
    const golden::LineByteMask lost{m.lo & ~got.lo, m.hi & ~got.hi};
    if (lost.empty()) continue;
    const unsigned i =
        lost.lo ? unsigned(__builtin_ctzll(lost.lo)) : 64 + unsigned(__builtin_ctzll(lost.hi));
    if (first && first->addr <= line + i) continue;
    std::uint8_t a = 0, b = 0;
    g.global().read(line + i, &a, 1);
    dram.read(line + i, &b, 1);
    ImageDiff d;
    d.space = "dram";
    d.addr = line + i;
    d.where = "dram " + hex(d.addr) + " (stored, never reached DRAM)";
    d.want = a;
    d.got = b;
    first = d;
  }
  return first;
}

}  // namespace stu::sim
