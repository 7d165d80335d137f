// TensorMem: the tensor memory of every CTA (tcgen05.st). A transaction is one TMEM lane's
// run of up to 32 consecutive 4-byte cells (address lane << 16 | column; byte enables per
// cell), as golden::tmem_write lays them out. Timing: each SM's TMEM write bandwidth
// (tmem.write_gbytes_per_s) and a fixed latency (kLatency, an assumption: no figure is
// published). The cells are written to the model's image. tcgen05.st completes
// asynchronously: the LSU does not wait for these acknowledgements (only tcgen05.wait::st).
#pragma once

#include <vector>

#include "sim_context.h"
#include "stage.h"

namespace stu::sim {

class TensorMem : public Stage {
 public:
  static constexpr Cycle kLatency = 16;
  TensorMem(const sc_core::sc_module_name& name, SimContext& ctx);

 private:
  Cycle serve(tlm::tlm_generic_payload& tr, Cycle t) override;
  SimContext& ctx_;
  std::vector<Calendar> per_sm_;
};

}  // namespace stu::sim
