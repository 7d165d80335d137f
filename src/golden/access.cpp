#include "stu/golden/access.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace stu::golden {

namespace {
std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
}  // namespace

std::string to_string(const LineRequest& r) {
  std::string s(golden::to_string(r.dest.space));
  if (r.dest.space == MemSpace::Shared || r.dest.space == MemSpace::Local ||
      r.dest.space == MemSpace::ParamFunc)
    s += " cta " + std::to_string(r.dest.cta);
  if (r.dest.space == MemSpace::Local || r.dest.space == MemSpace::ParamFunc)
    s += " thread " + std::to_string(r.dest.thread);
  return s + " " + hex(r.line) + " sectors " + hex(r.sector_mask) + " bytes " +
         std::to_string(r.bytes.count()) + " lanes " + hex(r.lane_mask);
}

const std::vector<LineField>& line_fields() {
  using F = LineField::Format;
  static const std::vector<LineField> kFields = {
      {"space", [](const LineRequest& r) { return uint64_t(r.dest.space); }, F::Space, false},
      {"cta", [](const LineRequest& r) { return uint64_t(r.dest.cta); }, F::Dec, false},
      {"thread", [](const LineRequest& r) { return uint64_t(r.dest.thread); }, F::Dec, false},
      {"addr", [](const LineRequest& r) { return r.line; }, F::Hex, false},
      {"sectors", [](const LineRequest& r) { return uint64_t(r.sector_mask); }, F::Hex, false},
      {"lanes", [](const LineRequest& r) { return uint64_t(r.lane_mask); }, F::Hex, false},
      {"first_lane", [](const LineRequest& r) { return uint64_t(r.first_lane); }, F::Dec, false},
      {"bytemask_lo", [](const LineRequest& r) { return r.bytes.lo; }, F::Hex, false},
      {"bytemask_hi", [](const LineRequest& r) { return r.bytes.hi; }, F::Hex, false},
      {"nbytes", [](const LineRequest& r) { return uint64_t(r.bytes.count()); }, F::Dec, true},
  };
  return kFields;
}

const LineField* find_line_field(std::string_view name) {
  for (const LineField& f : line_fields())
    if (name == f.name) return &f;
  return nullptr;
}

std::string format_line_field(const LineField& f, uint64_t value) {
  switch (f.format) {
    case LineField::Format::Space:
      return std::string(golden::to_string(MemSpace(value)));
    case LineField::Format::Hex:
      return hex(value);
    case LineField::Format::Dec:
      break;
  }
  return std::to_string(value);
}

std::string compare(const LineRequest& want, const LineRequest& got) {
  std::string out;
  auto report = [&](const std::string& name, const std::string& w, const std::string& g) {
    out += (out.empty() ? "" : "; ") + name + ": expected " + w + ", actual " + g;
  };
  for (const LineField& f : line_fields()) {
    const uint64_t w = f.get(want), g = f.get(got);
    if (!f.derived && w != g) report(f.name, format_line_field(f, w), format_line_field(f, g));
  }
  for (unsigned i = 0; i < kLineBytes; ++i) {  // data matters only where both masks write
    if (want.bytes.test(i) && got.bytes.test(i) && want.data[i] != got.data[i]) {
      report("data[" + std::to_string(i) + "]", hex(want.data[i]), hex(got.data[i]));
      break;
    }
  }
  return out;
}

bool same_line(const LineRequest& a, const LineRequest& b) { return compare(a, b).empty(); }

namespace {

// The data of `n` accesses of `size` bytes each, one after the other from `dst`.
template <unsigned kSize>
void copy_run(uint8_t* dst, const LaneAccess* a, size_t n) {
  for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * kSize, a[i].data.data(), kSize);
}
void copy_access_run(uint8_t* dst, const LaneAccess* a, size_t n, unsigned size) {
  switch (size) {
    case 1:
      return copy_run<1>(dst, a, n);
    case 2:
      return copy_run<2>(dst, a, n);
    case 4:
      return copy_run<4>(dst, a, n);
    case 8:
      return copy_run<8>(dst, a, n);
    case 16:
      return copy_run<16>(dst, a, n);
    case 32:
      return copy_run<32>(dst, a, n);
    default:
      for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * size, a[i].data.data(), size);
  }
}

// The common case in one pass: the accesses in strictly ascending lane order, to one
// destination, each inside one line with every byte written (no sink), at ascending offsets
// that do not overlap. Then no byte is written twice, every access lands in one line, and the
// lines come out in ascending order, as the general merge would make them. False (nothing
// appended) when the accesses are not of that shape.
bool coalesce_ordered(const LaneAccess* a, size_t n, std::vector<LineRequest>& out) {
  bool contiguous = true;  // one size, each access right after the previous one
  for (size_t i = 0; i < n; ++i) {
    const unsigned size = a[i].size;
    const uint32_t full = size >= 32 ? ~0u : (uint32_t(1) << size) - 1;
    if (size == 0 || a[i].byte_mask != full || (a[i].offset % kLineBytes) + size > kLineBytes)
      return false;
    // (Differences, not sums: offsets near 2^64 must not wrap into "ascending".)
    if (i > 0 && (a[i].dest != a[0].dest || a[i].lane <= a[i - 1].lane ||
                  a[i].offset < a[i - 1].offset || a[i].offset - a[i - 1].offset < a[i - 1].size))
      return false;
    if (i > 0) contiguous &= size == a[0].size && a[i].offset - a[i - 1].offset == size;
  }
  const size_t first = out.size();
  if (contiguous && n > 0) {  // runs of whole accesses, line by line
    const unsigned size = a[0].size;
    for (size_t i = 0; i < n;) {
      const uint64_t line = a[i].offset & ~uint64_t(kLineBytes - 1);
      const unsigned in_line = unsigned(a[i].offset - line);
      // Accesses lie inside lines (checked above), so the run fills its line up to the end.
      const size_t count = std::min<size_t>(n - i, (kLineBytes - in_line) / size);
      out.emplace_back();
      LineRequest& r = out.back();
      r.dest = a[i].dest;
      r.line = line;
      r.first_lane = a[i].lane;
      copy_access_run(r.data.data() + in_line, a + i, count, size);
      r.bytes.set_range(in_line, unsigned(count) * size);
      for (size_t k = i; k < i + count; ++k) r.lane_mask |= uint32_t(1) << a[k].lane;
      r.sector_mask = r.bytes.sectors();
      i += count;
    }
    return true;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint64_t line = a[i].offset & ~uint64_t(kLineBytes - 1);
    if (out.size() == first || out.back().line != line) {
      out.emplace_back();
      out.back().dest = a[i].dest;
      out.back().line = line;
      out.back().first_lane = a[i].lane;
    }
    LineRequest& r = out.back();
    const unsigned in_line = unsigned(a[i].offset - line);
    copy_access_bytes(r.data.data() + in_line, a[i].data.data(), a[i].size);
    r.bytes.set_range(in_line, a[i].size);
    r.lane_mask |= uint32_t(1) << a[i].lane;
  }
  for (size_t i = first; i < out.size(); ++i) out[i].sector_mask = out[i].bytes.sectors();
  return true;
}

}  // namespace

void coalesce(const LaneAccess* accesses, size_t n, LaneGroup group,
              std::vector<LineRequest>& out) {
  if (coalesce_ordered(accesses, n, out)) return;  // no byte written twice: order is moot
  const size_t first = out.size();
  size_t hit = first;  // index of the line the previous segment went to
  auto merge = [&](const LaneAccess& a) {
    unsigned b = 0;
    while (b < a.size) {
      const uint64_t at = a.offset + b;
      const uint64_t line = at & ~uint64_t(kLineBytes - 1);
      const unsigned in_line = unsigned(at - line);
      const unsigned len = std::min<unsigned>(a.size - b, kLineBytes - in_line);
      const uint32_t seg_mask = (a.byte_mask >> b) & (len >= 32 ? ~0u : ((1u << len) - 1));
      if (seg_mask != 0) {
        if (hit >= out.size() || out[hit].line != line || out[hit].dest != a.dest) {
          hit = first;
          while (hit < out.size() && (out[hit].line != line || out[hit].dest != a.dest)) ++hit;
          if (hit == out.size()) {
            out.emplace_back();
            LineRequest& r = out.back();
            r.dest = a.dest;
            r.line = line;
            r.first_lane = a.lane;
          }
        }
        LineRequest& r = out[hit];
        // Runs of written bytes (all of the segment in the common case; sinks split it).
        for (uint32_t m = seg_mask; m;) {
          const unsigned k0 = unsigned(__builtin_ctz(m));
          const uint32_t rest = ~(m >> k0);
          const unsigned n = rest ? unsigned(__builtin_ctz(rest)) : 32 - k0;
          std::memcpy(r.data.data() + in_line + k0, a.data.data() + b + k0, n);
          for (unsigned k = 0; k < n;) {  // set the run's mask bits, 64-bit half by half
            const unsigned at_bit = in_line + k0 + k;
            const unsigned c = std::min(n - k, 64 - (at_bit & 63));
            const uint64_t bits = c >= 64 ? ~uint64_t(0) : ((uint64_t(1) << c) - 1);
            (at_bit < 64 ? r.bytes.lo : r.bytes.hi) |= bits << (at_bit & 63);
            k += c;
          }
          m &= n + k0 >= 32 ? 0u : ~((1u << (n + k0)) - 1);
        }
        r.lane_mask |= uint32_t(1) << a.lane;
        if (a.lane < r.first_lane) r.first_lane = a.lane;
      }
      b += len;
    }
  };
  // Later merges overwrite earlier ones, so accesses are merged in ascending rank. The executor
  // lists them in ascending lane order (no copy, no allocation): then a group's accesses are
  // one run, and the runs are merged in order, each from its highest lane down. Other orders
  // go through an index sorted by rank.
  bool lane_order = true;
  for (size_t i = 1; i < n && lane_order; ++i) lane_order = accesses[i - 1].lane < accesses[i].lane;
  if (lane_order) {
    const unsigned group_mask = ~(group.lanes() - 1u);
    for (size_t begin = 0; begin < n;) {
      size_t end = begin + 1;
      while (end < n && (accesses[end].lane & group_mask) == (accesses[begin].lane & group_mask))
        ++end;
      for (size_t i = end; i-- > begin;) merge(accesses[i]);
      begin = end;
    }
  } else {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return group.rank(accesses[x].lane) < group.rank(accesses[y].lane);
    });
    for (size_t i : order) merge(accesses[i]);
  }
  for (size_t i = first; i < out.size(); ++i) out[i].sector_mask = out[i].bytes.sectors();
  if (out.size() - first > 1) {
    std::sort(out.begin() + ptrdiff_t(first), out.end(),
              [](const LineRequest& x, const LineRequest& y) {
                if (x.dest != y.dest) return x.dest < y.dest;
                return x.line < y.line;
              });
  }
}

}  // namespace stu::golden
