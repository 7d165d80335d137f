// Replays the inputs the parser fuzzer found (tests/data/fuzz/) through the same property
// the fuzz target checks (fuzz/fuzz_body.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../fuzz/fuzz_body.h"

namespace {

TEST(FuzzRegressions, EveryRecordedInputKeepsTheProperty) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(STU_SOURCE_DIR) / "tests" / "data" / "fuzz";
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_TRUE(stu::fuzz::check_input(ss.str())) << e.path();
    ++n;
  }
  EXPECT_GT(n, 0u);
  std::cout << "replayed " << n << " fuzz inputs\n";
}

}  // namespace
