#include "stu/isa/space_rules.h"

namespace stu::isa {

SpaceViolations space_violations(const Instruction& ins, Space space) {
  SpaceViolations v;
  const Space s = effective(space);
  const bool global = s == Space::Global;
  const bool shared = is_shared(s);
  if (ins.op == Opcode::StAsync) {
    if (ins.is_async_release() ? !global : !shared) v.add(SpaceRule::AsyncForm);
    return v;
  }
  if (s == Space::Const || s == Space::ParamEntry) v.add(SpaceRule::ReadOnly);
  if (global) return v;
  if (ins.mmio) v.add(SpaceRule::Mmio);
  if (ins.l1) v.add(SpaceRule::L1Evict);
  if (ins.l2) v.add(SpaceRule::L2Evict);
  if (ins.cache_hint) v.add(SpaceRule::CacheHint);
  if (ins.is_256bit_vector()) v.add(SpaceRule::Wide256);
  const Sem sem = ins.effective_sem();
  if ((sem == Sem::Relaxed || sem == Sem::Release) && !shared) v.add(SpaceRule::Strong);
  if (sem == Sem::Volatile && !shared && s != Space::Local) v.add(SpaceRule::Volatile);
  return v;
}

}  // namespace stu::isa
