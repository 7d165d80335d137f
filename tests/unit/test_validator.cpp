// Validator: each rule accepts its good form and rejects its bad form with a message that
// names the rule. Verdicts are those of ptxas 13.0 (see tests/conformance for the recorded
// corpus); ISA-text-only rules are warnings.
#include <gtest/gtest.h>

#include "check_util.h"
#include "stu/isa/parser.h"
#include "stu/isa/validator.h"

namespace stu::test {
namespace {

void expect_ok(const std::string& line, const std::string& target = "sm_100a",
               const std::string& version = "8.8") {
  LineResult r = check_line(line, target, version);
  EXPECT_EQ(r.errors, 0u) << line << " [" << target << ", " << version << "]: " << r.first_error;
  EXPECT_EQ(r.other_errors, 0u) << line;
}

void expect_error(const std::string& line, const std::string& part,
                  const std::string& target = "sm_100a", const std::string& version = "8.8") {
  LineResult r = check_line(line, target, version);
  EXPECT_GE(r.errors, 1u) << line << " [" << target << ", " << version << "] was accepted";
  EXPECT_NE(r.first_error.find(part), std::string::npos)
      << line << ": got '" << r.first_error << "', want '" << part << "'";
  EXPECT_EQ(r.other_errors, 0u) << line;
}

void expect_warning(const std::string& line, const std::string& part) {
  LineResult r = check_line(line);
  EXPECT_EQ(r.errors, 0u) << line << ": " << r.first_error;
  EXPECT_GE(r.warnings, 1u) << line;
  EXPECT_NE(r.first_warning.find(part), std::string::npos) << r.first_warning;
}

TEST(Validator, SeedExamplesAreAccepted) {
  expect_ok("st.global.f32 [%rd1], %f1;");
  expect_ok("st.local.b32 [%rd1+4], %r1;");
  expect_ok("st.global.v4.s32 [%rd1], {%r1, %r2, %r3, %r4};");
  expect_ok("st.local.b32 [%rd1+-8], %r1;");
  expect_ok("st.local.s32 [100], %r7;");
  expect_ok("st.b16 [%rd1], %r1;");  // stores the low 16 bits of a 32-bit register
  expect_ok("st.global.relaxed.sys.u32 [%rd1], %r0;");
  expect_ok("st.shared.release.cta.u32 [%rd1], %r1;");
  expect_ok("st.global.relaxed.cluster.u32 [%rd1], %r2;");
  expect_ok("st.shared::cta.release.cta.u32 [%rd1+4], %r1;");
  expect_ok("st.shared::cluster.u32 [%rd1+8], %r1;");
  expect_ok("st.global.mmio.relaxed.sys.u32 [%rd1], %r1;");
  expect_ok("st.global.L1::no_allocate.f32 [%rd1], %f1;");
  expect_ok("st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;");
  expect_ok("st.global.b128 [%rd1], %q1;");
  expect_ok("st.global.L2::evict_last.v8.f32 [%rd1], {%f0, _, %f2, %f3, %f4, %f5, %f6, %f7};");
  expect_ok("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];");
  expect_ok("st.async.sys.release.global.u32 [%rd1], %r1;");
  expect_ok("tcgen05.st.sync.aligned.16x64b.x4.b32 [%r1], {%r1, %r2, %r3, %r4};");
  expect_ok("tcgen05.st.sync.aligned.16x128b.x1.unpack::16b.b32 [%r1], {%r1, %r2};");
}

TEST(Validator, StateSpaceVariables) {
  expect_ok("st.global.u32 [gbuf+4], %r1;");
  expect_ok("st.shared.u32 [sbuf+4], %r1;");
  expect_ok("st.local.u32 [lbuf], %r1;");
  expect_error("st.global.u32 [cbuf], %r1;", "'.const'");
  expect_error("st.const.u32 [cbuf], %r1;", "stores to '.const' are illegal");
  expect_error("st.global.u32 [nosuchvar], %r1;", "undeclared identifier 'nosuchvar'");
}

TEST(Validator, OrderingRules) {
  expect_error("st.relaxed.global.u32 [%rd1], %r1;", "'.relaxed' requires a scope");
  expect_error("st.global.gpu.u32 [%rd1], %r1;", "requires '.relaxed' or '.release'");
  expect_error("st.relaxed.gpu.global.cg.u32 [%rd1], %r1;",
               "cannot be combined with cache operator");
  expect_error("st.volatile.global.wt.u32 [%rd1], %r1;", "cannot be combined with cache operator");
  expect_error("st.relaxed.gpu.local.u32 [%rd1], %r1;", "not allowed on state space '.local'");
  expect_error("st.volatile.local.u32 [%rd1], %r1;",
               "'.volatile' with '.local' requires PTX ISA 9.1");
  expect_ok("st.volatile.local.u32 [%rd1], %r1;", "sm_100a", "9.1");  // the ISA text's rule
  expect_error("st.weak.volatile.global.u32 [%rd1], %r1;", "conflicting memory-ordering");
  expect_error("st.mmio.global.u32 [%rd1], %r1;", "'.mmio' must be combined with '.relaxed'");
  expect_error("st.mmio.relaxed.gpu.global.u32 [%rd1], %r1;", "'.mmio' requires scope '.sys'");
  expect_error("st.mmio.relaxed.sys.shared.u32 [%rd1], %r1;", "'.mmio' is allowed only on");
  expect_error("st.relaxed.cluster.global.u32 [%rd1], %r1;", "scope '.cluster' requires sm_90",
               "sm_80", "8.0");
  expect_error("st.relaxed.sys.global.u32 [%rd1], %r1;", "requires PTX ISA 6.0", "sm_60", "5.0");
}

TEST(Validator, CacheAndEvictionRules) {
  expect_error("st.global.cs.L1::evict_last.u32 [%rd1], %r1;", "cannot be combined with an L1");
  expect_ok("st.global.wb.L2::evict_first.v4.f64 [%rd2], {%fd1, %fd2, _, %fd4};");
  expect_ok("st.volatile.L2::evict_last.v4.b64 [%rd1], {%rd1, %rd2, %rd3, %rd4};");
  expect_error("st.global.v4.b64 [%rd1], {_, _, _, _};", "cannot be inferred");
  expect_error("st.shared.s8 [%rd3+2], %tid.x;", "special register");
  expect_ok("st.relaxed.gpu.v2.f32 [%rd1+8], {%tid.x, %clock};");
  expect_error("st.shared::cluster.u8 [%laneid], %rs1;",
               "special register '%laneid' cannot be used");
  expect_ok("st.local.f64 [+8], %rd1;");
  expect_error("st.shared.L1::evict_last.u32 [%rd1], %r1;", "cannot be applied to state space");
  expect_error("st.global.L2::evict_last.u32 [%rd1], %r1;", "requires a 256-bit vector");
  expect_error("st.global.L2::cache_hint.u32 [%rd1], %r1;", "requires a cache-policy operand");
  expect_error("st.global.u32 [%rd1], %r1, %rd2;", "requires '.L2::cache_hint'");
  expect_error("st.shared.L2::cache_hint.u32 [%rd1], %r1, %rd2;", "allowed only on '.global'");
  expect_error("st.global.L2::cache_hint.u32 [%rd1], %r1, %r2;", "64-bit integer register");
  expect_error("st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;", "requires sm_80", "sm_75", "7.4");
  expect_error("st.global.L1::evict_last.u32 [%rd1], %r1;", "requires PTX ISA 7.4", "sm_80", "7.0");
}

TEST(Validator, VectorAndTypeRules) {
  expect_ok("st.global.v4.b64 [%rd1], {%rd1, %rd2, _, %rd4};");
  expect_error("st.shared.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
               "allowed only on '.global'");
  expect_error("st.global.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
               "requires PTX ISA 8.8", "sm_100a", "8.6");
  expect_error("st.global.v8.b32 [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
               "requires sm_100", "sm_90a", "8.8");
  expect_error("st.global.v8.b64 [%rd1], {%rd0, %rd1, %rd2, %rd3, %rd4, %rd5, %rd6, %rd7};",
               "at most 128 bits");
  expect_error("st.global.v4.u32 [%rd1], {%r1, _, %r3, %r4};", "the sink '_' is allowed only");
  expect_error("st.global.v4.u32 [%rd1], {%r1, %r2};", "argument vector size mismatch");
  expect_error("st.global.u32 [%rd1], {%r1, %r2};", "argument vector size mismatch");
  expect_ok("st.global.u32 [%rd1], {%r1};");  // ptxas: a one-element list for a scalar
  expect_error("st.global.v2.b32 [%rd1], {%r1, %rd1};", "incompatible elements");
  expect_error("st.global.v2.u64 [%rd1], {%fd1, %ul1};", "elements of different types");
  expect_ok("st.global.v2.b64 [%rd1], {%rd1, %fd1};");  // same width, bit-typed with float
  expect_ok("st.global.v2.u64 [%rd1], {%fd1, %rd1};");  // ... makes the list .b64
  expect_error("st.global.v2.u64 [%rd1], {%fd1, %fd2};", "the vector of type .f64");
  expect_ok("st.global.v2.u32 [%rd1], {%rd1, %rd2};");  // wider elements: low bits
  expect_ok("st.global.v2.f32 [%rd1], {%u1, %s1};");    // integer registers in a float list
  expect_error("st.global.f32 [%rd1], %u1;", "does not match");  // ... but not alone
  expect_error("st.global.f32 [%rd1], %h1;", "does not match");
  expect_ok("st.global.v2.u32 [%rd1], {%u1, %s1};");
  expect_error("st.mmio.relaxed.sys.global.v2.u32 [%rd1], {%r1, %r2};",
               "'.mmio' cannot be combined with vector");
  expect_ok("st.mmio.relaxed.sys.global.b128 [%rd1], %q1;");
  expect_error("st.volatile.global.L1::evict_normal.u32 [%rd1], %r1;",
               "cannot be combined with '.volatile'");
  expect_error("st.volatile.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;",
               "'.L2::cache_hint' cannot be combined with '.volatile'");
  expect_error("st.mmio.relaxed.sys.global.L1::evict_last.u32 [%rd1], %r1;",
               "cannot be combined with '.mmio'");
  expect_error("st.global.v2.u32 [%rd1], %r1;", "brace list");
  expect_error("st.global.v2.b128 [%rd1], {%q1, %q2};", "'.b128' cannot be used with a vector");
  expect_error("st.global.b128 [%rd1], %q1;", "requires PTX ISA 8.3", "sm_90", "8.2");
  expect_error("st.relaxed.sys.global.b128 [%rd1], %q1;", "'.b128' with scope '.sys'", "sm_90",
               "8.3");
  expect_error("st.global.pred [%rd1], %p1;", "not valid for 'st'");
  expect_error("st.global.f16 [%rd1], %h1;", "store .f16 data with '.b16'");
  expect_error("st.global.u32 [%rd1];", "expected [a], b");
  expect_error("st.global [%rd1], %r1;", "missing type qualifier");
  expect_warning("st.global.v8.u8 [%rd1], {%rs0, %rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7};",
                 "'.v8' is defined only for 32-bit types");
}

TEST(Validator, RelaxedTypeCheckingOfSources) {
  expect_ok("st.global.u32 [%rd1], %rd1;");  // wider: low 32 bits
  expect_ok("st.global.b16 [%rd1], %f1;");   // .bN takes floats of at least N bits
  expect_ok("st.global.f32 [%rd1], %r1;");   // bit-typed register for a float store
  expect_ok("st.global.u8 [%rd1], %s1;");
  expect_ok("st.global.u32 [%rd1], 42;");  // immediates are not range-checked
  expect_error("st.global.u64 [%rd1], %r1;", "does not match instruction type .u64");
  expect_error("st.global.u32 [%rd1], %f1;", "does not match instruction type .u32");
  expect_error("st.global.f32 [%rd1], %fd1;", "does not match instruction type .f32");
  expect_error("st.global.b128 [%rd1], %rd1;", "does not match instruction type .b128");
  expect_error("st.global.u32 [%rd1], %p1;", "does not match");
  expect_error("st.global.u32 [%rd1], %r99;", "undeclared register '%r99'");
}

TEST(Validator, AddressOperands) {
  expect_error("st.global.u32 [%r1], %r1;", "32-bit addressing is not supported");
  expect_ok("st.shared.u32 [%r1], %r1;");  // 32-bit shared addresses are fine
  expect_warning("st.global.u32 [%rs1], %r1;", "16-bit address");
  expect_ok("st.global.u32 [%rd1+-4+8], %r1;");  // several offset terms
  expect_ok("st.global.u32 [%rd1+4-8], %r1;");
  expect_ok("st.local.u32 [-4], %r1;");
  expect_ok("st.local.u32 [4+4], %r1;");
  expect_ok("st.global.u32 [%rd1+0x7fffffffffffffff], %r1;");  // ptxas does not range-check
  expect_ok("st .global .u32 [%rd1], %r1;");                   // qualifiers written apart
  expect_error("st.global.u32 [gbuf-4], %r1;", "'+-N'");
  expect_error("st.async.release.gpu.global.u32 [16], %r1;", "accepted only with '.local'");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [16], {%r1};",
               "taddr must be a 32-bit register");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%fd1};", "does not match");
  expect_error("st.global.u32 [100], %r1;", "immediate address is accepted only with '.local'");
  expect_error("st.global.u32 [%f1], %r1;", "must be a 32- or 64-bit integer register");
  expect_ok("st.global.u32 [%rd1+4294967296], %r1;");  // ptxas does not range-check offsets
}

TEST(Validator, PredicatedParamStores) {
  expect_error("{ .param .b32 arg0; @%p1 st.param.b32 [arg0], %r1; }", "cannot be predicated");
  expect_ok("{ .param .b32 arg0; st.param.b32 [arg0], %r1; }");
  expect_ok("@%p1 st.param.b32 [%rd1], %r1;");  // a register address: ptxas accepts it
  expect_error("st.param.b32 [kp], %r1;", "illegal to write to function input parameter 'kp'");
  expect_error("st.u32 [kp], %r1;", "state space mismatch");
  expect_error("st.global.u32 [sbuf], %r1;", "is in state space '.shared', not '.global'");
  expect_ok("st.u32 [sbuf], %r1;");  // generic store to a shared variable
  expect_error("@%p9 st.global.u32 [%rd1], %r1;", "undeclared predicate '%p9'");
  expect_error("@%r1 st.global.u32 [%rd1], %r1;", "is not a '.pred' register");
}

TEST(Validator, StAsyncRules) {
  const std::string mb = "st.async.shared::cluster.mbarrier::complete_tx::bytes";
  expect_ok(mb + ".v4.b32 [%r1], {%r1, %r2, %r3, %r4}, [%r2];");
  expect_ok(mb + ".v2.f64 [%r1], {%fd1, %fd2}, [%r2];");
  expect_error(mb + ".b32 [%r1], %r2, [%r3];", "requires PTX ISA 8.1", "sm_90", "8.0");
  expect_error(mb + ".b32 [%r1], %r2, [%r3];", "requires sm_90", "sm_89", "8.1");
  expect_error(mb + ".b16 [%r1], %rs2, [%r3];", "32- or 64-bit type");
  expect_error(mb + ".v8.b32 [%r1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%r3];", "'.v8'");
  expect_error("st.async.shared::cluster.b32 [%r1], %r2, [%r3];",
               "requires '.mbarrier::complete_tx::bytes'");
  expect_error("st.async.release.gpu.global.u32 [%rd1], %r1;", "requires PTX ISA 8.7", "sm_100a",
               "8.6");
  expect_error("st.async.release.gpu.global.u32 [%rd1], %r1;", "requires sm_100", "sm_90a", "8.7");
  expect_warning("st.async.mmio.release.gpu.global.u32 [%rd1], %r1;",
                 "'.mmio' requires scope '.sys'");
  expect_error("st.async.release.cta.global.u32 [%rd1], %r1;", "allows scope '.gpu' or '.sys'");
  expect_error("st.async.release.global.u32 [%rd1], %r1;", "'.release' requires a scope");
  expect_error("st.async.release.sys.shared::cluster.u32 [%rd1], %r1;", "requires '.global'");
  expect_ok("st.async.mmio.release.sys.global.u32 [%rd1], %r1;");
  expect_error("st.async.mmio.sys.global.u32 [%rd1], %r1;", "'.mmio' requires '.release'");
  expect_ok(mb + ".s32 [%r1], {%s1, %s2}, [%r3];");  // ptxas infers .v2 from the list
  expect_error(mb + ".b32 [%r1], {%r1, %r2}, [%r3];",
               "argument vector size mismatch");  // not for bits
  expect_error("st.async.release.sys.global.b16 [%rd2], %rs1, [%r3];", "takes no [mbar]");
  expect_error("st.async.release.sys.b32 [%rd2], %r1, [%r3];", "cannot be '.release'");
  expect_warning("st.async.release.sys.global.b32 [%rd2], %r1, [%r3];", "takes no [mbar]");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r3], {0};", "needs a register");
  expect_ok("tcgen05.st.sync.aligned.16x64b.x2.b32 [%r1], {%r3, 0};");
  expect_error(mb + ".s32 [%r1], {%s1, %s2, %s3}, [%r3];", "argument vector size mismatch");
  expect_error(mb + ".v4.s32 [%r1], {%s1, %s2}, [%r3];", "argument vector size mismatch");
  expect_error(mb + ".v2.s32 [%r1], {%s1, %s2};", "without an [mbar] operand");
  expect_error("st.async.release.gpu.global.u32 [%rd1], {%r1};", "brace-list");
}

TEST(Validator, Tcgen05Rules) {
  expect_ok("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r2};");
  expect_ok("tcgen05.st.sync.aligned.16x256b.x1.b32 [%r1], {%r2, %r3, %r4, %r5};");
  expect_ok("tcgen05.st.sync.aligned.16x32bx2.x2.b32 [%r1], 16, {%r2, %r3};");
  expect_ok("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r2};", "sm_100f", "8.8");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r2};", "requires an sm_100a",
               "sm_100", "8.8");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r2};", "requires an sm_100a",
               "sm_120a", "8.8");
  expect_error("tcgen05.st.aligned.32x32b.x1.b32 [%r1], {%r2};", "requires '.sync'");
  expect_error("tcgen05.st.sync.aligned.16x128b.x128.b32 [%r1], {%r2};", "at most '.x64'");
  expect_error("tcgen05.st.sync.aligned.16x64b.x2.b32 [%r1], {%r2};", "needs 2 registers, found 1");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b64 [%r1], {%rd2};", "requires type '.b32'");
  expect_error("tcgen05.st.sync.aligned.32x32b.x1.b32 [%rd1], {%r2};", "must be a 32-bit register");
  expect_error("tcgen05.st.sync.aligned.x1.b32 [%r1], {%r2};", "requires a shape");
  expect_error("tcgen05.st.sync.aligned.32x32b.x3.b32 [%r1], {%r2};", "unknown qualifier '.x3'");
  expect_error("tcgen05.st.sync.aligned.global.32x32b.x1.b32 [%r1], {%r2};",
               "not valid for 'tcgen05.st'");
  expect_ok("tcgen05.st.sync.aligned.32x32b.x2.b32 [%r1], {%f1, %f2};");  // f32 accepted
}

TEST(Validator, StAsyncGlobalOnTcgenTargetsWarnsOnIsaOnlyRules) {
  expect_warning("st.global.u32.v2 [%rd1], {%r1, %r2};", "immediately before the type");
  expect_warning("st.v2.wb.shared.u32 [%rd1], {%r1, %r2};", "immediately before the type");
  expect_warning("tcgen05.st.sync.32x32b.x1.b32 [%r1], {%r2};", "'.aligned' is mandatory");
  expect_warning("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], %r2;",
                 "takes an [mbar] operand");
}

}  // namespace
}  // namespace stu::test

// Without a symbol table (`.sts` lines) registers are untyped: a leading sink must not be
// taken for an all-sink list; a list of sinks only is still rejected.
TEST(Validator, LeadingSinkWithoutSymbols) {
  auto check = [](const char* text) {
    stu::Diagnostics d;
    auto ins = stu::isa::parse_instruction(text, d);
    EXPECT_TRUE(ins) << text;
    stu::isa::CheckContext ctx{*stu::isa::Target::parse("sm_100a"), stu::isa::ptx(8, 8), nullptr};
    return ins && stu::isa::validate(*ins, ctx, d);
  };
  EXPECT_TRUE(check("st.global.v8.b32 [%rd1], {_, %r1, %r2, %r3, %r4, %r5, %r6, _};"));
  EXPECT_FALSE(check("st.global.v8.b32 [%rd1], {_, _, _, _, _, _, _, _};"));
}
