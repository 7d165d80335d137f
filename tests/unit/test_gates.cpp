// The gate table (isa/gates.h) is in Feature order, and docs/check.md lists exactly its rows.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "stu/isa/gates.h"

namespace stu::isa {
namespace {

TEST(Gates, TableIsInFeatureOrder) {
  for (size_t i = 0; i < std::size(kGates); ++i) {
    EXPECT_EQ(static_cast<size_t>(kGates[i].feature), i) << kGates[i].name;
    EXPECT_EQ(&gate(kGates[i].feature), &kGates[i]);
  }
}

TEST(Gates, DocsListEveryGate) {
  std::ifstream in(std::string(STU_SOURCE_DIR) + "/docs/check.md");
  ASSERT_TRUE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string docs = ss.str();
  size_t rows = 0;
  for (size_t at = docs.find("| feature | PTX ISA | target |"); at != std::string::npos;
       at = docs.find('\n', at + 1)) {
    if (docs.compare(at + 1, 2, "| ") != 0 || docs.compare(at + 1, 4, "|---") == 0) {
      if (rows) break;
      continue;
    }
    ++rows;
  }
  EXPECT_EQ(rows, std::size(kGates)) << "docs/check.md gate table rows";
  for (const Gate& g : kGates) {
    std::string row = "| " + std::string(g.name) + " | " + g.ptx.str() + " | " +
                      (g.sm ? "sm_" + std::to_string(g.sm) : std::string("any")) + " |";
    EXPECT_NE(docs.find(row), std::string::npos) << "missing in docs/check.md: " << row;
  }
}

}  // namespace
}  // namespace stu::isa
