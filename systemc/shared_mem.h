// SharedMem: the shared memory of every CTA of the cluster, and the DSMEM network between
// them. A line from the CTA's own SM takes banked wavefronts: the banks of one warp
// instruction's lines are counted (bank = 4-byte word of the line), and the instruction takes
// as many wavefronts as its busiest bank has lines (the extra ones are bank conflicts, Nsight's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st). A line for another CTA of the
// cluster (DSMEM) books the network (dsmem.bytes_per_clk) and takes dsmem.latency. The bytes
// are written to the model's image of that CTA's shared memory; a st.async line then sends
// its complete-tx to the MBarrierUnit (so the barrier never sees it before the data), and an
// arrive from the LSU is passed on to it.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

class SharedMem : public Stage {
 public:
  SharedMem(const sc_core::sc_module_name& name, SimContext& ctx);
  Sender to_mbar;
  std::vector<std::string>& errors() { return errors_; }
  bool idle() const { return mbar_outstanding_ == 0; }

 private:
  struct Banks {
    explicit Banks(std::size_t window_bins) : pipe(1.0, window_bins) {}
    std::uint64_t instr = ~std::uint64_t(0);
    std::array<std::uint16_t, 64> lines{};  // per bank: lines of the current instruction
    unsigned wavefronts = 0;
    Calendar pipe;
  };
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  Cycle to_barrier(const StoreExtension& x, std::uint32_t bytes, StoreExtension::MbarOp op, Cycle t,
                   tlm::tlm_generic_payload* waiting);
  void mbar_ack(tlm::tlm_generic_payload& tr, Cycle c);
  void release_due();  // AT: complete-tx requests whose data write time has come

  SimContext& ctx_;
  // Per SM: an own-CTA store uses the banks of the SM it issues on (that CTA's SM). The image
  // keeps one shared memory per cluster rank; its timing is each SM's own.
  std::vector<Banks> banks_;
  // Per SM: the port a DSMEM store leaves its SM by (dsmem.bytes_per_clk each).
  std::vector<Calendar> dsmem_;
  std::vector<std::string> errors_;
  unsigned mbar_outstanding_ = 0;
  std::vector<std::pair<Cycle, tlm::tlm_generic_payload*>> pending_;
  sc_core::sc_event timer_;
};

}  // namespace stu::sim
