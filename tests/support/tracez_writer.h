// Test and benchmark support: a writer of Accel-Sim 2.0 `.tracez` files, independent of the
// reader in src/workload/tracez.cpp (docs/trace-formats.md has the layout).
#pragma once

#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace stu::test_support {

// The layout: the kernel header
// text and a NUL, u32 dictionary size, u32 sub-chunk size, the dictionary, per warp `u32
// insts, u32 sub-chunks, (u32 size, zstd frame)...`, the index, and the index's u64 offset.
struct TzWarp {
  std::vector<std::string> lines;
};
struct TzCta {
  std::array<uint32_t, 3> id{};
  std::vector<TzWarp> warps;
};

inline void put32(std::string& o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o += char(v >> (8 * i) & 0xff);
}
inline void put64(std::string& o, uint64_t v) {
  put32(o, uint32_t(v));
  put32(o, uint32_t(v >> 32));
}

inline std::string make_tracez(const std::string& header, const std::vector<TzCta>& ctas,
                               uint32_t per_subchunk, const std::string& dict = "") {
  std::string o = header;
  o += '\0';
  put32(o, uint32_t(dict.size()));
  put32(o, per_subchunk);
  o += dict;
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CDict* cdict = dict.empty() ? nullptr : ZSTD_createCDict(dict.data(), dict.size(), 3);
  std::string index;
  put32(index, uint32_t(ctas.size()));
  for (const TzCta& c : ctas) {
    for (uint32_t v : {c.id[0], c.id[1], c.id[2], 0u, 0u, 0u, 0u, 0u, 0u, 0u}) put32(index, v);
    put32(index, uint32_t(c.warps.size()));
    for (const TzWarp& w : c.warps) {
      const uint32_t n = uint32_t(w.lines.size());
      const uint32_t chunks = (n + per_subchunk - 1) / per_subchunk;
      put32(index, n);
      put32(index, chunks);
      put64(index, o.size());
      put32(o, n);
      put32(o, chunks);
      for (uint32_t k = 0; k < chunks; ++k) {
        std::string text;
        const uint32_t end = std::min(n, (k + 1) * per_subchunk);
        for (uint32_t i = k * per_subchunk; i < end; ++i) text += w.lines[i] + "\n";
        put32(index, end - k * per_subchunk);
        std::string frame(ZSTD_compressBound(text.size()), '\0');
        const size_t got = cdict ? ZSTD_compress_usingCDict(cctx, frame.data(), frame.size(),
                                                            text.data(), text.size(), cdict)
                                 : ZSTD_compressCCtx(cctx, frame.data(), frame.size(), text.data(),
                                                     text.size(), 3);
        if (ZSTD_isError(got)) return {};
        frame.resize(got);
        put32(o, uint32_t(frame.size()));
        o += frame;
      }
    }
  }
  ZSTD_freeCDict(cdict);
  ZSTD_freeCCtx(cctx);
  const uint64_t index_at = o.size();
  o += index;
  put64(o, index_at);
  return o;
}

// The kernel header, CTAs and warps of a .traceg (its `insts` lines dropped).
inline std::pair<std::string, std::vector<TzCta>> split_traceg(const std::string& text) {
  std::string header;
  std::vector<TzCta> ctas;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#BEGIN_TB", 0) == 0) {
      ctas.emplace_back();
    } else if (ctas.empty()) {
      header += line + "\n";
    } else if (line.rfind("thread block", 0) == 0) {
      std::sscanf(line.c_str(), "thread block = %u,%u,%u", &ctas.back().id[0], &ctas.back().id[1],
                  &ctas.back().id[2]);
    } else if (line.rfind("warp", 0) == 0) {
      ctas.back().warps.emplace_back();
    } else if (!line.empty() && line[0] != '#' && line.rfind("insts", 0) != 0) {
      ctas.back().warps.back().lines.push_back(line);
    }
  }
  return {header, ctas};
}

}  // namespace stu::test_support
