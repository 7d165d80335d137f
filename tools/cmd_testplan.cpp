// stu testplan: the verification testplan (tests/testplan/<block>.json, one per registered
// block), printed with each feature's status from a regression's results (JUnit reports of
// ctest, stu cosim and stu run; functional-coverage files of stu cosim --coverage), as a
// Markdown document (docs/testplan.md), or checked against the tests and coverage points that
// exist.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli.h"
#include "cosim.h"
#include "fcov.h"

namespace stu::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Feature {
  std::string name, description, source;
  bool silicon_checked = false;
  std::vector<std::string> tests;     // CTest names, or cosim:<block>
  std::vector<std::string> coverage;  // "point" or "point:bin"
};
struct Plan {
  std::string block, file;
  std::vector<Feature> features;
};

struct TestplanArgs {
  std::string dir = "tests/testplan";
  std::vector<std::string> junit;
  std::vector<std::string> coverage;
  std::string known_tests;
  bool markdown = false;
  bool check = false;
};

// Reads every plan; problems are appended to `errors` as "FILE: message".
std::vector<Plan> read_plans(const std::string& dir, std::vector<std::string>& errors) {
  std::vector<Plan> plans;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    errors.push_back(dir + ": not a directory of testplans");
    return plans;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    std::string text, why;
    if (!read_file(p.string(), text, why)) {
      errors.push_back(p.string() + ": " + why);
      continue;
    }
    Plan plan;
    plan.file = p.string();
    try {
      const json j = json::parse(text);
      plan.block = j.at("block").get<std::string>();
      std::set<std::string> names;
      for (const json& f : j.at("features")) {
        Feature x;
        x.name = f.at("name").get<std::string>();
        x.description = f.at("description").get<std::string>();
        x.source = f.value("source", "");
        x.silicon_checked = f.value("silicon_checked", false);
        x.tests = f.value("tests", std::vector<std::string>{});
        x.coverage = f.value("coverage", std::vector<std::string>{});
        if (!names.insert(x.name).second)
          errors.push_back(plan.file + ": feature '" + x.name + "' twice");
        plan.features.push_back(std::move(x));
      }
    } catch (const json::exception& e) {
      errors.push_back(plan.file + ": " + e.what());
      continue;
    }
    if (p.stem().string() != plan.block)
      errors.push_back(plan.file + ": names block '" + plan.block + "' (the file is " +
                       p.filename().string() + ")");
    plans.push_back(std::move(plan));
  }
  return plans;
}

// Every point and bin the benches declare, from a one-transaction run of each with coverage.
tb::Coverage declared_model() {
  tb::Coverage c;
  for (const tb::BlockEntry& b : tb::blocks()) {
    if (!b.in_all) continue;
    tb::CosimOptions o;
    o.txns = 1;
    o.coverage = &c;
    o.rerun_for_wave = false;
    b.run(o);
  }
  return c;
}

// A coverage reference's legal bins in `c` (empty with `why` when it names none).
std::vector<std::pair<const tb::CoverPoint*, size_t>> resolve(const tb::Coverage& c,
                                                              const std::string& ref,
                                                              std::string& why) {
  std::vector<std::pair<const tb::CoverPoint*, size_t>> out;
  const size_t colon = ref.find(':');
  const std::string point = ref.substr(0, colon);
  const tb::CoverPoint* p = c.find(point);
  if (!p) {
    why = "no coverage point '" + point + "'";
    return out;
  }
  if (colon == std::string::npos) {
    for (size_t i = 0; i < p->size(); ++i)
      if (p->illegal(i).empty()) out.emplace_back(p, i);
    return out;
  }
  const std::string bin = ref.substr(colon + 1);
  const size_t i = p->find(bin);
  if (i == p->size()) {
    why = "no bin '" + bin + "' in coverage point '" + point + "'";
  } else if (!p->illegal(i).empty()) {
    why = "bin '" + bin + "' of '" + point + "' is declared impossible (" + p->illegal(i) + ")";
  } else {
    out.emplace_back(p, i);
  }
  return out;
}

int check(const TestplanArgs& a, const std::vector<Plan>& plans, std::vector<std::string> errors) {
  // One plan per registered block, and no other.
  std::set<std::string> planned;
  for (const Plan& p : plans) planned.insert(p.block);
  for (const tb::RegistryBlock& r : tb::registry()) {
    if (!planned.count(r.name))
      errors.push_back(a.dir + ": block '" + r.name + "' of rtl/blocks.json has no testplan (" +
                       r.name + ".json)");
  }
  for (const Plan& p : plans)
    if (!tb::find_registry_block(p.block))
      errors.push_back(p.file + ": '" + p.block + "' is not a block of rtl/blocks.json");
  std::set<std::string> known;
  if (!a.known_tests.empty()) {
    std::string text, why;
    if (!read_file(a.known_tests, text, why)) {
      std::cerr << "stu: error: cannot read '" << a.known_tests << "': " << why << "\n";
      return kUsage;
    }
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) known.insert(line);
  }
  const tb::Coverage model = declared_model();
  size_t features = 0, without_tests = 0;
  for (const Plan& p : plans) {
    for (const Feature& f : p.features) {
      ++features;
      const std::string where = p.file + ": feature '" + f.name + "': ";
      if (f.tests.empty()) ++without_tests;
      for (const std::string& t : f.tests) {
        if (t.rfind("cosim:", 0) == 0) {
          const tb::BlockEntry* b = tb::find_block(t.substr(6));
          if (!b || !b->in_all) errors.push_back(where + "'" + t + "': no such cosimulation");
        } else if (!known.empty() && !known.count(t)) {
          errors.push_back(where + "unknown test '" + t + "'");
        }
      }
      for (const std::string& c : f.coverage) {
        std::string why;
        if (resolve(model, c, why).empty()) errors.push_back(where + why);
      }
    }
  }
  for (const std::string& e : errors) std::cerr << e << "\n";
  std::cout << "testplan: " << plans.size() << " blocks, " << features << " features ("
            << without_tests << " without a test), " << errors.size() << " problems\n";
  return errors.empty() ? kOk : kFinding;
}

std::string cell(std::string s) {  // a Markdown table cell
  for (char& c : s)
    if (c == '|') c = '/';
  return s;
}

int markdown(const std::vector<Plan>& plans) {
  std::ostringstream o;
  o << "# Testplan\n\n"
       "Generated by `stu testplan --markdown` from `tests/testplan/<block>.json` (one file per "
       "block of the registry, `rtl/blocks.json`); the CTest `testplan_consistent` fails when "
       "this page and the files differ. Each feature names the tests that reach it (CTest "
       "names; `cosim:<block>` is the block's constrained-random cosimulation) and the "
       "functional-coverage bins that prove it was reached (`point` for every legal bin of a "
       "point, `point:bin` for one). `stu testplan --junit ... --coverage ...` prints each "
       "line's status from a regression ([verification.md](verification.md#the-testplan)).\n";
  size_t features = 0;
  for (const Plan& p : plans) features += p.features.size();
  o << "\n" << plans.size() << " blocks, " << features << " features.\n";
  for (const Plan& p : plans) {
    o << "\n## " << p.block
      << "\n\n| feature | what | source | tests | coverage |\n|---|---|---|---|---|\n";
    for (const Feature& f : p.features) {
      std::string tests, cov;
      for (const std::string& t : f.tests) tests += (tests.empty() ? "`" : ", `") + t + "`";
      for (const std::string& c : f.coverage) cov += (cov.empty() ? "`" : ", `") + c + "`";
      o << "| " << f.name << (f.silicon_checked ? " (silicon-checked)" : "") << " | "
        << cell(f.description) << " | " << cell(f.source) << " | "
        << (tests.empty() ? "**none**" : cell(tests)) << " | " << (cov.empty() ? "-" : cell(cov))
        << " |\n";
    }
  }
  std::cout << o.str();
  return kOk;
}

int report(const TestplanArgs& a, const std::vector<Plan>& plans) {
  // Results: the last report's verdict per case name (skipped counts as not run).
  std::map<std::string, int> result;                       // 1 passed, 0 failed, -1 skipped
  std::map<std::string, std::pair<size_t, size_t>> cosim;  // block -> (runs, failed)
  for (const std::string& f : a.junit) {
    std::vector<JunitCase> cases;
    std::string why;
    if (!read_junit(f, cases, why)) {
      std::cerr << "stu: error: " << why << "\n";
      return kUsage;
    }
    for (const JunitCase& c : cases) {
      result[c.name] = c.skipped ? -1 : c.ok ? 1 : 0;
      const size_t seed = c.name.find(" seed ");
      if (seed != std::string::npos && !c.skipped) {
        auto& r = cosim[c.name.substr(0, seed)];
        ++r.first;
        r.second += !c.ok;
      }
    }
  }
  tb::Coverage cov;
  for (const std::string& f : a.coverage) {
    std::string text, why;
    tb::Coverage one;
    if (!read_file(f, text, why) || !tb::Coverage::read(text, one, why) || !cov.merge(one, why)) {
      std::cerr << f << ": error: " << why << "\n";
      return kUsage;
    }
  }
  const bool have_results = !a.junit.empty();
  const bool have_cov = !a.coverage.empty();
  std::map<std::string, size_t> tally;
  std::printf("%-18s %-40s %-12s %-12s %s\n", "block", "feature", "tests", "coverage", "status");
  for (const Plan& p : plans) {
    for (const Feature& f : p.features) {
      size_t passed = 0, failed = 0, missing = 0;
      for (const std::string& t : f.tests) {
        if (t.rfind("cosim:", 0) == 0) {
          auto it = cosim.find(t.substr(6));
          if (it == cosim.end())
            ++missing;
          else if (it->second.second)
            ++failed;
          else
            ++passed;
          continue;
        }
        auto it = result.find(t);
        if (it == result.end() || it->second < 0)
          ++missing;
        else if (it->second == 0)
          ++failed;
        else
          ++passed;
      }
      size_t bins = 0, hit = 0;
      bool unknown = false;
      if (have_cov) {
        for (const std::string& c : f.coverage) {
          std::string why;
          const auto rs = resolve(cov, c, why);
          unknown |= rs.empty();
          for (const auto& [pt, i] : rs) {
            ++bins;
            hit += pt->count(i) > 0;
          }
        }
      }
      std::string status;
      if (f.tests.empty())
        status = "NO TEST";
      else if (!have_results)
        status = "-";
      else if (failed)
        status = "FAIL";
      else if (missing)
        status = "NOT RUN";
      else if (have_cov && (unknown || hit < bins))
        status = "UNCOVERED";
      else
        status = "PASS";
      ++tally[status];
      const std::string tests =
          have_results ? std::to_string(passed) + "/" + std::to_string(f.tests.size()) + " pass"
                       : std::to_string(f.tests.size()) + " tests";
      const std::string covs = !have_cov ? std::to_string(f.coverage.size()) + " refs"
                               : unknown
                                   ? "unknown"
                                   : std::to_string(hit) + "/" + std::to_string(bins) + " hit";
      std::printf("%-18s %-40s %-12s %-12s %s\n", p.block.c_str(), f.name.c_str(), tests.c_str(),
                  covs.c_str(), status.c_str());
    }
  }
  std::cout << "\ntestplan:";
  for (const auto& [s, n] : tally) std::cout << " " << n << " " << s << ",";
  std::cout << " of " << [&] {
    size_t n = 0;
    for (const Plan& p : plans) n += p.features.size();
    return n;
  }() << " features\n";
  const bool bad = tally.count("FAIL") || tally.count("NOT RUN") || tally.count("UNCOVERED") ||
                   tally.count("NO TEST");
  return have_results && bad ? kFinding : kOk;
}

int run_testplan(const TestplanArgs& a) {
  if (!tb::registry_error().empty()) {
    std::cerr << "stu: error: " << tb::registry_error() << "\n";
    return kUsage;
  }
  std::vector<std::string> errors;
  const std::vector<Plan> plans = read_plans(a.dir, errors);
  if (a.check) return check(a, plans, errors);
  if (!errors.empty()) {
    for (const std::string& e : errors) std::cerr << e << "\n";
    return kUsage;
  }
  if (a.markdown) return markdown(plans);
  return report(a, plans);
}

}  // namespace

Command add_testplan(CLI::App& app) {
  auto args = std::make_shared<TestplanArgs>();
  CLI::App* sub = app.add_subcommand(
      "testplan", "print the verification testplan with each feature's status from a regression");
  sub->footer(
      "Reads tests/testplan/<block>.json (one per block of rtl/blocks.json): features, the tests "
      "that reach them and the functional-coverage bins that prove it. With --junit (reports of "
      "ctest --output-junit, stu cosim --junit, stu run --junit) and --coverage (files of stu "
      "cosim --coverage) each feature gets a status: PASS, FAIL, NOT RUN, UNCOVERED or NO TEST; "
      "exit 1 unless every feature passes. --markdown writes docs/testplan.md; --check "
      "validates the plans. See docs/verification.md.");
  sub->add_option("--dir", args->dir, "the testplan folder (default tests/testplan)")
      ->type_name("DIR");
  sub->add_option("--junit", args->junit, "JUnit reports of the regression")
      ->type_name("FILE...")
      ->expected(1, -1);
  sub->add_option("--coverage", args->coverage, "functional-coverage files of the regression")
      ->type_name("FILE...")
      ->expected(1, -1);
  sub->add_flag("--markdown", args->markdown, "print the plan as Markdown (docs/testplan.md)");
  sub->add_flag("--check", args->check,
                "check the plans: one per block, and every coverage bin (and, with "
                "--known-tests, every test) they name exists");
  sub->add_option("--known-tests", args->known_tests,
                  "--check: the test names that exist, one per line (ctest -N)")
      ->type_name("FILE");
  return {sub, [args] { return run_testplan(*args); }};
}

}  // namespace stu::cli
