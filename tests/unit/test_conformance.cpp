// Agreement with ptxas 13.0 on the recorded conformance corpora (tests/conformance/).
//
// `train` is the corpus the checker was developed against: it must agree on every case, and
// every disagreement is listed.
// `heldout` was generated with another seed and not looked at during development: it
// measures how well the rules generalise (required: at least 99.5 %).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "stu/ptx/conformance.h"

namespace stu::ptx {
namespace {

namespace fs = std::filesystem;

ConformanceReport run_dir(const fs::path& dir, size_t& files) {
  ConformanceReport total;
  std::vector<fs::path> paths;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".ptx") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    ConformanceReport r = run_conformance(ss.str());
    for (auto& c : r.disagreements)
      c.text = p.filename().string() + ":" + std::to_string(c.line) + ": " + c.text;
    for (auto& s : r.stray) s = p.filename().string() + ": " + s;
    total.merge(r);
    ++files;
  }
  return total;
}

void report(const char* name, const ConformanceReport& r, size_t files, size_t show) {
  std::cout << name << ": " << files << " files, " << r.cases << " cases, agreement "
            << 100.0 * r.agreement() << " % (" << r.false_errors << " false errors, "
            << r.missed_errors << " missed errors, " << r.stray.size() << " stray)\n";
  size_t n = 0;
  for (const auto& c : r.disagreements) {
    if (n++ >= show) break;
    std::cout << "  " << (c.stu_error ? "stu rejects" : "stu accepts") << ": " << c.text
              << "\n      ptxas: " << (c.ptxas_error ? c.ptxas_message : "ok")
              << "\n      stu:   " << (c.stu_error ? c.stu_message : "ok") << "\n";
  }
  for (size_t i = 0; i < r.stray.size() && i < show; ++i)
    std::cout << "  stray " << r.stray[i] << "\n";
}

TEST(Conformance, TrainingCorpusAgreesWithPtxas) {
  fs::path dir = fs::path(STU_SOURCE_DIR) / "tests" / "conformance" / "train";
  if (!fs::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
  size_t files = 0;
  ConformanceReport r = run_dir(dir, files);
  report("train", r, files, 200);
  ASSERT_GT(r.cases, 1000u);
  EXPECT_TRUE(r.stray.empty());
  // The rules were developed against this corpus: every scored case must agree.
  EXPECT_EQ(r.false_errors + r.missed_errors, 0u);
}

TEST(Conformance, HeldOutCorpusAgreesWithPtxas) {
  fs::path dir = fs::path(STU_SOURCE_DIR) / "tests" / "conformance" / "heldout";
  if (!fs::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
  size_t files = 0;
  ConformanceReport r = run_dir(dir, files);
  report("heldout", r, files, 0);
  ASSERT_GT(r.cases, 1000u);
  EXPECT_GE(r.agreement(), 0.995);
}

}  // namespace
}  // namespace stu::ptx
