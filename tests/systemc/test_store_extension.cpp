// StoreExtension (systemc/store_extension.h): clone, copy_from, attach to a generic payload and
// read it back, and the payload's deep copy carrying it. No module is elaborated: the
// extension is plain TLM data, but it needs the SystemC library, so it is a SystemC process.
#include "store_extension.h"

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>

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

}  // namespace
}  // namespace stu::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
