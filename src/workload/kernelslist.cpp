// kernelslist.g: the kernel traces of a workload in launch order, and its host-to-device copies.
#include "stu/workload/trace.h"
#include "workload/input.h"

namespace stu::workload {
namespace {

bool parse_hex(std::string_view t, uint64_t& v) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty() || t.size() > 16) return false;
  v = 0;
  for (char c : t) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return false;
    v = v * 16 + uint64_t(d);
  }
  return true;
}

bool parse_dec(std::string_view t, uint64_t& v) {
  if (t.empty() || t.size() > 19) return false;
  v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool read_kernelslist(const std::string& path, std::vector<KernelListEntry>& out,
                      Diagnostics& diags) {
  size_t errors = diags.error_count();
  LineReader lines(open_bytes(path), 4096);
  std::string dir;
  size_t slash = path.rfind('/');
  if (slash != std::string::npos) dir = path.substr(0, slash + 1);
  std::string_view line;
  while (lines.next(line)) {
    line = trim(line);
    Loc loc{lines.line_no(), 0};
    if (line.empty()) continue;
    if (line.substr(0, 10) == "MemcpyHtoD") {
      // MemcpyHtoD,0xADDRESS,COUNT
      size_t c1 = line.find(','), c2 = c1 == line.npos ? line.npos : line.find(',', c1 + 1);
      KernelListEntry e;
      e.kind = KernelListEntry::Kind::MemcpyHtoD;
      e.line = loc.line;
      if (c2 == line.npos || line.find(',', c2 + 1) != line.npos ||
          !parse_hex(trim(line.substr(c1 + 1, c2 - c1 - 1)), e.address) ||
          !parse_dec(trim(line.substr(c2 + 1)), e.bytes)) {
        diags.error(loc, "expected 'MemcpyHtoD,0xADDRESS,BYTES'");
        continue;
      }
      out.push_back(e);
    } else if (line.substr(0, 6) == "kernel") {
      KernelListEntry e;
      e.line = loc.line;
      std::string name(line);
      e.path = name[0] == '/' ? name : dir + name;
      out.push_back(std::move(e));
    }
    // Anything else (MemcpyDtoH, ...) is passed over, as Accel-Sim does.
  }
  if (!lines.error().empty()) diags.error(Loc{lines.line_no(), 0}, lines.error());
  return diags.error_count() == errors;
}

namespace {

class KernelListSource : public StoreSource {
 public:
  explicit KernelListSource(const std::string& path) {
    if (!read_kernelslist(path, entries_, diags_)) diag_file_ = path;
  }
  bool next(StoreRecord& r) override {
    while (ok()) {
      if (cur_ && cur_->next(r)) {
        instructions_ = done_insts_ + cur_->instructions();
        kernel_ = cur_->kernel();
        return true;
      }
      if (cur_) {
        kernel_ = cur_->kernel();
        done_insts_ += cur_->instructions();
        instructions_ = done_insts_;
        for (const auto& [op, n] : cur_->skipped().by_opcode) skipped_.add(op, n);
        if (!cur_->ok()) {
          diags_ = cur_->diagnostics();
          diag_file_ = cur_file_;
          cur_.reset();
          return false;
        }
        cur_.reset();
      }
      while (i_ < entries_.size() && entries_[i_].kind != KernelListEntry::Kind::Kernel) ++i_;
      if (i_ == entries_.size()) return false;
      cur_file_ = entries_[i_].path;
      cur_ = open_trace(cur_file_, ++kernels_);
      ++i_;
    }
    return false;
  }

 private:
  std::vector<KernelListEntry> entries_;
  size_t i_ = 0;
  uint32_t kernels_ = 0;
  uint64_t done_insts_ = 0;
  std::unique_ptr<StoreSource> cur_;
  std::string cur_file_;
};

}  // namespace

std::unique_ptr<StoreSource> open_kernelslist(const std::string& path) {
  return std::make_unique<KernelListSource>(path);
}

}  // namespace stu::workload
