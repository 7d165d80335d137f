// Tokens and expressions of the `.sts` format (the parser builds them; runners evaluate them).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/config.h"

namespace stu::sts {

enum class TokKind : uint8_t { Word, Number, String, Punct, End };

struct Tok {
  TokKind kind = TokKind::End;
  std::string_view text;
  Loc loc;
  bool is(std::string_view p) const { return kind == TokKind::Punct && text == p; }
  bool is_word(std::string_view w) const { return kind == TokKind::Word && text == w; }
};

// Splits one line (comments already removed) into tokens. Returns false (with an error) on a
// byte that cannot start a token or an unterminated string.
bool tokenize(std::string_view line, uint32_t lineno, std::vector<Tok>& out, Diagnostics& diags);

// Integer literal: decimal, 0x hex, 0b binary, optional K/M/G suffix (x1024), PTX float bit
// patterns 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX. False when the text is not one.
bool parse_number(std::string_view text, uint64_t& value);

// The variables an expression may use.
enum class Var : uint8_t { Lane, Warp, Cta, Tid, NCtaRank, I, Row, Col };

struct Node {
  enum class Kind : uint8_t { Num, Float, Var, Name, Unary, Binary, Call };
  Kind kind = Kind::Num;
  uint64_t value = 0;
  double fvalue = 0;
  Var var = Var::Lane;
  std::string name;  // Name: a symbol; Call: the function; Unary/Binary: the operator
  std::vector<int> args;
  Loc loc;
};

struct Env {
  uint64_t lane = 0, warp = 0, cta = 0, i = 0, row = 0, col = 0;
  const std::map<std::string, uint64_t, std::less<>>* symbols = nullptr;
  const golden::ModelConfig* cfg = nullptr;
};

class Exprs {
 public:
  // Parses an expression starting at toks[pos]; advances pos. Returns the node id or -1
  // (with an error reported).
  int parse(const std::vector<Tok>& toks, size_t& pos, Diagnostics& diags);
  // Evaluates; on failure fills `err` and `err_loc` and returns false.
  bool eval(int id, const Env& env, uint64_t& out, std::string& err, Loc& err_loc) const;
  // A constant node (for statements that compute their value while parsing).
  int constant(uint64_t v, Loc loc) {
    Node n;
    n.value = v;
    n.loc = loc;
    return add(std::move(n));
  }

 private:
  int parse_binary(const std::vector<Tok>& t, size_t& pos, int level, Diagnostics& d);
  int parse_unary(const std::vector<Tok>& t, size_t& pos, Diagnostics& d);
  int parse_primary(const std::vector<Tok>& t, size_t& pos, Diagnostics& d);
  bool eval_float(int id, const Env& env, double& out, std::string& err, Loc& loc) const;
  int add(Node n) {
    nodes_.push_back(std::move(n));
    return int(nodes_.size() - 1);
  }
  std::vector<Node> nodes_;
  unsigned depth_ = 0;  // nesting of parentheses and unary operators being parsed
};

// Deepest nesting an expression may have (a bound on the parser's recursion).
inline constexpr unsigned kMaxExprDepth = 200;

}  // namespace stu::sts
