#include "stu/isa/instruction.h"

namespace stu::isa {

std::string_view to_string(Opcode op) {
  switch (op) {
    case Opcode::St:
      return "st";
    case Opcode::StAsync:
      return "st.async";
    case Opcode::Tcgen05St:
      return "tcgen05.st";
    case Opcode::StBulk:
      return "st.bulk";
  }
  return "?";
}

void Instruction::reset() {
  std::vector<Qualifier> q = std::move(quals);
  std::vector<Operand> s = std::move(src);
  q.clear();
  s.clear();
  *this = Instruction{};
  quals = std::move(q);
  src = std::move(s);
}

bool Instruction::is_strong() const {
  if (mmio) return true;
  Sem s = effective_sem();
  return s == Sem::Volatile || s == Sem::Relaxed || s == Sem::Release;
}

unsigned Instruction::tmem_regs() const {
  if (op != Opcode::Tcgen05St || !shape) return 0;
  return regs_per_rep(*shape) * num;
}

unsigned Instruction::stored_elements() const {
  if (vec && lanes_of(*vec) == 8 && type && bytes_of(*type) < 4) return 1;
  return vec_lanes();
}

unsigned Instruction::access_bytes() const {
  if (op == Opcode::Tcgen05St) return 4 * tmem_regs();
  if (!type) return 0;
  return bytes_of(*type) * stored_elements();
}

const Qualifier* Instruction::find_qual(QualFamily f) const {
  for (const Qualifier& q : quals) {
    if (q.family == f) return &q;
  }
  return nullptr;
}

Loc Instruction::qual_loc(QualFamily f) const {
  const Qualifier* q = find_qual(f);
  return q ? q->loc : loc;
}

namespace {

bool same_operand(const Operand& a, const Operand& b) {
  return a.kind == b.kind && a.text == b.text && a.has_addend == b.has_addend &&
         a.addend == b.addend;
}

bool same_address(const Address& a, const Address& b) {
  return a.base == b.base && a.name == b.name && a.offset == b.offset &&
         (a.base == Address::Base::Immediate || a.has_offset == b.has_offset || a.offset == 0);
}

template <typename T>
bool same_opt(const std::optional<T>& a, const std::optional<T>& b,
              bool (*eq)(const T&, const T&)) {
  if (a.has_value() != b.has_value()) return false;
  return !a || eq(*a, *b);
}

bool same_split(const SplitOffset& a, const SplitOffset& b) { return a.value == b.value; }

}  // namespace

bool Instruction::is_256bit_vector() const {
  if (!vec || !type) return false;
  const unsigned b = bits_of(*type);
  return (*vec == Vec::V8 && b == 32) || (*vec == Vec::V4 && b == 64);
}

bool Instruction::is_async_release() const {
  return op == Opcode::StAsync && (sem == Sem::Release || mmio ||
                                   (scope && *scope != Scope::Cluster) || (!complete_tx && !mbar));
}

bool Instruction::stores_nothing() const {
  return op == Opcode::StAsync && !mbar && sem != Sem::Release && !mmio &&
         (!scope || *scope == Scope::Cluster);
}

bool same_instruction(const Instruction& a, const Instruction& b) {
  if (a.op != b.op || a.guard.reg != b.guard.reg || a.guard.negated != b.guard.negated) {
    return false;
  }
  if (a.sem != b.sem || a.mmio != b.mmio || a.scope != b.scope || a.space != b.space ||
      a.cop != b.cop || a.l1 != b.l1 || a.l2 != b.l2 || a.cache_hint != b.cache_hint ||
      a.vec != b.vec || a.type != b.type || a.complete_tx != b.complete_tx || a.sync != b.sync ||
      a.aligned != b.aligned || a.shape != b.shape || a.num != b.num || a.unpack16 != b.unpack16) {
    return false;
  }
  if (!same_address(a.addr, b.addr) || a.src_braced != b.src_braced ||
      a.src.size() != b.src.size()) {
    return false;
  }
  for (size_t i = 0; i < a.src.size(); ++i) {
    if (!same_operand(a.src[i], b.src[i])) return false;
  }
  return same_opt(a.policy, b.policy, same_operand) && same_opt(a.mbar, b.mbar, same_address) &&
         same_opt(a.split_off, b.split_off, same_split);
}

}  // namespace stu::isa
