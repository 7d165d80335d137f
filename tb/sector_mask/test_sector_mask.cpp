// Harness of rtl/stu_sector_mask.sv: every (offset, size) of a legal store against
// expectations computed here from the definition (bytes [offset, offset + size) of the
// 128-byte line, sectors of 32 bytes, natural alignment), not from the RTL's shift.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "Vstu_sector_mask.h"
#include "cosim_test.h"
#include "verilated.h"

namespace {

constexpr unsigned kLineBytes = 128;
constexpr unsigned kSectorBytes = 32;
constexpr std::array<unsigned, 6> kSizes = {1, 2, 4, 8, 16, 32};

struct Outputs {
  std::array<bool, kLineBytes> bytes{};
  unsigned sectors = 0;
  bool misaligned = false;
};

// What the block must produce for a valid store of `size` bytes at line offset `offset`.
Outputs expected(unsigned offset, unsigned size) {
  Outputs e;
  const unsigned end = std::min(offset + size, kLineBytes);  // bytes past the line: dropped
  for (unsigned b = offset; b < end; ++b) e.bytes[b] = true;
  for (unsigned s = offset / kSectorBytes; s <= (end - 1) / kSectorBytes; ++s) {
    e.sectors |= 1u << s;
  }
  e.misaligned = offset % size != 0;
  return e;
}

std::string mask_string(const std::array<bool, kLineBytes>& bytes) {
  std::string s;
  for (unsigned b = kLineBytes; b-- > 0;) s += bytes[b] ? '1' : '0';
  return s;
}

class SectorMaskTest : public ::testing::Test {
 protected:
  SectorMaskTest() : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);  // a failed assertion sets gotError() instead of exiting
    dut_ = std::make_unique<Vstu_sector_mask>(ctx_.get(), "dut");
  }
  ~SectorMaskTest() override { dut_->final(); }

  Outputs drive(bool valid, unsigned offset, unsigned size) {
    dut_->valid_i = valid;
    dut_->offset_i = offset;
    dut_->size_bytes_i = size;
    dut_->eval();
    Outputs o;
    for (unsigned b = 0; b < kLineBytes; ++b) {
      o.bytes[b] = (dut_->byte_mask_o[b / 32] >> (b % 32)) & 1u;
    }
    o.sectors = dut_->sector_mask_o;
    o.misaligned = dut_->misaligned_o;
    return o;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_sector_mask> dut_;
};

TEST_F(SectorMaskTest, EveryOffsetAndSizeMatchesTheDefinition) {
  unsigned checked = 0;
  for (unsigned size : kSizes) {
    for (unsigned offset = 0; offset < kLineBytes; ++offset) {
      const Outputs got = drive(true, offset, size);
      const Outputs want = expected(offset, size);
      SCOPED_TRACE("offset " + std::to_string(offset) + " size " + std::to_string(size));
      EXPECT_EQ(mask_string(got.bytes), mask_string(want.bytes));
      EXPECT_EQ(got.sectors, want.sectors);
      EXPECT_EQ(got.misaligned, want.misaligned);
      ++checked;
    }
  }
  EXPECT_FALSE(ctx_->gotError());
  std::printf("stu_sector_mask: checked %u (offset, size) pairs\n", checked);
}

TEST_F(SectorMaskTest, AlignedV4B32AtOffset48TouchesSectorOneOnly) {
  const Outputs got = drive(true, 48, 16);
  EXPECT_EQ(got.sectors, 0b0010u);
  EXPECT_FALSE(got.misaligned);
}

TEST_F(SectorMaskTest, MisalignedV8B32AtOffset16SpansTwoSectors) {
  const Outputs got = drive(true, 16, 32);
  EXPECT_EQ(got.sectors, 0b0011u);
  EXPECT_TRUE(got.misaligned);
}

TEST_F(SectorMaskTest, MisalignedAccessIsClippedAtTheLineEnd) {
  const Outputs got = drive(true, 120, 16);
  for (unsigned b = 0; b < kLineBytes; ++b) EXPECT_EQ(got.bytes[b], b >= 120) << "byte " << b;
  EXPECT_EQ(got.sectors, 0b1000u);
  EXPECT_TRUE(got.misaligned);
}

TEST_F(SectorMaskTest, IdleOutputsAreZero) {
  for (unsigned size = 0; size < 64; ++size) {
    for (unsigned offset = 0; offset < kLineBytes; ++offset) {
      const Outputs got = drive(false, offset, size);
      EXPECT_EQ(mask_string(got.bytes), std::string(kLineBytes, '0'));
      EXPECT_EQ(got.sectors, 0u);
      EXPECT_FALSE(got.misaligned);
    }
  }
  EXPECT_FALSE(ctx_->gotError());  // the assertions ignore idle cycles
}

TEST_F(SectorMaskTest, IllegalSizeFailsTheSizeAssertion) {
  drive(true, 0, 3);
  EXPECT_TRUE(ctx_->gotError());
}

TEST_F(SectorMaskTest, ZeroSizeFailsTheAssertions) {
  drive(true, 5, 0);
  EXPECT_TRUE(ctx_->gotError());
}

// The cosimulation against the golden byte-mask rule (stu cosim --block sector_mask): random
// offsets and sizes, line ends included, with back-pressure.
TEST(SectorMaskCosim, SeedsOneToFour) { stu::tb::expect_cosim_clean("sector_mask", 1, 4, 5000); }

TEST(SectorMaskCosim, LongRandomSeeds) {
  stu::tb::expect_cosim_clean("sector_mask", 1000, 64, 50000);
}

}  // namespace
