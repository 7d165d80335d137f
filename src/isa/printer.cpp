#include "stu/isa/printer.h"

namespace stu::isa {
namespace {

void dot(std::string& s, std::string_view q) {
  s += '.';
  s += q;
}

}  // namespace

std::string print_opcode(const Instruction& ins) {
  // Every written family is printed (also ones invalid for the opcode), so that printing
  // and parsing round-trip for any parsed instruction; the order is the ISA syntax order.
  std::string s(to_string(ins.op));
  if (ins.sync) dot(s, "sync");
  if (ins.aligned) dot(s, "aligned");
  if (ins.shape) dot(s, to_string(*ins.shape));
  if (ins.num) dot(s, "x" + std::to_string(ins.num));
  if (ins.unpack16) dot(s, "unpack::16b");
  if (ins.mmio) dot(s, "mmio");
  if (ins.sem) dot(s, to_string(*ins.sem));
  if (ins.scope) dot(s, to_string(*ins.scope));
  if (ins.space) dot(s, to_string(*ins.space));
  if (ins.complete_tx) dot(s, "mbarrier::complete_tx::bytes");
  if (ins.cop) dot(s, to_string(*ins.cop));
  if (ins.l1) dot(s, to_string(*ins.l1));
  if (ins.l2) dot(s, to_string(*ins.l2));
  if (ins.cache_hint) dot(s, "L2::cache_hint");
  if (ins.vec) dot(s, to_string(*ins.vec));
  if (ins.type) dot(s, to_string(*ins.type));
  return s;
}

std::string print(const Operand& o) {
  if (!o.has_addend) return o.text;
  return o.text + "+" + std::to_string(o.addend);
}

std::string print(const Address& a) {
  std::string s = "[";
  if (a.base == Address::Base::Immediate) {
    s += std::to_string(a.offset);
  } else {
    s += a.name;
    if (a.has_offset) {
      s += '+';
      s += std::to_string(a.offset);
    }
  }
  s += ']';
  return s;
}

std::string print_operands(const Instruction& ins) {
  std::string s = print(ins.addr);
  if (ins.split_off) s += ", " + std::to_string(ins.split_off->as_signed());
  s += ", ";
  if (ins.src_braced) s += '{';
  for (size_t i = 0; i < ins.src.size(); ++i) {
    if (i) s += ", ";
    s += print(ins.src[i]);
  }
  if (ins.src_braced) s += '}';
  if (ins.policy) s += ", " + print(*ins.policy);
  if (ins.mbar) s += ", " + print(*ins.mbar);
  return s;
}

std::string print(const Instruction& ins) {
  std::string s;
  if (ins.guard.present()) {
    s += ins.guard.negated ? "@!" : "@";
    s += ins.guard.reg;
    s += ' ';
  }
  s += print_opcode(ins);
  s += ' ';
  s += print_operands(ins);
  s += ';';
  return s;
}

}  // namespace stu::isa
