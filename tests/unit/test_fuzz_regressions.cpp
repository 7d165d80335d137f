// Replays the inputs the parser fuzzer found (tests/data/fuzz/) through the same property
// the fuzz target checks (fuzz/fuzz_body.h): single files as they are, and the minimised
// corpus `corpus.hex` (one hex-encoded input per line, `#` comments).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../fuzz/fuzz_body.h"

namespace {

namespace fs = std::filesystem;

fs::path fuzz_dir() { return fs::path(STU_SOURCE_DIR) / "tests" / "data" / "fuzz"; }

bool unhex(const std::string& line, std::string& out) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (line.size() % 2) return false;
  out.clear();
  for (size_t i = 0; i < line.size(); i += 2) {
    int hi = nibble(line[i]), lo = nibble(line[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

TEST(FuzzRegressions, RecordedCrashInputsKeepTheProperty) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(fuzz_dir())) {
    if (e.path().extension() == ".hex") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_TRUE(stu::fuzz::check_input(ss.str())) << e.path();
    ++n;
  }
  EXPECT_GT(n, 0u);
  std::cout << "replayed " << n << " recorded inputs\n";
}

TEST(FuzzRegressions, MinimisedCorpusKeepsTheProperty) {
  std::ifstream in(fuzz_dir() / "corpus.hex");
  ASSERT_TRUE(in) << "missing corpus.hex";
  std::string line, input;
  size_t n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    ASSERT_TRUE(unhex(line, input)) << "malformed line " << n;
    EXPECT_TRUE(stu::fuzz::check_input(input)) << "corpus input " << n;
    ++n;
  }
  EXPECT_GT(n, 1000u);
  std::cout << "replayed " << n << " corpus inputs\n";
}

}  // namespace
