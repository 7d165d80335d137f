// stu: the command-line front end of the store-unit model.
//
//   stu check [--target sm_XX] [--ptx-version X.Y] [--stats] FILE...
//   stu lower [--target sm_XX] FILE.ptx
//   stu run [--trace] [--dump FILE|-] [--junit FILE] TEST.sts...
//   stu tmem-map             (the tcgen05.st register -> TMEM cell tables, as Markdown)
//
// Exit status: 0 success, 1 a finding (an error in the input), 2 usage or I/O error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/tmem.h"
#include "stu/isa/lowering.h"
#include "stu/isa/printer.h"
#include "stu/isa/sass.h"
#include "stu/ptx/conformance.h"
#include "stu/ptx/module.h"
#include "stu/sts/sts.h"

namespace {

constexpr int kOk = 0;
constexpr int kFinding = 1;
constexpr int kUsage = 2;

const char* const kUsageText =
    "usage: stu <command> [options] FILE...\n"
    "\n"
    "commands:\n"
    "  check   validate the store-family instructions of PTX modules (or SASS 'ST' lines\n"
    "          in a .sass file) against the module's target and PTX ISA version\n"
    "  lower   print each PTX store with the SASS instruction(s) it lowers to\n"
    "  conformance  compare 'stu check' with the ptxas verdicts recorded in conformance\n"
    "          corpus files (tests/conformance/*/*.ptx); --show N lists N disagreements\n"
    "  run     execute .sts directed tests on the golden reference model; a failed\n"
    "          expectation prints its location, the expected and actual values\n"
    "  tmem-map  print the tcgen05.st register -> (lane, column) tables of every shape as\n"
    "          Markdown, from the model's one mapping function (docs/tmem-map.md)\n"
    "  help    print this text\n"
    "\n"
    "options:\n"
    "  --target sm_XX[a|f]   validate for this target instead of the module's .target\n"
    "  --ptx-version X.Y     validate for this PTX ISA version instead of .version\n"
    "  --stats               (check) print per-file counts and throughput\n"
    "  --max-errors N        stop printing diagnostics after N errors per file (0: all)\n"
    "  -q, --quiet           (check, run) print diagnostics only, no summary line\n"
    "  --trace               (run) print each store's faults and transactions\n"
    "  --dump FILE           (run) write the final memory image (hex, per space); '-' is\n"
    "                        stdout; with several tests, each test's image is appended\n"
    "  --junit FILE          (run) also write a JUnit XML report, one test case per file\n"
    "\n"
    "exit status: 0 no errors, 1 errors found, 2 usage or I/O error\n";

struct Options {
  std::string command;
  std::vector<std::string> files;
  stu::ptx::CheckOptions check;
  bool stats = false;
  bool quiet = false;
  size_t max_errors = 0;
  size_t show = 20;
  bool trace = false;
  std::string dump;
  std::string junit;
};

int usage_error(const std::string& msg) {
  std::cerr << "stu: error: " << msg << "\n" << kUsageText;
  return kUsage;
}

bool read_file(const std::string& path, std::string& out, std::string& why) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = "is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    why = "read error";
    return false;
  }
  out = ss.str();
  return true;
}

void print_diags(const stu::Diagnostics& d, const std::string& file, size_t max_errors) {
  if (max_errors == 0 || d.error_count() <= max_errors) {
    d.print(std::cerr, file);
    return;
  }
  stu::Diagnostics cut;
  size_t errors = 0;
  for (const auto& x : d.all()) {
    if (x.severity == stu::Severity::Error && ++errors > max_errors) break;
    cut.add(x.severity, x.loc, x.message);
  }
  cut.print(std::cerr, file);
  std::cerr << file << ": note: " << (d.error_count() - max_errors)
            << " more errors not shown (--max-errors)\n";
}

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// SASS listing: one ST per line; blank lines and // comments skipped.
size_t check_sass(const std::string& text, stu::Diagnostics& d) {
  std::istringstream in(text);
  std::string line;
  uint32_t n = 0;
  size_t count = 0;
  while (std::getline(in, line)) {
    ++n;
    auto c = line.find("//");
    if (c != std::string::npos) line.erase(c);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++count;
    if (auto s = stu::isa::parse_sass_st(line, d, n)) stu::isa::validate(*s, d);
  }
  return count;
}

// Runs `fn(path, text)` on every input; an unreadable one is reported and skipped (the others
// are still processed). `fn` returns true when it found an error. Returns the exit status.
template <typename Fn>
int for_each_input(const std::vector<std::string>& files, Fn fn) {
  bool any_error = false;
  bool io_error = false;
  for (const std::string& f : files) {
    std::string text, why;
    if (!read_file(f, text, why)) {
      std::cerr << "stu: error: cannot read '" << f << "': " << why << "\n";
      io_error = true;
      continue;
    }
    any_error |= fn(f, text);
  }
  return io_error ? kUsage : any_error ? kFinding : kOk;
}

int run_check(const Options& o) {
  return for_each_input(o.files, [&](const std::string& f, const std::string& text) {
    stu::Diagnostics d;
    auto t0 = std::chrono::steady_clock::now();
    if (ends_with(f, ".sass")) {
      size_t n = check_sass(text, d);
      print_diags(d, f, o.max_errors);
      if (!o.quiet) {
        std::cout << f << ": " << n << " SASS stores, " << d.error_count() << " errors, "
                  << d.warning_count() << " warnings\n";
      }
    } else {
      stu::ptx::CheckStats s = stu::ptx::check_module(text, d, o.check);
      auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      print_diags(d, f, o.max_errors);
      if (!o.quiet) {
        std::cout << f << ": " << (s.has_target ? s.target.str() : "no target") << ", PTX "
                  << (s.has_version ? s.version.str() : "?") << ": " << s.stores << " stores ("
                  << s.invalid_stores << " invalid) in " << s.instructions << " instructions, "
                  << d.error_count() << " errors, " << d.warning_count() << " warnings\n";
      }
      if (o.stats) {
        std::cout << f << ": " << s.lines << " lines, " << text.size() << " bytes, " << s.functions
                  << " functions, " << secs * 1e3 << " ms, "
                  << (secs > 0 ? static_cast<double>(s.stores) / secs : 0.0) << " stores/s\n";
      }
    }
    return d.has_errors();
  });
}

int run_lower(const Options& o) {
  return for_each_input(o.files, [&](const std::string& f, const std::string& text) {
    stu::Diagnostics d;
    std::string out;
    auto visit = [&](const stu::isa::Instruction& ins, bool valid) {
      out += f + ":" + std::to_string(ins.loc.line) + ": " + stu::isa::print(ins) + "\n";
      if (!valid) {
        out += "    (not lowered: invalid)\n";
        return;
      }
      for (const auto& s : stu::isa::lower(ins)) out += "    " + s.str() + "\n";
    };
    stu::ptx::check_module(text, d, o.check, visit);
    std::cout << out;
    print_diags(d, f, o.max_errors);
    return d.has_errors();
  });
}

std::string xml_escape(const std::string& in) {
  std::string out;
  for (char c : in) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n') ? ' ' : c;
    }
  }
  return out;
}

struct JunitCase {
  std::string name;
  bool ok = false;
  std::string message;  // the first error
  std::string details;  // every diagnostic
  double seconds = 0;
};

bool write_junit(const std::string& path, const std::vector<JunitCase>& cases) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  size_t failures = 0;
  double total = 0;
  for (const JunitCase& c : cases) {
    failures += !c.ok;
    total += c.seconds;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"stu run\" tests=\""
      << cases.size() << "\" failures=\"" << failures << "\" time=\"" << total << "\">\n";
  for (const JunitCase& c : cases) {
    out << "  <testcase classname=\"sts\" name=\"" << xml_escape(c.name) << "\" time=\""
        << c.seconds << "\"";
    if (c.ok) {
      out << "/>\n";
      continue;
    }
    out << ">\n    <failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.details)
        << "</failure>\n  </testcase>\n";
  }
  out << "</testsuite>\n";
  return bool(out);
}

int run_sts(const Options& o) {
  std::vector<JunitCase> junit;
  std::ofstream dump_file;
  std::ostream* dump = nullptr;
  if (o.dump == "-") {
    dump = &std::cout;
  } else if (!o.dump.empty()) {
    dump_file.open(o.dump, std::ios::binary | std::ios::trunc);
    if (!dump_file) {
      std::cerr << "stu: error: cannot write '" << o.dump << "': " << std::strerror(errno) << "\n";
      return kUsage;
    }
    dump = &dump_file;
  }
  const int status = for_each_input(o.files, [&](const std::string& f, const std::string& text) {
    stu::Diagnostics d;
    stu::sts::RunOptions ro;
    ro.trace = o.trace ? &std::cout : nullptr;
    ro.dump = dump;
    if (dump) *dump << "# " << f << "\n";
    const auto t0 = std::chrono::steady_clock::now();
    const stu::sts::RunSummary s = stu::sts::run(text, ro, d);
    print_diags(d, f, o.max_errors);
    if (!o.junit.empty()) {
      JunitCase c;
      c.name = f;
      c.ok = s.ok();
      c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::ostringstream all;
      d.print(all, f);
      c.details = all.str();
      for (const auto& x : d.all()) {
        if (x.severity == stu::Severity::Error) {
          c.message = f + ":" + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col) +
                      ": " + x.message;
          break;
        }
      }
      junit.push_back(std::move(c));
    }
    if (!o.quiet) {
      if (!s.parsed) {
        std::cout << f << ": not run: " << d.error_count() << " errors\n";
      } else {
        std::cout << f << ": " << (s.ok() ? "PASS" : "FAIL") << ": " << s.stores << " stores, "
                  << s.expectations << " expectations, " << s.failed << " failed\n";
      }
    }
    return !s.ok();
  });
  if (!o.junit.empty() && !write_junit(o.junit, junit)) {
    std::cerr << "stu: error: cannot write '" << o.junit << "': " << std::strerror(errno) << "\n";
    return kUsage;
  }
  return status;
}

// docs/tmem-map.md: generated from golden::tmem_cells, the mapping the model executes.
int run_tmem_map() {
  using stu::isa::TmemShape;
  std::ostringstream os;
  os << "# tcgen05.st: register -> TMEM cell, per shape\n\n"
        "Generated by `stu tmem-map` from `golden::tmem_cells`, the one mapping function the\n"
        "golden model executes (a test fails when this file is out of date). Each entry is\n"
        "`lane,column` as offsets from `taddr`, for register `rJ` of thread `t` at `.x1`;\n"
        "`.xN` repeats the pattern N times, each repetition shifted by the shape's column\n"
        "footprint. With `.unpack::16b` each register writes its low half to column `2c`\n"
        "and its high half to column `2c+1` (bits 15:0 of each cell). For `.16x32bx2`, a\n"
        "`+` marks cells of the second access, at `taddr + immHalfSplitoff`.\n";
  const TmemShape shapes[] = {TmemShape::S32x32b, TmemShape::S16x64b, TmemShape::S16x128b,
                              TmemShape::S16x256b, TmemShape::S16x32bx2};
  for (TmemShape shape : shapes) {
    const unsigned regs = stu::isa::regs_per_rep(shape);
    os << "\n## ." << stu::isa::to_string(shape) << ".x1 (" << regs << " register"
       << (regs > 1 ? "s" : "") << " per thread; " << stu::golden::tmem_access_lanes(shape)
       << " lanes x " << stu::golden::tmem_rep_columns(shape) << " column"
       << (stu::golden::tmem_rep_columns(shape) > 1 ? "s" : "") << " per access)\n\n| t |";
    for (unsigned j = 0; j < regs; ++j) os << " r" << j << " |";
    os << "\n|---|";
    for (unsigned j = 0; j < regs; ++j) os << "---|";
    os << "\n";
    for (unsigned t = 0; t < 32; ++t) {
      os << "| " << t << " |";
      for (unsigned j = 0; j < regs; ++j) {
        stu::golden::TmemCellRef c[2];
        stu::golden::tmem_cells(shape, false, t, j, c);
        os << " " << c[0].lane << "," << c[0].col << (c[0].second ? "+" : "") << " |";
      }
      os << "\n";
    }
  }
  std::cout << os.str();
  return kOk;
}

int run_conformance(const Options& o) {
  stu::ptx::ConformanceReport total;
  size_t files = 0;
  std::string why;
  if (!stu::ptx::run_conformance_paths(o.files, total, files, why)) {
    std::cerr << "stu: error: " << why << "\n";
    return kUsage;
  }
  for (size_t i = 0; i < total.disagreements.size() && i < o.show; ++i) {
    const auto& c = total.disagreements[i];
    std::cout << (c.stu_error ? "stu rejects, ptxas accepts: " : "stu accepts, ptxas rejects: ")
              << c.text << "\n    ptxas: " << (c.ptxas_error ? c.ptxas_message : "ok")
              << "\n    stu:   " << (c.stu_error ? c.stu_message : "ok") << "\n";
  }
  for (size_t i = 0; i < total.stray.size() && i < o.show; ++i) {
    std::cout << "error outside the cases: " << total.stray[i] << "\n";
  }
  std::printf(
      "%zu files, %zu store-family cases: %zu agree (%.3f %%), %zu false errors, "
      "%zu missed errors, %zu errors outside cases; not scored: %zu lines of other "
      "instructions, %zu on which ptxas crashed\n",
      files, total.cases, total.agree, 100.0 * total.agreement(), total.false_errors,
      total.missed_errors, total.stray.size(), total.other_lines, total.ptxas_crashed);
  std::printf("ptxas warned on %zu accepted cases; stu warned on %zu of them\n",
              total.ptxas_warnings, total.warned_too);
  return total.disagreements.empty() && total.stray.empty() ? kOk : kFinding;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc < 2) return usage_error("no command given");
  o.command = argv[1];
  if (o.command == "help" || o.command == "--help" || o.command == "-h") {
    std::cout << kUsageText;
    return kOk;
  }
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    if (a == "--target") {
      const char* v = value("--target");
      auto t = v ? stu::isa::Target::parse(v) : std::nullopt;
      if (!t || !t->known()) return usage_error("--target needs a known target like sm_90a");
      o.check.target = t;
    } else if (a == "--ptx-version") {
      const char* v = value("--ptx-version");
      auto pv = v ? stu::isa::PtxVersion::parse(v) : std::nullopt;
      if (!pv) return usage_error("--ptx-version needs a version like 8.8");
      o.check.version = pv;
    } else if (a == "--trace") {
      o.trace = true;
    } else if (a == "--dump") {
      const char* v = value("--dump");
      if (!v || !*v) return usage_error("--dump needs a file name (or '-')");
      o.dump = v;
    } else if (a == "--junit") {
      const char* v = value("--junit");
      if (!v || !*v) return usage_error("--junit needs a file name");
      o.junit = v;
    } else if (a == "--stats") {
      o.stats = true;
    } else if (a == "-q" || a == "--quiet") {
      o.quiet = true;
    } else if (a == "--max-errors" || a == "--show") {
      const char* v = value(a.c_str());
      char* end = nullptr;
      size_t n = v ? std::strtoul(v, &end, 10) : 0;
      if (!v || *v == '\0' || *end) return usage_error(a + " needs a number");
      (a == "--show" ? o.show : o.max_errors) = n;
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      o.files.push_back(a);
    }
  }
  if (o.command == "tmem-map") {
    if (!o.files.empty()) return usage_error("tmem-map takes no files");
    return run_tmem_map();
  }
  if (o.command != "check" && o.command != "lower" && o.command != "conformance" &&
      o.command != "run") {
    return usage_error("unknown command '" + o.command + "'");
  }
  if (o.files.empty()) return usage_error("no input files");
  try {
    if (o.command == "conformance") return run_conformance(o);
    if (o.command == "run") return run_sts(o);
    return o.command == "check" ? run_check(o) : run_lower(o);
  } catch (const std::bad_alloc&) {
    std::cerr << "stu: error: out of memory\n";
    return kUsage;
  }
}
