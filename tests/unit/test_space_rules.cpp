// The state-space rules (isa/space_rules.h): one rule, used by the validator for a written space
// and by the golden executor for the space a generic address resolves to. Expectations from the
// PTX ISA text (docs/check.md), written by hand per space.
#include <gtest/gtest.h>

#include <string>

#include "stu/isa/parser.h"
#include "stu/isa/space_rules.h"

namespace {

using namespace stu::isa;

Instruction parse_ok(const std::string& text) {
  stu::Diagnostics d;
  auto ins = parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text;
  return ins ? *ins : Instruction{};
}

TEST(SpaceRules, GlobalAcceptsEveryStForm) {
  for (const char* t :
       {"st.mmio.relaxed.sys.u32 [a], b;", "st.L1::evict_last.u32 [a], b;",
        "st.L2::cache_hint.u32 [a], b, p;", "st.release.gpu.u32 [a], b;",
        "st.L2::evict_first.v8.b32 [a], {b, b, b, b, b, b, b, b};", "st.volatile.u32 [a], b;"})
    EXPECT_FALSE(space_violations(parse_ok(t), Space::Global).any()) << t;
}

TEST(SpaceRules, ConstAndKernelParamsAreReadOnly) {
  const Instruction st = parse_ok("st.u32 [a], b;");
  EXPECT_TRUE(space_violations(st, Space::Const).has(SpaceRule::ReadOnly));
  EXPECT_TRUE(space_violations(st, Space::ParamEntry).has(SpaceRule::ReadOnly));
  EXPECT_FALSE(space_violations(st, Space::ParamFunc).any());
  EXPECT_FALSE(space_violations(st, Space::Param).any());  // .param in a function is ::func
}

TEST(SpaceRules, GlobalOnlyQualifiersOnShared) {
  auto on_shared = [](const char* t) { return space_violations(parse_ok(t), Space::Shared); };
  EXPECT_TRUE(on_shared("st.mmio.relaxed.sys.u32 [a], b;").has(SpaceRule::Mmio));
  EXPECT_TRUE(on_shared("st.L1::no_allocate.u32 [a], b;").has(SpaceRule::L1Evict));
  EXPECT_TRUE(on_shared("st.L2::cache_hint.u32 [a], b, p;").has(SpaceRule::CacheHint));
  const SpaceViolations v = on_shared("st.L2::evict_last.v4.b64 [a], {b, b, b, b};");
  EXPECT_TRUE(v.has(SpaceRule::Wide256));
  EXPECT_TRUE(v.has(SpaceRule::L2Evict));
  EXPECT_FALSE(v.has(SpaceRule::ReadOnly));
  EXPECT_FALSE(on_shared("st.v4.b32 [a], {b, b, b, b};").any());  // 128 bits is fine
}

TEST(SpaceRules, StrongStoresOnlyOnGlobalAndShared) {
  const Instruction rel = parse_ok("st.release.cta.u32 [a], b;");
  const Instruction rlx = parse_ok("st.relaxed.gpu.u32 [a], b;");
  for (Space s : {Space::Shared, Space::SharedCta, Space::SharedCluster})
    EXPECT_FALSE(space_violations(rel, s).any());
  for (Space s : {Space::Local, Space::ParamFunc}) {
    EXPECT_TRUE(space_violations(rel, s).has(SpaceRule::Strong));
    EXPECT_TRUE(space_violations(rlx, s).has(SpaceRule::Strong));
  }
}

TEST(SpaceRules, VolatileOnLocalButNotOnFunctionParams) {
  const Instruction v = parse_ok("st.volatile.u32 [a], b;");
  EXPECT_FALSE(space_violations(v, Space::Local).any());
  EXPECT_FALSE(space_violations(v, Space::SharedCta).any());
  EXPECT_TRUE(space_violations(v, Space::ParamFunc).has(SpaceRule::Volatile));
  const SpaceViolations c = space_violations(v, Space::Const);
  EXPECT_TRUE(c.has(SpaceRule::ReadOnly));
  EXPECT_TRUE(c.has(SpaceRule::Volatile));
}

TEST(SpaceRules, StAsyncFormFixesItsSpace) {
  const Instruction mbar =
      parse_ok("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [a], b, [m];");
  EXPECT_FALSE(space_violations(mbar, Space::SharedCluster).any());
  EXPECT_FALSE(space_violations(mbar, Space::SharedCta).any());
  EXPECT_TRUE(space_violations(mbar, Space::Global).has(SpaceRule::AsyncForm));
  const Instruction rel = parse_ok("st.async.release.gpu.global.u32 [a], b;");
  EXPECT_FALSE(space_violations(rel, Space::Global).any());
  EXPECT_TRUE(space_violations(rel, Space::SharedCluster).has(SpaceRule::AsyncForm));
}
}  // namespace
