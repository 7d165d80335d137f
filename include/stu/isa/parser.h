// Parsing of one store-family instruction from PTX text.
#pragma once

#include <optional>
#include <string_view>

#include "stu/diag.h"
#include "stu/isa/instruction.h"
#include "stu/isa/lexer.h"

namespace stu::isa {

// Which store-family opcode a dotted word starts with (`st.global.u32` -> St,
// `st.async...` -> StAsync, `tcgen05.st...` -> Tcgen05St); nullopt for any other opcode.
std::optional<Opcode> store_opcode_of(std::string_view word);

// True when the base name of `word` (the part before the first '.') is a PTX ISA 9.0
// instruction (`ld.global.u32` -> "ld").
bool is_ptx_opcode(std::string_view word);

// Parses the rest of a store instruction whose opcode word is `opcode` (already consumed from
// `lx`), through its terminating `;`. `guard` is the predicate already parsed (if any).
// On success fills `out` and returns true. On a syntax error, reports it, skips to the end
// of the statement (the `;`, or the first token of a following line) and returns false.
bool parse_store(Lexer& lx, const Token& opcode, const Guard& guard, Instruction& out,
                 Diagnostics& diags);

// Convenience: parses one instruction from a single line of text (guard allowed, trailing
// `;` optional). Positions are relative to `line`.
std::optional<Instruction> parse_instruction(std::string_view text, Diagnostics& diags,
                                             uint32_t line = 1);

// Skips the rest of a statement: through the next `;` at bracket depth 0, or up to (not
// including) a token that starts a new line when `stop_at_new_line` is set. Returns the
// token that ended the skip (a `;`, or the unconsumed token, or End).
Token skip_statement(Lexer& lx, bool stop_at_new_line);

}  // namespace stu::isa
