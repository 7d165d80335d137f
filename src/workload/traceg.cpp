// Accel-Sim `.traceg` reader (docs/trace-formats.md describes the format as read).
#include "stu/workload/trace.h"
#include "workload/input.h"
#include "workload/trace_lines.h"

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

const char* to_string(FenceScope s) {
  switch (s) {
    case FenceScope::Cta:
      return "cta";
    case FenceScope::Gpu:
      return "gpu";
    case FenceScope::Sys:
      return "sys";
  }
  return "?";
}

bool fence_scope_of(const std::string& opcode, FenceScope& scope) {
  std::string_view op(opcode);
  if (op.substr(0, op.find('.')) != "MEMBAR") return false;
  // The scope is one of the dotted parts: MEMBAR.SC.GPU, MEMBAR.ALL.CTA, MEMBAR.SYS, MEMBAR.GL.
  bool found = false;
  for (std::size_t at = op.find('.'); at != std::string_view::npos;) {
    const std::size_t next = op.find('.', at + 1);
    const std::string_view part =
        op.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
    if (part == "CTA") {
      scope = FenceScope::Cta, found = true;
    } else if (part == "GPU" || part == "GL") {
      scope = FenceScope::Gpu, found = true;
    } else if (part == "SYS") {
      scope = FenceScope::Sys, found = true;
    }
    at = next;
  }
  return found;
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

using namespace detail;

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
        since_record_ = 0;
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
    const std::string e = check_tracer_version(kernel_);
    return e.empty() || error(e);
  }

  bool header(std::string_view line) {
    std::string err;
    return parse_header_line(line, kernel_, err) || error(err);
  }

  bool instruction(std::string_view line, StoreRecord& r, bool& is_store) {
    std::string err;
    if (!parse_instruction_line(line, kernel_, r, is_store, skipped_, err)) return error(err);
    if (since_record_ < UINT32_MAX) ++since_record_;
    if (!is_store) return true;
    r.issued = since_record_;
    since_record_ = 0;
    r.kernel_id = kernel_.id;
    r.cta = cta_;
    r.warp = warp_;
    return true;
  }

  std::string path_;
  LineReader lines_;
  std::array<uint32_t, 3> cta_{};
  uint32_t warp_ = 0;
  bool in_body_ = false, in_tb_ = false, have_warp_ = false, have_insts_ = false;
  uint64_t insts_expected_ = 0, insts_seen_ = 0;
  uint32_t insts_line_ = 0;
  uint32_t since_record_ = 0;  // instruction lines of the warp since its last record
};

}  // namespace

std::unique_ptr<StoreSource> open_traceg(const std::string& path, uint32_t default_kernel_id) {
  return std::make_unique<TracegSource>(path, default_kernel_id);
}

}  // namespace stu::workload
