// Validation of a decoded store-family instruction for a target and PTX ISA version.
//
// Verdicts follow NVIDIA ptxas 13.0 (the reference assembler): what it rejects is an error;
// where the PTX ISA text is stricter than ptxas, the rule is reported as a warning that cites
// the text. Every message names the rule it enforces.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/instruction.h"
#include "stu/isa/target.h"

namespace stu::isa {

// What a name declared in the module denotes (filled by the PTX module reader).
struct Symbol {
  enum class Kind : uint8_t { Register, Variable, Function };
  Kind kind = Kind::Register;
  DataType type = DataType::B32;
  std::optional<Space> space;  // variables and parameters: their declared space
  uint8_t vec_lanes = 1;       // `.reg .v4 .f32 v;`
  bool special = false;        // a predefined special register (%tid.x, %clock, ...)
  bool is_array = false;       // a variable declared with `[N]`
  // `.param` variables: a kernel or function input (read-only for st), a function's return
  // value, or a call argument declared in the body.
  enum class ParamRole : uint8_t { None, Input, Return, CallArg };
  ParamRole param_role = ParamRole::None;
};

class SymbolLookup {
 public:
  virtual ~SymbolLookup() = default;
  virtual const Symbol* find(std::string_view name) const = 0;
};

struct CheckContext {
  Target target;
  PtxVersion version;
  const SymbolLookup* symbols = nullptr;  // null: operand names and types are not checked
};

// Appends errors and warnings for `ins` to `diags`. Returns true when no error was added.
bool validate(const Instruction& ins, const CheckContext& ctx, Diagnostics& diags);

}  // namespace stu::isa
