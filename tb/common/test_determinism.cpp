// Determinism of the cosimulation (docs/verification.md): the same seed gives the same
// transactions, report and waveform, for every block `stu cosim --block all` runs.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "cosim.h"

namespace {

using stu::tb::BlockEntry;
using stu::tb::CosimOptions;
using stu::tb::CosimResult;

TEST(CosimDeterminism, OneSeedTwiceGivesTheSameRun) {
  for (const BlockEntry& b : stu::tb::blocks()) {
    CosimOptions o;
    o.seed = 5;
    o.txns = b.name == "store_unit" ? 100 : 500;
    o.rerun_for_wave = false;  // the broken variant fails: no waveform file here
    const CosimResult x = b.run(o), y = b.run(o);
    EXPECT_TRUE(x.ok == y.ok && x.matched == y.matched && x.cycles == y.cycles &&
                x.txns == y.txns && x.report == y.report)
        << b.name << ": " << x.matched << "/" << y.matched << " matched, " << x.cycles << "/"
        << y.cycles << " cycles";
  }
}

// The FST header holds the date the file was written (119 bytes at offset 202); the rest of
// two waveforms of one seed must be equal byte for byte.
std::vector<char> wave_without_date(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> v((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (std::size_t i = 202; i < 321 && i < v.size(); ++i) v[i] = 0;
  return v;
}

TEST(CosimDeterminism, OneSeedTwiceGivesTheSameWaveform) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stu_cosim_det_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const char* block : {"mbarrier", "coalescer"}) {
    const BlockEntry* b = stu::tb::find_block(block);
    ASSERT_NE(b, nullptr);
    std::vector<std::vector<char>> waves;
    for (int run = 0; run < 2; ++run) {
      CosimOptions o;
      o.seed = 9;
      o.txns = 300;
      o.wave = (dir / (std::string(block) + std::to_string(run) + ".fst")).string();
      ASSERT_TRUE(b->run(o).ok) << block;
      waves.push_back(wave_without_date(o.wave));
    }
    ASSERT_GT(waves[0].size(), 321u) << block;
    EXPECT_TRUE(waves[0] == waves[1]) << block << ": the two waveforms differ";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
