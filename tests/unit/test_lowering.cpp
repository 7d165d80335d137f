// Lowering: the PTX -> SASS table of ../shared/spec/store-family.md section 5, corrected by
// cuobjdump -sass listings of ptxas 13.0 cubins for sm_90a and sm_100a (issue 22, 352 stores:
// STTM shapes, CGAERRBAR, USTGR, STS without ordering bits, the 256-bit L2 eviction field).
#include <gtest/gtest.h>

#include "stu/isa/lowering.h"
#include "stu/isa/parser.h"

namespace stu::isa {
namespace {

const Target kSm100a{100, Target::Suffix::Arch};
const Target kSm90a{90, Target::Suffix::Arch};

std::vector<std::string> lowered(const std::string& text, const Target& t = kSm100a) {
  Diagnostics d;
  auto ins = parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text;
  std::vector<std::string> out;
  if (!ins) return out;
  for (const SassInstr& s : lower(*ins, t)) {
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
            (V{"MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "STG.E.STRONG.GPU"}));
  EXPECT_EQ(lowered("st.release.sys.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.SYS", "ERRBAR", "CGAERRBAR", "STG.E.STRONG.SYS"}));
  EXPECT_EQ(lowered("st.release.cluster.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "STG.E.STRONG.GPU"}));
  EXPECT_EQ(lowered("st.release.cta.shared.u32 [%rd1], %r1;"), (V{"MEMBAR.ALL.CTA", "STS"}));
  EXPECT_EQ(lowered("st.release.gpu.shared::cta.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "STS"}));
}

TEST(Lowering, SharedStoresCarryNoOrderingBits) {
  EXPECT_EQ(lowered("st.volatile.shared.u32 [%r1], %r1;"), V{"STS"});
  EXPECT_EQ(lowered("st.relaxed.gpu.shared.u32 [%r1], %r1;"), V{"STS"});
}

TEST(Lowering, StAsyncReleaseFormIsAUniformStoreAfterACtaBarrier) {
  EXPECT_EQ(lowered("st.async.release.gpu.global.u32 [%rd1+4], %r1;"),
            (V{"MEMBAR.ALL.CTA", "USTGR.E.NA.STRONG.GPU"}));
  EXPECT_EQ(lowered("st.async.release.sys.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.CTA", "USTGR.E.NA.STRONG.SYS"}));
  EXPECT_EQ(lowered("st.async.mmio.release.sys.global.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.CTA", "USTGR.E.NA.MMIO.SYS"}));
}

TEST(Lowering, StAsyncWithoutADestinationEmitsNothing) {
  EXPECT_EQ(lowered("st.async.u32 [%rd1], %r1;"), V{});
  EXPECT_EQ(lowered("st.async.global.u32 [%rd1], %r1;"), V{});
  EXPECT_EQ(lowered("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2;"), V{});
  // Below sm_100 the release form does not exist: a scope alone emits nothing either.
  EXPECT_EQ(lowered("st.async.gpu.u32 [%rd1], %r1;", kSm90a), V{});
  EXPECT_EQ(lowered("st.async.gpu.u32 [%rd1], %r1;"),
            (V{"MEMBAR.ALL.CTA", "USTGR.E.NA.STRONG.GPU"}));
}

TEST(Lowering, Tcgen05StIsSttmWithShapeAndCount) {
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.32x32b.x4.b32 [%r1], {%r2, %r3, %r4, %r5};"),
            V{"STTM.x4"});
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.16x64b.x2.b32 [%r1], {%r2, %r3};"),
            V{"STTM.16dp64bit.x2"});
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.16x128b.x1.b32 [%r1], {%r2, %r3};"),
            V{"STTM.16dp128bit"});
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.16x256b.x1.b32 [%r1], {%r2, %r3, %r4, %r5};"),
            V{"STTM.16dp256bit"});
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.16x64b.x1.unpack::16b.b32 [%r1], {%r2};"),
            V{"STTM.16dp64bit.EXPAND16BIT"});
  // ptxas 13.0 spells the count before .EXPAND16BIT (nvdisasm, tests/data/sass).
  EXPECT_EQ(lowered("tcgen05.st.sync.aligned.16x64b.x8.unpack::16b.b32 [%r1], {%r2, %r3, %r4, %r5, "
                    "%r6, %r7, %r8, %r9};"),
            V{"STTM.16dp64bit.x8.EXPAND16BIT"});
  // .16x32bx2: one instruction per half of the warp, the second at taddr + immHalfSplitoff.
  Diagnostics d;
  auto ins = parse_instruction("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%r1], 16, {%r2};", d);
  ASSERT_TRUE(ins);
  const auto s = lower(*ins, kSm100a);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].str(), "STTM.16dp32bit_t0_t15 tmem[%r1], {%r2}");
  EXPECT_EQ(s[1].str(), "STTM.16dp32bit_t16_t31 tmem[%r1+0x10], {%r2}");
}

TEST(Lowering, TwoFiftySixBitGlobalStoresCarryTheL2Eviction) {
  EXPECT_EQ(lowered("st.global.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};"),
            V{"STG.E.ENL2.256"});
  EXPECT_EQ(lowered("st.global.L2::evict_last.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, "
                    "%r6, %r7};"),
            V{"STG.E.ELL2.256"});
  EXPECT_EQ(lowered("st.global.L1::evict_last.L2::evict_first.v4.b64 [%rd1], {%rd0, %rd1, "
                    "%rd2, %rd3};"),
            V{"STG.E.EL.EFL2.256"});
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
  // Shared and local stores drop ordering and L1 eviction bits (ptxas 13.0, tests/data/sass).
  EXPECT_EQ(lowered("st.volatile.local.u32 [%rd1], %r1;"), V{"STL"});
  EXPECT_EQ(lowered("st.local.L1::evict_first.u8 [%rd1], %rs1;"), V{"STL.U8"});
  EXPECT_EQ(lowered("st.shared.L1::evict_last.u64 [%r1], %rd1;"), V{"STS.64"});
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
  auto s = lower(*ins, kSm100a);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].size_bits, 256u);
  EXPECT_EQ(s[0].write_mask, 0b10111101);
  auto v4 = parse_instruction("st.global.v4.b64 [%rd1], {_, %rd1, %rd2, %rd3};", d);
  ASSERT_TRUE(v4);
  EXPECT_EQ(lower(*v4, kSm100a)[0].write_mask, 0b11111100);
}

TEST(Lowering, OperandsAreThePtxOperands) {
  Diagnostics d;
  auto ins = parse_instruction("st.global.L2::cache_hint.u32 [%rd1+-8], %r1+4, %rd2;", d);
  ASSERT_TRUE(ins);
  // The address through the descriptor, which .L2::cache_hint makes the policy register.
  EXPECT_EQ(lower(*ins, kSm100a)[0].operands, "desc[%rd2][%rd1.64-0x8], %r1+4");
  auto plain = parse_instruction("st.global.u32 [%rd1+16], %r1;", d);
  ASSERT_TRUE(plain);
  EXPECT_EQ(lower(*plain, kSm100a)[0].operands, "desc[URx][%rd1.64+0x10], %r1");
  auto shared = parse_instruction("st.shared.u32 [%r1+4], %r2;", d);
  ASSERT_TRUE(shared);
  EXPECT_EQ(lower(*shared, kSm100a)[0].operands, "[%r1+0x4], %r2");
  // STAS packs the data address and the mbarrier address in one 64-bit pair.
  auto stas = parse_instruction(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];", d);
  ASSERT_TRUE(stas);
  EXPECT_EQ(lower(*stas, kSm100a)[0].operands, "[{%r1, %r3}.64], %r2");
}

TEST(Lowering, CacheHintUsesTheDescriptor) {
  Diagnostics d;
  auto ins = parse_instruction("st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;", d);
  ASSERT_TRUE(ins);
  EXPECT_TRUE(lower(*ins, kSm100a)[0].cache_policy);
}

}  // namespace
}  // namespace stu::isa

namespace stu::isa {
namespace {

// ptxas lowers a store whose address names a variable for the variable's space, and the
// width rules of the SASS corpus (tests/data/sass, docs/check.md).
TEST(Lowering, ProvenSpaceAndWidthRulesOfTheSassCorpus) {
  Diagnostics d;
  auto opcodes = [&](const char* text, std::optional<Space> proven) {
    auto ins = parse_instruction(text, d);
    std::vector<std::string> v;
    if (!ins) return v;
    for (const SassInstr& s : lower(*ins, kSm100a, proven))
      v.push_back(s.str().substr(0, s.str().find(' ')));
    return v;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(opcodes("st.u32 [gbuf+8], %r1;", Space::Global), V{"STG.E"});
  EXPECT_EQ(opcodes("st.relaxed.gpu.u32 [sbuf], %r1;", Space::Shared), V{"STS"});
  EXPECT_EQ(opcodes("st.u64 [lbuf], %rd1;", Space::Local), V{"STL.64"});
  EXPECT_EQ(opcodes("st.shared::cluster.v4.u32 [sbuf], {%r1, %r2, %r3, %r4};", Space::Shared),
            V{"STS.128"});
  EXPECT_EQ(opcodes("st.u32 [gbuf+8], %r1;", std::nullopt), V{"ST.E"});
  EXPECT_EQ(opcodes("st.global.v2.s8 [%rd1], {%rs1, %rs2};", std::nullopt), V{"STG.E.U16"});
  EXPECT_EQ(opcodes("st.global.s8 [%rd1], %rs1;", std::nullopt), V{"STG.E.S8"});
  EXPECT_EQ(opcodes("st.v8.u32 [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", std::nullopt),
            V{"STG.E.ENL2.256"});
  EXPECT_EQ(opcodes("st.v8.u32 [lbuf], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", Space::Local),
            V{"STG.E.ENL2.256"});
}

}  // namespace
}  // namespace stu::isa
