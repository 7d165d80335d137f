// MBarrierUnit: the mbarrier objects of the cluster's shared memory. It applies complete-tx
// (from shared memory, after a st.async's bytes are written) and arrive / arrive.expect_tx
// (from the LSU) with the golden state step (golden::mbar_step, the one rule), keeps the
// state in the model's image, and records when each barrier's phases complete so the LSU
// can release waiting warps (LT: by the recorded cycle; AT: on changed()).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cores.h"
#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

class MBarrierUnit : public Stage {
 public:
  MBarrierUnit(const sc_core::sc_module_name& name, SimContext& ctx);
  // The cycle the phase with parity `parity` of the barrier completed, when the barrier is
  // past it; kLater when it has not completed yet.
  Cycle phase_done(std::uint32_t cta, std::uint64_t offset, std::uint32_t parity) const;
  const sc_core::sc_event& changed() const { return changed_; }
  // Faults of barrier operations (a barrier not initialised, a count out of range).
  std::vector<std::string>& errors() { return errors_; }
  // The state step (default: golden::mbar_step; `stu sim --rtl mbarrier`: the RTL).
  void set_core(std::unique_ptr<MbarCore> core) { core_ = std::move(core); }

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;

  SimContext& ctx_;
  std::unique_ptr<MbarCore> core_;
  std::map<std::pair<std::uint32_t, std::uint64_t>, Cycle> last_phase_;
  std::vector<std::string> errors_;
  sc_core::sc_event changed_;
};

}  // namespace stu::sim
