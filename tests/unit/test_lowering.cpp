// Lowering: the PTX -> SASS table of ../shared/spec/store-family.md section 5.
#include <gtest/gtest.h>

#include "stu/isa/lowering.h"
#include "stu/isa/parser.h"

namespace stu::isa {
namespace {

std::vector<std::string> lowered(const std::string& text) {
  Diagnostics d;
  auto ins = parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text;
  std::vector<std::string> out;
  if (!ins) return out;
  for (const SassInstr& s : lower(*ins)) {
    std::string t = s.str();
    out.push_back(t.substr(0, t.find(' ')));  // opcode and modifiers only
  }
  return out;
}

using V = std::vector<std::string>;

TEST(Lowering, GlobalStoresByOrderingAndCacheOperator) {
  EXPECT_EQ(lowered("st.global.u32 [%rd1], %r1;"), V{"STG.E"});
  EXPECT_EQ(lowered("st.global.cs.u32 [%rd1], %r1;"), V{"STG.E.EF"});
  EXPECT_EQ(lowered("st.global.cg.u32 [%rd1], %r1;"), V{"STG.E.STRONG.GPU"});
  EXPECT_EQ(lowered("st.global.wb.u32 [%rd1], %r1;"), V{"STG.E.STRONG.SM"});
  EXPECT_EQ(lowered("st.global.wt.u32 [%rd1], %r1;"), V{"STG.E.STRONG.SYS"});
  EXPECT_EQ(lowered("st.volatile.global.u32 [%rd1], %r1;"), V{"STG.E.STRONG.SYS"});
  EXPECT_EQ(lowered("st.relaxed.cta.global.u32 [%rd1], %r1;"), V{"STG.E.STRONG.SM"});
  EXPECT_EQ(lowered("st.relaxed.gpu.global.u32 [%rd1], %r1;"), V{"STG.E.STRONG.GPU"});
  EXPECT_EQ(lowered("st.relaxed.sys.global.u32 [%rd1], %r1;"), V{"STG.E.STRONG.SYS"});
  EXPECT_EQ(lowered("st.mmio.relaxed.sys.global.u32 [%rd1], %r1;"), V{"STG.E.MMIO.SYS"});
}

TEST(Lowering, ReleaseStoresPutABarrierFirst) {
  EXPECT_EQ(lowered("st.release.cta.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.CTA", "STG.E.STRONG.SM"}));
  EXPECT_EQ(lowered("st.release.gpu.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.GPU", "ERRBAR", "STG.E.STRONG.GPU"}));
  EXPECT_EQ(lowered("st.release.sys.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.SYS", "ERRBAR", "STG.E.STRONG.SYS"}));
  EXPECT_EQ(lowered("st.release.cta.shared.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.CTA", "STS.STRONG.SM"}));
}

TEST(Lowering, EvictionSizeAndSpaces) {
  EXPECT_EQ(lowered("st.global.L1::evict_last.u32 [%rd1], %r1;"), V{"STG.E.EL"});
  EXPECT_EQ(lowered("st.global.L1::no_allocate.u32 [%rd1], %r1;"), V{"STG.E.NA"});
  EXPECT_EQ(lowered("st.global.L1::evict_unchanged.u32 [%rd1], %r1;"), V{"STG.E.EU"});
  EXPECT_EQ(lowered("st.relaxed.sys.global.b128 [%rd1], %q1;"), V{"STG.E.128.STRONG.SYS"});
  EXPECT_EQ(lowered("st.global.s8 [%rd1], %r1;"), V{"STG.E.S8"});
  EXPECT_EQ(lowered("st.global.v2.u32 [%rd1], {%r1, %r2};"), V{"STG.E.64"});
  EXPECT_EQ(lowered("st.shared.u16 [%r1], %rs1;"), V{"STS.U16"});
  EXPECT_EQ(lowered("st.local.u32 [%rd1], %r1;"), V{"STL"});
  EXPECT_EQ(lowered("st.u32 [%rd1], %r1;"), V{"ST.E"});
  EXPECT_EQ(lowered("st.shared::cluster.u32 [%r1], %r1;"), V{"ST.E"});
  EXPECT_EQ(lowered("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"),
            V{"STAS"});
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r2};"), V{"STTM"});
}

TEST(Lowering, V8WriteMaskClearsSinks) {
  Diagnostics d;
  auto ins = parse_instruction("st.global.v8.b32 [%rd1], {%r0, _, %r2, %r3, %r4, %r5, _, %r7};", d);
  ASSERT_TRUE(ins);
  auto s = lower(*ins);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].size_bits, 256u);
  EXPECT_EQ(s[0].write_mask, 0b10111101);
  auto v4 = parse_instruction("st.global.v4.b64 [%rd1], {_, %rd1, %rd2, %rd3};", d);
  ASSERT_TRUE(v4);
  EXPECT_EQ(lower(*v4)[0].write_mask, 0b11111100);
}

TEST(Lowering, OperandsAreThePtxOperands) {
  Diagnostics d;
  auto ins = parse_instruction("st.global.L2::cache_hint.u32 [%rd1+-8], %r1+4, %rd2;", d);
  ASSERT_TRUE(ins);
  EXPECT_EQ(lower(*ins)[0].operands, "[%rd1+-8], %r1+4, %rd2");
}

TEST(Lowering, CacheHintUsesTheDescriptor) {
  Diagnostics d;
  auto ins = parse_instruction("st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;", d);
  ASSERT_TRUE(ins);
  EXPECT_TRUE(lower(*ins)[0].cache_policy);
}

}  // namespace
}  // namespace stu::isa
