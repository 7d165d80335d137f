// Parser and printer: every example of the seed documents decodes to the fields the ISA text
// gives it, and printing then parsing gives the same instruction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stu/isa/parser.h"
#include "stu/isa/printer.h"

namespace stu::isa {
namespace {

Instruction parse_ok(const std::string& text) {
  Diagnostics d;
  auto ins = parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text;
  for (const auto& x : d.all()) ADD_FAILURE() << text << ": " << x.message;
  return ins.value_or(Instruction{});
}

void expect_round_trip(const Instruction& ins) {
  std::string printed = print(ins);
  Diagnostics d;
  auto again = parse_instruction(printed, d);
  ASSERT_TRUE(again.has_value()) << printed;
  EXPECT_TRUE(same_instruction(ins, *again)) << printed;
  EXPECT_EQ(print(*again), printed);
}

TEST(Parser, GlobalF32Register) {
  Instruction i = parse_ok("st.global.f32 [a], b;");
  EXPECT_EQ(i.op, Opcode::St);
  EXPECT_EQ(i.space, Space::Global);
  EXPECT_EQ(i.type, DataType::F32);
  EXPECT_FALSE(i.sem.has_value());
  EXPECT_EQ(i.effective_sem(), Sem::Weak);
  EXPECT_EQ(i.addr.base, Address::Base::Symbol);
  EXPECT_EQ(i.addr.name, "a");
  EXPECT_FALSE(i.addr.has_offset);
  ASSERT_EQ(i.src.size(), 1u);
  EXPECT_EQ(i.src[0].text, "b");
  expect_round_trip(i);
}

TEST(Parser, RegisterPlusOffsetAndNegativeOffset) {
  Instruction a = parse_ok("st.local.b32 [q+4], a;");
  EXPECT_EQ(a.addr.name, "q");
  EXPECT_EQ(a.addr.offset, 4);
  Instruction b = parse_ok("st.local.b32 [q+-8], a;");
  EXPECT_EQ(b.addr.offset, -8);
  expect_round_trip(b);
  Instruction c = parse_ok("st.global.u32 [%rd1+0x10], %r1;");
  EXPECT_EQ(c.addr.base, Address::Base::Register);
  EXPECT_EQ(c.addr.offset, 16);
}

TEST(Parser, ImmediateAddress) {
  Instruction i = parse_ok("st.local.s32 [100], r7;");
  EXPECT_EQ(i.addr.base, Address::Base::Immediate);
  EXPECT_EQ(i.addr.offset, 100);
  expect_round_trip(i);
}

TEST(Parser, VectorWithSinks) {
  Instruction i = parse_ok(
      "st.global.L2::evict_last.v8.f32 [addr], { %reg0, _, %reg2, %reg3, %reg4, %reg5, %reg6, "
      "%reg7};");
  EXPECT_EQ(i.vec, Vec::V8);
  EXPECT_EQ(i.l2, L2Evict::EvictLast);
  ASSERT_EQ(i.src.size(), 8u);
  EXPECT_EQ(i.src[1].kind, Operand::Kind::Sink);
  EXPECT_EQ(i.src[2].kind, Operand::Kind::Register);
  EXPECT_TRUE(i.src_braced);
  EXPECT_EQ(i.access_bytes(), 32u);
  expect_round_trip(i);
}

TEST(Parser, StrongOrderingQualifiersInAnyOrder) {
  Instruction a = parse_ok("st.global.relaxed.sys.u32 [gbl], %r0;");
  Instruction b = parse_ok("st.relaxed.sys.global.u32 [gbl], %r0;");
  EXPECT_TRUE(same_instruction(a, b));
  EXPECT_EQ(a.sem, Sem::Relaxed);
  EXPECT_EQ(a.scope, Scope::Sys);
  EXPECT_TRUE(a.is_strong());
  Instruction c = parse_ok("st.shared::cta.release.cta.u32 [sh + 4], %r1;");
  EXPECT_EQ(c.space, Space::SharedCta);
  EXPECT_EQ(c.addr.offset, 4);
  Instruction m = parse_ok("st.global.mmio.relaxed.sys.u32 [gbl], %r1;");
  EXPECT_TRUE(m.mmio);
  expect_round_trip(m);
}

TEST(Parser, CacheHintWithPolicyOperand) {
  Instruction i = parse_ok("st.global.L2::cache_hint.b32 [a], b, pol;");
  EXPECT_TRUE(i.cache_hint);
  ASSERT_TRUE(i.policy.has_value());
  EXPECT_EQ(i.policy->text, "pol");
  expect_round_trip(i);
}

TEST(Parser, ParamFuncAndB128AndPredicate) {
  Instruction p = parse_ok("st.param::func.b64 [param1], %rp1;");
  EXPECT_EQ(p.space, Space::ParamFunc);
  Instruction q = parse_ok("@!%p1 st.global.b128 [a], b;");
  EXPECT_EQ(q.type, DataType::B128);
  EXPECT_TRUE(q.guard.present());
  EXPECT_TRUE(q.guard.negated);
  EXPECT_EQ(q.guard.reg, "%p1");
  EXPECT_EQ(q.access_bytes(), 16u);
  expect_round_trip(q);
}

TEST(Parser, StAsyncBothForms) {
  Instruction a =
      parse_ok("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [addr], b, [mbar_addr];");
  EXPECT_EQ(a.op, Opcode::StAsync);
  EXPECT_TRUE(a.complete_tx);
  ASSERT_TRUE(a.mbar.has_value());
  EXPECT_EQ(a.mbar->name, "mbar_addr");
  expect_round_trip(a);
  Instruction b = parse_ok("st.async.sys.release.global.u32 [addr], b;");
  EXPECT_EQ(b.sem, Sem::Release);
  EXPECT_EQ(b.scope, Scope::Sys);
  EXPECT_FALSE(b.mbar.has_value());
  expect_round_trip(b);
}

TEST(Parser, Tcgen05ShapesAndSplitOffset) {
  Instruction a = parse_ok("tcgen05.st.sync.aligned.16x64b.x4.b32 [taddr0], {r0, r1, r2, r3};");
  EXPECT_EQ(a.op, Opcode::Tcgen05St);
  EXPECT_EQ(a.shape, TmemShape::S16x64b);
  EXPECT_EQ(a.num, 4);
  EXPECT_EQ(a.tmem_regs(), 4u);
  Instruction b =
      parse_ok("tcgen05.st.sync.aligned.16x128b.x1.unpack::16b.b32 [taddr1], {r0, r1};");
  EXPECT_TRUE(b.unpack16);
  EXPECT_EQ(b.tmem_regs(), 2u);
  Instruction c = parse_ok("tcgen05.st.sync.aligned.16x32bx2.x2.b32 [t], 64, {r0, r1};");
  ASSERT_TRUE(c.split_off.has_value());
  EXPECT_EQ(c.split_off->value, 64u);
  for (const auto* i : {&a, &b, &c}) expect_round_trip(*i);
}

// immHalfSplitoff is parsed (and checked) once, into its 64-bit two's complement value.
TEST(Parser, SplitOffsetIsParsedOnceIntoAnInteger) {
  Instruction neg = parse_ok("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], -0x20, {r0};");
  ASSERT_TRUE(neg.split_off.has_value());
  EXPECT_EQ(neg.split_off->value, 0xFFFF'FFFF'FFFF'FFE0ull);
  EXPECT_EQ(neg.split_off->as_signed(), -32);
  EXPECT_EQ(neg.split_off->loc.col, 46u);  // the minus sign
  expect_round_trip(neg);
  Instruction big =
      parse_ok("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], 0xffffffffffffffff, {r0};");
  EXPECT_EQ(big.split_off->value, ~uint64_t(0));  // ptxas 13.0 accepts any 64-bit value
  expect_round_trip(big);
  // A constant expression is evaluated (ptxas 13.0 accepts `4+4` and `2*2`), and a literal
  // wider than 64 bits wraps (ptxas accepts 0x1ffffffffffffffff).
  EXPECT_EQ(parse_ok("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], 4+4, {r0};").split_off->value,
            8u);
  EXPECT_EQ(
      parse_ok("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], -(2*2), {r0};").split_off->as_signed(),
      -4);
  stu::Diagnostics wide;
  auto w = parse_instruction(
      "tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], 0x1ffffffffffffffff, {r0};", wide);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->split_off->value, ~uint64_t(0));
  EXPECT_EQ(wide.error_count(), 0u);
  for (const char* bad : {"tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], 1.5, {r0};",
                          "tcgen05.st.sync.aligned.16x32bx2.x1.b32 [t], r2, {r0};"}) {
    stu::Diagnostics d;
    EXPECT_FALSE(parse_instruction(bad, d).has_value()) << bad;
    ASSERT_EQ(d.error_count(), 1u) << bad;
    EXPECT_EQ(d.all()[0].message, "immHalfSplitoff must be an integer immediate") << bad;
  }
}

TEST(Parser, SyntaxErrorsHaveColumns) {
  struct Case {
    const char* text;
    uint32_t col;
    const char* message_part;
  };
  const Case cases[] = {
      {"st.global.u32 [%rd1-4], %r1;", 20, "'+-N'"},
      {"st.global.u32 [%rd1], %r1 %r2;", 27, "expected ',' or ';'"},
      {"st.global.foo.u32 [%rd1], %r1;", 10, "unknown qualifier '.foo'"},
      {"st.global.u32 [%rd1, %r1;", 20, "expected ']'"},
      {"st.global..u32 [%rd1], %r1;", 10, "empty qualifier"},
      {"st.global.v2.u32 [%rd1], {%r1, %r2;", 35, "expected ',' or '}'"},
      {"st.global.v2.u32 [%rd1], {};", 27, "empty vector"},
  };
  for (const Case& c : cases) {
    Diagnostics d;
    EXPECT_FALSE(parse_instruction(c.text, d).has_value()) << c.text;
    ASSERT_GE(d.all().size(), 1u) << c.text;
    EXPECT_EQ(d.all()[0].loc.col, c.col) << c.text << ": " << d.all()[0].message;
    EXPECT_NE(d.all()[0].message.find(c.message_part), std::string::npos)
        << c.text << ": " << d.all()[0].message;
  }
}

TEST(Parser, OperandShapeMismatch) {
  Diagnostics d;
  EXPECT_FALSE(parse_instruction("st.global.u32 %r1, [%rd1];", d).has_value());
  EXPECT_NE(d.all().at(0).message.find("expected [a], b"), std::string::npos);
  Diagnostics d2;
  EXPECT_FALSE(parse_instruction("st.global.u32 [%rd1], %r1, %rd2, %rd3;", d2).has_value());
  Diagnostics d3;
  EXPECT_FALSE(
      parse_instruction("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%r1], {%r2};", d3).has_value());
}

TEST(Parser, StoreOpcodeRecognition) {
  EXPECT_EQ(store_opcode_of("st"), Opcode::St);
  EXPECT_EQ(store_opcode_of("st.global.u32"), Opcode::St);
  EXPECT_EQ(store_opcode_of("st.async.b32"), Opcode::StAsync);
  EXPECT_EQ(store_opcode_of("tcgen05.st.sync"), Opcode::Tcgen05St);
  EXPECT_FALSE(store_opcode_of("stmatrix.sync").has_value());
  EXPECT_FALSE(store_opcode_of("st_x").has_value());
  EXPECT_FALSE(store_opcode_of("tcgen05.ld.sync").has_value());
  EXPECT_FALSE(store_opcode_of("tcgen05.stx").has_value());
  EXPECT_EQ(store_opcode_of("st.bulk.weak.shared::cta"), Opcode::StBulk);  // checked, no data
  EXPECT_EQ(store_opcode_of("st.bulk"), Opcode::StBulk);
  EXPECT_EQ(store_opcode_of("st.bulkx"), Opcode::St);
}

// The opcode cache grows past its first table (a module of every store form spells hundreds of
// opcode words), and a cached word decodes exactly as a fresh one, columns included.
TEST(Parser, OpcodeCacheGrowsAndRebasesColumns) {
  const char* spaces[] = {"global", "shared::cta", "shared::cluster", "local", "param::func"};
  const char* types[] = {"b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                         "u64", "s8",  "s16", "s32", "s64", "f32", "f64"};
  const char* cops[] = {"", ".wb", ".cg", ".cs", ".wt"};
  const char* vecs[] = {"", ".v2", ".v4"};
  std::vector<std::string> words;
  for (const char* sp : spaces)
    for (const char* c : cops)
      for (const char* v : vecs)
        for (const char* t : types) words.push_back(std::string("st.") + sp + c + v + "." + t);
  ASSERT_GT(words.size(), 512u);  // more than the first table holds
  std::string text;
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::string& w : words) text += (pass ? "  " : "") + w + " [a], b;\n";
  }
  OpcodeCache cache;
  Diagnostics d;
  Lexer lx(text);
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::string& w : words) {
      Token op = lx.next();
      ASSERT_EQ(op.text, w);
      Instruction cached;
      ASSERT_TRUE(parse_store(lx, op, Guard{}, cached, d, &cache)) << w;
      auto fresh =
          parse_instruction(std::string(op.loc.col - 1, ' ') + w + " [a], b;", d, op.loc.line);
      ASSERT_TRUE(fresh.has_value()) << w;
      EXPECT_TRUE(same_instruction(cached, *fresh)) << w;
      ASSERT_EQ(cached.quals.size(), fresh->quals.size()) << w;
      for (size_t i = 0; i < cached.quals.size(); ++i) {
        EXPECT_EQ(cached.quals[i].loc.col, fresh->quals[i].loc.col) << w;
      }
    }
  }
  EXPECT_EQ(cache.size(), words.size());
  EXPECT_TRUE(d.all().empty());
}

}  // namespace
}  // namespace stu::isa
