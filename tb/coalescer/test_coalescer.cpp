// rtl/stu_coalescer.sv: directed cases computed by hand from the coalescing rules (128-byte
// lines of four 32-byte sectors; ascending destination then line; the highest lane wins a
// shared byte; a lane with no byte to write contributes nothing), then seeded cosimulation
// against golden::coalesce, and the deliberately broken variant's failure report.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "Vstu_coalescer.h"
#include "bits.h"
#include "cosim_test.h"
#include "verilated.h"

namespace {

namespace LA = stu::rtl::layout::lane_access;
namespace LR = stu::rtl::layout::line_req;
using stu::tb::get_bits;
using stu::tb::get_field;
using stu::tb::put_bits;
using stu::tb::put_field;

enum : unsigned { kGlobal = 0, kShared = 1 };

struct Lane {
  unsigned space = kGlobal, cta = 0;
  uint64_t offset = 0;
  unsigned size = 4;
  uint32_t mask = 0xF;
  uint8_t fill = 0;  // every data byte
};
struct Line {
  unsigned space, cta;
  uint64_t line;
  unsigned sectors;
  uint64_t mask_lo, mask_hi;
  uint32_t lanes;
  unsigned first;
  bool last;
  uint8_t data[128];
};

class Coalescer : public ::testing::Test {
 protected:
  Coalescer() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    dut_ = std::make_unique<Vstu_coalescer>(ctx_.get(), "dut");
    dut_->clk_i = 0;
    dut_->in_valid_i = 0;
    dut_->out_ready_i = 1;
    stu::tb::reset(*dut_);
  }
  ~Coalescer() override { dut_->final(); }

  // Puts one warp on the input (lane l = lanes[l]); in_valid_i is the caller's.
  void present(const std::vector<Lane>& lanes) {
    uint32_t valid = 0;
    for (unsigned l = 0; l < lanes.size(); ++l) {
      const Lane& a = lanes[l];
      const unsigned base = l * LA::kWidth;
      valid |= 1u << l;
      put_field(dut_->acc_i, base, LA::dest_space, a.space);
      put_field(dut_->acc_i, base, LA::dest_cta, a.cta);
      put_field(dut_->acc_i, base, LA::dest_thread, 0);
      put_field(dut_->acc_i, base, LA::offset, a.offset);
      put_field(dut_->acc_i, base, LA::size, a.size);
      put_field(dut_->acc_i, base, LA::byte_mask, a.mask);
      for (unsigned b = 0; b < 32; ++b)
        put_bits(dut_->acc_i, base + LA::data.lsb + 8 * b, 8, a.fill);
    }
    dut_->lane_valid_i = valid;
  }
  // One clock edge (inputs as set); returns whether the input was taken at it.
  bool edge() {
    dut_->eval();
    const bool taken = dut_->in_valid_i && dut_->in_ready_o;
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    return taken;
  }
  uint64_t out_line() const { return get_field(dut_->req_o, 0, LR::line); }

  // Presents one warp (lane l = lanes[l]) until taken, then collects every line with the
  // output always ready, recording the cycle of each.
  std::vector<Line> run(const std::vector<Lane>& lanes, std::vector<unsigned>* cycles = nullptr) {
    present(lanes);
    dut_->in_valid_i = 1;
    std::vector<Line> out;
    for (unsigned cycle = 0; cycle < 100; ++cycle) {
      dut_->eval();
      const bool taken = dut_->in_valid_i && dut_->in_ready_o;
      if (dut_->out_valid_o) {
        Line l{};
        l.space = unsigned(get_field(dut_->req_o, 0, LR::dest_space));
        l.cta = unsigned(get_field(dut_->req_o, 0, LR::dest_cta));
        l.line = get_field(dut_->req_o, 0, LR::line);
        l.sectors = unsigned(get_field(dut_->req_o, 0, LR::sector_mask));
        l.mask_lo = get_bits(dut_->req_o, LR::byte_mask.lsb, 64);
        l.mask_hi = get_bits(dut_->req_o, LR::byte_mask.lsb + 64, 64);
        l.lanes = uint32_t(get_field(dut_->req_o, 0, LR::lane_mask));
        l.first = unsigned(get_field(dut_->req_o, 0, LR::first_lane));
        l.last = dut_->last_o;
        for (unsigned b = 0; b < 128; ++b)
          l.data[b] = uint8_t(get_bits(dut_->req_o, LR::data.lsb + 8 * b, 8));
        out.push_back(l);
        if (cycles) cycles->push_back(cycle);
      }
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      if (taken) dut_->in_valid_i = 0;
      if (!out.empty() && out.back().last) break;
    }
    EXPECT_FALSE(ctx_->gotError());
    return out;
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_coalescer> dut_;
};

TEST_F(Coalescer, ConsecutiveU32OfAWarpIsOneFullLine) {
  std::vector<Lane> lanes(32);
  for (unsigned l = 0; l < 32; ++l) lanes[l] = Lane{kGlobal, 0, 0x1000 + 4 * l, 4, 0xF, uint8_t(l)};
  const std::vector<Line> out = run(lanes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line, 0x1000u);
  EXPECT_EQ(out[0].sectors, 0xFu);
  EXPECT_EQ(out[0].mask_lo, ~uint64_t(0));
  EXPECT_EQ(out[0].mask_hi, ~uint64_t(0));
  EXPECT_EQ(out[0].lanes, 0xFFFF'FFFFu);
  EXPECT_EQ(out[0].first, 0u);
  EXPECT_TRUE(out[0].last);
  for (unsigned b = 0; b < 128; ++b) EXPECT_EQ(out[0].data[b], b / 4) << b;
}

TEST_F(Coalescer, HighestLaneWinsAByteTwoLanesWrite) {
  std::vector<Lane> lanes(10, Lane{kGlobal, 0, 0x9000, 4, 0, 0});  // lanes 0..9, no bytes
  lanes[3] = Lane{kGlobal, 0, 0x2004, 4, 0xF, 0x33};
  lanes[9] = Lane{kGlobal, 0, 0x2004, 4, 0xF, 0x99};
  const std::vector<Line> out = run(lanes);
  ASSERT_EQ(out.size(), 1u);  // the empty lanes contribute no line and no lane bit
  EXPECT_EQ(out[0].line, 0x2000u);
  EXPECT_EQ(out[0].lanes, (1u << 3) | (1u << 9));
  EXPECT_EQ(out[0].first, 3u);
  EXPECT_EQ(out[0].sectors, 0x1u);
  EXPECT_EQ(out[0].mask_lo, 0xF0u);
  EXPECT_EQ(out[0].data[4], 0x99);
}

TEST_F(Coalescer, LinesComeOutByDestinationThenAddress) {
  const std::vector<Lane> lanes = {Lane{kGlobal, 0, 0x3080, 4, 0xF, 1},
                                   Lane{kShared, 0, 0x0, 4, 0xF, 2},
                                   Lane{kGlobal, 0, 0x3000, 8, 0xFF, 3}};
  const std::vector<Line> out = run(lanes);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].space, kGlobal);
  EXPECT_EQ(out[0].line, 0x3000u);
  EXPECT_EQ(out[0].lanes, 1u << 2);
  EXPECT_EQ(out[1].line, 0x3080u);
  EXPECT_EQ(out[2].space, kShared);
  EXPECT_EQ(out[2].line, 0x0u);
  EXPECT_FALSE(out[0].last);
  EXPECT_FALSE(out[1].last);
  EXPECT_TRUE(out[2].last);
}

TEST_F(Coalescer, StridedWarpGivesOneLinePerCycle) {
  std::vector<Lane> lanes(32);
  for (unsigned l = 0; l < 32; ++l) lanes[l] = Lane{kGlobal, 0, 0x40000 + 128 * l, 4, 0xF, 7};
  std::vector<unsigned> cycles;
  const std::vector<Line> out = run(lanes, &cycles);
  ASSERT_EQ(out.size(), 32u);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(out[i].line, 0x40000u + 128 * i);
    EXPECT_EQ(out[i].sectors, 0x1u);
    EXPECT_EQ(cycles[i], cycles[0] + i) << "one line per cycle";
  }
}

// Throughput at the warp boundary, which the cosimulation (values and order) does not see: the
// next warp is taken in the cycle the last line of the previous one moves to the output, so
// lines leave back to back across warps; and a warp is taken while the output is stalled when
// nothing of the previous one is pending. (The mutation run's survivor
// `in_ready_o = !any_pending && (...)` took a warp only with nothing pending and the output
// moving: one idle cycle per warp.)
TEST_F(Coalescer, TakesTheNextWarpAsTheLastLineOfThePreviousLeaves) {
  const std::vector<Lane> a = {Lane{kGlobal, 0, 0x1000, 4, 0xF, 1},
                               Lane{kGlobal, 0, 0x1080, 4, 0xF, 2}};
  const std::vector<Lane> b = {Lane{kGlobal, 0, 0x5000, 4, 0xF, 3}};
  dut_->out_ready_i = 1;
  present(a);
  dut_->in_valid_i = 1;
  ASSERT_TRUE(edge());  // A taken: its two lines are pending
  present(b);
  EXPECT_FALSE(edge());  // A's first line to the output, its second still pending
  EXPECT_TRUE(dut_->out_valid_o);
  EXPECT_EQ(out_line(), 0x1000u);
  EXPECT_TRUE(edge());  // B taken as A's last line moves to the output
  EXPECT_EQ(out_line(), 0x1080u);
  EXPECT_TRUE(dut_->last_o);
  dut_->in_valid_i = 0;
  edge();
  EXPECT_TRUE(dut_->out_valid_o);  // B's line, the next cycle: no gap between the warps
  EXPECT_EQ(out_line(), 0x5000u);
  // Output stalled with a line in it and nothing pending: the next warp is still taken.
  dut_->out_ready_i = 0;
  present(a);
  dut_->in_valid_i = 1;
  EXPECT_TRUE(edge());
  EXPECT_EQ(out_line(), 0x5000u);  // held while stalled
  EXPECT_FALSE(ctx_->gotError());
}

TEST(CoalescerCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("coalescer", 1, 4, 5000); }

TEST(CoalescerCosim, LongRandomSeeds) { stu::tb::expect_cosim_clean("coalescer", 1000, 64, 50000); }

// The deliberately broken variant (its line key leaves out the thread, so two threads' local
// lines at one offset merge): the harness must catch it, with the
// whole first-divergence report and a waveform around it (docs/cosim.md shows this report).
TEST(CoalescerCosim, BrokenVariantGivesTheFirstDivergenceReport) {
  const stu::tb::BlockEntry* b = stu::tb::find_block("coalescer", "broken");
  ASSERT_NE(b, nullptr);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stu_cosim_broken_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  stu::tb::CosimOptions o;
  o.seed = 7;
  o.txns = 2000;
  o.wave_dir = dir.string();
  const stu::tb::CosimResult r = b->run(o);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.report.find("MISMATCH, seed 7"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("expected: "), std::string::npos);
  EXPECT_NE(r.report.find("actual: "), std::string::npos);
  EXPECT_NE(r.report.find("fields:   thread: expected 0, actual 1"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("last matched (oldest first):\n    #"), std::string::npos);
  // The reproduction stops after the failing input (the stimulus before it is the same).
  EXPECT_NE(
      r.report.find("reproduce: stu cosim --block coalescer --variant broken --seed 7 --txns "),
      std::string::npos);
  ASSERT_FALSE(r.wave.empty());
  EXPECT_GT(std::filesystem::file_size(r.wave), 0u);
  EXPECT_EQ(std::filesystem::path(r.wave).filename(), "cosim_coalescer_broken_seed7.fst");
  std::printf("%s\n", r.report.c_str());
  std::filesystem::remove_all(dir);
}

}  // namespace
