// Workloads (systemc/workload.h): every built-in generator runs its whole stream on the golden
// model without a fault, and the trace adapter maps records to stores. Expectations are
// computed by hand from the generators' descriptions (docs/tlm.md, "Workloads").
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "stu/golden/executor.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/state.h"
#include "stu/isa/target.h"
#include "stu/isa/validator.h"
#include "trace_dispatch.h"
#include "workload.h"

namespace stu::sim {
namespace {

using golden::MachineState;
using golden::StoreResult;

constexpr std::uint64_t kBase = 0x10'0000'0000ull;  // the generators' global base

// What running a workload on the golden model gave.
struct RunStats {
  std::uint64_t ops = 0, stores = 0, arrives = 0, waits = 0, tmem_waits = 0, fences = 0;
  std::uint64_t faults = 0;  // stores with a fault
  std::uint64_t bytes = 0;
  std::vector<std::size_t> lines;  // lines of each store, in order (the first `keep`)
  std::vector<WarpOp> first;       // the first `keep` ops
};

// Runs every op: stores through golden::execute; arrives as mbar_step(ArriveExpectTx) on the
// barrier; waits check that the phase waited for has completed.
RunStats run(Workload& w, MachineState& m, std::size_t keep = 16) {
  RunStats st;
  StoreResult out;
  golden::Scratch scratch;
  WarpOp op;
  while (w.next(op)) {
    ++st.ops;
    if (st.first.size() < keep) st.first.push_back(op);
    switch (op.kind) {
      case OpKind::Store: {
        ++st.stores;
        golden::execute(m, *op.ins, op.ctx, op.ops, out, scratch);
        if (out.fault_mask != 0) {
          if (st.faults == 0)
            ADD_FAILURE() << w.name() << ": op " << st.ops - 1 << " faults lanes 0x" << std::hex
                          << out.fault_mask << " ("
                          << golden::to_string(out.fault[__builtin_ctz(out.fault_mask)].kind)
                          << ")";
          ++st.faults;
        }
        st.bytes += out.bytes;
        if (st.lines.size() < keep) st.lines.push_back(out.lines.size());
        break;
      }
      case OpKind::MbarArrive: {
        ++st.arrives;
        const golden::MbarOp mop =
            op.tx_bytes ? golden::MbarOp{golden::MbarOpKind::ArriveExpectTx, op.tx_bytes}
                        : golden::MbarOp{golden::MbarOpKind::Arrive, 1};
        const golden::MbarStep s = golden::mbar_step(m.mbar(op.ctx.cta, op.mbar_offset), mop);
        EXPECT_EQ(s.fault, golden::FaultKind::None) << "arrive, op " << st.ops - 1;
        m.set_mbar(op.ctx.cta, op.mbar_offset, s.next);
        break;
      }
      case OpKind::MbarWait: {
        ++st.waits;
        // The phase with parity `parity` has completed once the current phase differs.
        EXPECT_NE(m.mbar(op.ctx.cta, op.mbar_offset).phase, op.parity)
            << "wait before its phase completed, op " << st.ops - 1;
        break;
      }
      case OpKind::TmemWait:
        ++st.tmem_waits;
        break;
      case OpKind::Fence:
        ++st.fences;
        break;
    }
  }
  EXPECT_EQ(w.error(), "");
  return st;
}

GenParams params(std::uint64_t warps) {
  GenParams p;
  p.warps = warps;
  return p;
}

std::unique_ptr<Workload> make(const std::string& name, const GenParams& p) {
  std::string err;
  auto w = make_generator(name, p, err);
  EXPECT_TRUE(w) << name << ": " << err;
  EXPECT_EQ(err, "");
  return w;
}

// A fresh model for `w`, set up.
std::unique_ptr<MachineState> machine(const Workload& w) {
  const golden::ModelConfig cfg = w.model_config();
  EXPECT_EQ(cfg.check(), "") << w.name();
  auto m = std::make_unique<MachineState>(cfg);
  std::string err;
  EXPECT_TRUE(w.setup(*m, err)) << w.name() << ": " << err;
  return m;
}

std::uint32_t read_u32(const MachineState& m, golden::Dest d, std::uint64_t a) {
  std::uint8_t b[4];
  EXPECT_TRUE(m.read(d, a, b, 4));
  std::uint32_t v;
  std::memcpy(&v, b, 4);
  return v;
}

const golden::Dest kGlobal{golden::MemSpace::Global, 0, 0};

// --- every generator ------------------------------------------------------------------------

struct GenCase {
  const char* name;
  std::uint64_t ops;  // for warps = 64
  std::uint64_t stores;
};

class SimWorkloadGen : public ::testing::TestWithParam<GenCase> {};

TEST_P(SimWorkloadGen, RunsCleanOnGolden) {
  const GenCase& c = GetParam();
  GenParams p = params(64);
  p.sms = 3;
  auto w = make(c.name, p);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->name(), c.name);
  EXPECT_EQ(w->size_hint(), c.ops);
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.ops, c.ops);
  EXPECT_EQ(st.stores, c.stores);
  EXPECT_EQ(st.faults, 0u);
  EXPECT_GT(st.bytes, 0u);
  for (const WarpOp& op : st.first) EXPECT_LT(op.sm, 4u);  // 3 SMs, or the 4 ring CTAs
}

// dsmem_ring: 64 stores = 16 rounds of (4 arrives, 4 stores, 4 waits). tcgen05_epilogue:
// 16 rounds of 4 stores, a wait per warp after every 4 rounds: 64 + 4 x 4.
INSTANTIATE_TEST_SUITE_P(
    All, SimWorkloadGen,
    ::testing::Values(GenCase{"stream", 64, 64}, GenCase{"stream_v4b64", 64, 64},
                      GenCase{"strided", 64, 64}, GenCase{"scatter", 64, 64},
                      GenCase{"partial", 64, 64}, GenCase{"bank_conflict", 64, 64},
                      GenCase{"dsmem_ring", 192, 64}, GenCase{"tcgen05_epilogue", 80, 64},
                      GenCase{"flag_publish", 64, 64}, GenCase{"mmio", 64, 64},
                      GenCase{"chain_l2", 64, 64}, GenCase{"sm_chain", 64, 64},
                      GenCase{"dsmem_pair", 66, 64}),
    [](const auto& info) { return std::string(info.param.name); });

// Every instruction a generator emits is valid PTX for sm_100a, PTX ISA 9.0 (stream width 32
// and stream_v4b64 need sm_100 and 8.8; tcgen05.st and st.async sm_100a / sm_90).
TEST(SimWorkload, InstructionsValidateForSm100a) {
  const isa::CheckContext ctx{*isa::Target::parse("sm_100a"), isa::ptx(9, 0), nullptr};
  for (const GeneratorInfo& g : generators()) {
    for (std::uint32_t width : {1u, 2u, 4u, 8u, 16u, 32u}) {
      GenParams p = params(64);
      p.width = width;
      std::string err;
      auto w = make_generator(g.name, p, err);
      ASSERT_TRUE(w) << g.name << ": " << err;
      WarpOp op;
      while (w->next(op)) {
        if (op.kind != OpKind::Store) continue;
        Diagnostics d;
        EXPECT_TRUE(isa::validate(*op.ins, ctx, d))
            << g.name << " width " << width << ": "
            << (d.all().empty() ? "" : d.all().front().message);
      }
    }
  }
}

// No generator races (docs/tlm.md, "Always checked"): a byte of any space is written by one
// warp (SM, CTA, warp) only, or, where several warps write it, only warps the workload orders
// (dsmem_ring: each round's writers wait on the mbarrier of the round before). A race would
// leave the golden-image check comparing one ordering of the racing stores with another: the
// model's timing, not its correctness, would decide the final value. 132 SMs as on h100.
TEST(SimWorkload, GeneratorsNeverRaceAcrossWarps) {
  for (const GeneratorInfo& g : generators()) {
    if (g.name == "dsmem_ring") continue;  // ordered by its mbarrier waits (its own test)
    GenParams p = params(1024);
    p.sms = 132;
    auto w = make(g.name, p);
    ASSERT_TRUE(w);
    auto m = machine(*w);
    // (space, CTA, byte offset) -> the first writer (sm, cta, warp), packed.
    std::map<std::tuple<int, unsigned, std::uint64_t>, std::uint64_t> writer;
    StoreResult out;
    golden::Scratch scratch;
    WarpOp op;
    std::uint64_t i = 0, races = 0;
    std::string first;
    auto mark = [&](int space, unsigned cta, std::uint64_t at, const WarpOp& o) {
      const std::uint64_t who =
          (std::uint64_t(o.sm) << 32) | (std::uint64_t(o.ctx.cta) << 16) | o.ctx.warp;
      auto [it, fresh] = writer.emplace(std::make_tuple(space, cta, at), who);
      if (fresh || it->second == who) return;
      if (races++ == 0) {
        std::ostringstream os;
        os << "op " << i << " (sm " << o.sm << ", warp " << o.ctx.warp << ") writes byte 0x"
           << std::hex << at << std::dec << " of space " << space << ", first written by sm "
           << (it->second >> 32) << " warp " << (it->second & 0xffff);
        first = os.str();
      }
    };
    for (; w->next(op); ++i) {
      if (op.kind != OpKind::Store) continue;
      golden::execute(*m, *op.ins, op.ctx, op.ops, out, scratch);
      for (const golden::LineRequest& l : out.lines)
        for (unsigned b = 0; b < golden::kLineBytes; ++b)
          if (l.bytes.test(b))
            mark(int(l.dest.space), l.dest.space == golden::MemSpace::Global ? 0 : l.dest.cta,
                 l.line + b, op);
      for (const golden::TmemWrite& t : out.tmem)
        for (unsigned c = 0; c < 32; ++c)
          if ((t.col_mask >> c) & 1)
            mark(int(golden::MemSpace::Tmem), t.cta, (std::uint64_t(t.lane) << 16) | (t.col + c),
                 op);
    }
    EXPECT_EQ(races, 0u) << g.name << ": " << first;
  }
}

// Longer streams wrap (buffers, TMEM columns, footprints) and stay fault-free.
TEST(SimWorkload, WrappedStreamsStayClean) {
  for (const GeneratorInfo& g : generators()) {
    GenParams p = params(3000);
    p.footprint = 1 << 16;
    auto w = make(g.name, p);
    ASSERT_TRUE(w);
    auto m = machine(*w);
    const RunStats st = run(*w, *m);
    EXPECT_EQ(st.faults, 0u) << g.name;
    EXPECT_EQ(st.ops, w->size_hint()) << g.name;
  }
}

TEST(SimWorkload, ListNamesEveryGenerator) {
  std::vector<std::string> names;
  for (const GeneratorInfo& g : generators()) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"stream", "stream_v4b64", "strided", "scatter",
                                             "partial", "bank_conflict", "dsmem_ring",
                                             "tcgen05_epilogue", "flag_publish", "mmio", "chain_l2",
                                             "dsmem_pair", "sm_chain"}));
}

// --- stream ---------------------------------------------------------------------------------

TEST(SimWorkload, StreamWidth4FirstOpIsOneFullLine) {
  auto w = make("stream", params(8));
  auto m = machine(*w);
  WarpOp op;
  ASSERT_TRUE(w->next(op));
  ASSERT_EQ(op.kind, OpKind::Store);
  StoreResult out;
  golden::Scratch scratch;
  golden::execute(*m, *op.ins, op.ctx, op.ops, out, scratch);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].dest, kGlobal);
  EXPECT_EQ(out.lines[0].line, kBase);
  EXPECT_EQ(out.lines[0].bytes.count(), 128u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xF);
  // Lane l's word is the low 32 bits of op_value(0, l, 0).
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(read_u32(*m, kGlobal, kBase + 4 * l), std::uint32_t(op_value(0, l, 0).lo));
  // Op 1: the next 128 bytes.
  ASSERT_TRUE(w->next(op));
  EXPECT_EQ(op.ops.addr[0], kBase + 128);
  EXPECT_EQ(op.ops.addr[31], kBase + 128 + 124);
}

// `instructions` x: op i issues floor((i+1)x) - floor(ix), so 2.5 gives 2, 3, 2, 3 and any
// stretch of ops averages x; 0 leaves every op at 0 (not counted).
TEST(SimWorkload, InstructionsSpreadEvenlyOverOps) {
  GenParams p = params(8);
  p.instructions = 2.5;
  auto w = make("stream", p);
  WarpOp op;
  for (float want : {2.0f, 3.0f, 2.0f, 3.0f}) {
    ASSERT_TRUE(w->next(op));
    EXPECT_EQ(op.instructions, want);
  }
  auto plain = make("stream", params(8));
  ASSERT_TRUE(plain->next(op));
  EXPECT_EQ(op.instructions, 0.0f);
  std::string e;
  p.instructions = -1;
  EXPECT_EQ(make_generator("stream", p, e), nullptr);
  EXPECT_EQ(e, "instructions: must be in 0..65536 (got -1.000000)");
}

TEST(SimWorkload, StreamEveryWidth) {
  // 32 lanes x width bytes: width 1 fills a quarter line, 32 fills eight lines.
  const std::pair<std::uint32_t, std::size_t> cases[] = {{1, 1}, {2, 1},  {4, 1},
                                                         {8, 2}, {16, 4}, {32, 8}};
  for (auto [width, lines] : cases) {
    GenParams p = params(40);
    p.width = width;
    auto w = make("stream", p);
    ASSERT_TRUE(w);
    auto m = machine(*w);
    const RunStats st = run(*w, *m);
    EXPECT_EQ(st.faults, 0u) << width;
    EXPECT_EQ(st.bytes, 40u * 32 * width) << width;
    EXPECT_EQ(st.lines[0], lines) << width;
  }
}

TEST(SimWorkload, StreamWrapsInFootprint) {
  GenParams p = params(5);
  p.footprint = 512;  // 4 chunks of 128 bytes: op 4 is at the base again
  auto w = make("stream", p);
  WarpOp op;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(w->next(op));
  EXPECT_EQ(op.ops.addr[0], kBase);
  EXPECT_FALSE(w->next(op));
}

TEST(SimWorkload, StreamIsLazy) {
  // A trillion ops: nothing is materialised, the count is known, ops come one at a time.
  auto w = make("stream", params(1'000'000'000'000ull));
  EXPECT_EQ(w->size_hint(), 1'000'000'000'000ull);
  WarpOp op;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(w->next(op));
  EXPECT_EQ(op.ops.addr[0], kBase + 2 * 128);
}

// --- strided, partial, scatter ----------------------------------------------------------------

TEST(SimWorkload, StridedLanes) {
  GenParams p = params(2);
  p.width = 8;
  p.stride = 256;
  auto w = make("strided", p);
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.faults, 0u);
  EXPECT_EQ(st.first[1].ops.addr[0], kBase + 32 * 256);
  EXPECT_EQ(st.first[1].ops.addr[3], kBase + 32 * 256 + 3 * 256);
  EXPECT_EQ(st.lines[0], 32u);  // every lane its own line
}

TEST(SimWorkload, PartialSectors) {
  auto w = make("partial", params(3));
  auto m = machine(*w);
  WarpOp op;
  StoreResult out;
  golden::Scratch scratch;
  // Op 0: b8 at 4l: one line, every sector, 8 bytes of each.
  ASSERT_TRUE(w->next(op));
  golden::execute(*m, *op.ins, op.ctx, op.ops, out, scratch);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xF);
  EXPECT_EQ(out.lines[0].bytes.count(), 32u);
  // Op 1: b16 at 4l, even lanes: 16 lanes x 2 bytes in one line.
  ASSERT_TRUE(w->next(op));
  EXPECT_EQ(op.ctx.active, 0x55555555u);
  golden::execute(*m, *op.ins, op.ctx, op.ops, out, scratch);
  EXPECT_EQ(out.fault_mask, 0u);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].line, kBase + 256);
  EXPECT_EQ(out.lines[0].bytes.count(), 32u);
  // Op 2: b32 at 8l: 256 bytes, two lines half written.
  ASSERT_TRUE(w->next(op));
  golden::execute(*m, *op.ins, op.ctx, op.ops, out, scratch);
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(out.lines[0].bytes.count(), 64u);
  EXPECT_EQ(out.lines[1].bytes.count(), 64u);
}

TEST(SimWorkload, ScatterReproducesFromSeed) {
  GenParams p = params(20);
  p.seed = 42;
  auto a = make("scatter", p), b = make("scatter", p);
  p.seed = 43;
  auto c = make("scatter", p);
  WarpOp oa, ob, oc;
  bool differs = false;
  while (a->next(oa)) {
    ASSERT_TRUE(b->next(ob));
    ASSERT_TRUE(c->next(oc));
    EXPECT_EQ(oa.ops.addr, ob.ops.addr);
    differs |= oa.ops.addr != oc.ops.addr;
    for (unsigned l = 0; l < 32; ++l) {
      EXPECT_EQ(oa.ops.addr[l] % 4, 0u);
      EXPECT_GE(oa.ops.addr[l], kBase);
      EXPECT_LT(oa.ops.addr[l], kBase + (64ull << 20));
    }
  }
  EXPECT_TRUE(differs);
}

TEST(SimWorkload, ScatterNeverRepeatsAnAddress) {
  // A permutation of the slots: 200 warps x 32 lanes, all different (no two warps race).
  GenParams p = params(200);
  p.seed = 7;
  auto a = make("scatter", p);
  WarpOp op;
  std::set<std::uint64_t> seen;
  while (a->next(op))
    for (unsigned l = 0; l < 32; ++l) EXPECT_TRUE(seen.insert(op.ops.addr[l]).second);
  EXPECT_EQ(seen.size(), 200u * 32u);
}

// --- bank_conflict --------------------------------------------------------------------------

TEST(SimWorkload, BankConflictLinesPerOp) {
  // Lane i at i * stride: stride 4 is one 128-byte line, 8 two lines, 128 one line per lane.
  const std::pair<std::uint64_t, std::size_t> cases[] = {{4, 1}, {8, 2}, {32, 8}, {128, 32}};
  for (auto [stride, lines] : cases) {
    GenParams p = params(8);
    p.stride = stride;
    auto w = make("bank_conflict", p);
    ASSERT_TRUE(w);
    auto m = machine(*w);
    const RunStats st = run(*w, *m);
    EXPECT_EQ(st.faults, 0u);
    for (std::size_t n : st.lines) EXPECT_EQ(n, lines) << "stride " << stride;
    EXPECT_EQ(st.first[0].ops.addr[1], stride);
  }
}

TEST(SimWorkload, BankConflictDefaultStrideIs128) {
  auto w = make("bank_conflict", params(1));
  WarpOp op;
  ASSERT_TRUE(w->next(op));
  EXPECT_EQ(op.ops.addr[31], 31u * 128);
}

// --- dsmem_ring, tcgen05_epilogue, flag_publish, mmio ------------------------------------------

TEST(SimWorkload, DsmemRingDeliversToTheNextCta) {
  auto w = make("dsmem_ring", params(8));  // 2 rounds
  EXPECT_EQ(w->model_config().cluster_ctas, 4u);
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.ops, 24u);
  EXPECT_EQ(st.arrives, 8u);
  EXPECT_EQ(st.waits, 8u);
  EXPECT_EQ(st.faults, 0u);
  // Order of round 0: arrives of CTAs 0..3, stores, waits.
  for (unsigned i = 0; i < 12; ++i) {
    EXPECT_EQ(st.first[i].kind, i < 4   ? OpKind::MbarArrive
                                : i < 8 ? OpKind::Store
                                        : OpKind::MbarWait);
    EXPECT_EQ(st.first[i].sm, i % 4);
    EXPECT_EQ(st.first[i].ctx.cta, i % 4);
  }
  EXPECT_EQ(st.first[0].tx_bytes, 512u);
  EXPECT_EQ(st.first[8].parity, 0u);
  // Two phases done on every barrier: parity back to 0, one arrival pending.
  for (unsigned c = 0; c < 4; ++c) {
    const golden::MbarState s = m->mbar(c, 0);
    EXPECT_EQ(s.phase, 0u);
    EXPECT_EQ(s.pending, 1u);
    EXPECT_EQ(s.tx, 0);
  }
  // Round 0's store of CTA 3 (store number 3) landed in CTA 0's first slot (offset 0x400).
  const golden::Dest cta0{golden::MemSpace::Shared, 0, 0};
  EXPECT_EQ(read_u32(*m, cta0, 0x400), std::uint32_t(op_value(3, 0, 0).lo));
  EXPECT_EQ(read_u32(*m, cta0, 0x400 + 16 * 5 + 4), std::uint32_t(op_value(3, 5, 1).lo));
}

TEST(SimWorkload, Tcgen05EpilogueWritesTmem) {
  auto w = make("tcgen05_epilogue", params(4));  // one round: 4 stores, 4 waits
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.ops, 8u);
  EXPECT_EQ(st.tmem_waits, 4u);
  EXPECT_EQ(st.faults, 0u);
  EXPECT_EQ(st.bytes, 4u * 32 * 4 * 4);
  // Warp 2's 32x32b.x4 at (lane 64, column 0): register j of thread t -> lane 64+t, column j.
  const std::uint32_t* tm = m->cta(0).tmem_cells();
  EXPECT_EQ(tm[(64 + 7) * golden::kTmemColumns + 3], std::uint32_t(op_value(2, 7, 3).lo));
}

TEST(SimWorkload, FlagPublishOrdering) {
  auto w = make("flag_publish", params(32));
  auto m = machine(*w);
  const RunStats st = run(*w, *m, 32);
  EXPECT_EQ(st.faults, 0u);
  // 8 warps interleaved: ops 0..23 data, 24..31 the flags of group 0.
  for (unsigned i = 0; i < 32; ++i) {
    const golden::Ordering o = golden::ordering_of(*st.first[i].ins);
    EXPECT_EQ(st.first[i].ctx.warp, i % 8);
    if (i < 24) {
      EXPECT_FALSE(o.strong) << i;
    } else {
      EXPECT_TRUE(o.strong) << i;
      EXPECT_EQ(o.release, i % 2 == 0) << i;  // release when (group + warp) is even
      EXPECT_EQ(st.first[i].ctx.active, 1u);
    }
  }
  EXPECT_EQ(read_u32(*m, kGlobal, st.first[24].ops.addr[0]), 1u);  // group 0 publishes 1
}

TEST(SimWorkload, MmioRepeatsAddresses) {
  auto w = make("mmio", params(8));
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.faults, 0u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(st.first[i].ops.addr[0], kBase);
    EXPECT_TRUE(golden::ordering_of(*st.first[i].ins).mmio);
  }
  EXPECT_EQ(st.first[4].ops.addr[0], kBase + 4);
  EXPECT_EQ(st.first[7].ctx.active, 0xFFFFFFFFu);
}

// --- chain_l2 --------------------------------------------------------------------------------

// One lane of warp 0 on SM 0 (whatever `sms` says), a relaxed .gpu store to a new line each op
// (docs/calibration.md).
TEST(SimWorkload, ChainIsOneLaneStrongStoresToDistinctLines) {
  for (const char* name : {"chain_l2"}) {
    GenParams p = params(1000);
    p.sms = 4;
    auto w = make(name, p);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->size_hint(), 1000u);
    auto m = machine(*w);
    std::set<std::uint64_t> lines;
    WarpOp op;
    std::uint64_t n = 0;
    golden::Scratch scratch;
    while (w->next(op)) {
      ASSERT_EQ(op.kind, OpKind::Store);
      EXPECT_EQ(op.sm, 0u);
      EXPECT_EQ(op.ctx.cta, 0u);
      EXPECT_EQ(op.ctx.warp, 0u);
      EXPECT_EQ(op.ctx.active, 1u);
      const golden::Ordering o = golden::ordering_of(*op.ins);
      EXPECT_TRUE(o.strong) << name;
      EXPECT_FALSE(o.release) << name;
      EXPECT_FALSE(o.mmio) << name;
      EXPECT_EQ(op.ops.addr[0] % 128, 0u);
      lines.insert(op.ops.addr[0]);
      golden::StoreResult r;
      golden::execute(*m, *op.ins, op.ctx, op.ops, r, scratch);
      EXPECT_EQ(r.fault_mask, 0u) << name << " op " << n;
      EXPECT_EQ(r.lines.size(), 1u);
      ++n;
    }
    EXPECT_EQ(n, 1000u);
    EXPECT_EQ(lines.size(), 1000u) << name;  // every op its own line
  }
}

// --- dsmem_pair ---------------------------------------------------------------------------------

// 3 stores: the arrive (CTA 1 on SM 1, expecting 3 x 512 bytes), three st.async.v4 from warp 0
// of CTA 0 (SM 0) into CTA 1's buffer at 0x400 (lane l at +16 l) completing CTA 1's barrier,
// then CTA 1's wait for phase 0, which the golden run finds completed.
TEST(SimWorkload, DsmemPairSendsIntoThePeerThenWaits) {
  auto w = make("dsmem_pair", params(3));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->size_hint(), 5u);
  const golden::ModelConfig mc = w->model_config();
  EXPECT_EQ(mc.cluster_ctas, 2u);
  auto m = machine(*w);
  const RunStats st = run(*w, *m, 5);
  EXPECT_EQ(st.arrives, 1u);
  EXPECT_EQ(st.stores, 3u);
  EXPECT_EQ(st.waits, 1u);
  EXPECT_EQ(st.faults, 0u);
  EXPECT_EQ(st.bytes, 3u * 512);
  EXPECT_EQ(st.first[0].kind, OpKind::MbarArrive);
  EXPECT_EQ(st.first[0].ctx.cta, 1u);
  EXPECT_EQ(st.first[0].sm, 1u);
  EXPECT_EQ(st.first[0].tx_bytes, 3u * 512);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(st.first[i].ctx.cta, 0u);
    EXPECT_EQ(st.first[i].sm, 0u);
    EXPECT_EQ(st.first[i].ops.addr[5], golden::shared_cluster_addr(mc, 1, 0x400 + 5 * 16));
    EXPECT_EQ(st.first[i].ops.mbar[5], golden::shared_cluster_addr(mc, 1, 0));
  }
  EXPECT_EQ(st.first[4].kind, OpKind::MbarWait);
}

// 2048 stores: 2048 x 512 bytes passes the 2^20 - 1 transaction count, so two phases (2047
// stores, then 1), each with its arrive and its wait (parity 0, then 1).
TEST(SimWorkload, DsmemPairSplitsIntoPhasesOfAtMost2047) {
  auto w = make("dsmem_pair", params(2048));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->size_hint(), 2052u);
  auto m = machine(*w);
  const RunStats st = run(*w, *m, 2052);
  EXPECT_EQ(st.arrives, 2u);
  EXPECT_EQ(st.waits, 2u);
  EXPECT_EQ(st.stores, 2048u);
  EXPECT_EQ(st.first[0].tx_bytes, 2047u * 512);
  EXPECT_EQ(st.first[2048].kind, OpKind::MbarWait);
  EXPECT_EQ(st.first[2048].parity, 0u);
  EXPECT_EQ(st.first[2049].tx_bytes, 512u);
  EXPECT_EQ(st.first[2051].parity, 1u);
}

// --- sm_chain -----------------------------------------------------------------------------------

// op=st.release.gpu+fence.sc.sys, 3 warps, 32 lanes, 6 iterations: 12 ops, store then fence;
// iteration n is warp n mod 3, its store to line n (lane l at +4l), its fence of scope .sys.
TEST(SimWorkload, SmChainRunsEachPartOfTheOpPerIteration) {
  GenParams p = params(6);
  p.op = "st.release.gpu+fence.sc.sys";
  p.cta_warps = 3;
  p.sms = 4;  // not used: SM 0
  auto w = make("sm_chain", p);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->size_hint(), 12u);
  auto m = machine(*w);
  const RunStats st = run(*w, *m, 12);
  EXPECT_EQ(st.ops, 12u);
  EXPECT_EQ(st.stores, 6u);
  EXPECT_EQ(st.fences, 6u);
  EXPECT_EQ(st.faults, 0u);
  EXPECT_EQ(st.bytes, 6u * 128);
  for (std::size_t i = 0; i < 12; ++i) {
    const WarpOp& op = st.first[i];
    const std::uint64_t n = i / 2;
    EXPECT_EQ(op.sm, 0u);
    EXPECT_EQ(op.ctx.cta, 0u);
    EXPECT_EQ(op.ctx.warp, n % 3) << i;
    EXPECT_EQ(op.ctx.active, 0xFFFFFFFFu);
    if (i % 2 == 0) {
      ASSERT_EQ(op.kind, OpKind::Store) << i;
      const golden::Ordering o = golden::ordering_of(*op.ins);
      EXPECT_TRUE(o.release);
      EXPECT_EQ(o.scope, isa::Scope::Gpu);
      EXPECT_EQ(op.ops.addr[0], kBase + n * 128) << i;
      EXPECT_EQ(op.ops.addr[31], kBase + n * 128 + 124) << i;
    } else {
      ASSERT_EQ(op.kind, OpKind::Fence) << i;
      EXPECT_EQ(op.scope, isa::Scope::Sys) << i;
    }
  }
}

// One thread: lanes=1 stores 4 bytes; .mmio is the relaxed .sys MMIO store.
TEST(SimWorkload, SmChainOneLaneMmio) {
  GenParams p = params(4);
  p.op = "st.mmio";
  p.lanes = 1;
  auto w = make("sm_chain", p);
  ASSERT_TRUE(w);
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(st.stores, 4u);
  EXPECT_EQ(st.bytes, 16u);
  EXPECT_EQ(st.first[0].ctx.active, 1u);
  EXPECT_TRUE(golden::ordering_of(*st.first[0].ins).mmio);
}

TEST(SimWorkload, SmChainErrors) {
  const std::pair<void (*)(GenParams&), const char*> cases[] = {
      {[](GenParams& p) { p.op = "ld.global"; },
       "op: 'ld.global' is neither a store (st...) nor a fence (fence...)"},
      {[](GenParams& p) { p.op = "fence.sc.warp"; },
       "op: 'fence.sc.warp' is no fence.{sc,acq_rel}.{cta,cluster,gpu,sys}"},
      {[](GenParams& p) { p.op = "st+"; },
       "op: '' is neither a store (st...) nor a fence (fence...)"},
      {[](GenParams& p) { p.cta_warps = 33; }, "cta_warps: must be in 1..32 (got 33)"},
      {[](GenParams& p) { p.lanes = 0; }, "lanes: must be in 1..32 (got 0)"},
  };
  for (const auto& [set, want] : cases) {
    GenParams p = params(4);
    set(p);
    std::string err;
    EXPECT_EQ(make_generator("sm_chain", p, err), nullptr) << want;
    EXPECT_EQ(err, want);
  }
  GenParams p = params(4);
  p.op = "st.bogus";
  std::string err;
  EXPECT_EQ(make_generator("sm_chain", p, err), nullptr);
  EXPECT_EQ(err.rfind("op: 'st.bogus' is no 4-byte global store: ", 0), 0u) << err;
}

// --- parameter errors ---------------------------------------------------------------------------

TEST(SimWorkload, Errors) {
  std::string err;
  EXPECT_EQ(make_generator("nope", GenParams{}, err), nullptr);
  EXPECT_EQ(err,
            "unknown workload 'nope' (generators: stream, stream_v4b64, strided, scatter, "
            "partial, bank_conflict, dsmem_ring, tcgen05_epilogue, flag_publish, mmio, "
            "chain_l2, dsmem_pair, sm_chain)");
  GenParams p;
  p.width = 3;
  EXPECT_EQ(make_generator("stream", p, err), nullptr);
  EXPECT_EQ(err, "width: must be one of 1, 2, 4, 8, 16, 32 (got 3)");
  EXPECT_EQ(make_generator("scatter", p, err), nullptr);
  EXPECT_EQ(err, "width: must be one of 1, 2, 4, 8, 16, 32 (got 3)");
  p = GenParams{};
  p.stride = 6;
  EXPECT_EQ(make_generator("bank_conflict", p, err), nullptr);
  EXPECT_EQ(err, "stride: must be a multiple of 4 from 4 to 4096 (got 6)");
  p = GenParams{};
  p.footprint = 64;
  EXPECT_EQ(make_generator("stream", p, err), nullptr);
  EXPECT_EQ(err, "footprint: must be at least 128 bytes (got 64)");
  p = GenParams{};
  p.sms = 0;
  EXPECT_EQ(make_generator("stream", p, err), nullptr);
  EXPECT_EQ(err, "sms: must be at least 1 (got 0)");
}

// --- traces ---------------------------------------------------------------------------------

std::string temp_path(const std::string& name) {
  return std::string(STU_BINARY_DIR) + "/simworkload." + std::to_string(::getpid()) + "." + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const char* const kHeader =
    "-kernel name = _Z1kPi\n"
    "-kernel id = 1\n"
    "-grid dim = (2,1,1)\n"
    "-block dim = (64,1,1)\n"
    "-shmem = 256\n"
    "-nregs = 8\n"
    "-binary version = 90\n"
    "-cuda stream id = 0\n"
    "-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007e0000000000\n"
    "-nvbit version = 1.7.1\n"
    "-accelsim tracer version = 4\n"
    "\n";

// The dispatcher's limits of an h200 SM, on `n` SMs.
SmLimits sms(std::uint32_t n) {
  SmLimits lim;
  lim.sms = n;
  return lim;
}

TEST(SimWorkloadTrace, RecordsBecomeStores) {
  const std::string path = temp_path("t.traceg");
  write_file(path, std::string(kHeader) +
                       "#BEGIN_TB\n"
                       "thread block = 1,0,0\n"
                       "warp = 1\n"
                       "insts = 4\n"
                       "0010 ffffffff 1 R2 MOV 1 R0 0 0\n"
                       "0020 0000000f 0 STG.E 2 R2 R3 4 1 0x10000 4 0\n"
                       "0030 00000005 0 STS.128 2 R2 R4 16 0 0x7f0000000100 0x7f0000000120 0\n"
                       "0040 ffffffff 0 EXIT 0 0 0\n"
                       "#END_TB\n");
  auto w = trace_workload(path, sms(4));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->allocate_all());
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(w->error(), "");
  ASSERT_EQ(st.ops, 2u);
  EXPECT_EQ(st.faults, 0u);
  // STG.E, lanes 0..3 at 0x10000 + 4k: st.global.b32.
  const WarpOp& g = st.first[0];
  EXPECT_EQ(g.ctx.active, 0xFu);
  EXPECT_EQ(g.ctx.warp, 1u);
  EXPECT_EQ(g.ins->space, isa::Space::Global);
  EXPECT_EQ(g.ins->access_bytes(), 4u);
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(g.ops.addr[l], 0x10000u + 4 * l);
  EXPECT_LT(g.sm, 4u);
  EXPECT_EQ(read_u32(*m, kGlobal, 0x10008), std::uint32_t(op_value(0, 2, 0).lo));
  // STS.128, lanes 0 and 2: st.shared.v4.b32 at the offsets in the shared window.
  const WarpOp& s = st.first[1];
  EXPECT_EQ(s.ctx.active, 0x5u);
  EXPECT_EQ(s.ins->space, isa::Space::Shared);
  EXPECT_EQ(s.ins->vec_lanes(), 4u);
  EXPECT_EQ(s.ops.addr[0], 0x100u);
  EXPECT_EQ(s.ops.addr[2], 0x120u);
  EXPECT_EQ(s.sm, g.sm);  // the same CTA, the same SM
  const golden::Dest sh{golden::MemSpace::Shared, 0, 0};
  EXPECT_EQ(read_u32(*m, sh, 0x120 + 12), std::uint32_t(op_value(1, 2, 3).lo));
  // The MOV and the EXIT were passed over.
  const std::vector<std::string> notes = w->notes();
  ASSERT_GE(notes.size(), 2u);
  // A 64-thread block (2 warps), 8 registers, 256 shared bytes: 32 per SM (max_ctas; warps
  // allow 64 / 2, threads 2048 / 64, registers 65536 / 256 / 2, shared 233472 / 1280).
  EXPECT_EQ(notes[0], "kernel 1: 1 CTA of 2 warps, 32 per SM at once");
  EXPECT_EQ(notes[1], "2 other instructions passed over (of 4)");
  std::remove(path.c_str());
}

// CTAs go to SMs in launch order, their linear index in the grid (5 x 2 x 1 here, 4 SMs),
// whatever their order in the file: (0,0,0) = 0 -> SM 0, (1,0,0) = 1 -> SM 1, (3,1,0) = 8 ->
// SM 2, (4,1,0) = 9 -> SM 3; the SMs then issue in turn, one record each. Each CTA's store
// has its own address (0x10000 + 0x100 x its place in the file) to tell them apart.
TEST(SimWorkloadTrace, CtasGoToSmsInLaunchOrder) {
  const std::string path = temp_path("rr.traceg");
  std::string header = kHeader;
  header.replace(header.find("(2,1,1)"), 7, "(5,2,1)");
  std::string body;
  const char* ctas[] = {"0,0,0", "1,0,0", "4,1,0", "3,1,0"};
  for (unsigned k = 0; k < 4; ++k)
    body += std::string("#BEGIN_TB\nthread block = ") + ctas[k] +
            "\nwarp = 0\ninsts = 1\n0020 00000001 0 STG.E 2 R2 R3 4 1 0x" +
            std::to_string(100 + k) + "00 4 0\n#END_TB\n";
  write_file(path, header + body);
  auto w = trace_workload(path, sms(4));
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(w->error(), "");
  ASSERT_EQ(st.ops, 4u);
  const std::uint64_t addr[] = {0x10000, 0x10100, 0x10300, 0x10200};  // in launch order
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(st.first[i].sm, i);
    EXPECT_EQ(st.first[i].ops.addr[0], addr[i]) << i;
  }
  std::remove(path.c_str());
}

// A MEMBAR record is a Fence op of its scope, on its CTA's SM, between the stores.
TEST(SimWorkloadTrace, MembarIsAFence) {
  const std::string path = temp_path("membar.traceg");
  write_file(path, std::string(kHeader) +
                       "#BEGIN_TB\nthread block = 1,0,0\nwarp = 3\ninsts = 3\n"
                       "0010 00000001 0 STG.E 2 R2 R3 4 1 0x10000 4 0\n"
                       "0020 ffffffff 0 MEMBAR.ALL.CTA 0 0\n"
                       "0030 00000001 0 STG.E 2 R2 R3 4 1 0x10080 4 0\n#END_TB\n");
  auto w = trace_workload(path, sms(4));
  auto m = machine(*w);
  const RunStats st = run(*w, *m);
  EXPECT_EQ(w->error(), "");
  ASSERT_EQ(st.ops, 3u);
  EXPECT_EQ(st.stores, 2u);
  EXPECT_EQ(st.fences, 1u);
  EXPECT_EQ(st.first[1].kind, OpKind::Fence);
  EXPECT_EQ(st.first[1].scope, isa::Scope::Cta);
  EXPECT_EQ(st.first[1].ctx.warp, 3u);
  EXPECT_EQ(st.first[1].sm, 0u);  // the only CTA: the first SM
  EXPECT_EQ(st.first[1].sm, st.first[0].sm);
  std::remove(path.c_str());
}

TEST(SimWorkloadTrace, UnsupportedWidthAndMissingFile) {
  const std::string path = temp_path("w.traceg");
  write_file(path, std::string(kHeader) +
                       "#BEGIN_TB\n"
                       "thread block = 0,0,0\n"
                       "warp = 0\n"
                       "insts = 1\n"
                       "0020 00000001 0 STG.E 2 R2 R3 12 0 0x10000 0\n"
                       "#END_TB\n");
  auto w = trace_workload(path, sms(1));
  WarpOp op;
  EXPECT_FALSE(w->next(op));
  EXPECT_EQ(w->error(), path +
                            ": store 'STG.E' of 12 bytes per lane (record 1): widths 1, 2, 4, "
                            "8, 16 and 32 are supported");
  std::remove(path.c_str());

  auto missing = trace_workload(temp_path("none.traceg"), sms(1));
  EXPECT_FALSE(missing->next(op));
  EXPECT_NE(missing->error().find("cannot open"), std::string::npos) << missing->error();
}

// --- the trace dispatcher (trace_dispatch.h) -------------------------------------------------

// Hand-computed occupancy (sm_90 limits: 32 CTAs, 64 warps, 2048 threads, 64 K registers,
// 228 KiB shared).
TEST(TraceDispatch, CtasPerSm) {
  const SmLimits h;
  EXPECT_EQ(ctas_per_sm(h, 512, 16, 0), 4u);        // warps: 64 / 16 (registers allow 8)
  EXPECT_EQ(ctas_per_sm(h, 256, 64, 0), 4u);        // registers: 2048 a warp, 32 warps / 8
  EXPECT_EQ(ctas_per_sm(h, 128, 0, 48 << 10), 4u);  // shared: 233472 / (49152 + 1024)
  EXPECT_EQ(ctas_per_sm(h, 32, 0, 0), 32u);         // max_ctas
  EXPECT_EQ(ctas_per_sm(h, 1024, 0, 0), 2u);        // threads and warps
  // 3 warps, 40 registers (1280 a warp, a multiple of 256): 65536 / 1280 = 51 warps, 17
  // CTAs; warps and threads allow 21, shared (128 + 1024 bytes) 202.
  EXPECT_EQ(ctas_per_sm(h, 96, 40, 100), 17u);
  SmLimits a100 = h;
  a100.shared_bytes = 164 << 10;
  EXPECT_EQ(ctas_per_sm(a100, 128, 0, 48 << 10), 3u);  // 167936 / 50176
  EXPECT_EQ(ctas_per_sm(h, 2048, 255, 1 << 20), 1u);   // nothing fits: at least one
  EXPECT_EQ(ctas_per_sm(h, 0, 0, 0), 32u);             // no block size: one warp
}

// A source of given records (kernel info per record) for the dispatcher.
class ListSource : public workload::StoreSource {
 public:
  struct Item {
    workload::StoreRecord r;
    workload::KernelInfo k;
  };
  explicit ListSource(std::vector<Item> items, std::string fail_at_end = {})
      : items_(std::move(items)), fail_(std::move(fail_at_end)) {}
  bool next(workload::StoreRecord& r) override {
    if (at_ == items_.size()) {
      if (!fail_.empty()) this->fail("list", 7, fail_);
      return false;
    }
    kernel_ = items_[at_].k;
    r = items_[at_++].r;
    return true;
  }

 private:
  std::vector<Item> items_;
  std::size_t at_ = 0;
  std::string fail_;
};

workload::KernelInfo kernel(std::uint32_t id, std::uint32_t ctas, std::uint32_t threads) {
  workload::KernelInfo k;
  k.id = id;
  k.grid = {ctas, 1, 1};
  k.block = {threads, 1, 1};
  return k;
}

ListSource::Item item(const workload::KernelInfo& k, std::uint32_t cta, std::uint32_t warp,
                      std::uint64_t addr) {
  ListSource::Item it;
  it.k = k;
  it.r.kernel_id = k.id;
  it.r.cta = {cta, 0, 0};
  it.r.warp = warp;
  it.r.mask = 1;
  it.r.width = 4;
  it.r.addr[0] = addr;
  return it;
}

struct Got {
  std::uint32_t sm, cta, warp;
  std::uint16_t slot;
  std::uint64_t addr, index;
};

std::vector<Got> dispatch_all(workload::StoreSource& src, const SmLimits& lim,
                              std::string* error = nullptr) {
  TraceDispatcher d(src, lim);
  std::vector<Got> out;
  Dispatched x;
  while (d.next(x)) out.push_back({x.sm, x.rec.cta[0], x.rec.warp, x.slot, x.rec.addr[0], x.index});
  if (error) *error = d.error();
  return out;
}

// One SM, one CTA of 2 warps with 2 records each: the SM interleaves its warps.
TEST(TraceDispatch, WarpsOfAnSmTakeTurns) {
  const auto k = kernel(1, 1, 64);
  ListSource src(
      {item(k, 0, 0, 0xa0), item(k, 0, 0, 0xa1), item(k, 0, 1, 0xb0), item(k, 0, 1, 0xb1)});
  const auto got = dispatch_all(src, sms(1));
  ASSERT_EQ(got.size(), 4u);
  const std::uint64_t want[] = {0xa0, 0xb0, 0xa1, 0xb1};
  const std::uint64_t index[] = {0, 2, 1, 3};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].addr, want[i]) << i;
    EXPECT_EQ(got[i].index, index[i]) << i;  // the record's place in the file
    EXPECT_EQ(got[i].slot, got[i].warp);     // CTA slot 0
  }
}

// Two SMs holding one CTA each (max_ctas 1): CTA 0 (2 records) on SM 0, CTA 1 (1 record) on
// SM 1; when CTA 1 finishes, CTA 2 takes SM 1 (the SM that freed a slot), before CTA 0 ends.
TEST(TraceDispatch, LaterCtasTakeTheSmThatFinished) {
  const auto k = kernel(1, 3, 32);
  ListSource src(
      {item(k, 0, 0, 0x00), item(k, 0, 0, 0x01), item(k, 1, 0, 0x10), item(k, 2, 0, 0x20)});
  SmLimits lim = sms(2);
  lim.max_ctas = 1;
  const auto got = dispatch_all(src, lim);
  ASSERT_EQ(got.size(), 4u);
  const std::uint32_t cta[] = {0, 1, 0, 2}, sm[] = {0, 1, 0, 1};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].cta, cta[i]) << i;
    EXPECT_EQ(got[i].sm, sm[i]) << i;
    EXPECT_EQ(got[i].slot, 0u) << i;
  }
}

// Occupancy from the block size: 4 CTAs of 512 threads on 1 SM hold 4 at once (64 warps / 16),
// each in its own slot: CTA c's warp w has slot 16 c + w. The fifth CTA waits for a slot.
TEST(TraceDispatch, WarpSlotsFollowTheCtaSlot) {
  const auto k = kernel(1, 5, 512);
  std::vector<ListSource::Item> items;
  for (std::uint32_t c = 0; c < 5; ++c) items.push_back(item(k, c, 3, 0x100 * c));
  ListSource src(items);
  const auto got = dispatch_all(src, sms(1));
  ASSERT_EQ(got.size(), 5u);
  for (std::uint32_t c = 0; c < 4; ++c) EXPECT_EQ(got[c].slot, 16 * c + 3) << c;
  EXPECT_EQ(got[4].cta, 4u);
  EXPECT_EQ(got[4].slot, 3u);  // CTA 0's slot, the first freed
}

// A kernel runs after the one before it has been handed out whole.
TEST(TraceDispatch, KernelsRunOneAfterAnother) {
  const auto k1 = kernel(1, 2, 32), k2 = kernel(2, 2, 32);
  ListSource src({item(k1, 0, 0, 0x10), item(k1, 1, 0, 0x11), item(k1, 1, 0, 0x12),
                  item(k2, 0, 0, 0x20), item(k2, 1, 0, 0x21)});
  TraceDispatcher d(src, sms(2));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> got;  // kernel, sm
  Dispatched x;
  while (d.next(x)) got.push_back({x.rec.kernel_id, x.sm});
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> want = {
      {1, 0}, {1, 1}, {1, 1}, {2, 0}, {2, 1}};
  EXPECT_EQ(got, want);
  ASSERT_EQ(d.kernels().size(), 2u);
  EXPECT_EQ(d.kernels()[0].ctas, 2u);
  EXPECT_EQ(d.kernels()[1].id, 2u);
}

// A buffer of 2 records: the kernel goes in segments of 2; a CTA that goes on into the next
// segment stays on its SM (CTA 1 on SM 1, although alone in its segment it would be first).
TEST(TraceDispatch, SegmentsKeepACtaOnItsSm) {
  const auto k = kernel(1, 2, 32);
  ListSource src(
      {item(k, 0, 0, 0x00), item(k, 1, 0, 0x10), item(k, 1, 0, 0x11), item(k, 1, 0, 0x12)});
  SmLimits lim = sms(2);
  lim.buffer_records = 2;
  TraceDispatcher d(src, lim);
  std::vector<std::uint32_t> sm;
  Dispatched x;
  while (d.next(x)) sm.push_back(x.sm);
  EXPECT_EQ(sm, (std::vector<std::uint32_t>{0, 1, 1, 1}));
  EXPECT_EQ(d.segments(), 2u);
}

// Scattered lanes survive the buffer (their addresses are kept one by one), progressions too.
TEST(TraceDispatch, AddressesComeBackExactly) {
  const auto k = kernel(1, 1, 32);
  auto a = item(k, 0, 0, 0);
  a.r.mask = 0xF0F0F0F1u;
  auto b = a;
  for (unsigned l = 0; l < 32; ++l) {
    a.r.addr[l] = (a.r.mask >> l & 1) ? 0x7000 + 12 * l : 0;
    b.r.addr[l] = (b.r.mask >> l & 1) ? splitmix64(l) : 0;
  }
  ListSource src({a, b});
  TraceDispatcher d(src, sms(1));
  Dispatched x;
  ASSERT_TRUE(d.next(x));
  EXPECT_EQ(x.rec.addr, a.r.addr);
  ASSERT_TRUE(d.next(x));
  EXPECT_EQ(x.rec.addr, b.r.addr);
  EXPECT_EQ(x.rec.mask, b.r.mask);
  EXPECT_FALSE(d.next(x));
}

// A source error after some records: those records are handed out, then the error.
TEST(TraceDispatch, RecordsBeforeAnErrorAreNotLost) {
  const auto k = kernel(1, 2, 32);
  ListSource src({item(k, 0, 0, 0x00), item(k, 1, 0, 0x10)}, "bad line");
  std::string error;
  const auto got = dispatch_all(src, sms(2), &error);
  EXPECT_EQ(got.size(), 2u);
  EXPECT_EQ(error, "list:7: error: bad line");
}

}  // namespace
}  // namespace stu::sim
