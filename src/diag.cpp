#include "stu/diag.h"

#include <cstdio>
#include <iterator>
#include <ostream>

namespace stu {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "?";
}

void Diagnostics::add(Severity s, Loc loc, std::string message) {
  // A hostile input can put a megabyte-long name into a message: keep both ends.
  constexpr size_t kMax = 400;
  if (message.size() > kMax) {
    message = message.substr(0, kMax / 2) + " [...] " + message.substr(message.size() - kMax / 2);
  }
  if (s == Severity::Error) ++errors_;
  if (s == Severity::Warning) ++warnings_;
  diags_.push_back(Diagnostic{s, loc, std::move(message)});
}

void Diagnostics::append(Diagnostics&& other) {
  if (diags_.empty()) {
    diags_ = std::move(other.diags_);
  } else {
    diags_.insert(diags_.end(), std::make_move_iterator(other.diags_.begin()),
                  std::make_move_iterator(other.diags_.end()));
  }
  errors_ += other.errors_;
  warnings_ += other.warnings_;
  other.clear();
}

void Diagnostics::clear() {
  diags_.clear();
  errors_ = warnings_ = 0;
}

void Diagnostics::print(std::ostream& os, const std::string& file) const {
  std::string text;
  format(text, file);
  os << text;
}

void Diagnostics::format(std::string& out, const std::string& file, size_t max_errors) const {
  size_t errors = 0;
  char num[24];
  for (const Diagnostic& d : diags_) {
    if (d.severity == Severity::Error && max_errors && ++errors > max_errors) {
      out += file + ": note: " + std::to_string(errors_ - max_errors) +
             " more errors not shown (--max-errors)\n";
      return;
    }
    out += file;
    if (d.loc.line) {
      out += ':';
      out.append(num, size_t(std::snprintf(num, sizeof num, "%u", d.loc.line)));
      if (d.loc.col) {
        out += ':';
        out.append(num, size_t(std::snprintf(num, sizeof num, "%u", d.loc.col)));
      }
    }
    out += ": ";
    out += to_string(d.severity);
    out += ": ";
    out += d.message;
    out += '\n';
  }
}

}  // namespace stu
