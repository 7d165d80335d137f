#include "func_directives.h"

#include <string>

#include "stu/isa/parser.h"

namespace stu::ptx {
namespace {

enum class Where : uint8_t { Entry, Func };

// ptxas 13.0's rule for each header directive (probed: tests/data/directives/*.ptx).
struct DirectiveRule {
  std::string_view name;
  Where where;
  uint8_t min_values, max_values;
  bool positive;  // every value must be > 0 ("Positive non-zero value expected")
  unsigned sm;    // lowest target (0: any)
  isa::PtxVersion ptx;
};

constexpr isa::PtxVersion kAny{1, 0};
constexpr DirectiveRule kRules[] = {
    {".maxnreg", Where::Entry, 1, 1, true, 0, kAny},
    {".maxntid", Where::Entry, 1, 3, true, 0, kAny},
    {".reqntid", Where::Entry, 1, 3, true, 0, kAny},
    {".minnctapersm", Where::Entry, 1, 1, true, 0, kAny},
    {".explicitcluster", Where::Entry, 0, 0, false, 90, {7, 8}},
    {".reqnctapercluster", Where::Entry, 1, 3, false, 90, {7, 8}},
    {".maxclusterrank", Where::Entry, 1, 1, false, 90, {7, 8}},
    {".blocksareclusters", Where::Entry, 0, 0, false, 90, {9, 0}},
    {".noreturn", Where::Func, 0, 0, false, 0, kAny},
    {".abi_preserve", Where::Func, 1, 1, false, 0, {9, 0}},
    {".abi_preserve_control", Where::Func, 1, 1, false, 0, {9, 0}},
};
constexpr size_t kMaxNreg = 255;  // above it ptxas warns and ignores the directive

enum Kind : unsigned {
  kMaxnreg,
  kMaxntid,
  kReqntid,
  kMinnctapersm,
  kExplicitcluster,
  kReqnctapercluster,
  kMaxclusterrank,
  kBlocksareclusters,
  kNoreturn,
};

const DirectiveRule* rule_of(std::string_view w) {
  for (const DirectiveRule& r : kRules)
    if (r.name == w) return &r;
  return nullptr;
}

std::string quote(std::string_view s) { return "'" + std::string(s.substr(0, 40)) + "'"; }

}  // namespace

bool is_func_header_directive(std::string_view word) {
  return rule_of(word) != nullptr || word == ".maxnctapersm";
}

bool FuncDirectives::directive(isa::Lexer& lx, const isa::Token& t) {
  const std::string kind = h_.is_entry ? "'.entry'" : "'.func'";
  if (t.text == ".pragma") {  // `.pragma "..." {, "..."};`: entry headers only
    if (!h_.is_entry) d_.error(t.loc, "'.pragma' cannot be written in a '.func' header");
    const isa::Token& s = lx.peek();
    if (s.kind != isa::TokKind::String) {
      d_.error(s.loc, "'.pragma' takes a string, found " + quote(s.text));
    }
    isa::skip_statement(lx, false);
    return true;
  }
  if (t.text == ".maxnctapersm") {
    d_.error(t.loc,
             "'.maxnctapersm' is deprecated: not supported since PTX ISA 2.1 (use "
             "'.minnctapersm')");
  }
  const DirectiveRule* r = rule_of(t.text);
  const unsigned index = r ? static_cast<unsigned>(r - kRules) : 0;
  if (r) {
    if (r->where == Where::Entry && !h_.is_entry) {
      d_.error(t.loc, quote(t.text) + " applies only to an '.entry' function, not " + kind);
    } else if (r->where == Where::Func && h_.is_entry) {
      d_.error(t.loc, quote(t.text) + " applies only to a '.func' function, not " + kind);
    } else if (index == kNoreturn && h_.has_returns) {
      d_.error(t.loc, "'.noreturn' cannot be applied to function '" + std::string(h_.name) +
                          "', which has return parameters");
    } else if (index == kNoreturn && (seen_ & (1u << kNoreturn))) {
      d_.error(t.loc, "duplicate '.noreturn'");
    }
    if (r->sm && target_.sm < r->sm) {
      d_.error(t.loc, quote(t.text) + " requires sm_" + std::to_string(r->sm) +
                          " or higher (target is " + target_.str() + ")");
    } else if (version_ < r->ptx) {
      d_.error(t.loc, quote(t.text) + " requires PTX ISA " + r->ptx.str() +
                          " or later (module is " + version_.str() + ")");
    }
    seen_ |= 1u << index;
    loc_[index] = t.loc;
  } else if (t.text != ".maxnctapersm") {
    d_.error(t.loc, "unknown directive " + quote(t.text) + " in the header of '" +
                        std::string(h_.name) + "'");
  }
  // Values: integers separated by ','.
  unsigned count = 0;
  bool bad = false;
  while (lx.peek().kind == isa::TokKind::Number) {
    isa::Token v = lx.next();
    uint64_t value = 0;
    if (!isa::parse_int_literal(v.text, value)) {
      d_.error(v.loc, "expected an integer value, found " + quote(v.text));
      bad = true;
    } else if (r && r->positive && value == 0 && !bad) {
      d_.error(v.loc, "positive non-zero value expected for " + quote(t.text.substr(1)));
      bad = true;
    } else if (r && index == kMaxnreg && value > kMaxNreg) {
      d_.warning(v.loc, "'.maxnreg " + std::string(v.text) + "' is above " +
                            std::to_string(kMaxNreg) + ": ptxas ignores it");
    }
    ++count;
    if (!lx.peek().is(',')) break;
    lx.next();
  }
  if (r && !bad && (count < r->min_values || count > r->max_values)) {
    std::string want = r->max_values == 0               ? "no value"
                       : r->min_values == r->max_values ? "one value"
                                                        : "1 to 3 values";
    d_.error(t.loc, quote(t.text) + " takes " + want + " (found " + std::to_string(count) + ")");
  }
  return r != nullptr || t.text == ".maxnctapersm";
}

void FuncDirectives::finish(Loc at) {
  (void)at;
  auto has = [&](unsigned k) { return (seen_ & (1u << k)) != 0; };
  if (has(kMaxntid) && has(kReqntid)) {
    d_.error(loc_[kReqntid], "'.maxntid' and '.reqntid' cannot both be specified");
  }
  if (has(kReqnctapercluster) && has(kMaxclusterrank)) {
    d_.error(loc_[kMaxclusterrank],
             "'.reqnctapercluster' and '.maxclusterrank' cannot both be specified");
  }
  if (has(kBlocksareclusters) && !(has(kReqntid) && has(kReqnctapercluster))) {
    d_.error(loc_[kBlocksareclusters],
             "'.blocksareclusters' requires '.reqntid' and '.reqnctapercluster'");
  }
}

}  // namespace stu::ptx
