// Constant expressions in address offsets and immediates. Every value below is the one
// ptxas 13.0 gives: each expression E was written as `st.global.u32 [%rd2+E], %r1;` and the
// cubin compared byte for byte with the one for the literal listed here (sm_90, PTX 8.6).
// Every error case is one ptxas rejects (or, for -2^63 / -1, one it crashes on).
#include <gtest/gtest.h>

#include "stu/isa/const_expr.h"
#include "stu/isa/parser.h"
#include "stu/isa/printer.h"

namespace stu::isa {
namespace {

struct ValueCase {
  const char* expr;
  int64_t value;
};

// The offset stu stores for `st.global.u32 [%rd2+EXPR], %r1;`.
TEST(ConstExpr, OffsetsHaveTheValuesPtxasGives) {
  const ValueCase cases[] = {
      {"(4)", 4},
      {"4*2", 8},
      {"(2+2)", 4},
      {"-4", -4},
      {"(-4)", -4},
      {"(1<<4)", 16},
      {"0x10/2", 8},
      {"~3", -4},
      {"(4 % 3)", 1},
      {"(8&12|1^3)", 10},
      {"(4>=4)", 1},
      {"(1?4:8)", 4},
      {"(1&&0)", 0},
      {"!0", 1},
      {"0b100", 4},
      {"010", 8},
      {"4U", 4},
      {"4-2-1", 1},
      {"(-8/3)", -2},                       // signed division truncates
      {"0xffffffffffffffff/2", INT64_MAX},  // a literal above INT64_MAX is unsigned
      {"(-1>>1)", -1},                      // arithmetic shift of a signed value
      {"(-1)/2", 0},
      {"(1<<64)", 1},  // the shift count is taken modulo 64
      {"(1<<65)", 2},
      {"(1<<-1)", INT64_MIN},
      {"(-1<0)", 1},
      {"(-1<0U)", 0},  // compared unsigned
      {"(0xffffffffffffffff>>60)", 15},
      {"(9223372036854775808>>60)", 8},
      {"0x8000000000000000/-1", 0},  // unsigned division
      {"(-8)/(3U)", 6148914691236517202},
      {"(-1>>65)", -1},
      {"(-9223372036854775807-1)% -1", INT64_MIN},  // '%' is unsigned in ptxas 13.0
      {"(-8)% (3)", 2},
      {"(8)% (-3)", 8},
      {"(18446744073709551617 > -1)", 1},  // wraps to 1, a signed value
      {"((1?-1:0U) >> 63)", -1},           // ?: keeps the chosen operand's type
      {"(-(1U) >> 63)", 1},
      {"(1U - 2 >> 63)", 1},
      {"(-9223372036854775808 >> 63)", 1},
      {"(0x7fffffffffffffff + 1 >> 63)", -1},
      {"1+2<<1", 6},  // C precedence
      {"(8>>1+1)", 2},
      {"(~1+1)", -1},
      {"(1|2^3&4)", 3},
      {"(3&5==5)", 1},
      {"(0?2:0?3:4)", 4},  // ?: is right-associative
      {"(0||2&&0)", 0},
      {"(64/4/2)", 8},
      {"(!!5)", 1},
      {"(- -4)", 4},
      {"0xffffffffffffffff*2", -2},
  };
  for (const ValueCase& c : cases) {
    std::string text = std::string("st.global.u32 [%rd2+") + c.expr + "], %r1;";
    Diagnostics d;
    auto ins = parse_instruction(text, d);
    ASSERT_TRUE(ins.has_value()) << text;
    EXPECT_EQ(d.error_count(), 0u) << text;
    EXPECT_EQ(ins->addr.offset, c.value) << text;
    EXPECT_TRUE(ins->addr.has_offset);
    // The canonical form prints the value, which parses back to the same instruction.
    Diagnostics d2;
    auto again = parse_instruction(print(*ins), d2);
    ASSERT_TRUE(again.has_value()) << print(*ins);
    EXPECT_TRUE(same_instruction(*ins, *again)) << print(*ins);
  }
}

TEST(ConstExpr, ImmediateAddressesSourcesAndAddends) {
  Diagnostics d;
  auto a = parse_instruction("st.local.u32 [-(4*2)], 4*2;", d);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->addr.base, Address::Base::Immediate);
  EXPECT_EQ(a->addr.offset, -8);
  ASSERT_EQ(a->src.size(), 1u);
  EXPECT_EQ(a->src[0].kind, Operand::Kind::Immediate);
  EXPECT_EQ(a->src[0].text, "8");
  auto b = parse_instruction("st.u32 [%rd1], %r1+2*(3+4);", d);
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->src[0].has_addend);
  EXPECT_EQ(b->src[0].addend, 14);
  // A lone literal stays as written, with its sign.
  auto c = parse_instruction("st.v2.f32 [%rd1], {-(1.0), 0x10};", d);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->src[0].text, "-1.0");
  EXPECT_EQ(c->src[1].text, "0x10");
  auto e = parse_instruction("st.u32 [%rd1], -1?~0:1;", d);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->src[0].text, "-1");
  EXPECT_EQ(d.error_count(), 0u);
  EXPECT_EQ(d.warning_count(), 0u);
}

struct BadCase {
  const char* text;
  uint32_t col;
  const char* message;
};

// ptxas 13.0 rejects each of these (its message in the comment).
TEST(ConstExpr, ErrorsHaveColumns) {
  const BadCase cases[] = {
      // Constant expression has division by zero
      {"st.u32 [%rd1+4/0], %r1;", 15, "constant expression has a division by zero"},
      {"st.u32 [%rd1+(0&&(1/0))], %r1;", 20, "constant expression has a division by zero"},
      {"st.u32 [%rd1+(4 % 0)], %r1;", 17, "constant expression has a division by zero"},
      {"st.u32 [%rd1], %r1+4/0;", 21, "constant expression has a division by zero"},
      // ptxas crashed (signal 8)
      {"st.u32 [%rd1+(1<<63)/-1], %r1;", 21,
       "constant expression overflows: the signed division of -2^63 by -1"},
      // Constant overflow
      {"st.u32 [%rd1+99999999999999999999], %r1;", 14,
       "constant overflow: '99999999999999999999' does not fit in 64 bits"},
      {"st.u32 [%rd1+0xfffffffffffffffff], %r1;", 14,
       "constant overflow: '0xfffffffffffffffff' does not fit in 64 bits"},
      {"st.u32 [%rd1], 99999999999999999999;", 16,
       "constant overflow: '99999999999999999999' does not fit in 64 bits"},
      // Integer constant expression expected
      {"st.u32 [%rd1+4.0], %r1;", 14, "an address offset must be an integer constant expression"},
      {"st.u32 [%rd1+!1.0], %r1;", 14, "integer constant expression expected"},
      // Constant expression type mismatch
      {"st.u32 [%rd1+(4/2.0)], %r1;", 16, "constant expression type mismatch"},
      {"st.f32 [%rd1], 0d3FF0000000000000*2;", 34, "constant expression type mismatch"},
      // Parsing error near ...
      {"st.u32 [%rd1+4u], %r1;", 14, "syntax error in constant expression near '4u'"},
      {"st.u32 [%rd1+08], %r1;", 14, "syntax error in constant expression near '08'"},
      {"st.u32 [%rd1+0x], %r1;", 14, "syntax error in constant expression near '0x'"},
      {"st.u32 [%rd1+(1=2)], %r1;", 16, "syntax error in constant expression near '='"},
      {"st.u32 [%rd1+(1?2)], %r1;", 18, "syntax error in constant expression near ')'"},
      {"st.u32 [%rd1+(4], %r1;", 16, "syntax error in constant expression near ']'"},
      {"st.u32 [%rd1+4+], %r1;", 16, "expected an integer address offset, found ']'"},
      {"st.u32 [%rd1+()], %r1;", 15, "expected an integer address offset, found ')'"},
      {"st.u32 [%rd1+4)], %r1;", 15, "expected ']' to close the address, found ')'"},
      {"st.u32 [%rd1+(4 %3)], %r1;", 17, "syntax error in constant expression near '%3'"},
      {"st.u32 [%rd1+(1 < < 2)], %r1;", 19, "expected an integer address offset, found '<'"},
      {"st.u32 [+%rd1], %r1;", 10, "expected an integer address offset, found '%rd1'"},
      {"st.f32 [%rd1], -0f3F800000;", 17, "syntax error in constant expression near '0f3F800000'"},
      {"st.u32 [%rd1], (4)u;", 19, "expected ',' or ';' before 'u'"},
  };
  for (const BadCase& c : cases) {
    Diagnostics d;
    EXPECT_FALSE(parse_instruction(c.text, d).has_value()) << c.text;
    ASSERT_GE(d.error_count(), 1u) << c.text;
    const Diagnostic& first = d.all()[0];
    EXPECT_EQ(first.loc.col, c.col) << c.text << ": " << first.message;
    EXPECT_NE(first.message.find(c.message), std::string::npos) << c.text << ": " << first.message;
  }
}

// Hostile nesting is an error, never a stack overflow.
TEST(ConstExpr, DeepNestingIsDiagnosed) {
  for (const std::string& e : {std::string(100000, '(') + "1" + std::string(100000, ')'),
                               std::string(100000, '-') + "1", std::string(100000, '~') + "1"}) {
    Diagnostics d;
    EXPECT_FALSE(parse_instruction("st.u32 [%rd1+" + e + "], %r1;", d).has_value());
    ASSERT_TRUE(d.has_errors());
    EXPECT_NE(d.all()[0].message.find("nested more than 256 deep"), std::string::npos)
        << d.all()[0].message;
  }
  Diagnostics ok;
  EXPECT_TRUE(
      parse_instruction(
          "st.u32 [%rd1+" + std::string(200, '(') + "1" + std::string(200, ')') + "], %r1;", ok)
          .has_value());
}

// st.bulk: `[a], size, initval` kept as src[0] and src[1]; the canonical form round-trips.
TEST(ConstExpr, StBulkOperands) {
  Diagnostics d;
  auto b = parse_instruction("st.bulk.weak.shared::cta [%r2+8], 8*8, (0);", d);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->op, Opcode::StBulk);
  EXPECT_EQ(b->addr.offset, 8);
  ASSERT_EQ(b->src.size(), 2u);
  EXPECT_EQ(b->src[0].text, "64");
  EXPECT_EQ(b->src[1].text, "0");
  EXPECT_EQ(print(*b), "st.bulk.weak.shared::cta [%r2+8], 64, 0;");
  auto again = parse_instruction(print(*b), d);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(same_instruction(*b, *again));
  EXPECT_EQ(d.error_count(), 0u);
}

// A literal wider than 64 bits that ptxas still accepts wraps, with a warning.
TEST(ConstExpr, WideLiteralsWrapWithAWarning) {
  const ValueCase cases[] = {
      {"18446744073709551616", 0},
      {"0x1ffffffffffffffff", -1},
      {"90000000000000000000", -2233720368547758080},  // 9e19 - 4 * 2^64
  };
  for (const ValueCase& c : cases) {
    std::string text = std::string("st.u32 [%rd2+") + c.expr + "], %r1;";
    Diagnostics d;
    auto ins = parse_instruction(text, d);
    ASSERT_TRUE(ins.has_value()) << text;
    EXPECT_EQ(d.warning_count(), 1u) << text;
    EXPECT_EQ(ins->addr.offset, c.value) << text;
  }
}

}  // namespace
}  // namespace stu::isa
