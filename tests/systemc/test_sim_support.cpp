// resolve_config, what `stu sim --config` and `stu run --on tlm --config` report. In a program of
// its own, which runs no simulation: the JSON reader throws on a syntax error, and ASan cannot
// follow an exception thrown after SystemC's coroutines have switched stacks in the same process
// (google/sanitizers#189; it reports a stack-buffer-overflow that is not there).
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "sim_config.h"
#include "sim_support.h"

namespace stu::sim {
namespace {

// What `stu sim --config FILE` prints: every error, one per line, the file named once on each.
TEST(ResolveConfig, ReportsEveryErrorNamingTheFileOnce_bad) {
  const std::string path = ::testing::TempDir() + "stu_sim_config_many.json";
  {
    std::ofstream out(path);
    out << R"({"preset": "h100", "l1": {"ways": 0}, "shared": {"banks": 3}, "l2": {"colour": 1}})";
  }
  SimConfig c;
  std::string why;
  EXPECT_FALSE(resolve_config(path, "", c, why));
  // Every error, in the document's key order (l1, l2, shared), the file named on each line.
  EXPECT_EQ(
      why,
      path + ": l1.ways: must be a power of two in 1..64, got 0\n" + path +
          ": l2.colour: unknown key (known: slices, slice_hash, slice_bytes, ways, replacement, "
          "hit_latency, bytes_per_clk, partitions, partial_lines, dirty_lines)\n" +
          path + ": shared.banks: must be a power of two in 1..64, got 3");
  {
    std::ofstream out(path);
    out << R"({"preset": "h100", "l1": {"ways": 0}, "shared": {"banks": 3}})";
  }
  EXPECT_FALSE(resolve_config(path, "", c, why));
  EXPECT_EQ(why, path + ": l1.ways: must be a power of two in 1..64, got 0\n" + path +
                     ": shared.banks: must be a power of two in 1..64, got 3");
  {
    std::ofstream out(path);
    out << "{\"l2\": }";
  }
  EXPECT_FALSE(resolve_config(path, "", c, why));
  std::remove(path.c_str());
  EXPECT_EQ(why.rfind(path + ": line 1, column 8: ", 0), 0u) << why;
  EXPECT_EQ(why.find(path, 1), std::string::npos) << why;  // named once
}

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
