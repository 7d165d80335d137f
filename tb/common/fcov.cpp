#include "fcov.h"

#include <charconv>
#include <stdexcept>

namespace stu::tb {

namespace {
constexpr std::string_view kHeader = "# stu functional coverage 1";

bool clean(std::string_view s) {
  return !s.empty() && s.find_first_of("\t\n\r") == std::string_view::npos;
}
}  // namespace

size_t CoverPoint::find(std::string_view bin) const {
  for (size_t i = 0; i < bins_.size(); ++i)
    if (bins_[i] == bin) return i;
  return bins_.size();
}

CoverPoint& Coverage::point(const std::string& name, const std::vector<std::string>& bins) {
  if (!clean(name)) throw std::invalid_argument("coverage point name '" + name + "'");
  for (auto& p : points_) {
    if (p->name_ != name) continue;
    if (p->bins_ != bins)
      throw std::invalid_argument("coverage point '" + name + "' declared with other bins");
    return *p;
  }
  auto p = std::make_unique<CoverPoint>();
  p->name_ = name;
  for (const std::string& b : bins) {
    if (!clean(b)) throw std::invalid_argument("coverage bin '" + b + "' of '" + name + "'");
    if (p->find(b) != p->bins_.size())
      throw std::invalid_argument("coverage bin '" + b + "' twice in '" + name + "'");
    p->bins_.push_back(b);
  }
  p->illegal_.assign(bins.size(), std::string());
  p->counts_.assign(bins.size(), 0);
  points_.push_back(std::move(p));
  return *points_.back();
}

CoverPoint& Coverage::cross(const std::string& name, const CoverPoint& a, const CoverPoint& b,
                            const std::function<std::string(size_t, size_t)>& illegal) {
  std::vector<std::string> bins;
  bins.reserve(a.size() * b.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j) bins.push_back(a.bin_name(i) + "," + b.bin_name(j));
  CoverPoint& p = point(name, bins);
  if (illegal) {
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = 0; j < b.size(); ++j) p.illegal_[i * b.size() + j] = illegal(i, j);
  }
  return p;
}

const CoverPoint* Coverage::find(std::string_view name) const {
  for (const auto& p : points_)
    if (p->name_ == name) return p.get();
  return nullptr;
}

bool Coverage::merge(const Coverage& other, std::string& why) {
  for (const auto& o : other.points_) {
    CoverPoint* mine = nullptr;
    for (auto& p : points_)
      if (p->name_ == o->name_) mine = p.get();
    if (!mine) {
      points_.push_back(std::make_unique<CoverPoint>(*o));
      continue;
    }
    for (size_t i = 0; i < o->size(); ++i) {
      size_t k = mine->find(o->bins_[i]);
      if (k == mine->size()) {
        mine->bins_.push_back(o->bins_[i]);
        mine->illegal_.push_back(o->illegal_[i]);
        mine->counts_.push_back(0);
      } else if (mine->illegal_[k].empty() != o->illegal_[i].empty()) {
        why = "bin '" + o->name_ + "' / '" + o->bins_[i] + "' is legal in one file and illegal " +
              "in the other";
        return false;
      }
      mine->counts_[k] += o->counts_[i];
    }
  }
  return true;
}

Coverage::Summary Coverage::summary() const {
  Summary s;
  for (const auto& p : points_) {
    for (size_t i = 0; i < p->size(); ++i) {
      if (p->illegal_[i].empty()) {
        ++s.legal;
        s.hit += p->counts_[i] > 0;
      } else {
        ++s.illegal;
        s.illegal_hit += p->counts_[i] > 0;
      }
    }
  }
  return s;
}

std::string Coverage::write() const {
  std::string out(kHeader);
  out += '\n';
  for (const auto& p : points_) {
    for (size_t i = 0; i < p->size(); ++i) {
      out += p->name_ + '\t' + p->bins_[i] + '\t' + std::to_string(p->counts_[i]) + '\t' +
             p->illegal_[i] + '\n';
    }
  }
  return out;
}

bool Coverage::read(std::string_view text, Coverage& out, std::string& why) {
  size_t line_no = 0;
  bool header = false;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (!header) {
      if (line != kHeader) {
        why = std::to_string(line_no) + ":1: not a stu functional coverage file (expected '" +
              std::string(kHeader) + "')";
        return false;
      }
      header = true;
      continue;
    }
    std::string_view f[4];
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= line.size() && n < 4; ++i) {
      if (i == line.size() || (line[i] == '\t' && n < 3)) {
        f[n++] = line.substr(start, i - start);
        start = i + 1;
      }
    }
    uint64_t count = 0;
    const auto r = std::from_chars(f[2].data(), f[2].data() + f[2].size(), count);
    if (n != 4 || f[0].empty() || f[1].empty() || r.ec != std::errc() ||
        r.ptr != f[2].data() + f[2].size()) {
      why = std::to_string(line_no) + ":1: expected POINT<TAB>BIN<TAB>COUNT<TAB>REASON";
      return false;
    }
    CoverPoint* p = nullptr;
    for (auto& q : out.points_)
      if (q->name_ == f[0]) p = q.get();
    if (!p) {
      out.points_.push_back(std::make_unique<CoverPoint>());
      p = out.points_.back().get();
      p->name_ = std::string(f[0]);
    }
    if (p->find(f[1]) != p->size()) {
      why = std::to_string(line_no) + ":1: bin '" + std::string(f[1]) + "' of '" +
            std::string(f[0]) + "' twice";
      return false;
    }
    p->bins_.emplace_back(f[1]);
    p->illegal_.emplace_back(f[3]);
    p->counts_.push_back(count);
  }
  if (!header) {
    why = "1:1: empty file (expected '" + std::string(kHeader) + "')";
    return false;
  }
  return true;
}

}  // namespace stu::tb
