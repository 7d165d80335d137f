#include "stu/diag.h"

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

void Diagnostics::clear() {
  diags_.clear();
  errors_ = warnings_ = 0;
}

void Diagnostics::print(std::ostream& os, const std::string& file) const {
  for (const Diagnostic& d : diags_) {
    os << file;
    if (d.loc.line) {
      os << ':' << d.loc.line;
      if (d.loc.col) os << ':' << d.loc.col;
    }
    os << ": " << to_string(d.severity) << ": " << d.message << '\n';
  }
}

}  // namespace stu
