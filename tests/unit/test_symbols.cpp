// The module reader's scoped symbol table: ranges, shadowing, and module-scope declarations
// made while inner scopes are open.
#include <gtest/gtest.h>

#include "../../src/ptx/symbols.h"

namespace stu::ptx {
namespace {

isa::Symbol reg(isa::DataType t) {
  isa::Symbol s;
  s.type = t;
  return s;
}

TEST(SymbolTable, RangesCoverExactlyTheirIndices) {
  SymbolTable t;
  t.push_scope();
  t.declare_range("%r", 4, reg(isa::DataType::B32));
  EXPECT_NE(t.find("%r0"), nullptr);
  EXPECT_NE(t.find("%r3"), nullptr);
  EXPECT_EQ(t.find("%r4"), nullptr);
  EXPECT_EQ(t.find("%r"), nullptr);
  EXPECT_EQ(t.find("%r03"), nullptr);  // not a spelling %r<4> produces
  EXPECT_EQ(t.find("%rd1"), nullptr);
  t.pop_scope();
  EXPECT_EQ(t.find("%r1"), nullptr);
}

TEST(SymbolTable, InnerDeclarationsShadowAndAreUndone) {
  SymbolTable t;
  t.declare("x", reg(isa::DataType::B32));  // module scope
  t.push_scope();
  t.declare_range("%p", 2, reg(isa::DataType::Pred));
  t.push_scope();
  t.declare("x", reg(isa::DataType::F64));
  t.declare_range("%p", 8, reg(isa::DataType::B16));
  ASSERT_NE(t.find("x"), nullptr);
  EXPECT_EQ(t.find("x")->type, isa::DataType::F64);
  EXPECT_EQ(t.find("%p1")->type, isa::DataType::B16);  // innermost range wins
  EXPECT_EQ(t.find("%p5")->type, isa::DataType::B16);
  EXPECT_TRUE(t.declared_here("x"));
  t.pop_scope();
  EXPECT_EQ(t.find("x")->type, isa::DataType::B32);
  EXPECT_EQ(t.find("%p1")->type, isa::DataType::Pred);
  EXPECT_EQ(t.find("%p5"), nullptr);
  EXPECT_FALSE(t.declared_here("x"));
  t.pop_scope();
  t.pop_scope();  // popping past the module scope is harmless
  EXPECT_NE(t.find("x"), nullptr);
}

TEST(SymbolTable, GlobalDeclarationSurvivesInnerScopes) {
  SymbolTable t;
  t.push_scope();
  t.declare("f", reg(isa::DataType::B8));  // a parameter named like the function
  isa::Symbol fn;
  fn.kind = isa::Symbol::Kind::Function;
  t.declare_global("f", fn);
  EXPECT_EQ(t.find("f")->kind, isa::Symbol::Kind::Register);  // still shadowed inside
  t.declare_global("g", fn);
  EXPECT_EQ(t.find("g")->kind, isa::Symbol::Kind::Function);
  t.pop_scope();
  ASSERT_NE(t.find("f"), nullptr);
  EXPECT_EQ(t.find("f")->kind, isa::Symbol::Kind::Function);
  ASSERT_NE(t.find("g"), nullptr);
}

}  // namespace
}  // namespace stu::ptx
