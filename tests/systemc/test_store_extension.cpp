// StoreExtension (systemc/store_extension.h): clone, copy_from, attach to a generic payload and
// read it back, and the payload's deep copy carrying it. Also write_enabled (a line payload's
// enabled bytes into a flat array) against a byte-by-byte rule, seeded (STU_SEED). No module is
// elaborated: the extension is plain TLM data, but it needs the SystemC library, so it is a SystemC
// process.
#include "store_extension.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <systemc>
#include <tlm>
#include "payload.h"
#include "sim_context.h"

namespace stu::sim {
namespace {

// A release.gpu store with .cg, L2::evict_last and a cache policy, from warp 5 of CTA 3.
StoreExtension sample() {
  StoreExtension e;
  e.order.sem = isa::Sem::Release;
  e.order.strong = true;
  e.order.scope = isa::Scope::Gpu;
  e.order.release = true;
  e.cache.cop = isa::CacheOp::Cg;
  e.cache.l2 = isa::L2Evict::EvictLast;
  e.cache.has_policy = true;
  e.cache.policy.kind = golden::CachePolicy::Kind::Fractional;
  e.cache.policy.primary = golden::L2Priority::Last;
  e.cache.policy.fraction = 0.25f;
  e.cache.policy.raw = 0x1234;
  e.cta = 3;
  e.warp = 5;
  e.instr_id = 0x100000007ull;
  e.lane_mask = 0x0000ff00u;
  e.store_class = StoreClass::Global;
  return e;
}

void expect_sample(const StoreExtension& e) {
  EXPECT_EQ(e.order.sem, isa::Sem::Release);
  EXPECT_TRUE(e.order.strong);
  EXPECT_EQ(e.order.scope, isa::Scope::Gpu);
  EXPECT_TRUE(e.order.release);
  EXPECT_FALSE(e.order.mmio);
  EXPECT_EQ(e.cache.cop, isa::CacheOp::Cg);
  EXPECT_FALSE(e.cache.l1.has_value());
  EXPECT_EQ(e.cache.l2, isa::L2Evict::EvictLast);
  EXPECT_TRUE(e.cache.has_policy);
  EXPECT_EQ(e.cache.policy.kind, golden::CachePolicy::Kind::Fractional);
  EXPECT_EQ(e.cache.policy.primary, golden::L2Priority::Last);
  EXPECT_EQ(e.cache.policy.fraction, 0.25f);
  EXPECT_EQ(e.cache.policy.raw, 0x1234u);
  EXPECT_EQ(e.cta, 3u);
  EXPECT_EQ(e.warp, 5u);
  EXPECT_EQ(e.instr_id, 0x100000007ull);
  EXPECT_EQ(e.lane_mask, 0x0000ff00u);
  EXPECT_EQ(e.store_class, StoreClass::Global);
}

TEST(StoreExtension, CloneCopiesEveryField) {
  const StoreExtension e = sample();
  tlm::tlm_extension_base* c = e.clone();
  auto* copy = dynamic_cast<StoreExtension*>(c);
  ASSERT_NE(copy, nullptr);
  EXPECT_NE(copy, &e);
  expect_sample(*copy);
  c->free();
}

TEST(StoreExtension, CopyFromOverwritesEveryField) {
  StoreExtension e;
  e.order.mmio = true;
  e.store_class = StoreClass::Mmio;
  e.lane_mask = 1;
  e.copy_from(sample());
  expect_sample(e);
}

TEST(StoreExtension, DefaultIsAWeakGlobalStoreWithNoLanes) {
  const StoreExtension e;
  EXPECT_EQ(e.order.sem, isa::Sem::Weak);
  EXPECT_FALSE(e.order.scope.has_value());
  EXPECT_FALSE(e.cache.cop.has_value());
  EXPECT_EQ(e.lane_mask, 0u);
  EXPECT_EQ(e.store_class, StoreClass::Global);
}

TEST(StoreExtension, AttachThenRead) {
  tlm::tlm_generic_payload trans;
  EXPECT_EQ(store_of(trans), nullptr);
  attach_store(trans, sample());
  const StoreExtension* got = store_of(trans);
  ASSERT_NE(got, nullptr);
  expect_sample(*got);
}

TEST(StoreExtension, AttachAgainReplacesInPlace) {
  tlm::tlm_generic_payload trans;
  attach_store(trans, StoreExtension{});
  const StoreExtension* first = store_of(trans);
  attach_store(trans, sample());
  EXPECT_EQ(store_of(trans), first);  // the same object, updated
  expect_sample(*store_of(trans));
}

TEST(StoreExtension, PayloadDeepCopyCarriesIt) {
  tlm::tlm_generic_payload trans;
  attach_store(trans, sample());
  tlm::tlm_generic_payload copy;
  copy.deep_copy_from(trans);
  const StoreExtension* got = store_of(copy);
  ASSERT_NE(got, nullptr);
  EXPECT_NE(got, store_of(trans));  // its own copy
  expect_sample(*got);
}

TEST(StoreExtension, ClassNames) {
  EXPECT_STREQ(store_class_name(StoreClass::Global), "global");
  EXPECT_STREQ(store_class_name(StoreClass::Shared), "shared");
  EXPECT_STREQ(store_class_name(StoreClass::Dsmem), "dsmem");
  EXPECT_STREQ(store_class_name(StoreClass::Local), "local");
  EXPECT_STREQ(store_class_name(StoreClass::Tmem), "tmem");
  EXPECT_STREQ(store_class_name(StoreClass::Mmio), "mmio");
}

// write_enabled: exactly the enabled bytes are written, at offset + i; false when an enabled
// byte falls at or beyond `size`, after the enabled bytes before it are written.
TEST(WriteEnabled, WritesExactlyTheEnabledBytesAndStopsAtTheEnd) {
  const char* env = std::getenv("STU_SEED");
  const unsigned seed = env ? unsigned(std::strtoul(env, nullptr, 0)) : 20261125u;
  std::printf("WriteEnabled seed %u (STU_SEED=%u reproduces)\n", seed, seed);
  std::mt19937_64 rng(seed);
  PayloadPool pool;
  tlm::tlm_generic_payload& p = pool.acquire();
  for (int round = 0; round < 2000; ++round) {
    golden::LineByteMask m;
    switch (round % 4) {  // full, empty, runs, scattered bytes
      case 0:
        m.set_range(0, 128);
        break;
      case 1:
        break;
      case 2:
        for (int r = 0; r < 3; ++r) {
          const unsigned from = unsigned(rng() % 128);
          m.set_range(from, unsigned(1 + rng() % (128 - from)));
        }
        break;
      default:
        m.lo = rng() & rng();
        m.hi = rng() & rng();
    }
    std::array<std::uint8_t, golden::kLineBytes> src{};
    for (auto& b : src) b = std::uint8_t(rng());
    set_line(p, 0, m, src.data());
    const std::uint64_t size = 256 + rng() % 64;  // sometimes too small for offset + 128
    const std::uint64_t offset = rng() % 192;
    std::vector<std::uint8_t> got(size, 0xEE), want(size, 0xEE);
    bool want_ok = true;
    for (unsigned i = 0; i < golden::kLineBytes && want_ok; ++i) {
      if (!m.test(i)) continue;
      if (offset + i >= size) {
        want_ok = false;
      } else {
        want[offset + i] = src[i];
      }
    }
    ASSERT_EQ(write_enabled(got.data(), size, offset, p), want_ok) << "round " << round;
    ASSERT_EQ(got, want) << "round " << round << " offset " << offset << " size " << size;
  }
  p.release();
}

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
