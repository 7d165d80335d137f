// The correlation suite's one parser (stu/correlate/suite.h), shared by gpu/store_bench.cu and
// `stu correlate`.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "stu/correlate/suite.h"

namespace stu::correlate {
namespace {

TEST(CorrelateSuite, SizesTakePowerOfTwoSuffixes) {
  std::uint64_t v = 0;
  ASSERT_TRUE(parse_size("12", v));
  EXPECT_EQ(v, 12u);
  ASSERT_TRUE(parse_size("8K", v));
  EXPECT_EQ(v, 8192u);
  ASSERT_TRUE(parse_size("16M", v));
  EXPECT_EQ(v, 16777216u);
  ASSERT_TRUE(parse_size("1G", v));
  EXPECT_EQ(v, 1073741824u);
  for (const char* bad : {"", "x", "4T", "-1", "16MB", "M", "99999999999999999999", "17179869184G"})
    EXPECT_FALSE(parse_size(bad, v)) << bad;
}

TEST(CorrelateSuite, LinesCommentsAndParameters) {
  std::vector<std::string> errors;
  const auto s = parse_suite(
      "# a comment\n"
      "\n"
      "a  stream lane=4 footprint=8M   # trailing comment\n"
      "b chain op=st.relaxed.gpu+fence.sc.gpu\n",
      errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "a");
  EXPECT_EQ(s[0].kernel, "stream");
  EXPECT_EQ(s[0].line, 3);
  EXPECT_EQ(s[0].get("lane"), "4");
  EXPECT_EQ(s[0].get("footprint"), "8M");
  EXPECT_EQ(s[0].get("repeat", "1"), "1");
  EXPECT_EQ(s[1].get("op"), "st.relaxed.gpu+fence.sc.gpu");
  EXPECT_EQ(s[1].line, 4);
}

TEST(CorrelateSuite, MalformedLinesAreNamedAndSkipped) {
  std::vector<std::string> errors;
  const auto s = parse_suite(
      "lonely\n"
      "x warp lane=4\n"
      "y stream lane4\n"
      "z stream =4\n"
      "ok shared stride=2\n"
      "ok strided stride=8\n",
      errors);
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0], "1: expected NAME KERNEL key=value...");
  EXPECT_EQ(errors[1],
            "2: unknown kernel 'warp' (stream, strided, chain, shared, async, empty, "
            "readback)");
  EXPECT_EQ(errors[2], "3: expected key=value, got 'lane4'");
  EXPECT_EQ(errors[3], "4: expected key=value, got '=4'");
  EXPECT_EQ(errors[4], "6: 'ok' is defined on line 5 too");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kernel, "shared");
}

TEST(CorrelateSuite, TheCheckedInSuiteParses) {
  std::ifstream f(std::string(STU_SOURCE_DIR) + "/gpu/suite.txt");
  ASSERT_TRUE(f);
  std::stringstream text;
  text << f.rdbuf();
  std::vector<std::string> errors;
  const auto s = parse_suite(text.str(), errors);
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
  EXPECT_GE(s.size(), 40u);
  for (const Experiment& e : s) {
    std::uint64_t v = 0;
    for (const char* key : {"lane", "footprint", "repeat", "stride", "count", "clusters"})
      if (!e.get(key).empty()) EXPECT_TRUE(parse_size(e.get(key), v)) << e.name << " " << key;
  }
}

}  // namespace
}  // namespace stu::correlate
