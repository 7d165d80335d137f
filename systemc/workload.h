// What the performance model runs: a stream of warp operations (warp stores, and the mbarrier
// and tcgen05 waits that order them), with the set-up that comes before them.
//
// A Workload is a pull source: `stu sim` and the model take one WarpOp at a time, so a
// generator or a trace of any length runs in bounded memory. The same stream feeds the TLM
// model and the golden model (the golden-image check), so every value a store writes is in
// the op (operand values), never invented by a model.
//
// Sources (docs/tlm.md, "Workloads"):
//   make_generator()     the built-in generators (streaming, strided, scatter, ...)
//   trace_workload()     Accel-Sim .traceg (text, .xz), kernelslist.g and .stut traces
//   .sts directed tests  run through sts::run on the TLM model (tlm_model.h), not as a stream
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "stu/golden/config.h"
#include "stu/golden/executor.h"
#include "stu/golden/state.h"
#include "stu/isa/instruction.h"

namespace stu::sim {

enum class OpKind : std::uint8_t {
  Store,       // a PTX store (st, st.async, tcgen05.st) of one warp
  MbarArrive,  // mbarrier.arrive[.expect_tx] by one thread of the warp: `tx_bytes` expected
  MbarWait,    // the warp waits until the barrier's phase with parity `parity` has completed
  TmemWait,    // tcgen05.wait::st: the warp waits for its earlier tcgen05.st to complete
  Fence,       // fence.{sc,acq_rel}.<scope> (MEMBAR): `scope`; no effect on memory's contents
};

// The scalar fields come first and the lanes' operands last, so that a reader that does not
// need the operands (the model, given an op planned on the plan thread) reads one host cache
// line of it.
struct WarpOp {
  OpKind kind = OpKind::Store;
  std::uint32_t sm = 0;  // the SM that issues it (0 .. sms-1; the model takes it modulo)
  // Store: the instruction (owned by the workload; valid until the workload is destroyed).
  const isa::Instruction* ins = nullptr;
  golden::WarpContext ctx;  // cluster rank (cta), warp within the CTA, active lanes
  // MbarArrive / MbarWait: the barrier at shared offset `mbar_offset` of CTA ctx.cta.
  std::uint64_t mbar_offset = 0;
  std::uint32_t tx_bytes = 0;          // MbarArrive: expect-tx bytes (0: a plain arrive)
  std::uint32_t parity = 0;            // MbarWait: the phase parity waited for
  isa::Scope scope = isa::Scope::Gpu;  // Fence: its scope
  // Instructions the warp issues for this op, the op included: what it takes of its SM's
  // issue slots (sm.issue_per_clk) before it goes to the LSU. 0: the op alone, not counted
  // (directed tests, generators without `instructions`, .stut traces).
  float instructions = 0;
  // The warp's slot among its SM's resident warps (the LSU's per-warp state: fences, releases,
  // tcgen05 waits); -1: ctx.cta * 32 + ctx.warp. Traces set it (several CTAs share an SM).
  std::int32_t slot = -1;
  golden::WarpOperands ops;  // Store: per-lane operand values (src sized elements * 32)
};

// A workload's state is written as its ops are read, by the model's plan thread during a run
// (TlmModel::set_plan_thread): aligned to a host cache line and a whole number of them, so
// that no object of the simulation thread's shares a line with it.
class alignas(64) Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // The machine the workload needs (windows, cluster size, shared memory per CTA).
  virtual golden::ModelConfig model_config() const = 0;
  // Set-up before the first op, applied to every model's image alike: global allocations,
  // initial memory, mbarrier init, TMEM allocation. False (and `error` set) when it fails.
  virtual bool setup(golden::MachineState& m, std::string& error) const = 0;
  // The next op, or false at the end (or at an input error: then error() is non-empty).
  virtual bool next(WarpOp& op) = 0;
  virtual std::string error() const { return {}; }
  // Ops in all when known (for the progress bar), else 0.
  virtual std::uint64_t size_hint() const { return 0; }
  // Lines of text describing what was passed over (trace readers: other instructions).
  virtual std::vector<std::string> notes() const { return {}; }
  // True when every global address counts as allocated (traces, whose addresses cannot be
  // known before they are read): setup() then allocates [0x1000, 2^63).
  virtual bool allocate_all() const { return false; }
};

// The data every workload stores: a deterministic function of (op index, lane, element), so
// the golden and TLM models see identical values (splitmix64 of the op index, then a
// multiply-xorshift of the lane and element). The generators give a register the high half
// (RegValue::hi) only for a 16-byte type (.b128); narrower registers never read it and get 0.
std::uint64_t splitmix64(std::uint64_t x);
golden::RegValue op_value(std::uint64_t op, unsigned lane, unsigned element);

// Parameters every generator understands (`stu sim --workload NAME --param key=value`).
struct GenParams {
  std::uint64_t warps = 4096;   // warp store instructions in all (approximately)
  std::uint32_t sms = 1;        // SMs the warps are spread over (round-robin by warp)
  std::uint32_t width = 4;      // bytes per lane (1, 2, 4, 8, 16, 32)
  std::uint64_t stride = 0;     // bytes between lanes (strided, bank_conflict; 0: 128)
  std::uint64_t footprint = 0;  // working-set bytes (0: the generator's default)
  std::uint64_t seed = 1;       // random generators
  // sm_chain: what an iteration does ('+'-separated: st, st.relaxed.gpu, st.mmio,
  // st.release.sys, fence.acq_rel.gpu, ...), how many warps of the SM run it and their lanes
  std::string op = "st.relaxed.gpu";
  std::uint32_t cta_warps = 1;
  std::uint32_t lanes = 32;
  // Instructions a warp issues per warp op, the op included (0: not counted): the kernel's
  // non-store instructions, as Nsight Compute's smsp__inst_executed.sum over the ops counts
  // them. Fractions spread evenly (op i takes floor((i+1)x) - floor(ix)).
  double instructions = 0;
};

struct GeneratorInfo {
  std::string name;
  std::string description;
};
const std::vector<GeneratorInfo>& generators();

// A built-in generator, or nullptr with `error` naming the problem ("unknown workload 'x'",
// "width: must be one of 1, 2, 4, 8, 16, 32 (got 3)").
std::unique_ptr<Workload> make_generator(std::string_view name, const GenParams& p,
                                         std::string& error);

// Runs every op of `w` on the golden model (stores executed, arrives applied, waits passed):
// the reference of the golden-image check. Returns the workload's error ("" when none).
std::string run_golden(Workload& w, golden::MachineState& m);

// What an SM holds at once (the CUDA C++ Programming Guide's limits per compute capability;
// sim_config's `sm` section), and the trace dispatcher's buffer (trace_dispatch.h).
struct SmLimits {
  std::uint32_t sms = 1;
  std::uint32_t max_ctas = 32;              // resident CTAs per SM
  std::uint32_t max_warps = 64;             // resident warps per SM (at most 512)
  std::uint32_t max_threads = 2048;         // resident threads per SM
  std::uint32_t registers = 65536;          // 32-bit registers per SM
  std::uint64_t shared_bytes = 233472;      // shared memory per SM (228 KiB)
  std::uint64_t buffer_records = 1u << 20;  // records the dispatcher holds at once
};

// An Accel-Sim trace (.traceg, .traceg.xz, kernelslist.g) or a .stut trace as a workload:
// each STG/STS/STL/ST record becomes a st.global/.shared/.local/generic store of the record's
// width, its data a deterministic function of (record index, lane), dispatched to the SMs as
// the GPU's block scheduler and warp schedulers would (TraceDispatcher). Never null.
std::unique_ptr<Workload> trace_workload(const std::string& path, const SmLimits& limits);

}  // namespace stu::sim
