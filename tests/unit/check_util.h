// Test helpers: check one store line inside a small module with every register type
// declared, and report the diagnostics of that line.
#pragma once

#include <string>

#include "stu/diag.h"
#include "stu/ptx/module.h"

namespace stu::test {

// Registers: %p (pred), %rs (b16), %r (b32), %rd (b64), %q (b128), %f (f32), %fd (f64),
// %h (f16), %hh (f16x2), %u (u32), %s (s32), %ul (u64), %us (u16); variables gbuf (.global), sbuf
// (.shared), cbuf (.const), lbuf (.local); kernel parameter kp.
inline std::string module_with(const std::string& body, const std::string& target = "sm_100a",
                               const std::string& version = "8.8") {
  std::string m = ".version " + version + "\n.target " + target + "\n.address_size 64\n";
  m += ".global .align 16 .b8 gbuf[256];\n.const .align 4 .b32 cbuf[4];\n";
  m += ".visible .entry k(.param .u64 kp)\n{\n";
  m += ".reg .pred %p<4>;\n.reg .b16 %rs<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n";
  if (version >= "8.3") m += ".reg .b128 %q<4>;\n";
  m += ".reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n.reg .f16 %h<4>;\n.reg .u32 %u<4>;\n";
  m += ".reg .s32 %s<4>;\n.reg .u64 %ul<4>;\n.reg .u16 %us<4>;\n.reg .f16x2 %hh<4>;\n";
  m += ".shared .align 16 .b8 sbuf[256];\n.local .align 16 .b8 lbuf[64];\n";
  m += body + "\nret;\n}\n";
  return m;
}

struct LineResult {
  size_t errors = 0;
  size_t warnings = 0;
  std::string first_error;
  std::string first_warning;
  uint32_t first_error_col = 0;
  size_t other_errors = 0;  // errors on other lines (should be 0)
};

inline LineResult check_line(const std::string& line, const std::string& target = "sm_100a",
                             const std::string& version = "8.8") {
  std::string m = module_with(line, target, version);
  // The body line number: count lines before it.
  uint32_t body_line = 1;
  size_t pos = m.find(line);
  for (size_t i = 0; i < pos; ++i) body_line += m[i] == '\n';
  Diagnostics d;
  ptx::check_module(m, d);
  LineResult r;
  for (const Diagnostic& x : d.all()) {
    if (x.loc.line != body_line) {
      if (x.severity == Severity::Error) ++r.other_errors;
      continue;
    }
    if (x.severity == Severity::Error) {
      if (r.errors++ == 0) {
        r.first_error = x.message;
        r.first_error_col = x.loc.col;
      }
    } else if (x.severity == Severity::Warning) {
      if (r.warnings++ == 0) r.first_warning = x.message;
    }
  }
  return r;
}

}  // namespace stu::test
