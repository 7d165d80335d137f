// Accel-Sim trace text shared by the .traceg and .tracez readers.
#include "workload/trace_lines.h"

#include <bitset>
#include <cstdio>

namespace stu::workload::detail {
namespace {

// Whitespace-separated tokens of one line.
class Tokens {
 public:
  explicit Tokens(std::string_view s) : s_(s) {}
  bool next(std::string_view& t) {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    if (i_ == s_.size()) return false;
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '\t') ++i_;
    t = s_.substr(b, i_ - b);
    return true;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

bool parse_i64(std::string_view t, int64_t& v) {
  bool neg = !t.empty() && t[0] == '-';
  if (neg) t.remove_prefix(1);
  uint64_t u;
  if (!parse_u64(t, 10, u) || u > uint64_t(INT64_MAX) + (neg ? 1 : 0)) return false;
  v = neg ? int64_t(0 - u) : int64_t(u);
  return true;
}

}  // namespace

// Unsigned number in `base` (an optional 0x before hex), all of `t`, no overflow.
bool parse_u64(std::string_view t, int base, uint64_t& v) {
  if (base == 16 && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty() || t.size() > 20) return false;
  uint64_t x = 0;
  for (char c : t) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = unsigned(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = unsigned(c - 'A' + 10);
    else
      return false;
    if (x > (UINT64_MAX - d) / uint64_t(base)) return false;
    x = x * uint64_t(base) + d;
  }
  v = x;
  return true;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `KEY = VALUE` header value: what follows the first '=' (leading blanks dropped).
std::string_view value_of(std::string_view line) {
  size_t eq = line.find('=');
  if (eq == std::string_view::npos) return {};
  std::string_view v = line.substr(eq + 1);
  while (!v.empty() && v[0] == ' ') v.remove_prefix(1);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  return v;
}

// `(x,y,z)` or `x,y,z`.
bool parse_dim3(std::string_view v, std::array<uint32_t, 3>& d) {
  if (!v.empty() && v.front() == '(' && v.back() == ')') v = v.substr(1, v.size() - 2);
  for (int i = 0; i < 3; ++i) {
    size_t comma = i < 2 ? v.find(',') : v.size();
    if (comma == std::string_view::npos) return false;
    std::string_view t = v.substr(0, comma);
    while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    uint64_t x;
    if (!parse_u64(t, 10, x) || x > UINT32_MAX) return false;
    d[size_t(i)] = uint32_t(x);
    v = i < 2 ? v.substr(comma + 1) : std::string_view{};
  }
  return true;
}

bool parse_u32(std::string_view v, uint32_t& out) {
  uint64_t x;
  if (!parse_u64(v, 10, x) || x > UINT32_MAX) return false;
  out = uint32_t(x);
  return true;
}

std::string check_tracer_version(const KernelInfo& k) {
  const uint32_t v = k.tracer_version;
  if (v != 0 && (v < 3 || v > 6))
    return "accelsim tracer version " + std::to_string(v) +
           " is not supported (versions 3 to 6 are)";
  return {};
}

bool parse_header_line(std::string_view line, KernelInfo& k, std::string& err) {
  std::string_view key = line.substr(
      1, line.find('=') == std::string_view::npos ? std::string_view::npos : line.find('=') - 1);
  while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
  std::string_view v = value_of(line);
  bool good = true;
  uint64_t x = 0;
  if (key == "kernel name")
    k.name = std::string(v);
  else if (key == "kernel id")
    good = parse_u32(v, k.id);
  else if (key == "grid dim")
    good = parse_dim3(v, k.grid);
  else if (key == "block dim")
    good = parse_dim3(v, k.block);
  else if (key == "shmem")
    good = parse_u32(v, k.shmem);
  else if (key == "nregs")
    good = parse_u32(v, k.nregs);
  else if (key == "binary version")
    good = parse_u32(v, k.binary_version);
  else if (key == "cuda stream id")
    good = parse_u64(v, 10, k.stream);
  else if (key == "shmem base_addr")
    good = parse_u64(v, 16, k.shmem_base);
  else if (key == "local mem base_addr")
    good = parse_u64(v, 16, k.local_base);
  else if (key == "nvbit version")
    k.nvbit_version = std::string(v);
  else if (key == "accelsim tracer version") {
    // "4" (the tracer prints a string; older ones "3"); a "4.x" form keeps the major.
    good = parse_u32(v.substr(0, v.find('.')), k.tracer_version);
  } else if (key == "enable lineinfo") {
    good = parse_u64(v, 10, x) && x <= 1;
    k.lineinfo = x == 1;
  }
  // Other `-` lines are passed over: newer tracers add keys.
  if (!good) err = "bad value in header line '" + std::string(line) + "'";
  return good;
}

bool parse_instruction_line(std::string_view line, const KernelInfo& k, StoreRecord& r,
                            bool& is_store, SkipCounts& skipped, std::string& err) {
  auto error = [&err](std::string message) {
    err = std::move(message);
    return false;
  };
  Tokens tk(line);
  std::string_view t;
  auto want = [&](const char* what) {
    if (tk.next(t)) return true;
    error(std::string("missing ") + what);
    return false;
  };
  if (k.lineinfo) {
    uint64_t ln;
    if (!want("line number") || !parse_u64(t, 10, ln))
      return error("bad line number '" + std::string(t) + "'");
  }
  uint64_t pc, mask, n;
  if (!want("PC")) return false;
  if (!parse_u64(t, 16, pc)) return error("bad PC '" + std::string(t) + "'");
  if (!want("active mask")) return false;
  if (!parse_u64(t, 16, mask) || mask > UINT32_MAX)
    return error("bad active mask '" + std::string(t) + "'");
  if (!want("destination count")) return false;
  if (!parse_u64(t, 10, n) || n > 32)
    return error("bad destination count '" + std::string(t) + "'");
  for (uint64_t i = 0; i < n; ++i)
    if (!want("destination register")) return false;
  if (!want("opcode")) return false;
  r.opcode.assign(t.data(), t.size());
  if (!want("source count")) return false;
  if (!parse_u64(t, 10, n) || n > 32) return error("bad source count '" + std::string(t) + "'");
  for (uint64_t i = 0; i < n; ++i)
    if (!want("source register")) return false;
  uint64_t width;
  if (!want("memory width")) return false;
  if (!parse_u64(t, 10, width) || width > 1024)
    return error("bad memory width '" + std::string(t) + "'");
  FenceScope scope;
  if (fence_scope_of(r.opcode, scope)) {  // MEMBAR: a fence record (no addresses)
    r.kind = RecordKind::Fence;
    r.scope = scope;
    r.pc = pc;
    r.space = StoreSpace::Global;
    r.mask = uint32_t(mask);
    r.width = 0;
    r.addr.fill(0);
    is_store = true;
    return true;
  }
  StoreSpace space;
  if (!store_space_of(r.opcode, space)) {
    // Passed over: its address list (if any) is not checked further.
    skipped.add(r.opcode);
    return true;
  }
  if (width == 0) return error("store '" + r.opcode + "' with memory width 0");
  r.kind = RecordKind::Store;
  r.pc = pc;
  r.space = space;
  r.mask = uint32_t(mask);
  r.width = uint32_t(width);
  r.addr.fill(0);
  const std::bitset<32> m(mask);
  uint64_t mode;
  if (!want("address compression mode")) return false;
  if (!parse_u64(t, 10, mode) || mode > 2)
    return error("bad address compression mode '" + std::string(t) + "' (0, 1 or 2)");
  if (mode == 0) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!m.test(l)) continue;
      if (!want("address")) return false;
      if (!parse_u64(t, 16, r.addr[l])) return error("bad address '" + std::string(t) + "'");
    }
  } else {
    uint64_t base;
    if (!want("base address")) return false;
    if (!parse_u64(t, 16, base)) return error("bad base address '" + std::string(t) + "'");
    if (mode == 1) {
      int64_t stride;
      if (!want("stride")) return false;
      if (!parse_i64(t, stride)) return error("bad stride '" + std::string(t) + "'");
      // The tracer writes base+stride only for one run of contiguous active lanes.
      unsigned first = 0;
      while (first < kWarpSize && !m.test(first)) ++first;
      unsigned end = first;
      while (end < kWarpSize && m.test(end)) ++end;
      bool contiguous = mask == 0 || end == kWarpSize || (mask >> end) == 0;
      if (!contiguous)
        return error("base+stride addresses need one run of contiguous active lanes (mask " +
                     hex32(uint32_t(mask)) + ")");
      for (unsigned l = first; l < end; ++l)
        r.addr[l] = base + uint64_t(stride) * uint64_t(l - first);
    } else {
      uint64_t a = base;
      bool first = true;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!m.test(l)) continue;
        if (!first) {
          int64_t d;
          if (!want("address delta")) return false;
          if (!parse_i64(t, d)) return error("bad address delta '" + std::string(t) + "'");
          a += uint64_t(d);
        }
        first = false;
        r.addr[l] = a;
      }
    }
  }
  // What may follow: the immediate (one integer); from version 6 a second immediate and
  // `NoVal`, or `Val` and the registers' values (passed over).
  is_store = true;
  if (!tk.next(t)) return true;
  int64_t imm;
  if (!parse_i64(t, imm)) return error("unexpected '" + std::string(t) + "' after the addresses");
  if (!tk.next(t)) return true;
  if (k.tracer_version < 6) return error("unexpected '" + std::string(t) + "' after the immediate");
  if (parse_i64(t, imm) && !tk.next(t)) return true;
  if (t == "Val") return true;
  if (t == "NoVal" && !tk.next(t)) return true;
  return error("unexpected '" + std::string(t) + "' after the immediates (expected Val or NoVal)");
}

}  // namespace stu::workload::detail
