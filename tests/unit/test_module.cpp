// The PTX module reader: structure, declarations and scopes, recovery after errors, real
// nvcc output, and hostile input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "check_util.h"
#include "stu/ptx/module.h"

namespace stu::ptx {
namespace {

std::vector<uint32_t> error_lines(const Diagnostics& d) {
  std::vector<uint32_t> v;
  for (const auto& x : d.all()) {
    if (x.severity == Severity::Error) v.push_back(x.loc.line);
  }
  return v;
}

TEST(Module, ReadsHeaderAndCountsStores) {
  std::string m =
      test::module_with("st.global.u32 [%rd1], %r1;\nadd.s32 %r1, %r2, %r3;", "sm_90a", "8.0");
  Diagnostics d;
  CheckStats s = check_module(m, d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(s.target.str(), "sm_90a");
  EXPECT_EQ(s.version.str(), "8.0");
  EXPECT_EQ(s.stores, 1u);
  EXPECT_EQ(s.instructions, 3u);  // st, add, ret
  EXPECT_EQ(s.functions, 1u);
}

TEST(Module, EveryBadLineIsReportedAndGoodLinesAreNot) {
  std::string body =
      "st.global.u32 [%rd1-4], %r1;\n"        // syntax error
      "st.global.u32 [%rd1], %r1;\n"          // fine
      "st.global.relaxed.u32 [%rd1], %r1;\n"  // rule
      "st.global.u32 [%rd1], %r1 %r2;\n"      // syntax error
      "st.global.u32 [%rd1], %r1;\n"          // fine
      "st.global.u64 [%rd1], %r1;\n";         // type
  std::string m = test::module_with(body);
  Diagnostics d;
  check_module(m, d);
  auto lines = error_lines(d);
  uint32_t first = 1;
  for (size_t i = 0; i < m.find(body); ++i) first += m[i] == '\n';
  EXPECT_EQ(lines, (std::vector<uint32_t>{first, first + 2, first + 3, first + 5}));
}

TEST(Module, MissingSemicolonDoesNotSwallowTheNextStore) {
  std::string body =
      "st.global.u32 [%rd1], %r1\nst.global.u64 [%rd1], %r1;\nadd.s32 %r1, %r1, 1\n"
      "st.global.u64 [%rd1], %r2;";
  Diagnostics d;
  check_module(test::module_with(body), d);
  EXPECT_EQ(d.error_count(), 4u);  // missing ';' x2, and both type errors
}

TEST(Module, ScopesAndRanges) {
  std::string body =
      "{\n.reg .b64 %inner;\nst.global.u64 [%rd1], %inner;\n}\n"
      "st.global.u64 [%rd1], %inner;\n"  // out of scope
      "st.global.u32 [%rd1], %r15;\n"    // last of %r<16>
      "st.global.u32 [%rd1], %r16;\n"    // past the range
      "st.global.u32 [%rd1], %r01;\n";   // not a range name
  Diagnostics d;
  check_module(test::module_with(body), d);
  ASSERT_EQ(d.error_count(), 3u);
  EXPECT_NE(d.all()[0].message.find("'%inner'"), std::string::npos);
  EXPECT_NE(d.all()[1].message.find("'%r16'"), std::string::npos);
  EXPECT_NE(d.all()[2].message.find("'%r01'"), std::string::npos);
}

TEST(Module, FunctionsParamsAndReturnParams) {
  std::string m =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".func (.param .b32 func_retval0) f(.param .b32 f_param_0, .param .align 8 .b8 "
      "f_param_1[16])\n"
      "{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
      "ld.param.u32 %r1, [f_param_0];\n"
      "@%p1 st.param.b32 [func_retval0], %r1;\n"  // predicated return store: accepted
      "st.param.b32 [func_retval0], %r1;\nret;\n}\n"
      ".visible .entry k(.param .u64 .ptr .global .align 16 k_param_0)\n.maxntid 128, 1, 1\n{\n"
      ".reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
      "{\n.param .b32 param0;\n@%p1 st.param.b32 [param0], %r1;\n"  // predicated argument store
      ".param .b32 retval0;\ncall.uni (retval0), f, (param0, param0);\n}\nret;\n}\n";
  Diagnostics d;
  CheckStats s = check_module(m, d);
  EXPECT_EQ(s.functions, 2u);
  ASSERT_EQ(d.error_count(), 1u) << d.all()[0].message;
  EXPECT_EQ(d.all()[0].loc.line, 20u);
  EXPECT_NE(d.all()[0].message.find("cannot be predicated"), std::string::npos);
}

TEST(Module, HeaderErrors) {
  Diagnostics d1;
  check_module(".target sm_90\n.address_size 64\n", d1);
  EXPECT_TRUE(d1.has_errors());  // missing .version
  Diagnostics d2;
  check_module(".version 8.0\n.target sm_100a\n", d2);
  ASSERT_TRUE(d2.has_errors());
  EXPECT_NE(d2.all()[0].message.find("requires PTX ISA 8.6"), std::string::npos);
  Diagnostics d3;
  check_module(".version 8.0\n.target sm_999\n", d3);
  EXPECT_NE(d3.all().at(0).message.find("unknown target"), std::string::npos);
  Diagnostics d4;
  check_module(".version 9.1\n.target sm_100a\n.address_size 64\n", d4);
  EXPECT_FALSE(d4.has_errors());
  EXPECT_EQ(d4.warning_count(), 1u);  // newer than ptxas 13.0
}

TEST(Module, OverridesTargetAndVersion) {
  std::string m =
      test::module_with("st.global.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};");
  Diagnostics d;
  CheckOptions o;
  o.target = isa::Target::parse("sm_90a");
  check_module(m, d, o);
  EXPECT_TRUE(d.has_errors());
}

TEST(Module, NvccGeneratedPtxHasNoFalseErrors) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(STU_SOURCE_DIR) / "tests" / "data" / "nvcc";
  if (!fs::exists(dir)) GTEST_SKIP() << "no nvcc corpus in " << dir;
  size_t files = 0, stores = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".ptx") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    Diagnostics d;
    CheckStats s = check_module(ss.str(), d);
    ++files;
    stores += s.stores;
    std::ostringstream msgs;
    d.print(msgs, e.path().filename().string());
    EXPECT_EQ(d.error_count(), 0u) << msgs.str();
  }
  EXPECT_GT(files, 0u);
  std::cout << "checked " << files << " nvcc PTX files, " << stores << " stores\n";
}

TEST(Module, HostileInputNeverCrashes) {
  const uint32_t seed = 20261122;
  std::cout << "seed " << seed << "\n";
  std::mt19937 rng(seed);
  for (int i = 0; i < 200; ++i) {
    std::string junk(static_cast<size_t>(rng() % 4096), '\0');
    for (char& c : junk) c = static_cast<char>(rng() & 0xff);
    Diagnostics d;
    check_module(junk, d);
    EXPECT_TRUE(d.has_errors() || junk.empty());
  }
  // Deeply nested braces, an enormous line, a truncated module, an unterminated comment.
  std::string deep = ".version 8.0\n.target sm_90\n.entry k(){" + std::string(200000, '{');
  Diagnostics d1;
  check_module(deep, d1);
  EXPECT_TRUE(d1.has_errors());
  std::string longline = test::module_with("st.global.v4.u32 [%rd1], {" +
                                           std::string(1 << 20, ' ') + "%r1, %r2, %r3, %r4};");
  Diagnostics d2;
  check_module(longline, d2);
  EXPECT_FALSE(d2.has_errors());
  std::string full = test::module_with("st.global.u32 [%rd1], %r1;");
  for (size_t cut = 0; cut < full.size(); cut += 7) {
    Diagnostics d3;
    check_module(full.substr(0, cut), d3);
  }
  std::string linkage = ".version 8.0\n.target sm_90\n";
  for (int i = 0; i < 300000; ++i) linkage += ".visible ";
  Diagnostics d5;
  check_module(linkage, d5);
  EXPECT_TRUE(d5.has_errors());
  std::string parens = test::module_with("add.s32 %r1, " + std::string(300000, '(') + "%r2;");
  Diagnostics d6;
  check_module(parens, d6);
  EXPECT_TRUE(d6.has_errors());
  std::string huge_name =
      test::module_with("st.global.u32 [%rd1], %" + std::string(1 << 20, 'x') + ";");
  Diagnostics d7;
  check_module(huge_name, d7);
  ASSERT_TRUE(d7.has_errors());
  EXPECT_LE(d7.all()[0].message.size(), 420u);
  Diagnostics d4;
  check_module(".version 8.0\n.target sm_90\n/* never closed", d4);
  EXPECT_NE(d4.all().at(0).message.find("unterminated comment"), std::string::npos);
}

}  // namespace
}  // namespace stu::ptx

namespace stu::ptx {
namespace {

// Module-level diagnostics: each text must give (at least) one error containing `part`.
TEST(Module, StructureDiagnostics) {
  const std::string head = ".version 8.0\n.target sm_90\n.address_size 64\n";
  const std::string body_open = head + ".visible .entry k()\n{\n.reg .b32 %r<4>;\n";
  struct Case {
    std::string text;
    const char* part;
  };
  const Case cases[] = {
      {".target sm_90\n.version 8.0\n", "'.target' must follow the '.version'"},
      {".version 8.0\n.version 8.0\n.target sm_90\n", "duplicate '.version'"},
      {".version 8.0\n.target sm_90\n.target sm_90\n", "duplicate '.target'"},
      {".version eight\n.target sm_90\n", "expected a PTX ISA version"},
      {".version 12.0\n.target sm_90\n", "unsupported PTX ISA version 12.0"},
      {".version 8.0\n.target sm_90, turbo\n", "unknown target option 'turbo'"},
      {".version 8.0\n.target sm_90\n.address_size 32\n", "'.address_size 32' is not supported"},
      {".version 8.0\n.target sm_90\n.address_size 48\n", "expected '32' or '64'"},
      {head + ".frobnicate 1;\n", "unknown directive '.frobnicate' at module scope"},
      {head + "mov.u32 %r1, 1;\n", "unexpected 'mov.u32' at module scope"},
      {head + ".global gbuf[4];\n", "declaration has no type"},
      {head + ".global .align x .b8 g[4];\n", "expected an alignment"},
      {head + ".global .b8 g[x];\n", "expected an array size"},
      {head + ".global .b8 ;\n", "expected a name in declaration"},
      {head + ".global .b8 g h;\n", "expected ';' after declaration"},
      {head + ".section .debug_info {\n.b8 1\n", "unterminated '.section' block"},
      {head + ".visible", "unexpected end of file after '.visible'"},
      {head + ".entry k(.param .b32)\n{\nret;\n}\n", "expected a parameter name"},
      {head + ".entry k(.param p)\n{\nret;\n}\n", "parameter has no type"},
      {head + ".entry k(.const .b32 p)\n{\nret;\n}\n", "expected '.param' or '.reg'"},
      {head + ".entry k(.param .b32 p[4)\n{\nret;\n}\n", "expected ']' in parameter array"},
      {head + ".entry k(.param .b32 p;\n", "expected ',' or ')' in parameter list"},
      {head + ".entry 42()\n{\nret;\n}\n", "expected a function name"},
      {head + ".entry k()\n.maxntid 128", "unexpected end of file in the declaration of 'k'"},
      {head + ".entry k() [\n{\nret;\n}\n", "unexpected '[' in the declaration of 'k'"},
      {body_open + ".reg .bf16 %b;\nret;\n}\n", "'.bf16' is not a register type"},
      {body_open + ".reg .b32 %x<y>;\nret;\n}\n", "expected '<count>'"},
      {body_open + ".reg .b32 %r<4>;\n.reg .b32 %r<4>;\n.reg .b32 q;\n.reg .b32 q;\nret;\n}\n",
       "'q' is already declared in this scope"},
      {body_open + ".texture .b32 t;\nret;\n}\n", "unknown directive '.texture' in function body"},
      {body_open + "@ st.global.u32 [%r1], %r1;\nret;\n}\n", "expected a predicate register"},
      {body_open + "@%p1 .reg .b32 x;\nret;\n}\n", "expected an instruction after the guard"},
      {body_open + "add.s32 %r1, %r2, %r3 }\nret;\n}\n", "unexpected '}' inside an instruction"},
      {body_open + "{\nadd.s32 %r1, %r2, %r3;\nret;\n}\n", "the function body is not closed"},
      {body_open + "{\n{\nret;\n}\n", "this '{' is never closed"},
      {body_open + "ret;\n", "missing '}' for this function body"},
      {body_open + "add.s32 %r1, %r2, %r3", "unexpected end of file: missing ';'"},
      {body_open + "add.s32 %r1, %r2, %r3\nret;\n}\n",
       "missing ';' at the end of this instruction"},
      {body_open + "st.global.u32 [%r1], %r1\nret;\n}\n",
       "expected ';' at the end of the instruction"},
      {body_open + "42;\nret;\n}\n", "unexpected '42'"},
  };
  for (const Case& c : cases) {
    Diagnostics d;
    check_module(c.text, d);
    bool found = false;
    for (const auto& x : d.all()) {
      found |= x.severity == Severity::Error && x.message.find(c.part) != std::string::npos;
    }
    std::ostringstream all;
    d.print(all, "m.ptx");
    EXPECT_TRUE(found) << "want '" << c.part << "' for:\n" << c.text << "\ngot:\n" << all.str();
  }
}

}  // namespace
}  // namespace stu::ptx
