// golden::SparseMemory: the byte memory of the golden model and of the TLM model's DRAM.
// Expectations are hand-computed from the class's contract (state.h): 4 KiB pages created on
// first write, unwritten bytes read as the fill value, a line written only where its mask is
// set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "stu/golden/state.h"

namespace stu::golden {
namespace {

std::vector<uint8_t> read(const SparseMemory& m, uint64_t addr, size_t n) {
  std::vector<uint8_t> v(n);
  m.read(addr, v.data(), n);
  return v;
}

TEST(SparseMemory, UnwrittenBytesReadAsTheFill) {
  SparseMemory zero;
  SparseMemory ab(0xAB);
  EXPECT_EQ(read(zero, 0x1234, 3), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(read(ab, 0x1234, 3), (std::vector<uint8_t>{0xAB, 0xAB, 0xAB}));
  EXPECT_EQ(zero.pages(), 0u);
  EXPECT_EQ(zero.page(1), nullptr);
  // A write creates its page, filled: the bytes beside it read as the fill.
  const uint8_t one = 7;
  ab.write(0x2001, &one, 1);
  EXPECT_EQ(read(ab, 0x2000, 3), (std::vector<uint8_t>{0xAB, 7, 0xAB}));
  EXPECT_EQ(ab.pages(), 1u);
}

TEST(SparseMemory, AWriteAcrossAPageBoundaryLandsInBothPages) {
  SparseMemory m;
  const uint8_t data[4] = {1, 2, 3, 4};
  m.write(0x1FFE, data, 4);  // 0x1FFE, 0x1FFF in page 1; 0x2000, 0x2001 in page 2
  EXPECT_EQ(m.pages(), 2u);
  EXPECT_EQ(m.page_numbers(), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(read(m, 0x1FFD, 6), (std::vector<uint8_t>{0, 1, 2, 3, 4, 0}));
  ASSERT_NE(m.page(2), nullptr);
  EXPECT_EQ(m.page(2)[1], 4);
}

TEST(SparseMemory, ALineIsWrittenOnlyWhereItsMaskIsSet) {
  SparseMemory m(0xEE);
  uint8_t data[kLineBytes];
  for (unsigned i = 0; i < kLineBytes; ++i) data[i] = uint8_t(i);
  LineByteMask mask;
  mask.lo = 0x0000'0000'0000'00F0ull;  // bytes 4..7
  mask.hi = 0x8000'0000'0000'0001ull;  // bytes 64 and 127
  m.write_line(0x4080, mask, data);
  const std::vector<uint8_t> got = read(m, 0x4080, kLineBytes);
  for (unsigned i = 0; i < kLineBytes; ++i) {
    const bool set = (i >= 4 && i <= 7) || i == 64 || i == 127;
    EXPECT_EQ(got[i], set ? uint8_t(i) : 0xEE) << "byte " << i;
  }
  // A whole line.
  mask.lo = mask.hi = ~uint64_t(0);
  m.write_line(0x4100, mask, data);
  EXPECT_EQ(read(m, 0x4100 + 100, 2), (std::vector<uint8_t>{100, 101}));
}

// Many pages far apart (and some beside each other), more than the table's first sizes, at
// addresses up to the top of the address space: every byte reads back, and the page list is
// the set written, in ascending order.
TEST(SparseMemory, ManyPagesFarApartAllReadBack) {
  SparseMemory m;
  std::vector<uint64_t> numbers;
  for (uint64_t i = 0; i < 5000; ++i) numbers.push_back(i * 7919 + (i % 3));
  numbers.push_back((~uint64_t(0)) >> SparseMemory::kPageBits);  // the last page of memory
  numbers.push_back(uint64_t(1) << 40);
  for (uint64_t n : numbers) {
    const uint8_t v = uint8_t(n * 31 + 1);
    m.write((n << SparseMemory::kPageBits) + (n % 4096), &v, 1);
  }
  std::vector<uint64_t> want = numbers;
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  EXPECT_EQ(m.pages(), want.size());
  EXPECT_EQ(m.page_numbers(), want);
  for (uint64_t n : numbers) {
    const uint64_t a = (n << SparseMemory::kPageBits) + (n % 4096);
    EXPECT_EQ(read(m, a, 1)[0], uint8_t(n * 31 + 1)) << "page " << n;
  }
  EXPECT_EQ(m.page(3), nullptr);  // (the pages written are 0, 7920, 15840, ...)
}

TEST(SparseMemory, AMoveTakesThePagesAndLeavesAnEmptyMemory) {
  SparseMemory a;
  const uint8_t v = 9;
  a.write(0x5000, &v, 1);
  SparseMemory b(std::move(a));
  EXPECT_EQ(read(b, 0x5000, 1)[0], 9);
  EXPECT_EQ(b.pages(), 1u);
  EXPECT_EQ(a.pages(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty, usable
  EXPECT_EQ(read(a, 0x5000, 1)[0], 0);
  // Writing the moved-from memory's last page again creates its own page: the moved pages
  // stay the new owner's.
  const uint8_t x = 3;
  a.write(0x5000, &x, 1);
  EXPECT_EQ(a.pages(), 1u);
  EXPECT_EQ(read(a, 0x5000, 1)[0], 3);
  EXPECT_EQ(read(b, 0x5000, 1)[0], 9);
  SparseMemory c;
  const uint8_t w = 5;
  c.write(0x7000, &w, 1);
  c = std::move(b);  // c's own page is freed, b's taken
  EXPECT_EQ(c.pages(), 1u);
  EXPECT_EQ(read(c, 0x5000, 1)[0], 9);
  EXPECT_EQ(read(c, 0x7000, 1)[0], 0);
}

}  // namespace
}  // namespace stu::golden
