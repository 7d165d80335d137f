// The .sts runner on hostile input: every input gets diagnostics or a result, never a crash,
// a hang or unbounded memory (the fuzz target fuzz/fuzz_sts.cpp checks the same property).
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <string>

#include "stu/diag.h"
#include "stu/sts/sts.h"

namespace {

using stu::Diagnostics;

stu::sts::RunSummary run(const std::string& text, Diagnostics& d) {
  return stu::sts::run(text, {}, d);
}

TEST(StsHostile, DeepParenthesesAreDiagnosed) {
  Diagnostics d;
  const auto s = run("reg %r = " + std::string(100000, '(') + "1" + std::string(100000, ')'), d);
  EXPECT_FALSE(s.parsed);
  ASSERT_TRUE(d.has_errors());
  EXPECT_NE(d.all()[0].message.find("nested more than"), std::string::npos);
}

TEST(StsHostile, DeepUnaryChainIsDiagnosed) {
  Diagnostics d;
  EXPECT_FALSE(run("symbol s = " + std::string(50000, '-') + "1", d).parsed);
  EXPECT_TRUE(d.has_errors());
}

TEST(StsHostile, OneMegabyteLineOfGarbage) {
  Diagnostics d;
  EXPECT_FALSE(run(std::string(1 << 20, 'x'), d).parsed);
  EXPECT_EQ(d.error_count(), 1u);
}

// st.bulk is valid PTX but the golden model does not execute it: a clear error.
TEST(StsHostile, StBulkIsCheckedButNotExecuted) {
  Diagnostics d;
  EXPECT_FALSE(
      run("target sm_100a\nptx 8.8\nreg %rd1 = 0x1000\nst.bulk [%rd1], 64, 0;\n", d).parsed);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(d.all()[0].message,
            "'st.bulk' is checked but not executed by the golden model (it stores no register "
            "data)");
  EXPECT_EQ(d.all()[0].loc.line, 4u);
}

TEST(StsHostile, HugeRepeatIsRefused) {
  Diagnostics d;
  EXPECT_FALSE(run("alloc global 0x1000, 16\nwrite global 0x1000 u8 x99999999999 = 0\n", d).parsed);
  EXPECT_TRUE(d.has_errors());
}

TEST(StsHostile, WriteOutsideSpaceIsARuntimeError) {
  Diagnostics d;
  const auto s = run("shared 1K\nwrite shared 0x3FF u32 = 1\n", d);
  EXPECT_TRUE(s.parsed);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_NE(d.all().at(0).message.find("outside shared"), std::string::npos);
}

TEST(StsHostile, InconsistentConfigurationIsDiagnosed) {
  Diagnostics d;
  EXPECT_FALSE(run("window local 0x7F0000000000\nreg %r = 1\n", d).parsed);
  ASSERT_TRUE(d.has_errors());
  EXPECT_NE(d.all()[0].message.find("overlap"), std::string::npos);
}

TEST(StsHostile, HeaderCountsAreRangeCheckedBeforeNarrowing) {
  for (const char* text : {"sass_regs 0x100000001\n", "cluster 0x100000002\n", "warps 65537\n"}) {
    Diagnostics d;
    EXPECT_FALSE(run(text, d).parsed) << text;
    EXPECT_TRUE(d.has_errors()) << text;
  }
}

TEST(StsHostile, HugeOrEmptyTmemRectanglesAreErrorsNotCrashes) {
  // Found by review: rows=0 divided by zero, and a lane near 2^64 wrapped past the check.
  for (const char* text : {"expect tmem lane=0 col=0 rows=0 = 1\n",
                           "expect tmem lane=0xFFFFFFFFFFFFFFFF col=0 rows=2 = 1\n",
                           "write tmem lane=0 col=0xFFFFFFFFFFFFFFF0 cols=32 = 1\n",
                           "expect tmem lane=0 col=0 cols=0 = 1\n"}) {
    Diagnostics d;
    const auto s = run(text, d);
    EXPECT_TRUE(s.parsed) << text;
    EXPECT_EQ(s.failed, 1u) << text;
  }
}

TEST(StsHostile, SeededRandomBytesNeverCrash) {
  const unsigned seed = 20261122;
  std::cout << "StsHostile seed " << seed << "\n";
  std::mt19937 rng(seed);
  const std::string alphabet =
      "st.global.u32 [%rd1], %r1;\nreg expect fault lane=all 0x10 (){}=,@#_\n";
  for (int i = 0; i < 300; ++i) {
    std::string text(rng() % 400, ' ');
    for (char& c : text) c = rng() % 4 ? alphabet[rng() % alphabet.size()] : char(rng() % 256);
    Diagnostics d;
    const auto s = run(text, d);
    if (!s.parsed || s.failed) {
      EXPECT_TRUE(d.has_errors()) << "seed " << seed << " input " << i;
    }
  }
}

}  // namespace
