// Accel-Sim 2.0 `.tracez` reader (docs/trace-formats.md describes the layout as read).
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "stu/workload/trace.h"
#include "workload/trace_lines.h"

namespace stu::workload {
namespace {

using namespace detail;

// Bounds that keep a damaged or hostile file from asking for unbounded memory.
constexpr size_t kMaxHeaderBytes = 64 * 1024;
constexpr uint32_t kMaxDictBytes = 16u << 20;
constexpr uint32_t kMaxCompressedBytes = 64u << 20;
constexpr uint64_t kMaxSubchunkBytes = 256ull << 20;

// The index, flat: 24 bytes a warp and 4 a sub-chunk (no vector per warp).
struct WarpIndex {
  uint64_t offset = 0;  // the warp's data: u32 insts, u32 sub-chunks, the sub-chunks
  uint64_t first = 0;   // its sub-chunks' instruction counts: counts_[first, first + subchunks)
  uint32_t insts = 0;
  uint32_t subchunks = 0;
};

struct CtaIndex {
  std::array<uint32_t, 3> cta{};
  uint64_t first = 0;  // its warps: warps_[first, first + count)
  uint32_t count = 0;
};

class TracezSource : public StoreSource {
 public:
  TracezSource(const std::string& path, uint32_t kernel_id) : path_(path) {
    kernel_.id = kernel_id;
    diag_file_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) {
      fail(path_, 0, std::string("cannot open: ") + std::strerror(errno));
      return;
    }
    dctx_ = ZSTD_createDCtx();
    if (!dctx_) {
      error("cannot start the zstd decoder");
      return;
    }
    open_file();
  }
  ~TracezSource() override {
    if (f_) std::fclose(f_);
    if (ddict_) ZSTD_freeDDict(ddict_);
    if (dctx_) ZSTD_freeDCtx(dctx_);
  }
  TracezSource(const TracezSource&) = delete;
  TracezSource& operator=(const TracezSource&) = delete;

  bool next(StoreRecord& r) override {
    while (ok()) {
      if (line_ < lines_.size()) {
        const std::string_view line = lines_[line_++];
        ++inst_in_warp_;
        ++instructions_;
        bool is_store = false;
        std::string err;
        if (!parse_instruction_line(line, kernel_, r, is_store, skipped_, err))
          return error(where() + err);
        if (since_record_ < UINT32_MAX) ++since_record_;
        if (!is_store) continue;
        r.issued = since_record_;
        since_record_ = 0;
        r.kernel_id = kernel_.id;
        r.cta = index_[cta_].cta;
        r.warp = warp_;
        return true;
      }
      if (!next_subchunk()) return false;
    }
    return false;
  }

 private:
  bool error(std::string message) {
    fail(path_, 0, std::move(message));
    return false;
  }

  std::string where() const {
    const auto& c = index_[cta_].cta;
    return "thread block " + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," +
           std::to_string(c[2]) + ", warp " + std::to_string(warp_) + ", instruction " +
           std::to_string(inst_in_warp_) + ": ";
  }

  bool read_at(uint64_t offset, void* p, size_t n, const char* what) {
    if (offset > size_ || n > size_ - offset)
      return error(std::string(what) + " at byte " + std::to_string(offset) +
                   " runs past the end of the file (" + std::to_string(size_) + " bytes)");
    // Warps follow one another in the file: most reads continue where the last one ended and
    // need no seek (a seek would drop stdio's buffer).
    if (offset != fpos_ && fseeko(f_, off_t(offset), SEEK_SET) != 0)
      return error(std::string("cannot seek (") + what + ")");
    fpos_ = offset;
    if (std::fread(p, 1, n, f_) != n) {
      fpos_ = UINT64_MAX;
      return error(std::string("read error (") + what + ")");
    }
    fpos_ += n;
    return true;
  }
  bool u32_at(uint64_t& offset, uint32_t& v, const char* what) {
    unsigned char b[4];
    if (!read_at(offset, b, 4, what)) return false;
    v = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    offset += 4;
    return true;
  }
  bool u64_at(uint64_t& offset, uint64_t& v, const char* what) {
    uint32_t lo, hi;
    if (!u32_at(offset, lo, what) || !u32_at(offset, hi, what)) return false;
    v = uint64_t(hi) << 32 | lo;
    return true;
  }

  // Header text, dictionary and the index footer.
  void open_file() {
    if (fseeko(f_, 0, SEEK_END) != 0) {
      error("cannot seek");
      return;
    }
    const off_t size = ftello(f_);
    if (size < 0) {
      error("cannot tell the file's size");
      return;
    }
    size_ = uint64_t(size);
    std::rewind(f_);
    fpos_ = 0;
    std::string header;
    int ch;
    while ((ch = std::fgetc(f_)) != EOF && ch != '\0') {
      if (header.size() == kMaxHeaderBytes) {
        error("no end to the kernel header within " + std::to_string(kMaxHeaderBytes) +
              " bytes (not a .tracez file?)");
        return;
      }
      header += char(ch);
    }
    if (ch == EOF) {
      error("the kernel header is not terminated by a NUL byte (not a .tracez file?)");
      return;
    }
    fpos_ = header.size() + 1;
    // The header: `-KEY = VALUE` lines up to the first `#` line (errors at their line).
    uint32_t line_no = 0;
    for (size_t b = 0; b < header.size();) {
      size_t e = header.find('\n', b);
      if (e == std::string::npos) e = header.size();
      std::string_view line(header.data() + b, e - b);
      b = e + 1;
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty()) continue;
      if (line[0] == '#') break;
      std::string err;
      if (line[0] == '-' && !parse_header_line(line, kernel_, err)) {
        fail(path_, line_no, err);
        return;
      }
    }
    if (std::string e = check_tracer_version(kernel_); !e.empty()) {
      error(e);
      return;
    }
    uint64_t at = header.size() + 1;
    uint32_t dict_bytes, subchunk_insts;
    if (!u32_at(at, dict_bytes, "dictionary size") || !u32_at(at, subchunk_insts, "sub-chunk size"))
      return;
    if (dict_bytes > kMaxDictBytes) {
      error("dictionary of " + std::to_string(dict_bytes) + " bytes (at most " +
            std::to_string(kMaxDictBytes) + ")");
      return;
    }
    if (dict_bytes) {
      std::vector<char> dict(dict_bytes);
      if (!read_at(at, dict.data(), dict.size(), "dictionary")) return;
      ddict_ = ZSTD_createDDict(dict.data(), dict.size());
      if (!ddict_) {
        error("the zstd dictionary cannot be loaded");
        return;
      }
    }
    data_begin_ = at + dict_bytes;
    read_index();
  }

  void read_index() {
    if (size_ < data_begin_ + 8) {
      error("no index footer (the file ends at byte " + std::to_string(size_) + ")");
      return;
    }
    uint64_t at = size_ - 8, index_at;
    if (!u64_at(at, index_at, "index offset")) return;
    if (index_at < data_begin_ || index_at > size_ - 8) {
      error("index offset " + std::to_string(index_at) + " is outside the file's data (bytes " +
            std::to_string(data_begin_) + " to " + std::to_string(size_ - 8) + ")");
      return;
    }
    const uint64_t end = size_ - 8;
    at = index_at;
    // Bytes of the index not read yet (0 once a record has run into the trailing offset).
    auto left = [&at, end] { return at < end ? end - at : uint64_t(0); };
    uint32_t ctas;
    if (!u32_at(at, ctas, "index")) return;
    // Each CTA record is at least 44 bytes: a count that cannot fit is damage, not a request
    // for memory.
    if (uint64_t(ctas) * 44 > left()) {
      error("index: " + std::to_string(ctas) + " thread blocks do not fit in its " +
            std::to_string(left()) + " bytes");
      return;
    }
    index_.resize(ctas);
    for (CtaIndex& c : index_) {
      uint32_t v[11];
      for (uint32_t& x : v)
        if (!u32_at(at, x, "index")) return;
      c.cta = {v[0], v[1], v[2]};  // then cluster id, CTA id in the cluster, rank: not used
      if (uint64_t(v[10]) * 16 > left()) {
        error("index: " + std::to_string(v[10]) + " warps do not fit in the index");
        return;
      }
      c.first = warps_.size();
      c.count = v[10];
      for (uint32_t j = 0; j < c.count; ++j) {
        WarpIndex w;
        if (!u32_at(at, w.insts, "index") || !u32_at(at, w.subchunks, "index") ||
            !u64_at(at, w.offset, "index"))
          return;
        if (uint64_t(w.subchunks) * 4 > left()) {
          error("index: " + std::to_string(w.subchunks) + " sub-chunks do not fit in the index");
          return;
        }
        w.first = counts_.size();
        uint64_t sum = 0;
        for (uint32_t k = 0; k < w.subchunks; ++k) {
          uint32_t n;
          if (!u32_at(at, n, "index")) return;
          counts_.push_back(n);
          sum += n;
        }
        if (sum != w.insts) {
          error("index: a warp of " + std::to_string(w.insts) + " instructions whose sub-chunks " +
                "hold " + std::to_string(sum));
          return;
        }
        warps_.push_back(w);
      }
    }
    if (at > end)
      error("index: its records run into the index offset at byte " + std::to_string(end));
    if (at < end) error("index: " + std::to_string(end - at) + " bytes left over after it");
  }

  // Loads the next sub-chunk (of this warp, or of the next warp with any): false at the end.
  bool next_subchunk() {
    lines_.clear();
    line_ = 0;
    for (;;) {
      if (warp_open_) {
        if (subchunk_ < warp().subchunks) return load_subchunk();
        warp_open_ = false;
        ++warp_;
      }
      while (cta_ < index_.size() && warp_ >= index_[cta_].count) {
        ++cta_;
        warp_ = 0;
      }
      if (cta_ >= index_.size()) return false;
      if (!open_warp()) return false;
      warp_open_ = true;
    }
  }

  bool open_warp() {
    const WarpIndex& w = warp();
    inst_in_warp_ = 0;
    since_record_ = 0;
    subchunk_ = 0;
    uint64_t at = w.offset;
    if (at < data_begin_)
      return error(where() + "data offset " + std::to_string(at) + " inside the file's header");
    uint32_t insts, subchunks;
    if (!u32_at(at, insts, "warp header") || !u32_at(at, subchunks, "warp header")) return false;
    if (insts != w.insts || subchunks != w.subchunks)
      return error(where() + "the warp header says " + std::to_string(insts) + " instructions in " +
                   std::to_string(subchunks) + " sub-chunks, the index " + std::to_string(w.insts) +
                   " in " + std::to_string(w.subchunks));
    pos_ = at;
    return true;
  }

  bool load_subchunk() {
    const WarpIndex& w = warp();
    uint32_t comp;
    uint64_t at = pos_;
    if (!u32_at(at, comp, "sub-chunk size")) return false;
    const std::string here = where() + "sub-chunk " + std::to_string(subchunk_) + " at byte " +
                             std::to_string(pos_) + ": ";
    if (comp > kMaxCompressedBytes)
      return error(here + std::to_string(comp) + " compressed bytes (at most " +
                   std::to_string(kMaxCompressedBytes) + ")");
    comp_.resize(comp);
    if (!read_at(at, comp_.data(), comp, "sub-chunk")) return false;
    pos_ = at + comp;
    const unsigned long long n = ZSTD_getFrameContentSize(comp_.data(), comp_.size());
    if (n == ZSTD_CONTENTSIZE_ERROR) return error(here + "not a zstd frame");
    if (n == ZSTD_CONTENTSIZE_UNKNOWN) return error(here + "the zstd frame has no content size");
    // Its lines are at most kMaxLineBytes each, as in a .traceg.
    const uint32_t want = counts_[w.first + subchunk_];
    const uint64_t most =
        std::min<uint64_t>(kMaxSubchunkBytes, uint64_t(want) * (kMaxLineBytes + 1));
    if (n > most)
      return error(here + "decompresses to " + std::to_string(n) + " bytes, more than " +
                   std::to_string(want) + " lines of at most " + std::to_string(kMaxLineBytes) +
                   " bytes");
    text_.resize(size_t(n));
    const size_t got =
        ddict_ ? ZSTD_decompress_usingDDict(dctx_, text_.data(), text_.size(), comp_.data(),
                                            comp_.size(), ddict_)
               : ZSTD_decompressDCtx(dctx_, text_.data(), text_.size(), comp_.data(), comp_.size());
    if (ZSTD_isError(got)) return error(here + "zstd: " + ZSTD_getErrorName(got));
    if (got != n) return error(here + "the zstd frame decompressed short");
    // One instruction per line ('\n' ends each; the last one may lack it).
    for (size_t b = 0; b < got;) {
      const char* nl = static_cast<const char*>(std::memchr(text_.data() + b, '\n', got - b));
      const size_t e = nl ? size_t(nl - text_.data()) : got;
      std::string_view line(text_.data() + b, e - b);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines_.push_back(line);
      b = e + 1;
    }
    if (lines_.size() != want)
      return error(here + "the index says " + std::to_string(want) + " instructions, it holds " +
                   std::to_string(lines_.size()) + " lines");
    ++subchunk_;
    return true;
  }

  std::string path_;
  std::FILE* f_ = nullptr;
  ZSTD_DCtx* dctx_ = nullptr;
  ZSTD_DDict* ddict_ = nullptr;
  uint64_t size_ = 0, data_begin_ = 0;
  uint64_t fpos_ = UINT64_MAX;  // the stream's position (UINT64_MAX: unknown)
  std::vector<CtaIndex> index_;
  std::vector<WarpIndex> warps_;
  std::vector<uint32_t> counts_;
  const WarpIndex& warp() const { return warps_[index_[cta_].first + warp_]; }
  // Where the reader is: CTA (index order), warp, sub-chunk, line.
  size_t cta_ = 0;
  uint32_t warp_ = 0;
  bool warp_open_ = false;
  size_t subchunk_ = 0;
  uint64_t pos_ = 0;  // the next sub-chunk's byte offset
  uint64_t inst_in_warp_ = 0;
  uint32_t since_record_ = 0;  // instruction lines of the warp since its last record
  std::vector<char> comp_, text_;
  std::vector<std::string_view> lines_;  // into text_
  size_t line_ = 0;
};

}  // namespace

std::unique_ptr<StoreSource> open_tracez(const std::string& path, uint32_t default_kernel_id) {
  return std::make_unique<TracezSource>(path, default_kernel_id);
}

std::unique_ptr<StoreSource> open_trace(const std::string& path, uint32_t default_kernel_id) {
  const std::string z = ".tracez";
  if (path.size() >= z.size() && path.compare(path.size() - z.size(), z.size(), z) == 0)
    return open_tracez(path, default_kernel_id);
  return open_traceg(path, default_kernel_id);
}

}  // namespace stu::workload
