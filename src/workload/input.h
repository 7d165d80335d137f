// Byte and line inputs with fixed-size buffers: a plain file, or an xz stream via liblzma.
#pragma once

#include <lzma.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace stu::workload {

// A stream of bytes. read() returns 0 at the end or on error (then error() is non-empty).
class ByteInput {
 public:
  virtual ~ByteInput() = default;
  virtual size_t read(char* buf, size_t n) = 0;
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

// Opens `path`; an `.xz` name is decompressed on the fly. Never null: an open failure is
// reported by error() with read() returning 0.
std::unique_ptr<ByteInput> open_bytes(const std::string& path);

// Lines (without the '\n', a trailing '\r' dropped) from a ByteInput through one buffer.
class LineReader {
 public:
  static constexpr size_t kBufBytes = 64 * 1024;
  LineReader(std::unique_ptr<ByteInput> in, size_t max_line);
  // False at the end or on error (error() non-empty: an I/O or decompression error, or a line
  // longer than max_line).
  bool next(std::string_view& line);
  uint32_t line_no() const { return line_no_; }
  const std::string& error() const { return error_; }
  size_t buffer_bytes() const { return buf_.capacity(); }

 private:
  std::unique_ptr<ByteInput> in_;
  size_t max_line_;
  std::string buf_;  // [begin_, end_) unread bytes
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  uint32_t line_no_ = 0;
  std::string error_;
};

}  // namespace stu::workload
