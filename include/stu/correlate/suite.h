// The correlation suite (gpu/suite.txt): store microbenchmarks defined once and run two ways,
// on a GPU by gpu/store_bench.cu and on the TLM model by `stu correlate` (docs/correlate.md).
// Header-only and standard C++17 alone, so that nvcc compiles it into the CUDA program too.
//
// One experiment a line: NAME KERNEL key=value... ('#' starts a comment). Sizes take K/M/G
// suffixes (powers of two).
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace stu::correlate {

struct Experiment {
  std::string name;
  std::string kernel;  // stream, strided, chain, shared, async, empty
  std::map<std::string, std::string> params;
  int line = 0;

  // The parameter's text, or `fallback` when it is absent.
  std::string get(const std::string& key, const std::string& fallback = "") const {
    const auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
  }
};

// "16M" -> 16 << 20; false for anything but digits and an optional K, M or G.
inline bool parse_size(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (v > (~std::uint64_t(0) - 9) / 10) return false;
    v = v * 10 + std::uint64_t(text[i] - '0');
  }
  const std::string suffix = text.substr(i);
  unsigned shift = 0;
  if (suffix == "K") {
    shift = 10;
  } else if (suffix == "M") {
    shift = 20;
  } else if (suffix == "G") {
    shift = 30;
  } else if (!suffix.empty()) {
    return false;
  }
  if (shift && v > (~std::uint64_t(0) >> shift)) return false;
  out = v << shift;
  return true;
}

// The experiments of a suite's text; each malformed line adds "LINE: message" to `errors`.
inline std::vector<Experiment> parse_suite(const std::string& text,
                                           std::vector<std::string>& errors) {
  static const char* const kKernels[] = {"stream", "strided", "chain",   "shared",
                                         "async",  "empty",   "readback"};
  std::vector<Experiment> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    Experiment e;
    e.line = n;
    if (!(words >> e.name)) continue;
    if (!(words >> e.kernel)) {
      errors.push_back(std::to_string(n) + ": expected NAME KERNEL key=value...");
      continue;
    }
    bool known = false;
    for (const char* k : kKernels) known = known || e.kernel == k;
    if (!known) {
      errors.push_back(std::to_string(n) + ": unknown kernel '" + e.kernel +
                       "' (stream, strided, chain, shared, async, empty, readback)");
      continue;
    }
    bool ok = true;
    for (std::string kv; words >> kv;) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        errors.push_back(std::to_string(n) + ": expected key=value, got '" + kv + "'");
        ok = false;
        break;
      }
      e.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (const auto& prev : out)
      if (ok && prev.name == e.name) {
        errors.push_back(std::to_string(n) + ": '" + e.name + "' is defined on line " +
                         std::to_string(prev.line) + " too");
        ok = false;
      }
    if (ok) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace stu::correlate
