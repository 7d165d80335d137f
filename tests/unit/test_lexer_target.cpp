// The tokenizer (positions, words with `::`, numbers, comments) and the target/version
// value types.
#include <gtest/gtest.h>

#include "stu/isa/lexer.h"
#include "stu/isa/target.h"

namespace stu::isa {
namespace {

TEST(Lexer, WordsKeepDoubleColonsAndDotsAndPositions) {
  Lexer lx("  st.shared::cluster.v4.u32 [%rd1+-8], {%r1,_};\n$L__BB0_1: // c\n");
  Token t = lx.next();
  EXPECT_EQ(t.kind, TokKind::Word);
  EXPECT_EQ(t.text, "st.shared::cluster.v4.u32");
  EXPECT_EQ(t.loc.line, 1u);
  EXPECT_EQ(t.loc.col, 3u);
  EXPECT_TRUE(t.first_on_line);
  EXPECT_TRUE(lx.next().is('['));
  EXPECT_EQ(lx.next().text, "%rd1");
  EXPECT_TRUE(lx.next().is('+'));
  EXPECT_TRUE(lx.next().is('-'));
  Token n = lx.next();
  EXPECT_EQ(n.kind, TokKind::Number);
  EXPECT_EQ(n.text, "8");
  EXPECT_FALSE(n.first_on_line);
  for (int i = 0; i < 7; ++i) lx.next();  // ] , { %r1 , _ }
  EXPECT_TRUE(lx.next().is(';'));
  Token label = lx.next();
  EXPECT_EQ(label.text, "$L__BB0_1");
  EXPECT_EQ(label.loc.line, 2u);
  EXPECT_TRUE(lx.next().is(':'));  // a single ':' ends a word
  EXPECT_EQ(lx.next().kind, TokKind::End);
}

TEST(Lexer, NumbersCommentsAndGarbage) {
  Lexer lx("0x1F 0f3F800000 1.5e+3 /* multi\nline */ 42 \x01 \"str\"");
  EXPECT_EQ(lx.next().text, "0x1F");
  EXPECT_EQ(lx.next().text, "0f3F800000");
  EXPECT_EQ(lx.next().text, "1.5e+3");
  Token after = lx.next();
  EXPECT_EQ(after.text, "42");
  EXPECT_EQ(after.loc.line, 2u);
  EXPECT_EQ(lx.next().kind, TokKind::Invalid);
  EXPECT_EQ(lx.next().kind, TokKind::String);
  // Punctuation carries its character; no other token matches is().
  Lexer p("[ a ]");
  Token lb = p.next();
  EXPECT_TRUE(lb.is('['));
  EXPECT_EQ(lb.kind, TokKind::Punct);
  EXPECT_FALSE(p.next().is('a'));
  EXPECT_TRUE(p.next().is(']'));
  EXPECT_FALSE(p.next().is('\0'));  // End
  Lexer open("a /* never closed");
  open.next();
  EXPECT_EQ(open.next().kind, TokKind::End);
  EXPECT_TRUE(open.saw_unterminated_comment());
}

TEST(Lexer, IntegerLiterals) {
  uint64_t v = 0;
  EXPECT_TRUE(parse_int_literal("0x10", v));
  EXPECT_EQ(v, 16u);
  EXPECT_TRUE(parse_int_literal("017", v));
  EXPECT_EQ(v, 15u);
  EXPECT_TRUE(parse_int_literal("0b101", v));
  EXPECT_EQ(v, 5u);
  EXPECT_TRUE(parse_int_literal("42U", v));
  EXPECT_EQ(v, 42u);
  EXPECT_FALSE(parse_int_literal("0x", v));
  EXPECT_FALSE(parse_int_literal("12a", v));
  EXPECT_FALSE(parse_int_literal("0x1ffffffffffffffff", v));
  bool overflow = false;
  EXPECT_TRUE(parse_int_literal_wrapping("0x1ffffffffffffffff", v, overflow));
  EXPECT_TRUE(overflow);
  EXPECT_EQ(v, 0xffffffffffffffffull);
}

TEST(Target, ParseAndFamilies) {
  auto t = Target::parse("sm_100a");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sm, 100u);
  EXPECT_EQ(t->suffix, Target::Suffix::Arch);
  EXPECT_EQ(t->str(), "sm_100a");
  EXPECT_TRUE(t->has_arch_specific(100));
  EXPECT_FALSE(t->has_arch_specific(103));
  auto f = Target::parse("sm_103f");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->has_family_specific(100));  // sm_103f is in the sm_100f family
  EXPECT_FALSE(f->has_family_specific(110));
  EXPECT_FALSE(Target::parse("sm_").has_value());
  EXPECT_FALSE(Target::parse("compute_90").has_value());
  EXPECT_FALSE(Target::parse("sm_9x").has_value());
  EXPECT_EQ(Target::parse("sm_90a")->min_version(), ptx(8, 0));
  EXPECT_EQ(Target::parse("sm_100f")->min_version(), ptx(8, 8));
  EXPECT_FALSE(Target::parse("sm_999")->known());
}

TEST(PtxVersion, ParseAndOrder) {
  auto v = PtxVersion::parse("8.8");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->str(), "8.8");
  EXPECT_TRUE(ptx(8, 7) < ptx(8, 8));
  EXPECT_TRUE(ptx(9, 0) >= ptx(8, 8));
  EXPECT_FALSE(PtxVersion::parse("8").has_value());
  EXPECT_FALSE(PtxVersion::parse("8.").has_value());
  EXPECT_FALSE(PtxVersion::parse("8.x").has_value());
  EXPECT_FALSE(PtxVersion::parse("99.1").has_value());
}

}  // namespace
}  // namespace stu::isa
