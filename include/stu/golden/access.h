// Per-lane accesses and their coalescing into 128-byte line requests.
//
// A warp store becomes one LaneAccess per active, non-faulting lane (a vector is one
// contiguous access whose byte mask leaves out sink elements), and then a list of
// LineRequests: one per (destination, 128-byte line) touched, each with a 4-bit sector mask,
// a 128-bit byte mask and the data. Order (docs/golden.md): ascending destination (space,
// CTA, thread), then ascending line address.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "stu/golden/address.h"

namespace stu::golden {

inline constexpr unsigned kLineBytes = 128;
inline constexpr unsigned kSectorBytes = 32;
inline constexpr unsigned kMaxAccessBytes = 32;  // .v8.b32 / .v4.b64

// 128 bits, one per byte of a line.
struct LineByteMask {
  uint64_t lo = 0;  // bytes 0..63
  uint64_t hi = 0;  // bytes 64..127
  bool test(unsigned i) const { return (i < 64 ? lo >> i : hi >> (i - 64)) & 1; }
  void set(unsigned i) { (i < 64 ? lo : hi) |= uint64_t(1) << (i & 63); }
  // Sets bytes [begin, begin + len) (begin + len <= 128).
  void set_range(unsigned begin, unsigned len) {
    auto bits = [](unsigned from, unsigned to) {  // bits [from, to) of one 64-bit half
      if (from >= to) return uint64_t(0);
      const uint64_t upto = to >= 64 ? ~uint64_t(0) : (uint64_t(1) << to) - 1;
      return upto & ~((uint64_t(1) << from) - 1);
    };
    const unsigned end = begin + len;
    lo |= bits(begin < 64 ? begin : 64, end < 64 ? end : 64);
    hi |= bits(begin > 64 ? begin - 64 : 0, end > 64 ? end - 64 : 0);
  }
  bool empty() const { return (lo | hi) == 0; }
  // How many of bytes [begin, end) are set (end <= 128).
  unsigned count_range(unsigned begin, unsigned end) const {
    LineByteMask r;
    r.set_range(begin, end - begin);
    return unsigned(__builtin_popcountll(lo & r.lo) + __builtin_popcountll(hi & r.hi));
  }
  unsigned count() const { return unsigned(__builtin_popcountll(lo) + __builtin_popcountll(hi)); }
  // Bit s set when any byte of sector s (32 bytes) is written.
  uint8_t sectors() const {
    return uint8_t(((lo & 0xFFFF'FFFFull) != 0) | ((lo >> 32) != 0) << 1 |
                   ((hi & 0xFFFF'FFFFull) != 0) << 2 | ((hi >> 32) != 0) << 3);
  }
  // How many sectors are written (0..4): nibble s of the constant is the bit count of s.
  unsigned sector_count() const { return unsigned(0x4332322132212110ull >> (4 * sectors()) & 0xF); }
  bool operator==(const LineByteMask& o) const { return lo == o.lo && hi == o.hi; }
};

// memcpy for the sizes an access has (1..32 bytes): the power-of-two sizes as fixed-size
// copies (a few moves, no call, no size branches), anything else by memcpy.
inline void copy_access_bytes(uint8_t* dst, const void* src, unsigned n) {
  switch (n) {
    case 1:
      std::memcpy(dst, src, 1);
      return;
    case 2:
      std::memcpy(dst, src, 2);
      return;
    case 4:
      std::memcpy(dst, src, 4);
      return;
    case 8:
      std::memcpy(dst, src, 8);
      return;
    case 16:
      std::memcpy(dst, src, 16);
      return;
    case 32:
      std::memcpy(dst, src, 32);
      return;
    default:
      std::memcpy(dst, src, n);
      return;
  }
}

struct LaneAccess {
  uint8_t lane = 0;
  uint8_t size = 0;        // bytes, 1..32
  uint32_t byte_mask = 0;  // bit i: byte i of data is written (sinks clear theirs)
  Dest dest;
  uint64_t offset = 0;                        // first byte, in the destination space
  std::array<uint8_t, kMaxAccessBytes> data;  // little-endian; bytes past `size` unused
};

struct LineRequest {
  Dest dest;
  uint64_t line = 0;        // offset of the line's first byte (multiple of 128)
  uint8_t sector_mask = 0;  // bit s: sector s has a written byte
  LineByteMask bytes;
  uint32_t lane_mask = 0;  // lanes that contributed
  uint8_t first_lane = 0;  // lowest contributing lane (whose cache policy the line carries)
  std::array<uint8_t, kLineBytes> data{};  // bytes not in the mask are 0
};

// The fields of a line request, listed once. compare() and same_line() walk them, and the
// `.sts` expectation `expect line N key=value ...` takes their names as keys, so a field has
// one name and one notion of equality everywhere. The data bytes are compared after them,
// under the byte mask.
struct LineField {
  enum class Format : uint8_t { Dec, Hex, Space };
  const char* name;
  uint64_t (*get)(const LineRequest&);
  Format format;
  bool derived;  // follows from other fields (nbytes): a key for tests, not compared again
};
// space, cta, thread, addr, sectors, lanes, first_lane, bytemask_lo, bytemask_hi, nbytes.
const std::vector<LineField>& line_fields();
const LineField* find_line_field(std::string_view name);
// A field's value as text: "global", "0x10080", "3".
std::string format_line_field(const LineField& f, uint64_t value);

// Equal in every field and in every data byte under the byte mask (compare() is empty).
bool same_line(const LineRequest& a, const LineRequest& b);

// One line, for traces and mismatch reports:
// "global 0x10000 sectors 0xf bytes 128 lanes 0xffffffff" (shared and local add "cta N",
// local and .param::func add "thread N").
std::string to_string(const LineRequest& r);
// Field-by-field comparison for cosimulation: "" when equal, else every field that differs,
// as "field: expected X, actual Y; ..." (data: the first differing byte of the mask).
std::string compare(const LineRequest& want, const LineRequest& got);

// Which lane's data lands when several active lanes of one store write the same byte: the
// same-location rule, silicon-checked on an H200 (docs/golden.md, tests/data/silicon/).
//
// The store unit moves a warp's lane data in groups of 128 bytes, one group after the other in
// lane order: lanes [0, G), [G, 2G), ... with G = 128 / (bytes per lane), at most 32. Inside a
// group the lowest lane's bytes win; a later group overwrites an earlier one. `.mmio` stores and
// `st.async` move one lane at a time (G = 1), so the highest lane wins. So the byte's winner is
// the writing lane of highest rank, rank(lane) = lane XOR (G - 1).
class LaneGroup {
 public:
  // G for an access of `access_bytes` (1..32) per lane; `one_lane_at_a_time` for .mmio/st.async.
  static LaneGroup for_access(unsigned access_bytes, bool one_lane_at_a_time) {
    if (one_lane_at_a_time || access_bytes == 0) return LaneGroup(1);
    const unsigned g = kLineBytes / access_bytes;
    return LaneGroup(uint8_t(g >= 32 ? 32 : g));
  }
  static LaneGroup whole_warp() { return LaneGroup(32); }
  unsigned lanes() const { return lanes_; }  // 1, 2, 4, 8, 16 or 32
  unsigned log2() const { return unsigned(__builtin_ctz(lanes_)); }
  // The order in which lanes' bytes land: a byte keeps the data of its writer of highest rank.
  unsigned rank(unsigned lane) const { return lane ^ (lanes_ - 1u); }
  bool operator==(LaneGroup o) const { return lanes_ == o.lanes_; }

 private:
  explicit LaneGroup(uint8_t lanes) : lanes_(lanes) {}
  uint8_t lanes_;
};

// Coalesces accesses (in any order) into line requests, appended to `out` in the documented
// order. When two lanes write the same byte, the lane of highest `group.rank` wins (LaneGroup).
void coalesce(const LaneAccess* accesses, size_t n, LaneGroup group, std::vector<LineRequest>& out);

}  // namespace stu::golden
