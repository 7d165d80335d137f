// Functional coverage (fcov.h): declaring, counting, crosses, merging, the file format, and a
// cosimulation that counts every block's points (hand-computed expectations, not the model's).
#include <gtest/gtest.h>

#include "blocks.h"
#include "cosim.h"
#include "fcov.h"

namespace stu::tb {
namespace {

TEST(FunctionalCoverage, BinsAreDeclaredBeforeTheyAreCounted) {
  Coverage c;
  CoverPoint& p = c.point("blk.size", {"1", "2", "4"});
  p.hit(0);
  p.hit(0);
  p.hit(2, 5);
  EXPECT_EQ(p.count(0), 2u);
  EXPECT_EQ(p.count(1), 0u);
  EXPECT_EQ(p.count(2), 5u);
  EXPECT_EQ(p.find("2"), 1u);
  EXPECT_EQ(p.find("3"), 3u);  // none
  // The same point again is the same point; other bins are a bench bug.
  EXPECT_EQ(&c.point("blk.size", {"1", "2", "4"}), &p);
  EXPECT_THROW(c.point("blk.size", {"1", "2"}), std::invalid_argument);
  EXPECT_THROW(c.point("blk.x", {"a", "a"}), std::invalid_argument);
  EXPECT_THROW(c.point("blk.y", {"tab\there"}), std::invalid_argument);
  const Coverage::Summary s = c.summary();
  EXPECT_EQ(s.legal, 3u);
  EXPECT_EQ(s.hit, 2u);
  EXPECT_DOUBLE_EQ(s.percent(), 200.0 / 3.0);
}

TEST(FunctionalCoverage, CrossesNameEveryPairAndDeclareTheImpossibleOnes) {
  Coverage c;
  const CoverPoint& a = c.point("a", {"x", "y"});
  const CoverPoint& b = c.point("b", {"1", "2", "3"});
  CoverPoint& ab = c.cross(
      "a_x_b", a, b, [](size_t i, size_t j) { return i == 1 && j == 2 ? "y never meets 3" : ""; });
  ASSERT_EQ(ab.size(), 6u);
  EXPECT_EQ(ab.bin_name(3), "y,1");  // bin i * 3 + j
  EXPECT_EQ(ab.illegal(ab.find("y,3")), "y never meets 3");
  EXPECT_EQ(ab.illegal(ab.find("x,3")), "");
  ab.hit(ab.find("x,2"));
  ab.hit(ab.find("y,3"));  // an illegal bin: a finding
  const Coverage::Summary s = c.summary();
  EXPECT_EQ(s.legal, 2u + 3u + 5u);
  EXPECT_EQ(s.hit, 1u);
  EXPECT_EQ(s.illegal, 1u);
  EXPECT_EQ(s.illegal_hit, 1u);
}

TEST(FunctionalCoverage, FilesRoundTripAndMergeByAdding) {
  Coverage one;
  CoverPoint& p = one.point("p", {"a", "b"});
  p.mark_illegal(1, "b cannot happen");
  p.hit(0, 3);
  Coverage two;
  two.point("p", {"a", "b"}).mark_illegal(1, "b cannot happen");
  two.point("p", {"a", "b"}).hit(0, 4);
  two.point("q", {"z"}).hit(0);
  const std::string text = one.write();
  EXPECT_EQ(text, "# stu functional coverage 1\np\ta\t3\t\np\tb\t0\tb cannot happen\n");
  Coverage back;
  std::string why;
  ASSERT_TRUE(Coverage::read(text, back, why)) << why;
  ASSERT_TRUE(back.merge(two, why)) << why;
  ASSERT_NE(back.find("p"), nullptr);
  EXPECT_EQ(back.find("p")->count(0), 7u);
  EXPECT_EQ(back.find("p")->illegal(1), "b cannot happen");
  ASSERT_NE(back.find("q"), nullptr);
  EXPECT_EQ(back.find("q")->count(0), 1u);
  // A bin legal in one file and illegal in the other does not merge.
  Coverage other;
  other.point("p", {"a", "b"});
  EXPECT_FALSE(back.merge(other, why));
  EXPECT_NE(why.find("legal in one file"), std::string::npos);
}

TEST(FunctionalCoverage, BadFilesAreReportedWithTheirLine) {
  Coverage c;
  std::string why;
  EXPECT_FALSE(Coverage::read("", c, why));
  EXPECT_EQ(why.substr(0, 4), "1:1:");
  EXPECT_FALSE(Coverage::read("not coverage\n", c, why));
  EXPECT_FALSE(Coverage::read("# stu functional coverage 1\np\ta\tlots\t\n", c, why));
  EXPECT_EQ(why.substr(0, 4), "2:1:");
  EXPECT_FALSE(Coverage::read("# stu functional coverage 1\np\ta\t1\t\np\ta\t2\t\n", c, why));
  EXPECT_NE(why.find("twice"), std::string::npos);
}

// A cosimulation counts its block's points: the mbarrier bench drives every operation, and a
// run of 2,000 transactions hits each of them (five operations, uniformly drawn: the chance
// that one is missing is 5 * 0.8^2000, nil).
TEST(FunctionalCoverage, ACosimulationCountsItsBlocksPoints) {
  const BlockEntry* b = find_block("mbarrier", "");
  ASSERT_NE(b, nullptr);
  Coverage c;
  CosimOptions o;
  o.seed = 3;
  o.txns = 2000;
  o.coverage = &c;
  const CosimResult r = b->run(o);
  ASSERT_TRUE(r.ok) << r.report;
  const CoverPoint* op = c.find("mbarrier.op");
  ASSERT_NE(op, nullptr);
  uint64_t total = 0;
  for (size_t i = 0; i < op->size(); ++i) {
    EXPECT_GT(op->count(i), 0u) << op->bin_name(i);
    total += op->count(i);
  }
  EXPECT_EQ(total, 2000u);  // one operation per input transaction
  const CoverPoint* hs = c.find("mbarrier.handshake");
  ASSERT_NE(hs, nullptr);
  EXPECT_GT(hs->count(1), 0u);  // the output stalls a quarter of the cycles
  EXPECT_EQ(c.summary().illegal_hit, 0u);
}

}  // namespace
}  // namespace stu::tb
