#include "stu/ptx/conformance.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "stu/diag.h"
#include "stu/isa/lexer.h"
#include "stu/isa/parser.h"
#include "stu/ptx/module.h"

namespace stu::ptx {

void ConformanceReport::merge(const ConformanceReport& o) {
  cases += o.cases;
  other_lines += o.other_lines;
  ptxas_crashed += o.ptxas_crashed;
  ptxas_warnings += o.ptxas_warnings;
  warned_too += o.warned_too;
  agree += o.agree;
  false_errors += o.false_errors;
  missed_errors += o.missed_errors;
  disagreements.insert(disagreements.end(), o.disagreements.begin(), o.disagreements.end());
  stray.insert(stray.end(), o.stray.begin(), o.stray.end());
}

namespace {

// A line is scored unless its opcode is a known PTX instruction outside the store family.
bool in_scope(std::string_view body) {
  isa::Lexer lx(body);
  isa::Token t = lx.next();
  if (t.is('@')) {
    t = lx.next();
    if (t.is('!')) t = lx.next();
    t = lx.next();
  }
  if (t.kind != isa::TokKind::Word) return true;
  if (isa::store_opcode_of(t.text)) return true;
  return !isa::is_ptx_opcode(t.text);
}

}  // namespace

ConformanceReport run_conformance(std::string_view text) {
  constexpr std::string_view kTag = "// ptxas: ";
  ConformanceReport rep;
  Diagnostics d;
  check_module(text, d, {});
  std::unordered_map<uint32_t, const Diagnostic*> first_error;
  std::unordered_map<uint32_t, bool> warned;
  for (const Diagnostic& x : d.all()) {
    if (x.severity == Severity::Error) first_error.emplace(x.loc.line, &x);
    if (x.severity == Severity::Warning) warned[x.loc.line] = true;
  }
  size_t pos = 0;
  uint32_t line = 0;
  std::unordered_map<uint32_t, bool> is_case;  // scored or not: errors there are not stray
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(pos, end - pos);
    ++line;
    size_t tag = l.rfind(kTag);
    if (tag != std::string_view::npos) {
      if (!in_scope(l.substr(0, tag))) {
        ++rep.other_lines;
        is_case[line] = false;
        if (end == text.size()) break;
        pos = end + 1;
        continue;
      }
      std::string_view verdict = l.substr(tag + kTag.size());
      if (verdict.find("ptxas crashed") != std::string_view::npos) {
        ++rep.ptxas_crashed;
        is_case[line] = false;
        if (end == text.size()) break;
        pos = end + 1;
        continue;
      }
      CaseOutcome c;
      c.line = line;
      c.ptxas_error = verdict.substr(0, 5) == "error";
      if (verdict.substr(0, 7) == "warning") {
        ++rep.ptxas_warnings;
        if (warned.count(line)) ++rep.warned_too;
      }
      size_t colon = verdict.find(": ");
      if (colon != std::string_view::npos) c.ptxas_message = std::string(verdict.substr(colon + 2));
      std::string_view body = l.substr(0, tag);
      while (!body.empty() && (body.back() == ' ' || body.back() == '\t')) body.remove_suffix(1);
      c.text = std::string(body);
      auto it = first_error.find(line);
      c.stu_error = it != first_error.end();
      if (c.stu_error) c.stu_message = it->second->message;
      ++rep.cases;
      is_case[line] = true;
      if (c.stu_error == c.ptxas_error) {
        ++rep.agree;
      } else {
        (c.stu_error ? rep.false_errors : rep.missed_errors)++;
        rep.disagreements.push_back(std::move(c));
      }
    }
    if (end == text.size()) break;
    pos = end + 1;
  }
  for (const auto& [l, diag] : first_error) {
    if (!is_case.count(l)) {
      rep.stray.push_back("line " + std::to_string(l) + ": " + diag->message);
    }
  }
  return rep;
}

bool run_conformance_paths(const std::vector<std::string>& paths, ConformanceReport& report,
                           size_t& files, std::string& error) {
  namespace fs = std::filesystem;
  std::vector<std::string> list;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::directory_iterator(p, ec)) {
        if (e.path().extension() == ".ptx") list.push_back(e.path().string());
      }
    } else {
      list.push_back(p);
    }
  }
  std::sort(list.begin(), list.end());
  files = 0;
  for (const std::string& f : list) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    if (!in || !(ss << in.rdbuf())) {
      error = "cannot read '" + f + "'";
      return false;
    }
    ConformanceReport r = run_conformance(ss.str());
    for (auto& c : r.disagreements) c.text = f + ":" + std::to_string(c.line) + ": " + c.text;
    for (auto& x : r.stray) x = f + ": " + x;
    report.merge(r);
    ++files;
  }
  return true;
}

}  // namespace stu::ptx
