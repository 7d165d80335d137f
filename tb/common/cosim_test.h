// Helpers for the tb_<block> GoogleTest cases: run a block's cosimulation over seeds and fail
// with its first-divergence report.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cosim.h"

namespace stu::tb {

// Applies the asynchronous reset with one clock edge inside it (the inputs start at 0, so
// lowering rst_ni alone is no edge), and leaves the clock low.
template <typename Dut>
void reset(Dut& d) {
  d.rst_ni = 0;
  d.clk_i = 0;
  d.eval();
  d.clk_i = 1;
  d.eval();
  d.clk_i = 0;
  d.eval();
  d.rst_ni = 1;
  d.eval();
}

// Seeds `first` .. `first + n - 1` of a block, `txns` input transactions each. STU_SEED
// overrides the first seed (to reproduce a failure printed by a random run).
inline void expect_cosim_clean(const char* block, uint64_t first, uint64_t n, uint64_t txns) {
  if (const char* s = std::getenv("STU_SEED")) first = std::strtoull(s, nullptr, 0);
  const BlockEntry* b = find_block(block);
  ASSERT_NE(b, nullptr) << block;
  uint64_t matched = 0;
  for (uint64_t seed = first; seed < first + n; ++seed) {
    CosimOptions o;
    o.seed = seed;
    o.txns = txns;
    o.rerun_for_wave = false;  // the report says how to reproduce it with a waveform
    const CosimResult r = b->run(o);
    ASSERT_TRUE(r.ok) << r.report;
    EXPECT_EQ(r.txns, txns);
    matched += r.matched;
  }
  std::printf("cosim %s: seeds %llu..%llu, %llu transactions matched\n", block,
              static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + n - 1),
              static_cast<unsigned long long>(matched));
}

}  // namespace stu::tb
