// stu's compact binary trace (`.stut`): writer, streaming reader and the converter.
// The layout, byte by byte, is in docs/trace-formats.md.
#include <bitset>
#include <cstring>

#include "stu/workload/trace.h"
#include "workload/input.h"

namespace stu::workload {
namespace {

enum Tag : uint8_t { kKernel = 1, kStore = 2, kSkip = 3, kEnd = 4, kFence = 5 };
enum AddrMode : uint8_t { kList = 0, kBaseStride = 1 };
constexpr uint16_t kHeaderBytes = 16;

void le(uint8_t* p, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) p[i] = uint8_t(v >> (8 * i));
}
uint64_t rd(const uint8_t* p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

StutWriter::StutWriter(const std::string& path) : f_(std::fopen(path.c_str(), "wb")) {
  ok_ = f_ != nullptr;
  uint8_t h[kHeaderBytes] = {};
  std::memcpy(h, kStutMagic, 8);
  le(h + 8, kStutVersion, 2);
  le(h + 10, kHeaderBytes, 2);
  le(h + 12, 0, 4);  // flags
  put(h, sizeof h);
}

StutWriter::~StutWriter() {
  if (f_) std::fclose(f_);
}

void StutWriter::put(const void* p, size_t n) {
  if (ok_ && std::fwrite(p, 1, n, f_) != n) ok_ = false;
}

void StutWriter::begin_kernel(uint32_t id, const std::string& name) {
  uint8_t b[7];
  size_t len = name.size() > 0xffff ? 0xffff : name.size();
  b[0] = kKernel;
  le(b + 1, id, 4);
  le(b + 5, len, 2);
  put(b, 7);
  put(name.data(), len);
  have_kernel_ = true;
  kernel_id_ = id;
}

namespace {
// The 28 bytes a store and a fence record start with after the tag: cta x/y/z, warp, pc, mask.
size_t put_head(uint8_t* b, const StoreRecord& r) {
  size_t n = 0;
  for (uint32_t c : r.cta) le(b + n, c, 4), n += 4;
  le(b + n, r.warp, 4), n += 4;
  le(b + n, r.pc, 8), n += 8;
  le(b + n, r.mask, 4), n += 4;
  return n;
}
}  // namespace

void StutWriter::write(const StoreRecord& r) {
  if (!have_kernel_ || r.kernel_id != kernel_id_) begin_kernel(r.kernel_id, {});
  if (r.kind == RecordKind::Fence) {
    const size_t oplen = r.opcode.size() > 255 ? 255 : r.opcode.size();
    uint8_t b[1 + 30 + 255];
    size_t n = 0;
    b[n++] = kFence;
    n += put_head(b + n, r);
    b[n++] = uint8_t(r.scope);
    b[n++] = uint8_t(oplen);
    std::memcpy(b + n, r.opcode.data(), oplen), n += oplen;
    put(b, n);
    ++records_;
    return;
  }
  const std::bitset<32> m(r.mask);
  // Base+stride when every active lane is base + rank * stride.
  uint64_t base = 0;
  int64_t stride = 0;
  bool bs = true;
  unsigned rank = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!m.test(l)) continue;
    if (rank == 0) base = r.addr[l];
    if (rank == 1) stride = int64_t(r.addr[l] - base);
    if (r.addr[l] != base + uint64_t(stride) * rank) bs = false;
    ++rank;
  }
  size_t oplen = r.opcode.size() > 255 ? 255 : r.opcode.size();
  uint8_t b[32 + 255 + 8 * kWarpSize];
  size_t n = 0;
  b[n++] = kStore;
  n += put_head(b + n, r);
  le(b + n, r.width > 0xffff ? 0xffff : r.width, 2), n += 2;
  b[n++] = uint8_t(r.space);
  b[n++] = bs ? kBaseStride : kList;
  b[n++] = uint8_t(oplen);
  std::memcpy(b + n, r.opcode.data(), oplen), n += oplen;
  if (bs) {
    le(b + n, base, 8), n += 8;
    le(b + n, uint64_t(stride), 8), n += 8;
  } else {
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (m.test(l)) le(b + n, r.addr[l], 8), n += 8;
  }
  put(b, n);
  ++records_;
}

bool StutWriter::finish(const SkipCounts& skipped) {
  uint8_t b[1 + 1 + 255 + 8];
  for (const auto& [op, count] : skipped.by_opcode) {
    size_t len = op.size() > 255 ? 255 : op.size();
    b[0] = kSkip;
    b[1] = uint8_t(len);
    std::memcpy(b + 2, op.data(), len);
    le(b + 2 + len, count, 8);
    put(b, 10 + len);
  }
  b[0] = kEnd;
  le(b + 1, records_, 8);
  le(b + 9, records_ + skipped.total, 8);
  put(b, 17);
  if (f_ && std::fclose(f_) != 0) ok_ = false;
  f_ = nullptr;
  return ok_;
}

namespace {

class StutSource : public StoreSource {
 public:
  explicit StutSource(const std::string& path) : path_(path), in_(open_bytes(path)), buf_(kBuf) {
    if (!in_->error().empty()) {
      fail(path_, 0, in_->error());
    } else if (const uint8_t* h = get(kHeaderBytes); !h) {
      bad("not a .stut file (shorter than its 16-byte header)");
    } else if (std::memcmp(h, kStutMagic, 8) != 0) {
      bad("not a .stut file (bad magic)");
    } else if (rd(h + 8, 2) != 1 && rd(h + 8, 2) != kStutVersion) {
      bad(".stut version " + std::to_string(rd(h + 8, 2)) + " is not supported (1 and 2 are)");
    } else if (rd(h + 10, 2) != kHeaderBytes) {
      bad("bad .stut header size");
    }
  }

  // What put_head wrote, and the kernel the record belongs to.
  void read_head(const uint8_t* p, StoreRecord& r) const {
    r.kernel_id = kernel_.id;
    for (unsigned i = 0; i < 3; ++i) r.cta[i] = uint32_t(rd(p + 4 * i, 4));
    r.warp = uint32_t(rd(p + 12, 4));
    r.pc = rd(p + 16, 8);
    r.mask = uint32_t(rd(p + 24, 4));
  }

  bool next(StoreRecord& r) override {
    while (ok() && !ended_) {
      size_t at = offset_;
      const uint8_t* p = get(1);
      if (!p) return bad("truncated: no end record"), false;
      switch (*p) {
        case kKernel: {
          if (!(p = get(6))) return trunc(at);
          kernel_ = KernelInfo{};
          kernel_.id = uint32_t(rd(p, 4));
          size_t len = rd(p + 4, 2);
          if (len && !(p = get(len))) return trunc(at);
          kernel_.name.assign(reinterpret_cast<const char*>(p), len);
          break;
        }
        case kStore: {
          if (!(p = get(32))) return trunc(at);
          r.kind = RecordKind::Store;
          read_head(p, r);
          r.width = uint32_t(rd(p + 28, 2));
          uint8_t space = p[30], mode = p[31];
          if (!(p = get(1))) return trunc(at);
          size_t oplen = *p;
          if (!(p = get(oplen))) return trunc(at);
          r.opcode.assign(reinterpret_cast<const char*>(p), oplen);
          if (space > 3) return bad_at(at, "bad space " + std::to_string(space));
          r.space = StoreSpace(space);
          const std::bitset<32> m(r.mask);
          r.addr.fill(0);
          if (mode == kBaseStride) {
            if (!(p = get(16))) return trunc(at);
            uint64_t base = rd(p, 8), stride = rd(p + 8, 8), k = 0;
            for (unsigned l = 0; l < kWarpSize; ++l)
              if (m.test(l)) r.addr[l] = base + stride * k++;
          } else if (mode == kList) {
            if (!(p = get(8 * m.count()))) return trunc(at);
            for (unsigned l = 0; l < kWarpSize; ++l)
              if (m.test(l)) r.addr[l] = rd(p, 8), p += 8;
          } else {
            return bad_at(at, "bad address mode " + std::to_string(mode));
          }
          ++stores_;
          ++instructions_;
          return true;
        }
        case kFence: {
          if (!(p = get(30))) return trunc(at);
          r = StoreRecord{};
          r.kind = RecordKind::Fence;
          read_head(p, r);
          const uint8_t scope = p[28];
          const size_t oplen = p[29];
          if (scope > 2) return bad_at(at, "bad fence scope " + std::to_string(scope));
          r.scope = FenceScope(scope);
          if (oplen && !(p = get(oplen))) return trunc(at);
          r.opcode.assign(reinterpret_cast<const char*>(p), oplen);
          ++stores_;
          ++instructions_;
          return true;
        }
        case kSkip: {
          if (!(p = get(1))) return trunc(at);
          size_t len = *p;
          if (!(p = get(len + 8))) return trunc(at);
          uint64_t count = rd(p + len, 8);
          std::string op(reinterpret_cast<const char*>(p), len);
          skipped_.add(op, count);
          instructions_ += count;
          break;
        }
        case kEnd: {
          if (!(p = get(16))) return trunc(at);
          if (rd(p, 8) != stores_)
            return bad_at(at, "end record counts " + std::to_string(rd(p, 8)) +
                                  " stores, the file has " + std::to_string(stores_));
          if (rd(p + 8, 8) != instructions_)
            return bad_at(at, "end record counts " + std::to_string(rd(p + 8, 8)) +
                                  " instructions, the file has " + std::to_string(instructions_));
          if (get(1)) return bad_at(offset_ - 1, "bytes after the end record");
          ended_ = true;
          break;
        }
        default:
          return bad_at(at, "unknown record tag " + std::to_string(*p));
      }
    }
    return false;
  }

 private:
  static constexpr size_t kBuf = 64 * 1024;

  void bad(std::string message) { fail(path_, 0, std::move(message)); }
  bool bad_at(size_t at, std::string message) {
    fail(path_, 0, "at byte " + std::to_string(at) + ": " + std::move(message));
    return false;
  }
  bool trunc(size_t at) { return bad_at(at, "truncated record"); }

  // `n` (at most kBuf) contiguous bytes, or null at the end of the input.
  const uint8_t* get(size_t n) {
    if (end_ - begin_ < n) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
      while (end_ < n) {
        size_t got = in_->read(reinterpret_cast<char*>(buf_.data()) + end_, buf_.size() - end_);
        if (got == 0) {
          if (!in_->error().empty()) bad(in_->error());
          return nullptr;
        }
        end_ += got;
      }
    }
    const uint8_t* p = buf_.data() + begin_;
    begin_ += n;
    offset_ += n;
    return p;
  }

  std::string path_;
  std::unique_ptr<ByteInput> in_;
  std::vector<uint8_t> buf_;
  size_t begin_ = 0, end_ = 0, offset_ = 0;
  uint64_t stores_ = 0;
  bool ended_ = false;
};

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

std::unique_ptr<StoreSource> open_stut(const std::string& path) {
  return std::make_unique<StutSource>(path);
}

bool write_stut(StoreSource& src, const std::string& out, std::string& error,
                const std::function<void(const StoreRecord&)>& each) {
  StutWriter w(out);
  if (!w.ok()) {
    error = out + ": error: cannot open for writing\n";
    return false;
  }
  StoreRecord r;
  uint32_t kernel = 0;
  bool first = true;
  while (src.next(r)) {
    if (first || r.kernel_id != kernel) w.begin_kernel(r.kernel_id, src.kernel().name);
    first = false;
    kernel = r.kernel_id;
    w.write(r);
    if (each) each(r);
  }
  if (!src.ok()) {
    error = src.error_text();
    return false;
  }
  if (!w.finish(src.skipped())) {
    error = out + ": error: write failed\n";
    return false;
  }
  return true;
}

bool convert_to_stut(const std::string& in, const std::string& out, std::string& error,
                     uint64_t* stores) {
  std::unique_ptr<StoreSource> src = open_any_trace(in);
  uint64_t n = 0;
  const bool ok = write_stut(*src, out, error, [&n](const StoreRecord&) { ++n; });
  if (stores) *stores = n;
  return ok;
}

std::unique_ptr<StoreSource> open_any_trace(const std::string& path) {
  if (ends_with(path, ".g") && !ends_with(path, ".traceg")) return open_kernelslist(path);
  if (ends_with(path, ".stut")) return open_stut(path);
  return open_trace(path);
}

}  // namespace stu::workload
