// Every diagnostic of the store checker has a bad case (tests/unit/data/diagnostics.txt):
// the first error (or warning) on the case's line must contain the expected text.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "check_util.h"

namespace stu::test {
namespace {

struct Case {
  int line = 0;
  std::string target, version, body, kind, part;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<Case> load() {
  std::ifstream in(std::string(STU_SOURCE_DIR) + "/tests/unit/data/diagnostics.txt");
  EXPECT_TRUE(in) << "missing diagnostics.txt";
  std::vector<Case> cases;
  std::string l;
  int n = 0;
  while (std::getline(in, l)) {
    ++n;
    if (trim(l).empty() || trim(l)[0] == '#') continue;
    size_t p1 = l.find(" | "), p2 = l.rfind(" | ");
    if (p1 == std::string::npos || p1 == p2) {
      ADD_FAILURE() << "diagnostics.txt:" << n << ": malformed";
      continue;
    }
    Case c;
    c.line = n;
    std::istringstream head(l.substr(0, p1));
    head >> c.target >> c.version;
    c.body = trim(l.substr(p1 + 3, p2 - p1 - 3));
    std::string want = trim(l.substr(p2 + 3));
    size_t colon = want.find(": ");
    c.kind = colon == std::string::npos ? want : want.substr(0, colon);
    c.part = colon == std::string::npos ? "" : want.substr(colon + 2);
    cases.push_back(c);
  }
  return cases;
}

TEST(Diagnostics, EveryBadCaseGetsItsMessage) {
  size_t errors = 0, warnings = 0, oks = 0;
  for (const Case& c : load()) {
    LineResult r = check_line(c.body, c.target, c.version);
    std::string where = "diagnostics.txt:" + std::to_string(c.line) + ": " + c.body;
    if (c.kind == "error") {
      ++errors;
      EXPECT_GE(r.errors, 1u) << where << " was accepted";
      EXPECT_NE(r.first_error.find(c.part), std::string::npos)
          << where << "\n  got:  " << r.first_error << "\n  want: " << c.part;
    } else if (c.kind == "warning") {
      ++warnings;
      EXPECT_EQ(r.errors, 0u) << where << ": " << r.first_error;
      EXPECT_NE(r.first_warning.find(c.part), std::string::npos)
          << where << "\n  got:  " << r.first_warning << "\n  want: " << c.part;
    } else {
      ++oks;
      EXPECT_EQ(c.kind, "ok") << where;
      EXPECT_EQ(r.errors, 0u) << where << ": " << r.first_error;
    }
  }
  std::cout << "checked " << errors << " error cases, " << warnings << " warning cases, " << oks
            << " accepted cases\n";
  EXPECT_GT(errors, 100u);
}

}  // namespace
}  // namespace stu::test
