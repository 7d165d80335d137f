// The warp-level executor (executor.h) on a MachineState, driven by instructions parsed from
// PTX / SASS text. Every expected byte, fault and count is worked out by hand from
// docs/golden.md, ../shared/spec/memory-model.md, ../shared/spec/tmem.md and seed 002.
//
// Memory is configured with fill 0xEE, so a byte that a store must leave alone reads 0xEE.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/isa/parser.h"
#include "stu/isa/sass.h"

namespace {

using namespace stu;
using namespace stu::golden;

constexpr uint8_t kFill = 0xEE;
constexpr uint64_t kG = 0x1'0000'0000ull;  // the global allocation, above 4 GiB
constexpr uint64_t kGSize = 0x1000;
constexpr uint64_t kShared = 0x7F00'0000'0000ull;
constexpr uint64_t kStride = 0x100'0000ull;
constexpr uint64_t kLocal = 0x7E00'0000'0000ull;
constexpr uint64_t kParam = 0x7D00'0000'0000ull;
constexpr uint64_t kConst = 0x7C00'0000'0000ull;
constexpr Dest kGlobal{MemSpace::Global, 0, 0};

isa::Instruction parse(const std::string& text) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text << ": "
                               << (d.all().empty() ? std::string() : d.all()[0].message);
  return ins.value_or(isa::Instruction{});
}

isa::SassSt parse_sass(const std::string& text) {
  Diagnostics d;
  auto s = isa::parse_sass_st(text, d);
  EXPECT_TRUE(s.has_value()) << text << ": "
                             << (d.all().empty() ? std::string() : d.all()[0].message);
  return s.value_or(isa::SassSt{});
}

ModelConfig config(uint32_t cluster = 2) {
  ModelConfig c;
  c.cluster_ctas = cluster;
  c.fill = kFill;
  return c;
}

// Operands with room for every source element of `ins` (zero values).
WarpOperands operands(const isa::Instruction& ins) {
  WarpOperands o;
  const unsigned n = ins.op == isa::Opcode::Tcgen05St ? ins.tmem_regs() : ins.vec_lanes();
  o.src.assign(size_t(n) * 32, RegValue{});
  return o;
}

void set_src(WarpOperands& o, unsigned element, unsigned lane, uint64_t lo, uint64_t hi = 0) {
  o.src[element * 32 + lane] = RegValue{lo, hi};
}

std::vector<uint8_t> read(const MachineState& m, const Dest& d, uint64_t off, size_t n) {
  std::vector<uint8_t> v(n);
  EXPECT_TRUE(m.read(d, off, v.data(), n));
  return v;
}

std::vector<uint8_t> bytes(std::initializer_list<int> l) {
  std::vector<uint8_t> v;
  for (int b : l) v.push_back(uint8_t(b));
  return v;
}

class GoldenExecutor : public ::testing::Test {
 protected:
  // (Re)creates the machine from cfg, with one global allocation [kG, kG + 0x1000).
  void start(const ModelConfig& c) {
    m_ = std::make_unique<MachineState>(c);
    ASSERT_TRUE(m_->allocations().add(kG, kGSize));
  }
  void SetUp() override { start(config()); }

  const StoreResult& run(const isa::Instruction& ins, const WarpOperands& ops,
                         WarpContext ctx = WarpContext{0, 0, 0x1}) {
    execute(*m_, ins, ctx, ops, out_, scratch_);
    return out_;
  }
  // One lane (lane 0 of warp 0, CTA 0) stores `value` at `addr`.
  const StoreResult& run1(const std::string& text, uint64_t addr, uint64_t lo, uint64_t hi = 0,
                          uint16_t cta = 0) {
    const isa::Instruction ins = parse(text);
    WarpOperands o = operands(ins);
    o.addr[0] = addr;
    set_src(o, 0, 0, lo, hi);
    return run(ins, o, WarpContext{cta, 0, 0x1});
  }
  std::vector<uint8_t> global(uint64_t a, size_t n) const { return read(*m_, kGlobal, a, n); }
  std::vector<uint8_t> shared(uint16_t cta, uint64_t off, size_t n) const {
    return read(*m_, Dest{MemSpace::Shared, cta, 0}, off, n);
  }

  std::unique_ptr<MachineState> m_;
  StoreResult out_;
  Scratch scratch_;
};

// --- bad_instruction: what the validator would reject still gives a result, never a crash ---

TEST_F(GoldenExecutor, MissingTypeFaultsEveryActiveLaneBadInstruction) {
  isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  ins.type.reset();  // as if built by hand without `.type`
  WarpOperands o = operands(ins);
  o.addr.fill(kG);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x5});
  EXPECT_EQ(r.fault_mask, 0x5u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::BadInstruction);
  EXPECT_EQ(r.fault[2].kind, FaultKind::BadInstruction);
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_EQ(global(kG, 4), bytes({kFill, kFill, kFill, kFill}));
}

// st.bulk is checked by stu check but not executed: a bad_instruction, never a crash.
TEST_F(GoldenExecutor, StBulkFaultsBadInstruction) {
  const isa::Instruction ins = parse("st.bulk.weak [%rd1], 64, 0;");
  ASSERT_EQ(ins.op, isa::Opcode::StBulk);
  WarpOperands o;
  o.addr.fill(kG);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x3});
  EXPECT_EQ(r.fault_mask, 0x3u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::BadInstruction);
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_TRUE(r.lines.empty());
}

TEST_F(GoldenExecutor, TooFewSourceValuesFaultBadInstruction) {
  const isa::Instruction ins = parse("st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};");
  WarpOperands o;
  o.src.assign(2 * 32, RegValue{});  // 2 elements given for a .v4
  o.addr.fill(kG);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x1});
  EXPECT_EQ(r.fault_mask, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::BadInstruction);
  EXPECT_TRUE(r.lines.empty());
}

TEST_F(GoldenExecutor, CtaOutsideTheClusterFaultsBadInstruction) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr.fill(kG);
  const StoreResult& r = run(ins, o, WarpContext{5, 0, 0x1});  // cluster of 2
  EXPECT_EQ(r.fault[0].kind, FaultKind::BadInstruction);
}

// --- widths, byte order, vectors ---------------------------------------------------------

TEST_F(GoldenExecutor, U8StoresLowByteOfWideRegister) {
  const StoreResult& r = run1("st.global.u8 [%rd1], %r1;", kG + 3, 0x1122'3344'AABB'CCDDull);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0x1u);
  EXPECT_EQ(r.bytes, 1u);
  EXPECT_EQ(global(kG + 2, 3), bytes({kFill, 0xDD, kFill}));
}

TEST_F(GoldenExecutor, U16LittleEndianTruncated) {
  run1("st.global.u16 [%rd1], %rs1;", kG + 6, 0xFFFF'FFFF'1234'BEEFull);
  EXPECT_EQ(global(kG + 5, 4), bytes({kFill, 0xEF, 0xBE, kFill}));
}

TEST_F(GoldenExecutor, B32OfA64BitRegisterStoresLow32Bits) {
  const StoreResult& r = run1("st.global.b32 [%rd1], %rd2;", kG + 8, 0xCAFE'BABE'1122'3344ull);
  EXPECT_EQ(r.bytes, 4u);
  EXPECT_EQ(global(kG + 8, 5), bytes({0x44, 0x33, 0x22, 0x11, kFill}));
}

TEST_F(GoldenExecutor, U64LittleEndianIgnoresHighHalf) {
  run1("st.global.u64 [%rd1], %rd2;", kG + 16, 0x0102'0304'0506'0708ull, 0xFFFF'FFFF'FFFF'FFFFull);
  EXPECT_EQ(global(kG + 16, 9), bytes({0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, kFill}));
}

TEST_F(GoldenExecutor, F32StoresBitPattern) {
  run1("st.global.f32 [%rd1], %f1;", kG + 4, 0x3F80'0000ull);  // 1.0f
  EXPECT_EQ(global(kG + 4, 4), bytes({0x00, 0x00, 0x80, 0x3F}));
}

TEST_F(GoldenExecutor, S16StoresLowBitsOfNegative) {
  run1("st.global.s16 [%rd1], %rs1;", kG + 2, 0xFFFF'FFFF'FFFF'8001ull);
  EXPECT_EQ(global(kG + 2, 3), bytes({0x01, 0x80, kFill}));
}

TEST_F(GoldenExecutor, B128StoresLoThenHi) {
  const StoreResult& r = run1("st.global.b128 [%rd1], %q1;", kG + 0x10, 0x0706'0504'0302'0100ull,
                              0x0F0E'0D0C'0B0A'0908ull);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.bytes, 16u);
  EXPECT_EQ(global(kG + 0x10, 16), bytes({0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                          0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F}));
  EXPECT_EQ(global(kG + 0x20, 1), bytes({kFill}));
}

TEST_F(GoldenExecutor, B128NeedsSixteenByteAlignment) {
  const StoreResult& r = run1("st.global.b128 [%rd1], %q1;", kG + 8, 1, 2);
  EXPECT_EQ(r.fault[0].kind, FaultKind::Misaligned);
  EXPECT_EQ(global(kG + 8, 1), bytes({kFill}));
}

TEST_F(GoldenExecutor, V4U16ElementsAtConsecutiveOffsets) {
  const isa::Instruction ins = parse("st.global.v4.u16 [%rd1], {%rs1, %rs2, %rs3, %rs4};");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 0x18;
  for (unsigned e = 0; e < 4; ++e) set_src(o, e, 0, 0xFFFF'0000ull | (0xA0u + e) << 8 | e);
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.bytes, 8u);
  EXPECT_EQ(global(kG + 0x18, 9), bytes({0x00, 0xA0, 0x01, 0xA1, 0x02, 0xA2, 0x03, 0xA3, kFill}));
}

TEST_F(GoldenExecutor, V2U64Elements) {
  const isa::Instruction ins = parse("st.global.v2.u64 [%rd1], {%rd2, %rd3};");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 0x30;
  set_src(o, 0, 0, 0x8877'6655'4433'2211ull);
  set_src(o, 1, 0, 0x0FFE'EDDC'CBBA'A990ull);
  run(ins, o);
  EXPECT_EQ(global(kG + 0x30, 16), bytes({0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x90,
                                          0xA9, 0xBA, 0xCB, 0xDC, 0xED, 0xFE, 0x0F}));
}

TEST_F(GoldenExecutor, V8B32SinksLeaveMemoryUntouched) {
  const isa::Instruction ins =
      parse("st.global.v8.b32 [%rd1], {%r0, _, %r2, %r3, %r4, %r5, %r6, _};");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 0x20;
  for (unsigned e = 0; e < 8; ++e) set_src(o, e, 0, 0xA0u + e);  // sinks' values: ignored
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.bytes, 24u);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].line, kG);
  // Access bytes 0..3, 8..27 written (mask 0x0FFFFF0F), at line offset 32.
  EXPECT_EQ(r.lines[0].bytes.lo, 0x0FFF'FF0F'0000'0000ull);
  EXPECT_EQ(r.lines[0].bytes.hi, 0u);
  EXPECT_EQ(r.lines[0].sector_mask, 0x2);
  const std::vector<uint8_t> want = bytes({0xA0, 0, 0, 0, kFill, kFill, kFill, kFill,  //
                                           0xA2, 0, 0, 0, 0xA3,  0,     0,     0,      //
                                           0xA4, 0, 0, 0, 0xA5,  0,     0,     0,      //
                                           0xA6, 0, 0, 0, kFill, kFill, kFill, kFill});
  EXPECT_EQ(global(kG + 0x20, 32), want);
}

TEST_F(GoldenExecutor, CoalescedU32WarpIsOneLineFourSectors) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 32; ++l) {
    o.addr[l] = kG + 0x100 + 4 * l;
    set_src(o, 0, l, l * 3);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].line, kG + 0x100);
  EXPECT_EQ(r.lines[0].sector_mask, 0xF);
  EXPECT_EQ(r.bytes, 128u);
  EXPECT_EQ(global(kG + 0x100 + 4 * 7, 4), bytes({21, 0, 0, 0}));
}

// The same-location rule (docs/golden.md): 4-byte lanes move as one 128-byte group, whose lowest
// lane wins; 8-byte lanes as two groups of 16, the later group winning; .mmio one lane at a time.
TEST_F(GoldenExecutor, TwoLanesSameAddressInOneGroupLowerLaneWins) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[3] = o.addr[9] = kG + 0x40;
  set_src(o, 0, 3, 0x33333333);
  set_src(o, 0, 9, 0x99999999);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, (1u << 3) | (1u << 9)});
  EXPECT_EQ(r.stored_mask, (1u << 3) | (1u << 9));
  EXPECT_EQ(global(kG + 0x40, 4), bytes({0x33, 0x33, 0x33, 0x33}));
}

TEST_F(GoldenExecutor, TwoLanesSameAddressInTwoGroupsTheLaterGroupWins) {
  const isa::Instruction ins = parse("st.global.u64 [%rd1], %rd2;");
  WarpOperands o = operands(ins);
  o.addr[3] = o.addr[17] = o.addr[20] = kG + 0x40;
  set_src(o, 0, 3, 0x3333333333333333ull);
  set_src(o, 0, 17, 0x1717171717171717ull);
  set_src(o, 0, 20, 0x2020202020202020ull);
  run(ins, o, WarpContext{0, 0, (1u << 3) | (1u << 17) | (1u << 20)});
  EXPECT_EQ(global(kG + 0x40, 2), bytes({0x17, 0x17}));
}

TEST_F(GoldenExecutor, TwoLanesSameAddressMmioHighestLaneWins) {
  const isa::Instruction ins = parse("st.mmio.relaxed.sys.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[3] = o.addr[9] = kG + 0x40;
  set_src(o, 0, 3, 0x33333333);
  set_src(o, 0, 9, 0x99999999);
  run(ins, o, WarpContext{0, 0, (1u << 3) | (1u << 9)});
  EXPECT_EQ(global(kG + 0x40, 4), bytes({0x99, 0x99, 0x99, 0x99}));
}

// --- active mask -------------------------------------------------------------------------

TEST_F(GoldenExecutor, InactiveLanesDoNotWrite) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 3; ++l) {
    o.addr[l] = kG + 4 * l;
    set_src(o, 0, l, 0x01010101u * (l + 1));
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x5});
  EXPECT_EQ(r.stored_mask, 0x5u);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.fault[1].kind, FaultKind::None);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].lane_mask, 0x5u);
  EXPECT_EQ(global(kG, 12), bytes({1, 1, 1, 1, kFill, kFill, kFill, kFill, 3, 3, 3, 3}));
}

TEST_F(GoldenExecutor, NoActiveLaneHasNoEffect) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 2;  // would fault if active
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(m_->global().pages(), 0u);
}

// --- generic addressing ------------------------------------------------------------------

TEST_F(GoldenExecutor, GenericStoreLandsInGlobal) {
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kG + 0x40, 0xA1B2C3D4u);
  EXPECT_EQ(r.fault_mask, 0u);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].dest, kGlobal);
  EXPECT_EQ(global(kG + 0x40, 4), bytes({0xD4, 0xC3, 0xB2, 0xA1}));
}

TEST_F(GoldenExecutor, GlobalAddressAbove4GiBIsNotTruncated) {
  ASSERT_TRUE(m_->allocations().add(0, 0x100));  // a low range the truncated address would hit
  run1("st.u32 [%rd1], %r1;", 0x1'0000'0004ull, 0x11223344u);
  EXPECT_EQ(global(0x1'0000'0004ull, 4), bytes({0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(global(0x4, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, GenericStoreLandsInOwnShared) {
  // CTA 1's slice of the window: base + 1 * 16 MiB.
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kShared + kStride + 0x40, 0x0A0B0C0Du, 0, 1);
  EXPECT_EQ(r.fault_mask, 0u);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].dest, (Dest{MemSpace::Shared, 1, 0}));
  EXPECT_EQ(r.lines[0].line, 0x0u);
  EXPECT_EQ(shared(1, 0x40, 4), bytes({0x0D, 0x0C, 0x0B, 0x0A}));
  EXPECT_EQ(shared(0, 0x40, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, GenericStoreLandsInPeerShared) {
  run1("st.u32 [%rd1], %r1;", kShared + 0x80, 0x55u, 0, 1);  // from CTA 1 into CTA 0
  EXPECT_EQ(shared(0, 0x80, 4), bytes({0x55, 0, 0, 0}));
  EXPECT_EQ(shared(1, 0x80, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, GenericStoreLandsInLocalPerThread) {
  const isa::Instruction ins = parse("st.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[0] = o.addr[1] = kLocal + 0x10;
  set_src(o, 0, 0, 0xAAAAAAAA);
  set_src(o, 0, 1, 0xBBBBBBBB);
  const StoreResult& r = run(ins, o, WarpContext{1, 1, 0x3});  // CTA 1, warp 1: threads 32, 33
  EXPECT_EQ(r.fault_mask, 0u);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0].dest, (Dest{MemSpace::Local, 1, 32}));
  EXPECT_EQ(r.lines[1].dest, (Dest{MemSpace::Local, 1, 33}));
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 1, 32}, 0x10, 4), bytes({0xAA, 0xAA, 0xAA, 0xAA}));
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 1, 33}, 0x10, 4), bytes({0xBB, 0xBB, 0xBB, 0xBB}));
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 0, 32}, 0x10, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, SharedClusterStoreIntoPeerCta) {
  const StoreResult& r = run1("st.shared::cluster.u32 [%r1], %r2;", kStride + 0x80, 0xFACEu);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(shared(1, 0x80, 4), bytes({0xCE, 0xFA, 0, 0}));
  EXPECT_EQ(shared(0, 0x80, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, SharedCtaStoreStaysInOwnCta) {
  run1("st.shared.u32 [%r1], %r2;", 0x80, 0x77u, 0, 1);
  EXPECT_EQ(shared(1, 0x80, 4), bytes({0x77, 0, 0, 0}));
  EXPECT_EQ(shared(0, 0x80, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, LocalExplicitSpaceStore) {
  const isa::Instruction ins = parse("st.local.u16 [%r1], %rs1;");
  WarpOperands o = operands(ins);
  o.addr[5] = 0x20;
  set_src(o, 0, 5, 0x1234);
  run(ins, o, WarpContext{0, 2, 1u << 5});  // thread 2 * 32 + 5 = 69
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 0, 69}, 0x20, 2), bytes({0x34, 0x12}));
}

TEST_F(GoldenExecutor, AddressOffsetIsAdded) {
  run1("st.global.u32 [%rd1+8], %r1;", kG + 0x40, 0x01020304u);
  EXPECT_EQ(global(kG + 0x48, 4), bytes({0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(global(kG + 0x40, 1), bytes({kFill}));
}

// --- faults ------------------------------------------------------------------------------

TEST_F(GoldenExecutor, MisalignedLaneFaultsOtherLanesStore) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 2;
  o.addr[1] = kG + 8;
  set_src(o, 0, 0, 0x11111111);
  set_src(o, 0, 1, 0x22222222);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x3});
  EXPECT_EQ(r.fault_mask, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::Misaligned);
  EXPECT_EQ(r.fault[0].addr, kG + 2);
  EXPECT_EQ(r.stored_mask, 0x2u);
  EXPECT_EQ(global(kG, 12), bytes({kFill, kFill, kFill, kFill, kFill, kFill, kFill, kFill, 0x22,
                                   0x22, 0x22, 0x22}));
}

TEST_F(GoldenExecutor, VectorMisalignedToWholeAccessSize) {
  // .v4.u32 is one 16-byte access: 4-byte alignment is not enough.
  const StoreResult& r = run1("st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};", kG + 4, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::Misaligned);
  EXPECT_EQ(r.bytes, 0u);
}

TEST_F(GoldenExecutor, GlobalOutsideAllocationFaults) {
  const StoreResult& r = run1("st.global.u32 [%rd1], %r1;", kG + kGSize, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfAllocation);
  EXPECT_EQ(r.fault[0].addr, kG + kGSize);
  EXPECT_TRUE(r.lines.empty());
}

TEST_F(GoldenExecutor, GlobalLastWordOfAllocationStores) {
  const StoreResult& r = run1("st.global.u32 [%rd1], %r1;", kG + kGSize - 4, 0x1u);
  EXPECT_EQ(r.fault_mask, 0u);
}

TEST_F(GoldenExecutor, GlobalAccessStraddlingAllocationEndFaults) {
  // A 16-byte access whose last 8 bytes lie beyond the allocation (allocation of 0x1008).
  start(config());
  ASSERT_TRUE(m_->allocations().add(0x2'0000'0000ull, 0x1008));
  const StoreResult& r = run1("st.global.v2.u64 [%rd1], {%rd2, %rd3};", 0x2'0000'1000ull, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfAllocation);
  EXPECT_EQ(global(0x2'0000'1000ull, 1), bytes({kFill}));
}

// A whole warp whose last lane ends one word past the allocation: only lane 31 faults, the
// other 31 lanes store (the warp-wide in-bounds check must not pass it, nor fault them all).
TEST_F(GoldenExecutor, WarpWithOneLanePastTheAllocationFaultsThatLaneOnly) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 32; ++l) {
    o.addr[l] = kG + kGSize - 31 * 4 + 4 * l;  // lane 31 at kG + kGSize
    set_src(o, 0, l, 0xA0 + l);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0x8000'0000u);
  EXPECT_EQ(r.fault[31].kind, FaultKind::OutOfAllocation);
  EXPECT_EQ(r.stored_mask, 0x7FFF'FFFFu);
  EXPECT_EQ(global(kG + kGSize - 4, 4), bytes({0xA0 + 30, 0, 0, 0}));
}

// Lanes in two adjacent allocations: no lane faults, though the warp as a whole spans both.
TEST_F(GoldenExecutor, WarpAcrossTwoAdjacentAllocationsStoresEveryLane) {
  ASSERT_TRUE(m_->allocations().add(kG + kGSize, 0x1000));
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 32; ++l) {
    o.addr[l] = kG + kGSize - 64 + 4 * l;  // lanes 0..15 in the first, 16..31 in the second
    set_src(o, 0, l, 0xB0 + l);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0xFFFF'FFFFu);
  EXPECT_EQ(global(kG + kGSize - 4, 8), bytes({0xB0 + 15, 0, 0, 0, 0xB0 + 16, 0, 0, 0}));
}

// A misaligned lane in a warp that is otherwise in bounds: that lane faults Misaligned.
TEST_F(GoldenExecutor, WarpWithOneMisalignedLaneFaultsThatLaneOnly) {
  const isa::Instruction ins = parse("st.global.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 32; ++l) o.addr[l] = kG + 4 * l + (l == 7 ? 2 : 0);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 1u << 7);
  EXPECT_EQ(r.fault[7].kind, FaultKind::Misaligned);
  EXPECT_EQ(r.stored_mask, ~(1u << 7));
}

TEST_F(GoldenExecutor, SharedBeyondConfiguredSizeFaults) {
  // shared_bytes is 48 KiB: offset 0xC000 is inside the 16 MiB slice but not backed.
  const StoreResult& r = run1("st.shared.u32 [%r1], %r2;", 0xC000, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfAllocation);
}

TEST_F(GoldenExecutor, SharedClusterRankBeyondClusterFaults) {
  const StoreResult& r = run1("st.shared::cluster.u32 [%r1], %r2;", 2 * kStride, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfWindow);
}

TEST_F(GoldenExecutor, GenericSharedRankBeyondClusterFaults) {
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kShared + 5 * kStride, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfWindow);
  EXPECT_EQ(r.fault[0].addr, kShared + 5 * kStride);
}

TEST_F(GoldenExecutor, GenericLocalBeyondLocalBytesFaults) {
  // local_bytes is 4 KiB per thread.
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kLocal + 0x1000, 0x1u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfAllocation);
}

TEST_F(GoldenExecutor, GenericKernelParamIsReadOnly) {
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kParam + 8, 0x12345678u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::ReadOnly);
  EXPECT_EQ(r.fault[0].addr, kParam + 8);
  EXPECT_EQ(read(*m_, Dest{MemSpace::KernelParam, 0, 0}, 8, 4),
            bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, GenericConstIsReadOnly) {
  const StoreResult& r = run1("st.u32 [%rd1], %r1;", kConst + 0x10, 0x12345678u);
  EXPECT_EQ(r.fault[0].kind, FaultKind::ReadOnly);
  EXPECT_EQ(read(*m_, Dest{MemSpace::Const, 0, 0}, 0x10, 4), bytes({kFill, kFill, kFill, kFill}));
}

// Silicon (H200, 2026-11-26): an ordering or cache qualifier that the space a generic address
// resolves to does not allow is ignored there; the store is performed (docs/golden.md).
TEST_F(GoldenExecutor, RelaxedGenericToLocalStores) {
  const isa::Instruction ins = parse("st.relaxed.gpu.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[0] = kLocal + 0x10;  // lane 0: its own local memory
  o.addr[1] = kG + 0x10;      // lane 1: global
  set_src(o, 0, 0, 0xA0);
  set_src(o, 0, 1, 0xA1);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x3});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0x3u);
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 0, 0}, 0x10, 4), bytes({0xA0, 0, 0, 0}));
  EXPECT_EQ(global(kG + 0x10, 4), bytes({0xA1, 0, 0, 0}));
}

TEST_F(GoldenExecutor, ReleaseGenericToLocalStores) {
  const StoreResult& r = run1("st.release.cta.u32 [%rd1], %r1;", kLocal + 0x10, 1);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 0, 0}, 0x10, 4), bytes({1, 0, 0, 0}));
}

TEST_F(GoldenExecutor, RelaxedGenericToSharedIsAllowed) {
  const StoreResult& r = run1("st.relaxed.cluster.u32 [%rd1], %r1;", kShared + 0x10, 1);
  EXPECT_EQ(r.fault_mask, 0u);
}

TEST_F(GoldenExecutor, VolatileGenericToLocalIsAllowed) {
  const StoreResult& r = run1("st.volatile.u32 [%rd1], %r1;", kLocal + 0x10, 1);
  EXPECT_EQ(r.fault_mask, 0u);
}

TEST_F(GoldenExecutor, CacheHintAndMmioGenericToSharedStore) {
  for (const char* text :
       {"st.L2::cache_hint.u32 [%rd1], %r1, %rd2;", "st.mmio.relaxed.sys.u32 [%rd1], %r1;",
        "st.L1::evict_last.u32 [%rd1], %r1;"}) {
    const StoreResult& r = run1(text, kShared + 0x10, 7);
    EXPECT_EQ(r.fault_mask, 0u) << text;
    EXPECT_EQ(r.stored_mask, 1u) << text;
  }
}

// Extrapolated (an sm_100 form, not measurable on the H200): still a fault.
TEST_F(GoldenExecutor, WideVectorGenericToSharedIsIllegalForSpace) {
  const StoreResult& r =
      run1("st.v8.b32 [%rd1], {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1};", kShared + 0x20, 1);
  EXPECT_EQ(r.fault[0].kind, FaultKind::IllegalForSpace);
}

TEST_F(GoldenExecutor, FaultingLaneWritesNothingEvenInSameLine) {
  // Lane 0 writes kG+0x200, lane 1 is read-only (param): lane 0's line still lands.
  const isa::Instruction ins = parse("st.u32 [%rd1], %r1;");
  WarpOperands o = operands(ins);
  o.addr[0] = kG + 0x200;
  o.addr[1] = kParam;
  set_src(o, 0, 0, 0xAB);
  set_src(o, 0, 1, 0xCD);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x3});
  EXPECT_EQ(r.fault_mask, 0x2u);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].lane_mask, 0x1u);
  EXPECT_EQ(global(kG + 0x200, 1), bytes({0xAB}));
}

// --- ordering and cache metadata ---------------------------------------------------------

TEST_F(GoldenExecutor, WeakStoreOrdering) {
  const StoreResult& r = run1("st.global.u32 [%rd1], %r1;", kG, 1);
  EXPECT_EQ(r.order.sem, isa::Sem::Weak);
  EXPECT_FALSE(r.order.strong);
  EXPECT_FALSE(r.order.scope.has_value());
  EXPECT_FALSE(r.order.release);
  EXPECT_FALSE(r.order.async);
}

TEST_F(GoldenExecutor, ReleaseStoreOrdering) {
  const StoreResult& r = run1("st.release.gpu.global.u32 [%rd1], %r1;", kG, 1);
  EXPECT_EQ(r.order.sem, isa::Sem::Release);
  EXPECT_TRUE(r.order.strong);
  EXPECT_EQ(r.order.scope, isa::Scope::Gpu);
  EXPECT_TRUE(r.order.release);
}

TEST_F(GoldenExecutor, SysScopedStoreToSharedOnlyReportsCluster) {
  const StoreResult& r = run1("st.relaxed.sys.shared.u32 [%r1], %r2;", 0x10, 1);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.order.scope, isa::Scope::Cluster);
}

TEST_F(GoldenExecutor, VolatileIsStrongAtSystemScope) {
  const StoreResult& r = run1("st.volatile.global.u32 [%rd1], %r1;", kG, 1);
  EXPECT_EQ(r.order.sem, isa::Sem::Volatile);
  EXPECT_TRUE(r.order.strong);
  EXPECT_TRUE(r.order.is_volatile);
  EXPECT_EQ(r.order.scope, isa::Scope::Sys);
}

TEST_F(GoldenExecutor, CachePolicyFromLowestActiveLane) {
  const isa::Instruction ins = parse("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;");
  WarpOperands o = operands(ins);
  o.addr[2] = kG;
  o.addr[3] = kG + 4;
  o.policy[0] = 0x12F0000000000000ull;  // inactive lane: ignored
  o.policy[2] = 0x14F0000000000000ull;  // EVICT_LAST
  o.policy[3] = 0xDEADull;
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xC});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_TRUE(r.cache.has_policy);
  EXPECT_EQ(r.cache.policy.kind, CachePolicy::Kind::Named);
  EXPECT_EQ(r.cache.policy.primary, L2Priority::Last);
}

// An H200 stored with policy 0x123456789ABCDEF0 (opaque to the model) and trapped with all ones.
TEST_F(GoldenExecutor, OpaquePolicyStores) {
  const StoreResult& r = [&]() -> const StoreResult& {
    const isa::Instruction ins = parse("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;");
    WarpOperands o = operands(ins);
    o.addr[0] = kG;
    o.policy[0] = 0x123456789ABCDEF0ull;
    set_src(o, 0, 0, 0x5);
    return run(ins, o);
  }();
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.cache.policy.kind, CachePolicy::Kind::Opaque);
  EXPECT_EQ(global(kG, 1), bytes({0x5}));
}

// A warp has one policy, the lowest active lane's (silicon-checked on the H200, docs/golden.md).
TEST_F(GoldenExecutor, TrappingPolicyOfTheLowestActiveLaneFaultsTheWholeWarp) {
  const isa::Instruction ins = parse("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 4; ++l) {
    o.addr[l] = kG + 4 * l;
    set_src(o, 0, l, 0x77);
    o.policy[l] = 0x1000000000000000ull;  // EVICT_NORMAL: stores
  }
  o.policy[1] = 0x0800000000000000ull;  // bit 59 with bit 60 clear: traps
  // Lanes 1..3 active: lane 1 decides, and traps.
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xE});
  EXPECT_EQ(r.fault_mask, 0xEu);
  for (unsigned l = 1; l < 4; ++l) EXPECT_EQ(r.fault[l].kind, FaultKind::IllegalInstruction) << l;
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(global(kG, 4), bytes({kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenExecutor, TrappingPolicyOfAnotherLaneIsNotTheWarpsPolicy) {
  const isa::Instruction ins = parse("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;");
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 4; ++l) {
    o.addr[l] = kG + 4 * l;
    set_src(o, 0, l, 0x70 + l);
    o.policy[l] = 0x1000000000000000ull;
  }
  o.policy[2] = 0x0800000000000000ull;  // lane 2 would trap; lane 0 decides
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xF});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0xFu);
  EXPECT_EQ(global(kG + 8, 1), bytes({0x72}));
  ASSERT_TRUE(r.cache.has_policy);
}

// --- st.async ----------------------------------------------------------------------------

constexpr const char* kStAsync =
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];";

TEST_F(GoldenExecutor, StAsyncStoresIntoPeerAndCompletesPhase) {
  // The barrier of CTA 1 at 0x100 waits for 8 bytes, all arrivals done (pending 0, tx 8).
  m_->set_mbar(1, 0x100, MbarState{0, 0, 1, 8});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 2; ++l) {
    o.addr[l] = kStride + 0x200 + 4 * l;
    o.mbar[l] = kStride + 0x100;
    set_src(o, 0, l, 0xC0DE0000u + l);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x3});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(shared(1, 0x200, 8), bytes({0x00, 0x00, 0xDE, 0xC0, 0x01, 0x00, 0xDE, 0xC0}));
  EXPECT_EQ(shared(0, 0x200, 4), bytes({kFill, kFill, kFill, kFill}));
  ASSERT_EQ(r.mbar.size(), 2u);
  EXPECT_EQ(r.mbar[0].cta, 1);
  EXPECT_EQ(r.mbar[0].offset, 0x100u);
  EXPECT_EQ(r.mbar[0].bytes, 4u);
  EXPECT_EQ(r.mbar[0].lane, 0);
  EXPECT_FALSE(r.mbar[0].phase_completed);
  EXPECT_EQ(r.mbar[1].lane, 1);
  EXPECT_TRUE(r.mbar[1].phase_completed);
  // Phase 1, pending reset to expected (1), tx 0: word 0x8000_0000_0010_0001, little-endian.
  EXPECT_EQ(m_->mbar(1, 0x100), (MbarState{1, 1, 1, 0}));
  EXPECT_EQ(shared(1, 0x100, 8), bytes({0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x80}));
}

TEST_F(GoldenExecutor, StAsyncWeakFormOrdering) {
  m_->set_mbar(1, 0x100, MbarState{0, 1, 1, 0});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  o.addr[0] = kStride + 0x200;
  o.mbar[0] = kStride + 0x100;
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.order.sem, isa::Sem::Weak);
  EXPECT_FALSE(r.order.strong);
  EXPECT_TRUE(r.order.async);
  // tx went to -4 with one arrival pending: no completion.
  EXPECT_EQ(m_->mbar(1, 0x100), (MbarState{0, 1, 1, -4}));
}

TEST_F(GoldenExecutor, StAsyncV4CompletesSixteenBytes) {
  m_->set_mbar(1, 0x100, MbarState{0, 0, 1, 16});
  const isa::Instruction ins = parse(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, "
      "%r5}, [%r6];");
  WarpOperands o = operands(ins);
  o.addr[0] = kStride + 0x300;
  o.mbar[0] = kStride + 0x100;
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault_mask, 0u);
  ASSERT_EQ(r.mbar.size(), 1u);
  EXPECT_EQ(r.mbar[0].bytes, 16u);  // bytes, not one transaction
  EXPECT_TRUE(r.mbar[0].phase_completed);
  EXPECT_EQ(m_->mbar(1, 0x100), (MbarState{1, 1, 1, 0}));
}

TEST_F(GoldenExecutor, StAsyncIntoOwnCta) {
  m_->set_mbar(0, 0x100, MbarState{0, 1, 1, 0});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  o.addr[0] = 0x200;  // rank 0 = the executing CTA
  o.mbar[0] = 0x100;
  set_src(o, 0, 0, 0x42);
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(shared(0, 0x200, 1), bytes({0x42}));
}

TEST_F(GoldenExecutor, StAsyncMbarInOtherCtaIsMismatch) {
  m_->set_mbar(0, 0x100, MbarState{0, 0, 1, 4});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  o.addr[0] = kStride + 0x200;  // data in CTA 1
  o.mbar[0] = 0x100;            // barrier in CTA 0
  set_src(o, 0, 0, 0x42);
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault[0].kind, FaultKind::MbarCtaMismatch);
  EXPECT_EQ(r.fault[0].addr, 0x100u);
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_TRUE(r.mbar.empty());
  EXPECT_EQ(shared(1, 0x200, 1), bytes({kFill}));
  EXPECT_EQ(m_->mbar(0, 0x100), (MbarState{0, 0, 1, 4}));
}

TEST_F(GoldenExecutor, StAsyncUninitialisedBarrierFaults) {
  m_->set_mbar(1, 0x100, MbarState{});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  o.addr[0] = kStride + 0x200;
  o.mbar[0] = kStride + 0x100;
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault[0].kind, FaultKind::MbarUninitialized);
  EXPECT_EQ(shared(1, 0x200, 1), bytes({kFill}));
}

TEST_F(GoldenExecutor, StAsyncMisalignedBarrierFaults) {
  m_->set_mbar(1, 0x100, MbarState{0, 1, 1, 0});
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  o.addr[0] = kStride + 0x200;
  o.mbar[0] = kStride + 0x104;
  const StoreResult& r = run(ins, o);
  EXPECT_EQ(r.fault[0].kind, FaultKind::MbarMisaligned);
}

// Undefined by the ISA; the H200 stores and completes the transaction (docs/golden.md).
TEST_F(GoldenExecutor, StAsyncInAClusterOfOneStoresToItsOwnCta) {
  start(config(1));
  m_->set_mbar(0, 0x100, MbarState{0, 0, 1, 16});  // waits for 16 bytes, no arrival pending
  const isa::Instruction ins = parse(kStAsync);
  WarpOperands o = operands(ins);
  for (unsigned l = 0; l < 4; ++l) {
    o.addr[l] = 0x200 + 4 * l;
    o.mbar[l] = 0x100;
    set_src(o, 0, l, 0x77u + l);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xF});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(shared(0, 0x200, 8), bytes({0x77, 0, 0, 0, 0x78, 0, 0, 0}));
  EXPECT_EQ(shared(0, 0x20C, 4), bytes({0x7A, 0, 0, 0}));
  // 4 lanes x 4 bytes: tx 16 -> 0 with nothing pending: the phase completes (pending reset).
  EXPECT_EQ(m_->mbar(0, 0x100), (MbarState{1, 1, 1, 0}));
}

TEST_F(GoldenExecutor, StAsyncReleaseFormIsStrongGlobalStore) {
  const StoreResult& r = run1("st.async.release.gpu.global.u32 [%rd1], %r1;", kG + 0x20, 0x99u);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.order.sem, isa::Sem::Release);
  EXPECT_TRUE(r.order.strong);
  EXPECT_TRUE(r.order.release);
  EXPECT_TRUE(r.order.async);
  EXPECT_EQ(global(kG + 0x20, 1), bytes({0x99}));
}

// --- tcgen05.st --------------------------------------------------------------------------

constexpr const char* kTc32x2 = "tcgen05.st.sync.aligned.32x32b.x2.b32 [%r1], {%r2, %r3};";

uint32_t tmem_at(const MachineState& m, uint32_t cta, uint32_t lane, uint32_t col) {
  const CtaState& c = m.cta(cta);
  return c.tmem.empty() ? 0 : c.tmem[lane * kTmemColumns + col];
}

TEST_F(GoldenExecutor, Tcgen05_32x32bX2WritesLaneTColumnJ) {
  CtaState& cta = m_->cta(0);
  ASSERT_EQ(cta.tmem_alloc.alloc(32), std::optional<uint32_t>(0u));
  ASSERT_EQ(cta.tmem_alloc.alloc(32), std::optional<uint32_t>(32u));
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) {
    o.addr[t] = 32;  // lane 0, column 32
    set_src(o, 0, t, 0x1000 + t);
    set_src(o, 1, t, 0x2000 + t);
  }
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.stored_mask, 0xFFFFFFFFu);
  EXPECT_EQ(r.bytes, 256u);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(tmem_at(*m_, 0, t, 32), 0x1000 + t) << t;
    EXPECT_EQ(tmem_at(*m_, 0, t, 33), 0x2000 + t) << t;
    EXPECT_EQ(tmem_at(*m_, 0, t, 34), 0u) << t;
    EXPECT_EQ(tmem_at(*m_, 0, t, 31), 0u) << t;
  }
  EXPECT_EQ(tmem_at(*m_, 0, 32, 32), 0u);
  ASSERT_EQ(r.tmem.size(), 32u);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.tmem[t].lane, t);
    EXPECT_EQ(r.tmem[t].col, 32u);
    EXPECT_EQ(r.tmem[t].col_mask, 0x3u);
    EXPECT_EQ(r.tmem[t].data[0], 0x1000 + t);
    EXPECT_EQ(r.tmem[t].data[1], 0x2000 + t);
    EXPECT_FALSE(r.tmem[t].unpacked);
  }
  EXPECT_TRUE(r.lines.empty());
  EXPECT_TRUE(r.order.async);
}

TEST_F(GoldenExecutor, Tcgen05Warp1AddressingLane0IsLaneQuarterFault) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) set_src(o, 0, t, 0xBAD);  // addr 0: lane 0, column 0
  const StoreResult& r = run(ins, o, WarpContext{0, 1, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0xFFFFFFFFu);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.fault[t].kind, FaultKind::TmemLaneQuarter) << t;
    EXPECT_EQ(r.fault[t].addr, (TmemAddr{t, 0}.encode())) << t;  // its first cell
  }
  EXPECT_EQ(r.stored_mask, 0u);
  EXPECT_TRUE(r.tmem.empty());
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(tmem_at(*m_, 0, t, 0), 0u);
}

TEST_F(GoldenExecutor, Tcgen05Warp1ItsOwnQuarterWorks) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) {
    o.addr[t] = TmemAddr{32, 0}.encode();  // 0x0020_0000
    set_src(o, 0, t, t);
    set_src(o, 1, t, 100 + t);
  }
  // Warp 5 is in quarter 5 % 4 = 1 too.
  const StoreResult& r = run(ins, o, WarpContext{0, 5, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(tmem_at(*m_, 0, 32, 0), 0u);
  EXPECT_EQ(tmem_at(*m_, 0, 32, 1), 100u);
  EXPECT_EQ(tmem_at(*m_, 0, 63, 0), 31u);
  EXPECT_EQ(tmem_at(*m_, 0, 63, 1), 131u);
}

TEST_F(GoldenExecutor, Tcgen05ColumnOutsideAllocationFaults) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());  // columns 0..31
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) o.addr[t] = 31;  // columns 31 and 32
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0xFFFFFFFFu);
  EXPECT_EQ(r.fault[0].kind, FaultKind::TmemColumnRange);
  EXPECT_EQ(r.fault[7].addr, (TmemAddr{7, 32}.encode()));
  EXPECT_EQ(tmem_at(*m_, 0, 0, 31), 0u);  // not even the allocated column
}

TEST_F(GoldenExecutor, Tcgen05NonUniformTaddrFaultsEveryLane) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(64).has_value());
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) {
    o.addr[t] = 0;
    set_src(o, 0, t, 0x77);
  }
  o.addr[5] = 2;
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0xFFFFFFFFu);
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(r.fault[t].kind, FaultKind::TmemAddrNotUniform);
  EXPECT_EQ(r.fault[5].addr, 2u);
  EXPECT_TRUE(r.tmem.empty());
  EXPECT_EQ(tmem_at(*m_, 0, 0, 0), 0u);
}

TEST_F(GoldenExecutor, Tcgen05InactiveThreadsFaultActiveLanes) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());
  const isa::Instruction ins = parse(kTc32x2);
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) set_src(o, 0, t, 0x77);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0x7FFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0x7FFFFFFFu);
  EXPECT_EQ(r.fault[0].kind, FaultKind::TmemInactiveThreads);
  EXPECT_EQ(r.fault[30].kind, FaultKind::TmemInactiveThreads);
  EXPECT_EQ(r.fault[31].kind, FaultKind::None);  // inactive: no fault of its own
  EXPECT_TRUE(r.tmem.empty());
  EXPECT_EQ(tmem_at(*m_, 0, 0, 0), 0u);
}

TEST_F(GoldenExecutor, Tcgen05Unpack16bSplitsHalvesIntoAdjacentColumns) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());
  const isa::Instruction ins =
      parse("tcgen05.st.sync.aligned.32x32b.x1.unpack::16b.b32 [%r1], {%r2};");
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) set_src(o, 0, t, 0xBEEF0000u | t);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  // Bits 15:0 of each cell (the upper half is not specified by the hardware).
  EXPECT_EQ(tmem_at(*m_, 0, 9, 0) & 0xFFFF, 9u);
  EXPECT_EQ(tmem_at(*m_, 0, 9, 1) & 0xFFFF, 0xBEEFu);
  ASSERT_EQ(r.tmem.size(), 32u);
  EXPECT_TRUE(r.tmem[0].unpacked);
  EXPECT_EQ(r.tmem[0].col_mask, 0x3u);
}

TEST_F(GoldenExecutor, Tcgen05_16x64bPlacesThreadsByTable) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(32).has_value());
  const isa::Instruction ins = parse("tcgen05.st.sync.aligned.16x64b.x1.b32 [%r1], {%r2};");
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) set_src(o, 0, t, 0xF00 + t);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  // t = 7: lane 7/4 + 8 = 9, column (7>>1)&1 = 1.  t = 12: lane 3, column 0.
  EXPECT_EQ(tmem_at(*m_, 0, 9, 1), 0xF07u);
  EXPECT_EQ(tmem_at(*m_, 0, 3, 0), 0xF0Cu);
  EXPECT_EQ(tmem_at(*m_, 0, 16, 0), 0u);  // 16 lanes only
  EXPECT_EQ(r.bytes, 128u);
}

TEST_F(GoldenExecutor, Tcgen05_16x32bx2SecondHalfAtSplitOffset) {
  ASSERT_TRUE(m_->cta(0).tmem_alloc.alloc(128).has_value());
  const isa::Instruction ins = parse("tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%r1], 64, {%r2};");
  WarpOperands o = operands(ins);
  for (unsigned t = 0; t < 32; ++t) set_src(o, 0, t, 0xA00 + t);
  const StoreResult& r = run(ins, o, WarpContext{0, 0, 0xFFFFFFFFu});
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(tmem_at(*m_, 0, 3, 0), 0xA03u);   // thread 3: first access
  EXPECT_EQ(tmem_at(*m_, 0, 3, 64), 0xA13u);  // thread 19: lane 3, taddr + 64
  EXPECT_EQ(tmem_at(*m_, 0, 19, 0), 0u);
}

// --- SASS ST (seed 002) ------------------------------------------------------------------

class GoldenSass : public GoldenExecutor {
 protected:
  const StoreResult& run_sass(const std::string& text, uint32_t active = 0x1) {
    const isa::SassSt s = parse_sass(text);
    execute_sass(*m_, s, WarpContext{0, 0, active}, rf_, out_, scratch_);
    return out_;
  }
  // {R3, R2} = a 64-bit address for lane 0.
  void pair(unsigned lane, unsigned reg, uint64_t v) {
    rf_.write(lane, reg, uint32_t(v));
    rf_.write(lane, reg + 1, uint32_t(v >> 32));
  }
  SassRegisterFile rf_;
};

TEST_F(GoldenSass, EPairAddressPlusOffset) {
  pair(0, 2, kG + 0x100);
  rf_.write(0, 5, 0xCAFEF00D);
  const StoreResult& r = run_sass("ST.E [R2 + 0x10], R5;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(global(kG + 0x110, 5), bytes({0x0D, 0xF0, 0xFE, 0xCA, kFill}));
  EXPECT_EQ(sass_address(parse_sass("ST.E [R2 + 0x10], R5;"), rf_, 0, 255), 0x1'0000'0110ull);
}

TEST_F(GoldenSass, WithoutEOnlyRaIsTheBase) {
  pair(0, 2, kG + 0x100);  // R3 = 1 must be ignored without .E
  EXPECT_EQ(sass_address(parse_sass("ST [R2 + 0x10], R5;"), rf_, 0, 255), 0x110u);
}

TEST_F(GoldenSass, AbsoluteImmediateIsZeroExtended) {
  EXPECT_EQ(sass_address(parse_sass("ST [0x80000000], R5;"), rf_, 0, 255), 0x8000'0000ull);
  EXPECT_EQ(sass_address(parse_sass("ST [0xFFFFFFF0], R5;"), rf_, 0, 255), 0xFFFF'FFF0ull);
}

TEST_F(GoldenSass, RzBaseIsAbsolute) {
  EXPECT_EQ(sass_address(parse_sass("ST [RZ + 0x40], R5;"), rf_, 0, 255), 0x40u);
  EXPECT_EQ(sass_address(parse_sass("ST.E [RZ + 0x40], R5;"), rf_, 0, 255), 0x40u);
}

TEST_F(GoldenSass, RaBeyondRegisterCountIsAbsolute) {
  rf_.write(0, 20, 0x12345);
  EXPECT_EQ(sass_address(parse_sass("ST [R20 + 0x40], R5;"), rf_, 0, 16), 0x40u);
  EXPECT_EQ(sass_address(parse_sass("ST [R20 + 0x40], R5;"), rf_, 0, 255), 0x12385u);
}

TEST_F(GoldenSass, AbsoluteStoreLandsAtZeroExtendedAddress) {
  ASSERT_TRUE(m_->allocations().add(0x8000'0000ull, 0x100));
  rf_.write(0, 5, 0x01020304);
  const StoreResult& r = run_sass("ST [0x80000000], R5;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(global(0x8000'0000ull, 4), bytes({0x04, 0x03, 0x02, 0x01}));
}

TEST_F(GoldenSass, NegativeOffsetIsSignExtended) {
  pair(0, 2, kG + 0x20);
  rf_.write(0, 5, 0xAB);
  const StoreResult& r = run_sass("ST.E [R2 - 0x10], R5;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(global(kG + 0x10, 1), bytes({0xAB}));
  // Across the 4 GiB boundary: 0x1_0000_0000 - 8 = 0xFFFF_FFF8, not 0x1_FFFF_FFF8.
  pair(0, 2, kG);
  EXPECT_EQ(sass_address(parse_sass("ST.E [R2 + -8], R5;"), rf_, 0, 255), 0xFFFF'FFF8ull);
}

TEST_F(GoldenSass, AddressWithoutDotEIsA32BitAddress) {
  // Without .E the address is 32 bits wide (seed: .E is the "extended address (64 bits)"), so
  // Ra + sext(imm) wraps modulo 2^32: 4 + (-8) = 0xFFFF_FFFC, zero-extended.
  rf_.write(0, 2, 4);
  EXPECT_EQ(sass_address(parse_sass("ST [R2 + -8], R5;"), rf_, 0, 255), 0xFFFF'FFFCull);
  rf_.write(0, 2, 0xFFFF'FFF0u);
  EXPECT_EQ(sass_address(parse_sass("ST [R2 + 0x20], R5;"), rf_, 0, 255), 0x10u);
}

TEST_F(GoldenSass, St64FromConsecutiveRegisters) {
  pair(0, 2, kG + 0x40);
  rf_.write(0, 4, 0x11223344);
  rf_.write(0, 5, 0x55667788);
  const StoreResult& r = run_sass("ST.E.64 [R2], R4;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(global(kG + 0x40, 9), bytes({0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55, kFill}));
}

TEST_F(GoldenSass, St128FromFourRegisters) {
  pair(0, 2, kG + 0x80);
  for (unsigned i = 0; i < 4; ++i) rf_.write(0, 8 + i, 0xA0A0A0A0u + 0x01010101u * i);
  run_sass("ST.E.128 [R2], R8;");
  EXPECT_EQ(global(kG + 0x80, 16), bytes({0xA0, 0xA0, 0xA0, 0xA0, 0xA1, 0xA1, 0xA1, 0xA1, 0xA2,
                                          0xA2, 0xA2, 0xA2, 0xA3, 0xA3, 0xA3, 0xA3}));
}

TEST_F(GoldenSass, St8StoresLowByte) {
  pair(0, 2, kG);
  rf_.write(0, 4, 0x11223344);
  run_sass("ST.E.U8 [R2 + 1], R4;");
  EXPECT_EQ(global(kG, 3), bytes({kFill, 0x44, kFill}));
}

TEST_F(GoldenSass, StRzStoresZero) {
  pair(0, 2, kG);
  run_sass("ST.E [R2], RZ;");
  EXPECT_EQ(global(kG, 4), bytes({0, 0, 0, 0}));
}

TEST_F(GoldenSass, MisalignedFaultsInFaultMode) {
  pair(0, 2, kG);
  rf_.write(0, 5, 0x12345678);
  const StoreResult& r = run_sass("ST.E [R2 + 6], R5;");
  EXPECT_EQ(r.fault[0].kind, FaultKind::Misaligned);
  EXPECT_EQ(r.fault[0].addr, kG + 6);
  EXPECT_EQ(r.forced_align_mask, 0u);
  EXPECT_EQ(global(kG, 12), std::vector<uint8_t>(12, kFill));
}

TEST_F(GoldenSass, MisalignedIsForcedDownInForceAlignMode) {
  ModelConfig c = config();
  c.sass_misalign = MisalignMode::ForceAlign;
  start(c);
  pair(0, 2, kG);
  rf_.write(0, 5, 0x12345678);
  const StoreResult& r = run_sass("ST.E [R2 + 6], R5;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(r.forced_align_mask, 0x1u);
  EXPECT_EQ(global(kG, 12), bytes({kFill, kFill, kFill, kFill, 0x78, 0x56, 0x34, 0x12, kFill, kFill,
                                   kFill, kFill}));
}

TEST_F(GoldenSass, ForceAlign64DownToEightBytes) {
  ModelConfig c = config();
  c.sass_misalign = MisalignMode::ForceAlign;
  start(c);
  pair(0, 2, kG + 0x1C);
  rf_.write(0, 4, 0x11111111);
  rf_.write(0, 5, 0x22222222);
  run_sass("ST.E.64 [R2], R4;");  // 0x1C -> 0x18
  EXPECT_EQ(global(kG + 0x18, 8), bytes({0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22}));
}

TEST_F(GoldenSass, PlgFalseStoresToSharedWindow) {
  pair(0, 2, kShared + 0x40);
  rf_.write(0, 5, 0xD00D);
  rf_.set_pred(0, 0, false);
  const StoreResult& r = run_sass("ST.E [R2], R5, P0;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(shared(0, 0x40, 4), bytes({0x0D, 0xD0, 0, 0}));
}

TEST_F(GoldenSass, PlgDefaultTrueToSharedWindowIsMismatch) {
  pair(0, 2, kShared + 0x40);
  const StoreResult& r = run_sass("ST.E [R2], R5;");
  EXPECT_EQ(r.fault[0].kind, FaultKind::PlgMismatch);
  EXPECT_EQ(shared(0, 0x40, 1), bytes({kFill}));
}

TEST_F(GoldenSass, PlgFalseToGlobalIsMismatch) {
  pair(0, 2, kG);
  rf_.set_pred(0, 0, false);
  const StoreResult& r = run_sass("ST.E [R2], R5, P0;");
  EXPECT_EQ(r.fault[0].kind, FaultKind::PlgMismatch);
  EXPECT_EQ(global(kG, 1), bytes({kFill}));
}

TEST_F(GoldenSass, PlgNegatedTruePredicateIsFalse) {
  pair(0, 2, kShared + 0x40);
  rf_.set_pred(0, 1, true);
  const StoreResult& r = run_sass("ST.E [R2], R5, !P1;");
  EXPECT_EQ(r.fault_mask, 0u);
}

TEST_F(GoldenSass, PlgTrueToLocalWindowStoresLocal) {
  pair(0, 2, kLocal + 0x8);
  rf_.write(0, 5, 0x3C);
  const StoreResult& r = run_sass("ST.E [R2], R5;");
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(read(*m_, Dest{MemSpace::Local, 0, 0}, 0x8, 1), bytes({0x3C}));
}

TEST_F(GoldenSass, GuardFalseLaneDoesNotExecute) {
  for (unsigned l = 0; l < 2; ++l) {
    pair(l, 2, kG + 4 * l);
    rf_.write(l, 5, 0x10 + l);
  }
  rf_.set_pred(0, 1, true);
  rf_.set_pred(1, 1, false);
  const StoreResult& r = run_sass("@P1 ST.E [R2], R5;", 0x3);
  EXPECT_EQ(r.stored_mask, 0x1u);
  EXPECT_EQ(r.fault_mask, 0u);
  EXPECT_EQ(global(kG, 8), bytes({0x10, 0, 0, 0, kFill, kFill, kFill, kFill}));
}

TEST_F(GoldenSass, NegatedGuard) {
  for (unsigned l = 0; l < 2; ++l) {
    pair(l, 2, kG + 4 * l);
    rf_.write(l, 5, 0x10 + l);
  }
  rf_.set_pred(0, 1, true);
  rf_.set_pred(1, 1, false);
  const StoreResult& r = run_sass("@!P1 ST.E [R2], R5;", 0x3);
  EXPECT_EQ(r.stored_mask, 0x2u);
  EXPECT_EQ(global(kG, 8), bytes({kFill, kFill, kFill, kFill, 0x11, 0, 0, 0}));
}

TEST_F(GoldenSass, OutsideAllocationFaults) {
  pair(0, 2, kG + kGSize);
  const StoreResult& r = run_sass("ST.E [R2], R5;");
  EXPECT_EQ(r.fault[0].kind, FaultKind::OutOfAllocation);
}

TEST_F(GoldenSass, CoalescedWarpIsOneLine) {
  for (unsigned l = 0; l < 32; ++l) {
    pair(l, 2, kG + 0x200 + 4 * l);
    rf_.write(l, 5, l);
  }
  const StoreResult& r = run_sass("ST.E [R2], R5;", 0xFFFFFFFFu);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].line, kG + 0x200);
  EXPECT_EQ(r.lines[0].sector_mask, 0xF);
  EXPECT_EQ(r.bytes, 128u);
}

}  // namespace
