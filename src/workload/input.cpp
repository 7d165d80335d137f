#include "workload/input.h"

#include <cerrno>
#include <cstring>
#include <vector>

namespace stu::workload {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

class FileInput : public ByteInput {
 public:
  explicit FileInput(const std::string& path) : f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) error_ = std::string("cannot open: ") + std::strerror(errno);
  }
  ~FileInput() override {
    if (f_) std::fclose(f_);
  }
  size_t read(char* buf, size_t n) override {
    if (!f_) return 0;
    size_t got = std::fread(buf, 1, n, f_);
    if (got == 0 && std::ferror(f_)) error_ = "read error";
    return got;
  }

 private:
  std::FILE* f_;
};

// xz through liblzma's stream decoder: one fixed input buffer, output straight into the
// caller's buffer. A stream that ends before the xz footer is an error.
class XzInput : public ByteInput {
 public:
  static constexpr size_t kInBytes = 64 * 1024;
  static constexpr uint64_t kMemLimit = 256ull << 20;  // decoder dictionary limit
  explicit XzInput(const std::string& path) : file_(path), in_(kInBytes) {
    if (!file_.error().empty()) {
      error_ = file_.error();
      return;
    }
    lzma_ret r = lzma_stream_decoder(&strm_, kMemLimit, LZMA_CONCATENATED);
    if (r != LZMA_OK) error_ = "cannot start the xz decoder";
    started_ = r == LZMA_OK;
  }
  ~XzInput() override { lzma_end(&strm_); }
  size_t read(char* buf, size_t n) override {
    if (!started_ || done_ || !error_.empty()) return 0;
    strm_.next_out = reinterpret_cast<uint8_t*>(buf);
    strm_.avail_out = n;
    while (strm_.avail_out == n) {
      if (strm_.avail_in == 0 && !in_eof_) {
        strm_.avail_in = file_.read(in_.data(), in_.size());
        strm_.next_in = reinterpret_cast<const uint8_t*>(in_.data());
        if (strm_.avail_in == 0) {
          if (!file_.error().empty()) {
            error_ = file_.error();
            return 0;
          }
          in_eof_ = true;
        }
      }
      lzma_ret r = lzma_code(&strm_, in_eof_ ? LZMA_FINISH : LZMA_RUN);
      if (r == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (r == LZMA_OK) continue;
      if (r == LZMA_BUF_ERROR && in_eof_) {
        error_ = "truncated xz stream";
      } else if (r == LZMA_FORMAT_ERROR) {
        error_ = "not an xz stream";
      } else if (r == LZMA_MEMLIMIT_ERROR) {
        error_ = "xz stream needs more than 256 MiB of decoder memory";
      } else if (r == LZMA_DATA_ERROR || r == LZMA_BUF_ERROR) {
        error_ = "corrupt xz stream";
      } else {
        error_ = "xz decoder error " + std::to_string(int(r));
      }
      return 0;
    }
    return n - strm_.avail_out;
  }

 private:
  FileInput file_;
  std::vector<char> in_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  bool started_ = false, in_eof_ = false, done_ = false;
};

}  // namespace

std::unique_ptr<ByteInput> open_bytes(const std::string& path) {
  if (ends_with(path, ".xz")) return std::make_unique<XzInput>(path);
  return std::make_unique<FileInput>(path);
}

LineReader::LineReader(std::unique_ptr<ByteInput> in, size_t max_line)
    : in_(std::move(in)), max_line_(max_line) {
  buf_.resize(kBufBytes > max_line + 1 ? kBufBytes : max_line + 1);
  if (!in_->error().empty()) error_ = in_->error();
}

bool LineReader::next(std::string_view& line) {
  if (!error_.empty()) return false;
  for (;;) {
    const char* p =
        static_cast<const char*>(std::memchr(buf_.data() + begin_, '\n', end_ - begin_));
    if (p || (eof_ && end_ > begin_)) {
      size_t stop = p ? size_t(p - buf_.data()) : end_;
      if (stop - begin_ > max_line_) break;
      line = std::string_view(buf_.data() + begin_, stop - begin_);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      begin_ = p ? stop + 1 : stop;
      ++line_no_;
      return true;
    }
    if (eof_) return false;
    if (end_ - begin_ > max_line_) break;
    // Move the partial line to the front and refill behind it.
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    size_t got = in_->read(buf_.data() + end_, buf_.size() - end_);
    if (got == 0) {
      if (!in_->error().empty()) {
        ++line_no_;  // the line being read when the input failed
        error_ = in_->error();
        return false;
      }
      eof_ = true;
    }
    end_ += got;
  }
  ++line_no_;
  error_ = "line longer than " + std::to_string(max_line_) + " bytes";
  return false;
}

}  // namespace stu::workload
