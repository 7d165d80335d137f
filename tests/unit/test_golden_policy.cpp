// Decoding of the `.L2::cache_hint` policy operand (policy.h), against
// ../shared/spec/memory-model.md: the CUTLASS CacheHintSm90 constants, and the layout
// observed for createpolicy.fractional on sm_90:
//   bit 60 set; bits 59:57 primary (0 unchanged, 1 first, 2 last, 3 normal);
//   bit 56 set when the secondary is evict_first; bits 55:52 = round(16 * fraction) - 1.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "stu/golden/policy.h"

namespace {

using namespace stu::golden;
using Kind = CachePolicy::Kind;

// --- CUTLASS constants -------------------------------------------------------------------

TEST(GoldenPolicy, CutlassEvictNormal) {
  const CachePolicy p = decode_policy(0x1000000000000000ull);
  EXPECT_EQ(p.kind, Kind::Named);
  EXPECT_EQ(p.primary, L2Priority::Normal);
  EXPECT_EQ(p.raw, 0x1000000000000000ull);
  EXPECT_EQ(p.str(), "evict_normal");
}

TEST(GoldenPolicy, CutlassEvictFirst) {
  const CachePolicy p = decode_policy(0x12F0000000000000ull);
  EXPECT_EQ(p.kind, Kind::Named);
  EXPECT_EQ(p.primary, L2Priority::First);
  EXPECT_EQ(p.str(), "evict_first");
}

TEST(GoldenPolicy, CutlassEvictLast) {
  const CachePolicy p = decode_policy(0x14F0000000000000ull);
  EXPECT_EQ(p.kind, Kind::Named);
  EXPECT_EQ(p.primary, L2Priority::Last);
  EXPECT_EQ(p.str(), "evict_last");
}

TEST(GoldenPolicy, NamedConstantsTakePrecedenceOverLayout) {
  // Read with the layout, 0x1000... would be (unchanged, 1/16): the name wins.
  const CachePolicy p = decode_policy(0x1000000000000000ull);
  EXPECT_NE(p.kind, Kind::Fractional);
}

TEST(GoldenPolicy, CutlassFirstAndLastAgreeWithTheLayout) {
  // 0x12F: bit 60, bits 59:57 = 001 (first), bit 56 = 0, bits 55:52 = 0xF (fraction 1).
  EXPECT_EQ(encode_fractional_policy(L2Priority::First, L2Priority::Unchanged, 1.0f),
            0x12F0000000000000ull);
  // 0x14F: bits 59:57 = 010 (last).
  EXPECT_EQ(encode_fractional_policy(L2Priority::Last, L2Priority::Unchanged, 1.0f),
            0x14F0000000000000ull);
}

// --- the observed fractional layout ------------------------------------------------------

TEST(GoldenPolicy, FractionalNormalSecondaryFirstQuarter) {
  // 1 << 60 | 3 << 57 | 1 << 56 | (4 - 1) << 52 = 0x1730_0000_0000_0000.
  const CachePolicy p = decode_policy(0x1730000000000000ull);
  EXPECT_EQ(p.kind, Kind::Fractional);
  EXPECT_EQ(p.primary, L2Priority::Normal);
  EXPECT_EQ(p.secondary, L2Priority::First);
  EXPECT_FLOAT_EQ(p.fraction, 0.25f);
  EXPECT_EQ(p.str(), "fractional(evict_normal, 0.25, evict_first)");
}

TEST(GoldenPolicy, FractionalLastHalf) {
  // 1 << 60 | 2 << 57 | (8 - 1) << 52 = 0x1470_0000_0000_0000.
  const CachePolicy p = decode_policy(0x1470000000000000ull);
  EXPECT_EQ(p.kind, Kind::Fractional);
  EXPECT_EQ(p.primary, L2Priority::Last);
  EXPECT_EQ(p.secondary, L2Priority::Unchanged);
  EXPECT_FLOAT_EQ(p.fraction, 0.5f);
}

TEST(GoldenPolicy, FractionalUnchangedSmallestFraction) {
  // Primary 0 (unchanged), secondary first, fraction field 0 = 1/16: 0x1100_0000_0000_0000.
  const CachePolicy p = decode_policy(0x1100000000000000ull);
  EXPECT_EQ(p.kind, Kind::Fractional);
  EXPECT_EQ(p.primary, L2Priority::Unchanged);
  EXPECT_EQ(p.secondary, L2Priority::First);
  EXPECT_FLOAT_EQ(p.fraction, 1.0f / 16);
}

TEST(GoldenPolicy, FractionalFirstWithSecondaryFirst) {
  // 1 << 60 | 1 << 57 | 1 << 56 | 0xF << 52 = 0x13F0...: not the CUTLASS 0x12F value.
  const CachePolicy p = decode_policy(0x13F0000000000000ull);
  EXPECT_EQ(p.kind, Kind::Fractional);
  EXPECT_EQ(p.primary, L2Priority::First);
  EXPECT_EQ(p.secondary, L2Priority::First);
  EXPECT_FLOAT_EQ(p.fraction, 1.0f);
}

TEST(GoldenPolicy, EncodeHandComputedValues) {
  EXPECT_EQ(encode_fractional_policy(L2Priority::Normal, L2Priority::First, 0.25f),
            0x1730000000000000ull);
  EXPECT_EQ(encode_fractional_policy(L2Priority::Last, L2Priority::Unchanged, 0.5f),
            0x1470000000000000ull);
  EXPECT_EQ(encode_fractional_policy(L2Priority::Unchanged, L2Priority::Unchanged, 1.0f),
            0x10F0000000000000ull);
  EXPECT_EQ(encode_fractional_policy(L2Priority::Normal, L2Priority::Unchanged, 1.0f),
            0x16F0000000000000ull);
}

TEST(GoldenPolicy, EncodeRoundsFractionToSixteenths) {
  // 0.3 * 16 = 4.8 -> 5 -> field 4.
  EXPECT_EQ(encode_fractional_policy(L2Priority::Last, L2Priority::Unchanged, 0.3f),
            0x1440000000000000ull);
  // 0.01 * 16 = 0.16 -> 0, but the fraction is in (0, 1]: at least 1/16 (field 0).
  EXPECT_EQ(encode_fractional_policy(L2Priority::Last, L2Priority::Unchanged, 0.01f),
            0x1400000000000000ull);
}

TEST(GoldenPolicy, EncodeDecodeRoundTripAllSixteenths) {
  const L2Priority prims[] = {L2Priority::Unchanged, L2Priority::First, L2Priority::Last,
                              L2Priority::Normal};
  for (L2Priority prim : prims) {
    for (L2Priority sec : {L2Priority::Unchanged, L2Priority::First}) {
      for (int q = 1; q <= 16; ++q) {
        const float f = float(q) / 16;
        const uint64_t raw = encode_fractional_policy(prim, sec, f);
        // Hand layout.
        EXPECT_EQ(raw, (uint64_t(1) << 60) | (uint64_t(prim) << 57) |
                           (uint64_t(sec == L2Priority::First) << 56) | (uint64_t(q - 1) << 52));
        const CachePolicy p = decode_policy(raw);
        EXPECT_EQ(p.raw, raw);
        if (p.kind == Kind::Named) continue;  // the CUTLASS values: checked above
        EXPECT_EQ(p.kind, Kind::Fractional) << std::hex << raw;
        EXPECT_EQ(p.primary, prim);
        EXPECT_EQ(p.secondary, sec);
        EXPECT_FLOAT_EQ(p.fraction, f);
      }
    }
  }
}

// --- values that do not fit --------------------------------------------------------------

TEST(GoldenPolicy, ZeroIsOpaque) {
  const CachePolicy p = decode_policy(0);
  EXPECT_EQ(p.kind, Kind::Opaque);
  EXPECT_EQ(p.raw, 0u);
  EXPECT_EQ(p.str(), "opaque(0x0000000000000000)");
}

TEST(GoldenPolicy, AllOnesTraps) {  // an H200 ends the kernel: cudaErrorIllegalInstruction
  const CachePolicy p = decode_policy(~uint64_t(0));
  EXPECT_EQ(p.kind, Kind::Illegal);
  EXPECT_EQ(p.str(), "illegal(0xffffffffffffffff)");
}

// Every value an H200 was given (issue figures, 2026-11-26): these trapped ...
TEST(GoldenPolicy, ValuesThatTrappedOnAnH200) {
  for (uint64_t raw : {0x0800000000000000ull, 0x0F00000000000000ull, 0x1FF0000000000000ull,
                       0xFFFFFFFFFFFFFFFFull}) {
    EXPECT_TRUE(policy_traps(raw)) << std::hex << raw;
    EXPECT_EQ(decode_policy(raw).kind, Kind::Illegal) << std::hex << raw;
  }
}

// ... and these stored.
TEST(GoldenPolicy, ValuesThatStoredOnAnH200) {
  for (uint64_t raw : {0x0ull, 0x1ull, 0x1000000000000000ull, 0x14F0000000000000ull,
                       0x1F00000000000000ull, 0xFF00000000000000ull, 0x123456789ABCDEF0ull}) {
    EXPECT_FALSE(policy_traps(raw)) << std::hex << raw;
    EXPECT_NE(decode_policy(raw).kind, Kind::Illegal) << std::hex << raw;
  }
}

TEST(GoldenPolicy, LowBitsSetIsOpaque) {
  EXPECT_EQ(decode_policy(0x1730000000000001ull).kind, Kind::Opaque);
  EXPECT_EQ(decode_policy(0x1000000000000001ull).kind, Kind::Opaque);
}

TEST(GoldenPolicy, HighBitsAbove60SetIsOpaque) {
  EXPECT_EQ(decode_policy(0x3730000000000000ull).kind, Kind::Opaque);  // bit 61
  EXPECT_EQ(decode_policy(0x9730000000000000ull).kind, Kind::Opaque);  // bit 63
}

TEST(GoldenPolicy, Bit60ClearIsOpaque) {
  EXPECT_EQ(decode_policy(0x0730000000000000ull).kind, Kind::Opaque);
}

TEST(GoldenPolicy, PrimaryFieldAbove3IsOpaque) {
  // Bits 59:57 = 4..7 name no priority.
  for (uint64_t prim = 4; prim < 8; ++prim)
    EXPECT_EQ(decode_policy((uint64_t(1) << 60) | (prim << 57)).kind, Kind::Opaque) << prim;
}

// The layout predicate, written independently of the model.
bool fits_layout(uint64_t raw) {
  return (raw >> 60) == 1 && (raw & ((uint64_t(1) << 52) - 1)) == 0 && ((raw >> 57) & 7) <= 3;
}

TEST(GoldenPolicy, RandomValuesNeverCrashAndDecodeAsOpaqueUnlessTheyFitOrTrap) {
  const uint64_t seed = 0x5EED'CAC4Eull;
  std::cout << "GoldenPolicy.RandomValues seed 0x" << std::hex << seed << std::dec << "\n";
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 20000; ++i) {
    uint64_t raw = rng();
    // Half the values keep only the top 12 bits, so that the layout is hit often.
    if (i % 2) raw &= 0xFFF0000000000000ull;
    const CachePolicy p = decode_policy(raw);
    EXPECT_EQ(p.raw, raw);
    EXPECT_FALSE(p.str().empty());
    const bool named = raw == 0x1000000000000000ull || raw == 0x12F0000000000000ull ||
                       raw == 0x14F0000000000000ull;
    // The trap (bit 59, and bit 60 clear or bits 55:52 all ones) comes before the layout.
    const bool traps = (raw >> 59 & 1) && (!(raw >> 60 & 1) || (raw >> 52 & 0xF) == 0xF);
    const Kind want = traps              ? Kind::Illegal
                      : named            ? Kind::Named
                      : fits_layout(raw) ? Kind::Fractional
                                         : Kind::Opaque;
    ASSERT_EQ(p.kind, want) << "seed " << seed << " value 0x" << std::hex << raw;
    if (want == Kind::Fractional) {
      EXPECT_EQ(unsigned(p.primary), unsigned((raw >> 57) & 7));
      EXPECT_FLOAT_EQ(p.fraction, float(((raw >> 52) & 0xF) + 1) / 16);
      EXPECT_GT(p.fraction, 0.0f);
      EXPECT_LE(p.fraction, 1.0f);
    }
  }
}

TEST(GoldenPolicy, PriorityNames) {
  EXPECT_EQ(to_string(L2Priority::Unchanged), "evict_unchanged");
  EXPECT_EQ(to_string(L2Priority::First), "evict_first");
  EXPECT_EQ(to_string(L2Priority::Last), "evict_last");
  EXPECT_EQ(to_string(L2Priority::Normal), "evict_normal");
}

}  // namespace
