// Functional coverage of the cosimulation (docs/verification.md): what the stimulus and the
// DUT's outputs reached, counted in C++ while a block runs (Verilator 5.006 has `cover property`
// but no covergroups).
//
// A coverage model is a list of points. A point has named bins, declared before any is
// counted, so that a bin never hit is a hole the report can name. A bin is legal (it counts
// toward the goal) or illegal: declared impossible, with the reason; hitting an illegal bin is
// a finding. A cross is a point whose bins are the pairs of two points' bins.
//
// The counts of many runs (seeds, blocks, shards on a farm) merge by adding: `stu cosim
// --coverage FILE` writes one model's counts, `stu coverage FILE...` merges and reports.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stu::tb {

class CoverPoint {
 public:
  const std::string& name() const { return name_; }
  size_t size() const { return bins_.size(); }
  const std::string& bin_name(size_t i) const { return bins_[i]; }
  // "" when the bin is legal; else why it cannot happen.
  const std::string& illegal(size_t i) const { return illegal_[i]; }
  uint64_t count(size_t i) const { return counts_[i]; }
  // The index of a bin by name (size() when there is none).
  size_t find(std::string_view bin) const;

  void hit(size_t bin, uint64_t n = 1) { counts_[bin] += n; }
  void mark_illegal(size_t bin, std::string reason) { illegal_[bin] = std::move(reason); }

 private:
  friend class Coverage;
  std::string name_;
  std::vector<std::string> bins_;
  std::vector<std::string> illegal_;
  std::vector<uint64_t> counts_;
};

// A cross with its two points: hit(i, j) counts the pair and each point's bin.
struct Crossed {
  CoverPoint* a = nullptr;
  CoverPoint* b = nullptr;
  CoverPoint* ab = nullptr;
  size_t index(size_t i, size_t j) const { return i * b->size() + j; }
  void hit(size_t i, size_t j) {
    a->hit(i);
    b->hit(j);
    ab->hit(index(i, j));
  }
};

class Coverage {
 public:
  // Declares a point (its bins in order). Declaring it again with the same bins returns it.
  CoverPoint& point(const std::string& name, const std::vector<std::string>& bins);
  // The cross of `a` and `b`; `illegal(i, j)` gives the reason a pair cannot happen ("" legal).
  CoverPoint& cross(const std::string& name, const CoverPoint& a, const CoverPoint& b,
                    const std::function<std::string(size_t, size_t)>& illegal = nullptr);
  // The cross and its two points, counted together (Crossed::hit).
  Crossed crossed(const std::string& name, CoverPoint& a, CoverPoint& b,
                  const std::function<std::string(size_t, size_t)>& illegal = nullptr) {
    return Crossed{&a, &b, &cross(name, a, b, illegal)};
  }
  const CoverPoint* find(std::string_view name) const;
  const std::vector<std::unique_ptr<CoverPoint>>& points() const { return points_; }

  // Adds `other`'s counts (declaring its points and bins where missing). False, with the
  // reason, when a bin is legal in one and illegal in the other.
  bool merge(const Coverage& other, std::string& why);

  struct Summary {
    size_t legal = 0;        // legal bins
    size_t hit = 0;          // legal bins hit at least once
    size_t illegal = 0;      // illegal bins declared
    size_t illegal_hit = 0;  // illegal bins hit (findings)
    double percent() const { return legal ? 100.0 * double(hit) / double(legal) : 100.0; }
  };
  Summary summary() const;

  // The file format: a header line, then one tab-separated line per bin:
  //   POINT <TAB> BIN <TAB> COUNT <TAB> REASON   (REASON empty for a legal bin)
  std::string write() const;
  // Reads that format; false with "LINE:COL: message" in `why`.
  static bool read(std::string_view text, Coverage& out, std::string& why);

 private:
  std::vector<std::unique_ptr<CoverPoint>> points_;
};

}  // namespace stu::tb
