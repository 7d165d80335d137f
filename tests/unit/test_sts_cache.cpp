// The `.sts` cache statements (docs/sts-format.md, "Caches"): bad values in the `cache` header
// lines are errors at the key that carries them, cache statements and expectations need
// caches, and a failed cache expectation reports every field that differs.
#include <gtest/gtest.h>

#include <string>

#include "stu/diag.h"
#include "stu/sts/sts.h"

namespace {

using stu::Diagnostics;

stu::sts::RunSummary run(const std::string& text, Diagnostics& d) {
  return stu::sts::run(text, {}, d);
}

// "LINE:COL: message" of diagnostic i.
std::string diag(const Diagnostics& d, size_t i) {
  const stu::Diagnostic& x = d.all().at(i);
  return std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col) + ": " + x.message;
}

TEST(StsCache, BadBytesIsAnErrorAtItsKey) {
  Diagnostics d;
  EXPECT_FALSE(run("cache l1 bytes=1000 ways=2\n", d).parsed);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(diag(d, 0),
            "1:10: bad cache configuration: l1 bytes: must be a power of two in 128*ways (256) .. "
            "64 MiB (got 1000)");
}

TEST(StsCache, BadWaysIsAnErrorAtItsKey) {
  Diagnostics d;
  EXPECT_FALSE(run("target sm_100a\ncache l2 bytes=1K ways=3\n", d).parsed);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(diag(d, 0),
            "2:19: bad cache configuration: l2 ways: must be a power of two in 1..64 (got 3)");
}

TEST(StsCache, BadWriteBufferSizeIsAnErrorAtItsKey) {
  Diagnostics d;
  EXPECT_FALSE(run("cache write_buffer entries=65\n", d).parsed);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(diag(d, 0),
            "1:20: bad cache configuration: write_buffer entries: must be 1..64 (got 65)");
}

TEST(StsCache, UnknownLevelIsAnError) {
  Diagnostics d;
  EXPECT_FALSE(run("cache l3 bytes=1K\n", d).parsed);
  EXPECT_EQ(diag(d, 0), "1:7: unknown cache level 'l3' (expected l1, l2 or write_buffer)");
}

TEST(StsCache, CacheLineAfterTheBodyIsAnError) {
  Diagnostics d;
  EXPECT_FALSE(run("alloc global 0x10000, 0x1000\ncache l1 bytes=1K ways=2\n", d).parsed);
  EXPECT_NE(diag(d, 0).find("must come before set-up and stores"), std::string::npos);
}

TEST(StsCache, DrainWithoutCachesIsAnError) {
  Diagnostics d;
  EXPECT_FALSE(run("drain\n", d).parsed);
  EXPECT_EQ(diag(d, 0).rfind("1:1: 'drain' needs caches", 0), 0u);
}

// A fence names its semantics and scope; anything else is an error at the statement, and
// words after it at their column.
TEST(StsCache, FenceMustNameSemanticsAndScope) {
  for (const char* bad : {"fence.sc.foo", "fence.release.gpu", "fence.sc", "fence.", "fence.gpu"}) {
    Diagnostics d;
    EXPECT_FALSE(run(std::string("target sm_100a\n") + bad + "\n", d).parsed) << bad;
    ASSERT_EQ(d.error_count(), 1u) << bad;
    EXPECT_EQ(diag(d, 0), std::string("2:1: expected 'fence.sc.SCOPE' or 'fence.acq_rel.SCOPE' "
                                      "(SCOPE: cta, cluster, gpu, sys), got '") +
                              bad + "'");
  }
  Diagnostics d;
  EXPECT_FALSE(run("fence.sc.gpu; warp=1\n", d).parsed);
  EXPECT_EQ(diag(d, 0), "1:15: unexpected 'warp' at the end of the statement");
}

// Without caches a fence runs and changes nothing: the store's bytes are where it put them.
TEST(StsCache, FenceWithoutCachesChangesNoMemory) {
  Diagnostics d;
  const auto r =
      run("alloc global 0x10000, 0x100\nreg a = 0x10000 + lane * 4\nreg v = lane\nst.global.u32 "
          "[a], v;\n"
          "fence.sc.sys;\nfence.acq_rel.cta\nexpect global 0x10000 u32 x32 = i\n",
          d);
  EXPECT_TRUE(r.parsed);
  EXPECT_EQ(d.error_count(), 0u);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.expectations, 1u);
}

TEST(StsCache, CacheExpectationWithoutCachesIsAnError) {
  Diagnostics d;
  EXPECT_FALSE(run("expect l1 0x10000 absent\n", d).parsed);
  EXPECT_EQ(diag(d, 0).rfind("1:8: 'expect l1' needs caches", 0), 0u);
}

TEST(StsCache, UnknownClassIsAnErrorAtItsKey) {
  Diagnostics d;
  EXPECT_FALSE(run("cache l2 bytes=1K ways=2\nexpect l2 0x10000 class=best\n", d).parsed);
  EXPECT_EQ(diag(d, 0), "2:19: unknown eviction class 'best' (first, normal or last)");
}

TEST(StsCache, UnknownCauseIsAnErrorAtItsKey) {
  Diagnostics d;
  EXPECT_FALSE(run("cache l2 bytes=1K ways=2\nexpect dram_write 0 cause=later\n", d).parsed);
  EXPECT_EQ(diag(d, 0), "2:21: unknown cause 'later' (eviction, write_through or flush)");
}

const char* const kOneStore =
    "cache l2 bytes=1K ways=2\n"
    "alloc global 0x10000, 0x1000\n"
    "reg a = 0x10000 + lane * 4\n"
    "st.global.u32 [a], a;\n"
    "drain\n";

TEST(StsCache, FailedLineExpectationListsEveryField) {
  Diagnostics d;
  const auto s = run(std::string(kOneStore) + "expect l2 0x10000 class=first dirty_lo=5\n", d);
  EXPECT_TRUE(s.parsed);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(diag(d, 0),
            "6:1: expectation failed: l2 0x10000: dirty_lo expected 0x5, actual "
            "0xffffffffffffffff, class expected first, actual normal");
}

TEST(StsCache, PresentLineExpectedAbsentNamesItsSetAndWay) {
  Diagnostics d;
  run(std::string(kOneStore) + "expect l2 0x10000 absent\n", d);
  EXPECT_EQ(diag(d, 0),
            "6:1: expectation failed: l2 0x10000: expected absent, actual present (set 0 way 0)");
}

TEST(StsCache, AddressInsideALineIsARuntimeError) {
  Diagnostics d;
  run(std::string(kOneStore) + "expect l2 0x10004 absent\n", d);
  EXPECT_EQ(diag(d, 0), "6:1: 0x10004 is not a line address (a multiple of 128)");
}

TEST(StsCache, MissingDramWriteIsReported) {
  Diagnostics d;
  run(std::string(kOneStore) + "expect dram_write 0\n", d);
  EXPECT_EQ(diag(d, 0), "6:1: expectation failed: dram_write 0 does not exist (0 DRAM writes)");
}

TEST(StsCache, FlushWritesBackAndPasses) {
  Diagnostics d;
  const auto s = run(std::string(kOneStore) +
                         "flush\nexpect dram_writes 1\n"
                         "expect dram_write 0 addr=0x10000 bytemask_lo=0xFFFFFFFFFFFFFFFF "
                         "bytemask_hi=0xFFFFFFFFFFFFFFFF cause=flush\n",
                     d);
  EXPECT_TRUE(s.ok()) << (d.all().empty() ? "" : diag(d, 0));
}

}  // namespace
