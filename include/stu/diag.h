// Diagnostics: gcc-style `FILE:LINE:COL: error: message`, collected (never thrown).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "stu/loc.h"

namespace stu {

enum class Severity : uint8_t { Note, Warning, Error };
std::string_view to_string(Severity s);

struct Diagnostic {
  Severity severity = Severity::Error;
  Loc loc;
  std::string message;
};

// Collects diagnostics in order. Cheap to keep per file.
class Diagnostics {
 public:
  void error(Loc loc, std::string message) { add(Severity::Error, loc, std::move(message)); }
  void warning(Loc loc, std::string message) { add(Severity::Warning, loc, std::move(message)); }
  void note(Loc loc, std::string message) { add(Severity::Note, loc, std::move(message)); }
  void add(Severity s, Loc loc, std::string message);
  // Moves every diagnostic of `other` to the end of this list, in order.
  void append(Diagnostics&& other);

  const std::vector<Diagnostic>& all() const { return diags_; }
  size_t error_count() const { return errors_; }
  size_t warning_count() const { return warnings_; }
  bool has_errors() const { return errors_ != 0; }
  void clear();

  // Print as `file:line:col: severity: message`, one per line.
  void print(std::ostream& os, const std::string& file) const;
  // The same text appended to `out`, at most `max_errors` errors (0: all) with everything
  // before the first one left out, then a note of how many were not shown. Formatting into one
  // buffer lets a caller write thousands of diagnostics with one system call.
  void format(std::string& out, const std::string& file, size_t max_errors = 0) const;

 private:
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
  size_t warnings_ = 0;
};

}  // namespace stu
