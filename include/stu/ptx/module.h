// Reading a whole PTX module as nvcc writes it, and checking its store-family instructions.
//
// The reader understands the module structure (`.version`, `.target`, declarations with
// their scopes, `.entry`/`.func` with parameter lists, labels, predicates, debug sections)
// and passes every instruction that is not a store over. Each store is parsed, validated
// against the module's target and PTX ISA version with the declared names in scope, and
// handed to an optional visitor (used by `stu lower`).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/instruction.h"
#include "stu/isa/target.h"
#include "stu/isa/validator.h"

namespace stu::ptx {

struct CheckOptions {
  std::optional<isa::Target> target;       // override the module's `.target`
  std::optional<isa::PtxVersion> version;  // override the module's `.version`
  // Threads that check stores, the reader's included (0: one per hardware thread; 1: none
  // besides the caller's). The result does not depend on it (docs/check.md).
  unsigned threads = 0;
};

struct CheckStats {
  size_t lines = 0;
  size_t instructions = 0;    // every instruction statement, stores included
  size_t stores = 0;          // store-family instructions found
  size_t invalid_stores = 0;  // stores with at least one error
  size_t functions = 0;
  isa::Target target;  // what the module was validated for (see has_* below)
  isa::PtxVersion version;
  bool has_target = false;  // a valid `.target` (or --target) was seen
  bool has_version = false;
};

// Called for every store-family instruction that parsed, with the target it was validated for
// and the names in scope; `valid` is false when validation reported an error for it.
using StoreVisitor = std::function<void(const isa::Instruction& ins, bool valid,
                                        const isa::Target& target, const isa::SymbolLookup& names)>;

CheckStats check_module(std::string_view text, Diagnostics& diags, const CheckOptions& opts = {},
                        const StoreVisitor& visit = nullptr);

}  // namespace stu::ptx
