// Accel-Sim `.traceg` reader (docs/trace-formats.md describes the format as read).
#include <bitset>
#include <cstring>
#include <sstream>

#include "stu/workload/trace.h"
#include "workload/input.h"

namespace stu::workload {

const char* to_string(StoreSpace s) {
  switch (s) {
    case StoreSpace::Global:
      return "global";
    case StoreSpace::Shared:
      return "shared";
    case StoreSpace::Local:
      return "local";
    case StoreSpace::Generic:
      return "generic";
  }
  return "?";
}

bool store_space_of(const std::string& opcode, StoreSpace& space) {
  std::string_view base(opcode);
  base = base.substr(0, base.find('.'));
  if (base == "STG")
    space = StoreSpace::Global;
  else if (base == "STS")
    space = StoreSpace::Shared;
  else if (base == "STL")
    space = StoreSpace::Local;
  else if (base == "ST")
    space = StoreSpace::Generic;
  else
    return false;
  return true;
}

void SkipCounts::add(const std::string& opcode, uint64_t n) {
  total += n;
  auto it = by_opcode.find(opcode);
  if (it != by_opcode.end()) {
    it->second += n;
  } else if (by_opcode.size() < kMaxOpcodes) {
    by_opcode.emplace(opcode, n);
  } else {
    by_opcode["(other)"] += n;
  }
}

std::string StoreSource::error_text() const {
  std::string out;
  diags_.format(out, diag_file_);
  return out;
}

void StoreSource::fail(const std::string& file, uint32_t line, std::string message) {
  if (diags_.has_errors()) return;
  diag_file_ = file;
  diags_.error(Loc{line, 0}, std::move(message));
}

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

bool parse_i64(std::string_view t, int64_t& v) {
  bool neg = !t.empty() && t[0] == '-';
  if (neg) t.remove_prefix(1);
  uint64_t u;
  if (!parse_u64(t, 10, u) || u > uint64_t(INT64_MAX) + (neg ? 1 : 0)) return false;
  v = neg ? int64_t(0 - u) : int64_t(u);
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

class TracegSource : public StoreSource {
 public:
  TracegSource(const std::string& path, uint32_t kernel_id)
      : path_(path), lines_(open_bytes(path), kMaxLineBytes) {
    kernel_.id = kernel_id;
  }

  bool next(StoreRecord& r) override {
    if (!ok()) return false;
    std::string_view line;
    while (lines_.next(line)) {
      if (line.empty()) continue;
      if (line[0] == '-') {
        if (in_body_) return error("header line after the first '#' line");
        if (!header(line)) return false;
        continue;
      }
      if (line[0] == '#') {
        if (!in_body_ && !begin_body()) return false;
        if (starts_with(line, "#BEGIN_TB")) {
          if (in_tb_) return error("'#BEGIN_TB' before the previous '#END_TB'");
          in_tb_ = true;
          have_warp_ = false;
        } else if (starts_with(line, "#END_TB")) {
          if (!in_tb_) return error("'#END_TB' without '#BEGIN_TB'");
          if (!check_warp_count()) return false;
          in_tb_ = false;
          have_warp_ = false;
        }
        continue;  // `#traces format = ...` and other comments
      }
      if (!in_body_ && !begin_body()) return false;
      if (starts_with(line, "thread block")) {
        if (!in_tb_) return error("'thread block' outside '#BEGIN_TB' ... '#END_TB'");
        if (!parse_dim3(value_of(line), cta_)) return error("expected 'thread block = X,Y,Z'");
        continue;
      }
      if (starts_with(line, "warp")) {
        if (!in_tb_) return error("'warp' outside '#BEGIN_TB' ... '#END_TB'");
        if (!check_warp_count()) return false;
        if (!parse_u32(value_of(line), warp_)) return error("expected 'warp = N'");
        have_warp_ = true;
        have_insts_ = false;
        continue;
      }
      if (starts_with(line, "insts")) {
        if (!have_warp_) return error("'insts' before 'warp = N'");
        uint64_t n;
        if (!parse_u64(value_of(line), 10, n)) return error("expected 'insts = N'");
        insts_expected_ = n;
        insts_seen_ = 0;
        have_insts_ = true;
        insts_line_ = lines_.line_no();
        continue;
      }
      if (!have_warp_ || !have_insts_)
        return error("instruction line before 'warp = N' and 'insts = N'");
      ++insts_seen_;
      ++instructions_;
      bool is_store = false;
      if (!instruction(line, r, is_store)) return false;
      if (is_store) return true;
    }
    if (!lines_.error().empty()) {
      fail(path_, lines_.line_no(), lines_.error());
      return false;
    }
    if (in_tb_) return error("'#BEGIN_TB' without '#END_TB' at the end of the file");
    return false;
  }

 private:
  bool error(std::string message) {
    fail(path_, lines_.line_no(), std::move(message));
    return false;
  }

  bool check_warp_count() {
    if (have_warp_ && have_insts_ && insts_seen_ != insts_expected_) {
      fail(path_, insts_line_,
           "warp " + std::to_string(warp_) + ": 'insts = " + std::to_string(insts_expected_) +
               "' but " + std::to_string(insts_seen_) + " instruction lines follow");
      return false;
    }
    return true;
  }

  bool begin_body() {
    in_body_ = true;
    uint32_t v = kernel_.tracer_version;
    if (v != 0 && v < 3)
      return error("accelsim tracer version " + std::to_string(v) +
                   " is not supported (versions 3 and 4 are)");
    return true;
  }

  bool header(std::string_view line) {
    std::string_view key = line.substr(
        1, line.find('=') == std::string_view::npos ? std::string_view::npos : line.find('=') - 1);
    while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
    std::string_view v = value_of(line);
    bool good = true;
    uint64_t x = 0;
    if (key == "kernel name")
      kernel_.name = std::string(v);
    else if (key == "kernel id")
      good = parse_u32(v, kernel_.id);
    else if (key == "grid dim")
      good = parse_dim3(v, kernel_.grid);
    else if (key == "block dim")
      good = parse_dim3(v, kernel_.block);
    else if (key == "shmem")
      good = parse_u32(v, kernel_.shmem);
    else if (key == "nregs")
      good = parse_u32(v, kernel_.nregs);
    else if (key == "binary version")
      good = parse_u32(v, kernel_.binary_version);
    else if (key == "cuda stream id")
      good = parse_u64(v, 10, kernel_.stream);
    else if (key == "shmem base_addr")
      good = parse_u64(v, 16, kernel_.shmem_base);
    else if (key == "local mem base_addr")
      good = parse_u64(v, 16, kernel_.local_base);
    else if (key == "nvbit version")
      kernel_.nvbit_version = std::string(v);
    else if (key == "accelsim tracer version") {
      // "4" (the tracer prints a string; older ones "3"); a "4.x" form keeps the major.
      good = parse_u32(v.substr(0, v.find('.')), kernel_.tracer_version);
    } else if (key == "enable lineinfo") {
      good = parse_u64(v, 10, x) && x <= 1;
      kernel_.lineinfo = x == 1;
    }
    // Other `-` lines are passed over: newer tracers add keys.
    if (!good) return error("bad value in header line '" + std::string(line) + "'");
    return true;
  }

  bool instruction(std::string_view line, StoreRecord& r, bool& is_store) {
    Tokens tk(line);
    std::string_view t;
    auto want = [&](const char* what) {
      if (tk.next(t)) return true;
      error(std::string("missing ") + what);
      return false;
    };
    if (kernel_.lineinfo) {
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
    opcode_.assign(t.data(), t.size());
    if (!want("source count")) return false;
    if (!parse_u64(t, 10, n) || n > 32) return error("bad source count '" + std::string(t) + "'");
    for (uint64_t i = 0; i < n; ++i)
      if (!want("source register")) return false;
    uint64_t width;
    if (!want("memory width")) return false;
    if (!parse_u64(t, 10, width) || width > 1024)
      return error("bad memory width '" + std::string(t) + "'");
    StoreSpace space;
    if (!store_space_of(opcode_, space)) {
      // Passed over: its address list (if any) is not checked further.
      skipped_.add(opcode_);
      return true;
    }
    if (width == 0) return error("store '" + opcode_ + "' with memory width 0");
    r.kernel_id = kernel_.id;
    r.cta = cta_;
    r.warp = warp_;
    r.pc = pc;
    r.opcode = opcode_;
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
    // What may follow: the immediate (one integer).
    if (tk.next(t)) {
      int64_t imm;
      if (!parse_i64(t, imm))
        return error("unexpected '" + std::string(t) + "' after the addresses");
      if (tk.next(t)) return error("unexpected '" + std::string(t) + "' after the immediate");
    }
    is_store = true;
    return true;
  }

  static std::string hex32(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return b;
  }

  std::string path_;
  LineReader lines_;
  std::string opcode_;
  std::array<uint32_t, 3> cta_{};
  uint32_t warp_ = 0;
  bool in_body_ = false, in_tb_ = false, have_warp_ = false, have_insts_ = false;
  uint64_t insts_expected_ = 0, insts_seen_ = 0;
  uint32_t insts_line_ = 0;
};

}  // namespace

std::unique_ptr<StoreSource> open_traceg(const std::string& path, uint32_t default_kernel_id) {
  return std::make_unique<TracegSource>(path, default_kernel_id);
}

}  // namespace stu::workload
