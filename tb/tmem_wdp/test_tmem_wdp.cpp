// Harness of rtl/stu_tmem_wdp.sv: directed tcgen05.st cases whose expected runs and faults are
// worked out here from the mapping table of ../shared/spec/tmem.md (never from the golden
// model), and short seeded cosimulations against golden::tmem_write.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "Vstu_tmem_wdp.h"
#include "bits.h"
#include "cosim.h"
#include "harness.h"

namespace {

using stu::tb::Clocked;
using stu::tb::CosimOptions;
using stu::tb::CosimResult;
namespace TW = stu::rtl::layout::tmem_write;

// stu_pkg::tmem_shape_e and the fault kinds of stu_pkg::fault_e the block produces.
enum Shape : uint8_t { k32x32b = 0, k16x64b = 1, k16x128b = 2, k16x256b = 3, k16x32bx2 = 4 };
constexpr unsigned kNone = 0, kLaneQuarter = 7, kColumnRange = 8;

struct Instr {
  Shape shape = k32x32b;
  unsigned num = 1;
  bool unpack = false;
  uint32_t taddr = 0;
  uint32_t split = 0;
  unsigned quarter = 0;
  uint16_t alloc = 0xFFFF;
  uint16_t cta = 0;
  unsigned beats = 1;          // register beats (regs_per_rep * num)
  std::vector<uint32_t> regs;  // regs[j * 32 + t]
  uint32_t reg(unsigned j, unsigned t) const { return regs[j * 32 + t]; }
};

struct TmemRun {
  uint16_t cta = 0, lane = 0, col = 0;
  uint32_t mask = 0;
  bool unpacked = false;
  std::array<uint32_t, 32> data{};
};

struct Result {
  std::vector<TmemRun> runs;
  std::array<unsigned, 32> kind{};
  std::array<uint32_t, 32> addr{};
  bool status = false;     // the status beat came
  bool assertion = false;  // an RTL assertion failed
  uint64_t cycles = 0;     // from the first beat offered to the status beat taken
};

// Register value of thread t, register j: distinct in every half.
uint32_t value(unsigned j, unsigned t) {
  return (0xA000u + j * 32 + t) << 16 | (0x5000u + j * 32 + t);
}

Instr make(Shape s, unsigned num, unsigned beats) {
  Instr in;
  in.shape = s;
  in.num = num;
  in.beats = beats;
  in.regs.resize(size_t(beats) * 32);
  for (unsigned j = 0; j < beats; ++j)
    for (unsigned t = 0; t < 32; ++t) in.regs[j * 32 + t] = value(j, t);
  return in;
}

// Runs instructions back to back through the block with the output always ready. `last_at`:
// the beat that carries in_last_i (default: the last). `taken`: the cycle of each beat 0.
std::vector<Result> run_all(const std::vector<Instr>& ins, int last_at = -1,
                            std::vector<uint64_t>* taken = nullptr) {
  CosimOptions o;
  Clocked<Vstu_tmem_wdp> sim(1, o);
  auto& d = sim.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  sim.reset();
  std::vector<Result> rs(ins.size());
  size_t cur = 0, out = 0;  // the instruction offered, the one whose outputs come
  unsigned beat = 0;
  const uint64_t start = sim.cycle();
  for (unsigned c = 0; c < 5000 && out < ins.size(); ++c) {
    const bool offering = cur < ins.size();
    d.in_valid_i = offering;
    if (offering) {
      const Instr& in = ins[cur];
      d.in_last_i = last_at < 0 ? beat + 1 == in.beats : int(beat) == last_at;
      d.shape_i = in.shape;
      d.num_i = uint8_t(in.num);
      d.unpack_i = in.unpack;
      d.taddr_i = in.taddr;
      d.split_i = in.split;
      d.quarter_i = uint8_t(in.quarter);
      d.alloc_i = in.alloc;
      d.cta_i = in.cta;
      for (unsigned t = 0; t < 32; ++t) d.data_i[t] = in.reg(beat, t);
    }
    sim.settle();
    const bool fire = offering && d.in_ready_o;
    if (fire && beat == 0 && taken) taken->push_back(sim.cycle() - start);
    Result& r = rs[out];
    if (d.out_valid_o && d.write_valid_o) {
      TmemRun w;
      w.cta = uint16_t(stu::tb::get_field(d.wr_o, 0, TW::cta));
      w.lane = uint16_t(stu::tb::get_field(d.wr_o, 0, TW::lane));
      w.col = uint16_t(stu::tb::get_field(d.wr_o, 0, TW::col));
      w.mask = uint32_t(stu::tb::get_field(d.wr_o, 0, TW::col_mask));
      w.unpacked = stu::tb::get_field(d.wr_o, 0, TW::unpacked) != 0;
      for (unsigned i = 0; i < 32; ++i)
        w.data[i] = uint32_t(stu::tb::get_bits(d.wr_o, TW::data.lsb + 32 * i, 32));
      r.runs.push_back(w);
    }
    const bool status = d.out_valid_o && d.last_o;
    if (status) {
      r.status = true;
      for (unsigned t = 0; t < 32; ++t) {
        r.kind[t] = unsigned(stu::tb::get_bits(d.fault_o, 5 * t, 5));
        r.addr[t] = d.fault_addr_o[t];
      }
    }
    sim.rise();
    if (fire && ++beat == (last_at < 0 ? ins[cur].beats : unsigned(last_at) + 1)) {
      beat = 0;
      ++cur;
    }
    r.assertion = r.assertion || sim.assertion_failed();
    if (status) {
      r.cycles = sim.cycle() - start;
      ++out;
    }
  }
  return rs;
}

Result run(const Instr& in, int last_at = -1) { return run_all({in}, last_at).front(); }

// Expected cells from the spec table: (lane, column) -> value, per 32-column run.
using Cells = std::map<std::pair<unsigned, unsigned>, uint32_t>;

// The runs the cells make, in (lane, column) order.
std::vector<TmemRun> runs_of(const Cells& cells, uint16_t cta, bool unpacked) {
  std::map<std::pair<unsigned, unsigned>, TmemRun> by;
  for (const auto& [lc, v] : cells) {
    TmemRun& w = by[{lc.first, lc.second / 32 * 32}];
    w.cta = cta;
    w.lane = uint16_t(lc.first);
    w.col = uint16_t(lc.second / 32 * 32);
    w.unpacked = unpacked;
    w.mask |= 1u << (lc.second % 32);
    w.data[lc.second % 32] = v;
  }
  std::vector<TmemRun> out;
  for (const auto& [k, w] : by) out.push_back(w);
  return out;
}

void expect_runs(const Result& r, const std::vector<TmemRun>& want) {
  ASSERT_EQ(r.runs.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const TmemRun &g = r.runs[i], &w = want[i];
    SCOPED_TRACE("run " + std::to_string(i) + " (lane " + std::to_string(w.lane) + ", col " +
                 std::to_string(w.col) + ")");
    EXPECT_EQ(g.cta, w.cta);
    EXPECT_EQ(g.lane, w.lane);
    EXPECT_EQ(g.col, w.col);
    EXPECT_EQ(g.mask, w.mask);
    EXPECT_EQ(g.unpacked, w.unpacked);
    for (unsigned c = 0; c < 32; ++c) EXPECT_EQ(g.data[c], w.data[c]) << "cell " << c;
  }
}

void expect_no_faults(const Result& r) {
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(r.kind[t], kNone) << "thread " << t;
}

TEST(TmemWdp, Shape32x32bWarp1) {
  // Warp 1 (quarter 1), taddr lane 32 column 64: thread t's register 0 -> lane 32 + t, col 64.
  Instr in = make(k32x32b, 1, 1);
  in.quarter = 1;
  in.taddr = (32u << 16) | 64;
  in.alloc = 0x0004;  // columns 64..95
  in.cta = 7;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  expect_no_faults(r);
  ASSERT_EQ(r.runs.size(), 32u);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.runs[t].cta, 7);
    EXPECT_EQ(r.runs[t].lane, 32 + t);
    EXPECT_EQ(r.runs[t].col, 64);
    EXPECT_EQ(r.runs[t].mask, 1u);
    EXPECT_EQ(r.runs[t].data[0], value(0, t));
    EXPECT_EQ(r.runs[t].data[1], 0u);
  }
  // 1 beat, 32 runs, the gather cycle, the status beat: no idle cycle between them.
  EXPECT_EQ(r.cycles, 1u + 32u + 3u);
}

TEST(TmemWdp, Shape16x64bThread5) {
  // 16x64b: thread t -> lane t/4 + 8(t%2), column ((t>>1)&1) + 2j.
  Instr in = make(k16x64b, 1, 1);
  in.alloc = 0x0001;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  expect_no_faults(r);
  Cells cells;
  for (unsigned t = 0; t < 32; ++t) cells[{t / 4 + 8 * (t % 2), (t >> 1) & 1}] = value(0, t);
  expect_runs(r, runs_of(cells, 0, false));
  // Thread 5 -> lane 1 + 8, column 0; thread 7 -> lane 9, column 1.
  ASSERT_EQ(r.runs.size(), 16u);
  EXPECT_EQ(r.runs[9].lane, 9);
  EXPECT_EQ(r.runs[9].data[0], value(0, 5));
  EXPECT_EQ(r.runs[9].data[1], value(0, 7));
}

TEST(TmemWdp, Shapes16x128bAnd16x256bX2) {
  // 16x128b.x2 (4 registers): 2k -> (t/4, t%4 + 4k), 2k+1 -> (t/4 + 8, t%4 + 4k).
  {
    Instr in = make(k16x128b, 2, 4);
    in.quarter = 3;
    in.taddr = (112u << 16) | 500;  // lanes 112..127, columns 500..507
    in.alloc = 0x8000;
    const Result r = run(in);
    ASSERT_TRUE(r.status);
    EXPECT_FALSE(r.assertion);
    expect_no_faults(r);
    Cells cells;
    for (unsigned t = 0; t < 32; ++t)
      for (unsigned j = 0; j < 4; ++j)
        cells[{112 + t / 4 + 8 * (j % 2), 500 + t % 4 + 4 * (j / 2)}] = value(j, t);
    expect_runs(r, runs_of(cells, 0, false));
  }
  // 16x256b.x2 (8 registers): 4k+r -> (t/4 + 8(r/2), 2(t%4) + r%2 + 8k), from column 28.
  {
    Instr in = make(k16x256b, 2, 8);
    in.taddr = 28;
    in.alloc = 0x0003;
    const Result r = run(in);
    ASSERT_TRUE(r.status);
    EXPECT_FALSE(r.assertion);
    expect_no_faults(r);
    Cells cells;
    for (unsigned t = 0; t < 32; ++t)
      for (unsigned j = 0; j < 8; ++j)
        cells[{t / 4 + 8 * ((j % 4) / 2), 28 + 2 * (t % 4) + j % 2 + 8 * (j / 4)}] = value(j, t);
    const std::vector<TmemRun> want = runs_of(cells, 0, false);
    ASSERT_EQ(want.size(), 32u);  // columns 28..43: two runs per lane
    expect_runs(r, want);
  }
}

TEST(TmemWdp, UnpackHalves) {
  // 32x32b.x1.unpack::16b at column 31: low half to column 31 (bits 15:0), high half to
  // column 32 (bits 15:0), so each lane has two runs.
  Instr in = make(k32x32b, 1, 1);
  in.unpack = true;
  in.taddr = 31;
  in.alloc = 0x0003;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  expect_no_faults(r);
  ASSERT_EQ(r.runs.size(), 64u);
  for (unsigned t = 0; t < 32; ++t) {
    const TmemRun &lo = r.runs[2 * t], &hi = r.runs[2 * t + 1];
    EXPECT_EQ(lo.lane, t);
    EXPECT_EQ(lo.col, 0);
    EXPECT_EQ(lo.mask, 1u << 31);
    EXPECT_TRUE(lo.unpacked);
    EXPECT_EQ(lo.data[31], 0x5000u + t);
    EXPECT_EQ(hi.lane, t);
    EXPECT_EQ(hi.col, 32);
    EXPECT_EQ(hi.mask, 1u);
    EXPECT_EQ(hi.data[0], 0xA000u + t);
  }
}

TEST(TmemWdp, ThreadOutsideQuarterFaultsAndWritesNothing) {
  // 32x32b.x2 from lane 1 (quarter 0): thread 31 reaches lane 32 at register 0 and faults
  // there; it writes neither register. Threads 0..30 write lanes 1..31, columns 0 and 1.
  Instr in = make(k32x32b, 2, 2);
  in.taddr = 1u << 16;
  in.alloc = 0x0001;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  for (unsigned t = 0; t < 31; ++t) EXPECT_EQ(r.kind[t], kNone) << "thread " << t;
  EXPECT_EQ(r.kind[31], kLaneQuarter);
  EXPECT_EQ(r.addr[31], 32u << 16);
  ASSERT_EQ(r.runs.size(), 31u);
  for (unsigned t = 0; t < 31; ++t) {
    EXPECT_EQ(r.runs[t].lane, t + 1);
    EXPECT_EQ(r.runs[t].mask, 0x3u);
    EXPECT_EQ(r.runs[t].data[0], value(0, t));
    EXPECT_EQ(r.runs[t].data[1], value(1, t));
  }
}

TEST(TmemWdp, WholeWarpOutsideQuarter) {
  // Quarter 3 addressing lane 0: every thread faults at its cell (t, col 5); only the status.
  Instr in = make(k32x32b, 1, 1);
  in.quarter = 3;
  in.taddr = 5;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  EXPECT_TRUE(r.runs.empty());
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.kind[t], kLaneQuarter) << "thread " << t;
    EXPECT_EQ(r.addr[t], t << 16 | 5) << "thread " << t;
  }
}

TEST(TmemWdp, UnpackFaultAtTheLowHalf) {
  // .unpack::16b from quarter 3 addressing lane 0, column 5: both cells of register 0 (columns
  // 5 and 6) are outside the quarter; the fault names the first, the low half's column 5.
  Instr in = make(k32x32b, 1, 1);
  in.unpack = true;
  in.quarter = 3;
  in.taddr = 5;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  EXPECT_TRUE(r.runs.empty());
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.kind[t], kLaneQuarter) << "thread " << t;
    EXPECT_EQ(r.addr[t], t << 16 | 5) << "thread " << t;
  }
}

TEST(TmemWdp, ColumnPastAllocationFaults) {
  // 16x64b.x1 from lane 64 column 31, columns 0..31 allocated: threads with (t>>1)&1 == 1
  // reach column 32 and fault there; the others write column 31 of lane 64 + t/4 + 8(t%2).
  Instr in = make(k16x64b, 1, 1);
  in.quarter = 2;
  in.taddr = (64u << 16) | 31;
  in.alloc = 0x0001;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  Cells cells;
  for (unsigned t = 0; t < 32; ++t) {
    const unsigned lane = 64 + t / 4 + 8 * (t % 2);
    if ((t >> 1) & 1) {
      EXPECT_EQ(r.kind[t], kColumnRange) << "thread " << t;
      EXPECT_EQ(r.addr[t], lane << 16 | 32) << "thread " << t;
    } else {
      EXPECT_EQ(r.kind[t], kNone) << "thread " << t;
      cells[{lane, 31}] = value(0, t);
    }
  }
  const std::vector<TmemRun> want = runs_of(cells, 0, false);
  ASSERT_EQ(want.size(), 16u);
  expect_runs(r, want);
}

TEST(TmemWdp, ColumnFaultAtLaterRegister) {
  // 32x32b.x2 at column 31 with only columns 0..31: register 1 (column 32) faults every
  // thread, which then writes register 0 neither: no run at all.
  Instr in = make(k32x32b, 2, 2);
  in.taddr = 31;
  in.alloc = 0x0001;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  EXPECT_TRUE(r.runs.empty());
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(r.kind[t], kColumnRange) << "thread " << t;
    EXPECT_EQ(r.addr[t], t << 16 | 32) << "thread " << t;
  }
}

TEST(TmemWdp, SplitOverlapLaterThreadWins) {
  // 16x32bx2.x1 with split 0: threads t and t + 16 both write (lane t, column 3); t + 16 wins.
  Instr in = make(k16x32bx2, 1, 1);
  in.taddr = 3;
  in.split = 0;
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  expect_no_faults(r);
  ASSERT_EQ(r.runs.size(), 16u);
  for (unsigned l = 0; l < 16; ++l) {
    EXPECT_EQ(r.runs[l].lane, l);
    EXPECT_EQ(r.runs[l].mask, 1u << 3);
    EXPECT_EQ(r.runs[l].data[3], value(0, l + 16));
  }
}

TEST(TmemWdp, SplitNegativeWraps) {
  // taddr lane 16 column 8, split -(16 << 16): the second access (threads 16..31) starts at
  // lane 0 column 8 (the addition wraps at 32 bits).
  Instr in = make(k16x32bx2, 1, 1);
  in.taddr = (16u << 16) | 8;
  in.split = uint32_t(0) - (16u << 16);
  const Result r = run(in);
  ASSERT_TRUE(r.status);
  EXPECT_FALSE(r.assertion);
  expect_no_faults(r);
  ASSERT_EQ(r.runs.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.runs[l].lane, l);
    EXPECT_EQ(r.runs[l].mask, 1u << 8);
    EXPECT_EQ(r.runs[l].data[8], value(0, l < 16 ? l + 16 : l - 16));
  }
}

TEST(TmemWdp, BeatsOverlapRuns) {
  // Two 32x32b.x1: the second's beat is taken in cycle 1, while the first's runs go out (the
  // other bank); its runs follow the first's status beat without a gap.
  Instr a = make(k32x32b, 1, 1), b = make(k32x32b, 1, 1);
  b.quarter = 2;
  b.taddr = 64u << 16 | 32;
  for (unsigned t = 0; t < 32; ++t) b.regs[t] = ~value(0, t);
  std::vector<uint64_t> taken;
  const std::vector<Result> rs = run_all({a, b}, -1, &taken);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0], 0u);
  EXPECT_EQ(taken[1], 1u);
  for (unsigned k = 0; k < 2; ++k) {
    const Result& r = rs[k];
    ASSERT_TRUE(r.status);
    EXPECT_FALSE(r.assertion);
    expect_no_faults(r);
    ASSERT_EQ(r.runs.size(), 32u);
    for (unsigned t = 0; t < 32; ++t) {
      EXPECT_EQ(r.runs[t].lane, k == 0 ? t : 64 + t);
      EXPECT_EQ(r.runs[t].col, k == 0 ? 0 : 32);
      EXPECT_EQ(r.runs[t].data[0], k == 0 ? value(0, t) : ~value(0, t));
    }
  }
  // The second's runs start once the first's status beat is loaded: C + 2 cycles later.
  EXPECT_EQ(rs[0].cycles, 1u + 32u + 3u);
  EXPECT_EQ(rs[1].cycles, rs[0].cycles + 34u);
}

// Latency (the block's header): R register beats, one cycle per candidate run (a lane of the
// quarter that a thread without a fault writes, x a 32-column block of the access's footprint),
// then the gather cycle and the status beat: R + C + 3 cycles from the first beat offered to the
// status beat taken (as BeatsOverlapRuns counts). A candidate nothing writes would cost a cycle
// too, so the candidates must be exactly these; the cosimulation compares values and order, not
// cycles.
TEST(TmemWdp, OneCyclePerCandidateRun) {
  // 16x64b.x1 at lane 0, column 0: lanes 0..15 (not 16), one block.
  const Result a = run(make(k16x64b, 1, 1));
  ASSERT_TRUE(a.status);
  EXPECT_EQ(a.runs.size(), 16u);
  EXPECT_EQ(a.cycles, 1u + 16u + 3u);
  // 16x64b.x16 at column 16: columns 16..47, blocks 0 and 1 of lanes 0..15 (32 runs). A
  // candidate nothing writes after the last run hides behind the gather cycle; lane 16's two
  // would not both hide.
  Instr a2 = make(k16x64b, 16, 16);
  a2.taddr = 16;
  const Result ra2 = run(a2);
  ASSERT_TRUE(ra2.status);
  EXPECT_EQ(ra2.runs.size(), 32u);
  EXPECT_EQ(ra2.cycles, 16u + 32u + 3u);
  // 32x32b.x1 at column 31: a footprint of one column, so one block (not two).
  Instr b = make(k32x32b, 1, 1);
  b.taddr = 31;
  const Result rb = run(b);
  ASSERT_TRUE(rb.status);
  EXPECT_EQ(rb.runs.size(), 32u);
  EXPECT_EQ(rb.cycles, 1u + 32u + 3u);
  // 32x32b.x1 at column 32 with only columns 0..31 allocated: every thread faults, so no lane
  // has a writer and there is no candidate: the status beat follows the beat.
  Instr c = make(k32x32b, 1, 1);
  c.taddr = 32;
  c.alloc = 0x0001;
  const Result rc = run(c);
  ASSERT_TRUE(rc.status);
  EXPECT_TRUE(rc.runs.empty());
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(rc.kind[t], kColumnRange) << "thread " << t;
  EXPECT_EQ(rc.cycles, 1u + 0u + 2u);  // no run: no gather cycle either
}

// The register buffer's memories read each run's registers in one cycle, except a .16x32bx2 run
// that both accesses write: the first access's registers, then the second's (the block's
// header). Register j of every thread is in memory j % 32.
TEST(TmemWdp, RunBothAccessesWriteReadsTwice) {
  // split 0: threads l and l + 16 both write lane l, column 3: 16 runs, each read twice.
  Instr a = make(k16x32bx2, 1, 1);
  a.taddr = 3;
  const Result ra = run(a);
  ASSERT_TRUE(ra.status);
  EXPECT_FALSE(ra.assertion);
  EXPECT_EQ(ra.runs.size(), 16u);
  EXPECT_EQ(ra.cycles, 1u + 2u * 16u + 3u);
  // split 1 column: lane l, columns 3 (thread l) and 4 (thread l + 16), one run read twice,
  // the first phase's cell kept beside the second's.
  Instr b = make(k16x32bx2, 1, 1);
  b.taddr = 3;
  b.split = 1;
  const Result rb = run(b);
  ASSERT_TRUE(rb.status);
  EXPECT_FALSE(rb.assertion);
  ASSERT_EQ(rb.runs.size(), 16u);
  for (unsigned l = 0; l < 16; ++l) {
    EXPECT_EQ(rb.runs[l].mask, 3u << 3);
    EXPECT_EQ(rb.runs[l].data[3], value(0, l));
    EXPECT_EQ(rb.runs[l].data[4], value(0, l + 16));
  }
  EXPECT_EQ(rb.cycles, 1u + 2u * 16u + 3u);
  // split 16 lanes: the accesses write different lanes, each run is read once.
  Instr c = make(k16x32bx2, 1, 1);
  c.taddr = 3;
  c.split = 16u << 16;
  const Result rc = run(c);
  ASSERT_TRUE(rc.status);
  EXPECT_EQ(rc.runs.size(), 32u);
  EXPECT_EQ(rc.cycles, 1u + 32u + 3u);
  // 32x32b.x128 at column 5: a run spans registers 27 .. 58 (j % 32 all different) and the
  // registers come from all four words of the memories.
  Instr d = make(k32x32b, 128, 128);
  d.taddr = 5;
  const Result rd = run(d);
  ASSERT_TRUE(rd.status);
  EXPECT_FALSE(rd.assertion);
  ASSERT_EQ(rd.runs.size(), 32u * 5u);  // blocks 0..4 of every lane
  for (const TmemRun& w : rd.runs) {
    for (unsigned i = 0; i < 32; ++i) {
      const int j = int(w.col + i) - 5;
      if (j < 0 || j >= 128) {
        EXPECT_EQ(w.mask >> i & 1, 0u);
        continue;
      }
      EXPECT_EQ(w.mask >> i & 1, 1u);
      EXPECT_EQ(w.data[i], value(unsigned(j), w.lane)) << "lane " << w.lane << " col " << i;
    }
  }
}

TEST(TmemWdp, BeatCountAssertion) {
  // 16x128b.x1 is two beats: in_last_i on the first one trips BeatCount_A.
  Instr in = make(k16x128b, 1, 2);
  EXPECT_FALSE(run(in).assertion);
  EXPECT_TRUE(run(in, 0).assertion);
}

CosimResult cosim(uint64_t seed, uint64_t txns) {
  CosimOptions o;
  o.seed = seed;
  o.txns = txns;
  o.rerun_for_wave = false;
  return stu::tb::find_block("tmem_wdp")->run(o);
}

TEST(TmemWdp, CosimSeeds) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const CosimResult r = cosim(seed, 1000);
    EXPECT_TRUE(r.ok) << r.report;
    EXPECT_EQ(r.txns, 1000u);
    EXPECT_GT(r.matched, r.txns);  // every instruction's status beat, and runs
  }
}

TEST(TmemWdp, LongRandomSeeds) {
  for (uint64_t seed = 100; seed < 110; ++seed) {
    const CosimResult r = cosim(seed, 100000);
    EXPECT_TRUE(r.ok) << r.report;
    EXPECT_EQ(r.txns, 100000u);
  }
}

}  // namespace
