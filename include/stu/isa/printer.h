// Canonical text of a decoded instruction: qualifiers in the ISA syntax order, operands as
// `[base+off]`, `{a, b}`. Parsing the printed text gives the same instruction
// (`same_instruction`).
#pragma once

#include <string>

#include "stu/isa/instruction.h"

namespace stu::isa {

std::string print(const Instruction& ins);
std::string print(const Address& a);
std::string print(const Operand& o);
// The opcode with its qualifiers only (`st.relaxed.sys.global.u32`).
std::string print_opcode(const Instruction& ins);
// The operands only (`[%rd1+8], {%r1, %r2}`).
std::string print_operands(const Instruction& ins);

}  // namespace stu::isa
