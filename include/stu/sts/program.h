// A parsed `.sts` directed test: the machine configuration, then set-up steps, warp stores and
// expectations in file order (docs/sts-format.md). Parsed once; any model (the golden model
// today, the RTL top and the TLM model next) runs the same Program through sts::run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/cache.h"
#include "stu/golden/config.h"
#include "stu/golden/state.h"
#include "stu/isa/instruction.h"
#include "stu/isa/sass.h"
#include "stu/isa/target.h"
#include "stu/sts/expr.h"

namespace stu::sts {

using golden::MemSpace;

struct KV {
  std::string key;
  int expr = -1;     // value as an expression
  std::string word;  // value as a word (sem=release, lanes=all, policy="...")
  Loc loc;
};

// A location in memory or TMEM named by `SPACE {key=value} [ADDR]`.
struct MemLoc {
  MemSpace space = MemSpace::Global;
  bool generic = false;
  int cta = -1, thread = -1, addr = -1;                      // memory
  int lane = -1, col = -1, rows = -1, cols = -1, mask = -1;  // tmem
  Loc loc;
};

enum class StmtKind : uint8_t {
  Alloc,
  Write,
  TmemAlloc,
  TmemDealloc,
  Mbar,
  Symbol,
  Reg,
  Exec,
  Ptx,
  Sass,
  Caches,  // `drain` or `flush` (word)
  Fence,   // `fence.sc.SCOPE` / `fence.acq_rel.SCOPE` (word: sc or acq_rel; scope)
  Expect
};

struct Stmt {
  StmtKind kind = StmtKind::Exec;
  Loc loc;
  std::string word;   // mbarrier op, expect kind, register or symbol name
  std::string word2;  // expect fault: the fault kind
  std::vector<int> exprs;
  std::vector<KV> kvs;
  MemLoc mem;
  unsigned elem_bytes = 4;
  int repeat = -1;                     // xN
  isa::Scope scope = isa::Scope::Gpu;  // Fence
  bool reg_hi = false, reg_list = false;
  std::string text;  // store lines: the source text (for traces)
  isa::Instruction ins;
  isa::SassSt sass;

  const KV* kv(std::string_view key) const {
    for (const KV& k : kvs)
      if (k.key == key) return &k;
    return nullptr;
  }
};

struct Program {
  golden::ModelConfig cfg;
  // The L1, write buffer and L2 global stores go through, when the header has a `cache` line.
  std::optional<golden::HierarchyConfig> caches;
  isa::Target target{100, isa::Target::Suffix::Arch};
  isa::PtxVersion version = isa::kPtxasMaxVersion;
  Exprs exprs;
  std::vector<Stmt> stmts;
};

// Parses a whole test. Syntax errors (and validator errors of store lines) are reported to
// `diags` with their line and column; warnings of the ISA validator as warnings. Returns false
// when there is any error: then nothing of the test may run.
bool parse(std::string_view text, Program& program, Diagnostics& diags);

}  // namespace stu::sts
