// Agreement with ptxas 13.0 on the recorded conformance corpora (tests/conformance/).
//
// `train` is the corpus the checker was developed against: it must agree on every case, and
// every disagreement is listed.
// `heldout` was generated with another seed and not looked at during development: it
// measures how well the rules generalise (required: at least 99.5 %). `heldout8` likewise,
// generated after issue 8 with the issue-8 families.
#include <gtest/gtest.h>

#include <filesystem>

#include "stu/ptx/conformance.h"

namespace stu::ptx {
namespace {

namespace fs = std::filesystem;

// Runs tests/conformance/<name>; false (test skipped) when the corpus is not there.
bool run_corpus(const char* name, ConformanceReport& r, size_t& files) {
  fs::path dir = fs::path(STU_SOURCE_DIR) / "tests" / "conformance" / name;
  if (!fs::exists(dir)) return false;
  std::string error;
  EXPECT_TRUE(run_conformance_paths({dir.string()}, r, files, error)) << error;
  return true;
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
  ConformanceReport r;
  size_t files = 0;
  if (!run_corpus("train", r, files)) GTEST_SKIP() << "no training corpus";
  report("train", r, files, 200);
  ASSERT_GT(r.cases, 1000u);
  EXPECT_TRUE(r.stray.empty());
  // The rules were developed against this corpus: every scored case must agree.
  EXPECT_EQ(r.false_errors + r.missed_errors, 0u);
}

TEST(Conformance, HeldOutCorpusAgreesWithPtxas) {
  ConformanceReport r;
  size_t files = 0;
  if (!run_corpus("heldout", r, files)) GTEST_SKIP() << "no held-out corpus";
  report("heldout", r, files, 0);
  ASSERT_GT(r.cases, 1000u);
  EXPECT_GE(r.agreement(), 0.995);
}

// The families of issue 8 (st.async without [mbar], '.cluster' with another space, repeated
// qualifiers, float immediates of the other width, addend sources, st.bulk, constant address
// expressions), probed by hand with ptxas: every case agrees.
TEST(Conformance, IssueFamiliesCorpusAgreesWithPtxas) {
  ConformanceReport r;
  size_t files = 0;
  if (!run_corpus("families", r, files)) GTEST_SKIP() << "no families corpus";
  report("families", r, files, 50);
  ASSERT_GT(r.cases, 600u);
  EXPECT_EQ(r.false_errors + r.missed_errors, 0u);
}

// `heldout8` was generated after issue 8 with a third seed, disjoint from `train` and
// `heldout`, and measured once when the work was done (tests/conformance/README.md): a floor
// that guards against regressions, not a target to tune against.
TEST(Conformance, Issue8HeldOutCorpusAgreesWithPtxas) {
  ConformanceReport r;
  size_t files = 0;
  if (!run_corpus("heldout8", r, files)) GTEST_SKIP() << "no issue-8 held-out corpus";
  report("heldout8", r, files, 0);
  ASSERT_GT(r.cases, 1000u);
  EXPECT_GE(r.agreement(), 0.995);
}

}  // namespace
}  // namespace stu::ptx
