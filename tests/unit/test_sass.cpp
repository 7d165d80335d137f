// SASS `ST` (seed 002): the examples of the seed and the address forms.
#include <gtest/gtest.h>

#include "stu/isa/sass.h"

namespace stu::isa {
namespace {

SassSt parse_ok(const std::string& text) {
  Diagnostics d;
  auto s = parse_sass_st(text, d);
  EXPECT_TRUE(s.has_value()) << text << ": " << (d.all().empty() ? "" : d.all()[0].message);
  return s.value_or(SassSt{});
}

TEST(SassSt, SeedExamples) {
  SassSt a = parse_ok("ST.32 [R1 + 20], R3;");
  EXPECT_EQ(a.size, SassSize::B32);
  EXPECT_TRUE(a.has_ra);
  EXPECT_EQ(a.ra, 1);
  EXPECT_EQ(a.imm, 20);
  EXPECT_EQ(a.rb, 3);
  EXPECT_FALSE(a.extended);
  SassSt b = parse_ok("ST.E [R2 + 0x1234], R5;");
  EXPECT_TRUE(b.extended);
  EXPECT_EQ(b.imm, 0x1234);
  EXPECT_EQ(b.size, SassSize::B32);  // default size
  SassSt c = parse_ok("ST.64 [R1 + 24], R4;");
  EXPECT_EQ(bytes_of(c.size), 8u);
  SassSt d = parse_ok("ST.8 [R1 + 24], R4;");
  EXPECT_EQ(bytes_of(d.size), 1u);
}

TEST(SassSt, AbsoluteAndRzAddresses) {
  SassSt a = parse_ok("ST [0x100], R2;");
  EXPECT_FALSE(a.has_ra);
  EXPECT_TRUE(a.absolute());
  EXPECT_EQ(a.imm, 0x100);
  SassSt b = parse_ok("ST [RZ + 0x40], R2;");
  EXPECT_TRUE(b.absolute());
  SassSt c = parse_ok("ST.E.CG.128 [R2 - 16], R4, !P1;");
  EXPECT_EQ(c.imm, -16);
  EXPECT_EQ(c.cop, SassCop::CG);
  EXPECT_TRUE(c.plg_written);
  EXPECT_TRUE(c.plg.negated);
  EXPECT_EQ(c.plg.index, 1);
  SassSt d = parse_ok("@!P0 ST.U16 [R6 + -2], R7 &req_6 &rd1 ?sched;");
  ASSERT_TRUE(d.guard.has_value());
  EXPECT_TRUE(d.guard->negated);
  EXPECT_EQ(d.imm, -2);
}

TEST(SassSt, RoundTrip) {
  for (const char* t : {"ST.E.CS.64 [R2+8], R4, P2;", "ST [4096], RZ;", "@P3 ST.S8 [R1-1], R9;"}) {
    SassSt s = parse_ok(t);
    Diagnostics d;
    auto again = parse_sass_st(print(s), d);
    ASSERT_TRUE(again) << print(s);
    EXPECT_EQ(print(*again), print(s));
  }
}

TEST(SassSt, Errors) {
  const char* bad[] = {"ST.Q [R1], R2;",        "ST [R1 + 0x80000000], R2;",
                       "ST [R1], P2;",          "ST [R300], R2;",
                       "STG [R1], R2;",         "ST [R1, R2;",
                       "ST [0x100000000], R2;", "ST.32.64 [R1], R2;"};
  for (const char* t : bad) {
    Diagnostics d;
    auto s = parse_sass_st(t, d);
    bool rejected = !s || !validate(*s, d);
    EXPECT_TRUE(rejected && d.has_errors()) << t;
  }
  Diagnostics d;
  auto odd = parse_sass_st("ST.64 [R1], R3;", d);
  ASSERT_TRUE(odd);
  EXPECT_FALSE(validate(*odd, d));
  auto e = parse_sass_st("ST.E [R3], R2;", d);
  ASSERT_TRUE(e);
  EXPECT_FALSE(validate(*e, d));
}

}  // namespace
}  // namespace stu::isa
