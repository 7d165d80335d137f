// rtl/stu_store_unit.sv through the `stu run --on rtl` model: directed stores whose effects are
// worked out by hand (a coalesced warp is one full line; st.async completes its bytes on the
// barrier; a misaligned lane faults alone; a tcgen05.st from the wrong quarter writes nothing),
// then seeded cosimulation against golden::execute / execute_sass.
#include <gtest/gtest.h>

#include <memory>

#include "cosim_test.h"
#include "rtl_model.h"
#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/isa/parser.h"

namespace {

using namespace stu;

isa::Instruction parse(const char* text) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d);
  EXPECT_TRUE(ins && !d.has_errors()) << text;
  return ins ? *ins : isa::Instruction{};
}

golden::ModelConfig cluster_of_two() {
  golden::ModelConfig c;
  c.cluster_ctas = 2;
  return c;
}

TEST(StoreUnit, CoalescedU32WarpIsOneFullLineInTheImage) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  m->image().allocations().add(0x10000, 0x1000);
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) {
    ops.addr[l] = 0x10000 + 4 * l;
    ops.src[l].lo = 0xA0000000u + l;
  }
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(m->take_error(), "");
  EXPECT_EQ(out.fault_mask, 0u);
  EXPECT_EQ(out.stored_mask, ~0u);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].line, 0x10000u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xFu);
  EXPECT_EQ(out.bytes, 128u);
  uint8_t b[4];
  m->image().read(golden::Dest{}, 0x10000 + 4 * 7, b, 4);
  EXPECT_EQ(b[0], 7);
  EXPECT_EQ(b[3], 0xA0);
}

TEST(StoreUnit, MisalignedLaneFaultsAloneAndTheOthersStore) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  m->image().allocations().add(0x10000, 0x1000);
  const isa::Instruction ins = parse("st.global.u64 [%rd1], %rd2;");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  for (unsigned l = 0; l < 32; ++l) ops.addr[l] = 0x10000 + 8 * l;
  ops.addr[5] += 4;  // 0x1002c: not a multiple of 8
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, 1u << 5);
  EXPECT_EQ(out.fault[5].kind, golden::FaultKind::Misaligned);
  EXPECT_EQ(out.fault[5].addr, 0x1002Cu);
  EXPECT_EQ(out.stored_mask, ~(1u << 5));
  ASSERT_EQ(out.lines.size(), 2u);  // 256 bytes: lines 0x10000 and 0x10080
  EXPECT_EQ(out.bytes, 31u * 8);
}

TEST(StoreUnit, StAsyncV4CompletesSixteenBytesPerLaneOnTheBarrier) {
  auto m = tb::make_rtl_model(cluster_of_two());
  golden::MbarState s;
  s.expected = 1;
  s.pending = 0;  // the one arrival made, with expect_tx(16): one lane's .v4.b32
  s.tx = 16;
  m->image().set_mbar(1, 0x100, s);
  const isa::Instruction ins = parse(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%rd1], {%r1, %r2, %r3, "
      "%r4}, [%rd2];");
  golden::WarpOperands ops;
  ops.src.assign(4 * 32, golden::RegValue{});
  ops.addr[0] = (1ull << 24) + 0x200;  // CTA 1, offset 0x200
  ops.mbar[0] = (1ull << 24) + 0x100;
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 0, 1u}, ops, out);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.mbar.size(), 1u);
  EXPECT_EQ(out.mbar[0].bytes, 16u);
  EXPECT_EQ(out.mbar[0].cta, 1u);
  EXPECT_TRUE(out.mbar[0].phase_completed);  // pending 0, tx 16 - 16 = 0
  EXPECT_EQ(m->image().mbar(1, 0x100).phase, 1u);
}

TEST(StoreUnit, Tcgen05FromTheWrongQuarterWritesNothing) {
  auto m = tb::make_rtl_model(golden::ModelConfig{});
  m->image().cta(0).tmem_alloc.alloc(32);
  const isa::Instruction ins = parse("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r1};");
  golden::WarpOperands ops;
  ops.src.assign(32, golden::RegValue{});
  ops.addr.fill(0);  // lane 0: quarter 0, but warp 1 owns lanes 32..63
  golden::StoreResult out;
  m->execute(ins, golden::WarpContext{0, 1, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, ~0u);
  EXPECT_EQ(out.fault[0].kind, golden::FaultKind::TmemLaneQuarter);
  EXPECT_EQ(out.tmem.size(), 0u);
  // From warp 0 the same store writes lane t, column 0 of each thread.
  for (unsigned t = 0; t < 32; ++t) ops.src[t].lo = 100 + t;
  m->execute(ins, golden::WarpContext{0, 0, ~0u}, ops, out);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.tmem.size(), 32u);
  EXPECT_EQ(out.tmem[31].lane, 31u);
  EXPECT_EQ(out.tmem[31].col_mask, 1u);
  EXPECT_EQ(out.tmem[31].data[0], 131u);
  EXPECT_EQ(m->image().cta(0).tmem_cells()[31 * golden::kTmemColumns], 131u);
}

TEST(StoreUnitCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("store_unit", 1, 4, 1500); }

TEST(StoreUnitCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("store_unit", 1000, 64, 5000); }

}  // namespace
