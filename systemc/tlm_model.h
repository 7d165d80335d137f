// TlmModel: the SystemC/TLM-2.0 performance model of the store path, assembled
// (docs/tlm.md has the picture):
//
//   Lsu -> AddrResolver -+-> L1 (one per SM) -> Xbar -> L2Slice x N -> Dram
//                        +-> SharedMem (+ DSMEM) -> MBarrierUnit
//                        +-> TensorMem
//
// It runs a Workload (run()) or, as an sts::StoreModel ("tlm"), a `.sts` directed test one
// store at a time (stu run --on tlm). Each store is planned with golden::plan on the model's
// own image (decode, resolve, coalesce: the golden rules), and its bytes then travel as
// transactions; every module writes the space it owns. finish() drains and flushes the
// caches and checks the final image, and DRAM's contents, against the golden model's.
//
// Each TlmModel owns its SystemC simulation context, so several can live in one process
// (one at a time runs).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ahead_feed.h"
#include "cores.h"
#include "host_arena.h"
#include "image_check.h"
#include "lsu.h"
#include "sim_config.h"
#include "stats.h"
#include "stu/sts/model.h"
#include "workload.h"

namespace sc_core {
class sc_simcontext;
}

namespace stu::sim {

// Which cache blocks run as RTL (`stu sim --rtl l1_wpath,l2_wslice`): factories for the
// cores; empty members keep the C++ core.
struct CoreFactory {
  std::function<std::unique_ptr<L1Core>(const golden::CacheGeometry&, unsigned wb)> l1;
  std::function<std::unique_ptr<L2Core>(const golden::CacheGeometry&)> l2;
  std::function<std::unique_ptr<MbarCore>()> mbar;
  std::function<std::unique_ptr<Coalescer>()> coalescer;
  std::vector<std::string> names;  // the RTL blocks in the loop
};

struct RunReport {
  bool ok = false;                    // ran to the end and the golden-image check passed
  std::optional<ImageDiff> mismatch;  // the first difference (image, then DRAM)
  std::string mismatch_context;       // the stores that wrote it, from the last-N history
  std::vector<std::string> errors;    // workload, model or barrier errors
};

class TlmModel final : public sts::StoreModel {
 public:
  // `caches`: a `.sts` test's cache geometry (then the model has one L2 slice of it, so the
  // test's cache expectations read one slice as the golden hierarchy does).
  TlmModel(const SimConfig& cfg, const golden::ModelConfig& mc,
           const std::optional<golden::HierarchyConfig>& caches = std::nullopt,
           const CoreFactory& cores = {});
  ~TlmModel() override;

  // --- the workload run ---------------------------------------------------------------
  using Progress = std::function<void(std::uint64_t ops_done)>;
  // Runs every op of `w` (its set-up already applied to image()). Then finish() with the
  // golden model's image of the same workload (run_golden, e.g. in another thread).
  void run(Workload& w, const Progress& progress = {});
  // Both: the golden reference runs `reference` (a second instance of the same workload,
  // set up on `golden`) in a thread of its own while the model runs `w`; then finish().
  RunReport run_checked(Workload& w, Workload& reference, golden::MachineState& golden,
                        const Progress& progress = {});
  // Drains and flushes, then the golden-image check. `dram_all`: DRAM must equal the golden
  // global image everywhere (a workload run), else only where DRAM was written (`.sts`).
  RunReport finish(const golden::MachineState& golden, bool dram_all);

  const Stats& stats() const { return stats_; }
  const SimConfig& config() const { return cfg_; }
  // Every event with its cycle (ordering tests, traces); call before running.
  void record_events(std::vector<struct LogEntry>* log);

  // --- sts::StoreModel -------------------------------------------------------------------
  std::string_view name() const override { return "tlm"; }
  golden::MachineState& image() override { return image_; }
  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override;
  void execute_sass(const isa::SassSt& st, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile& regs, golden::StoreResult& out) override;
  std::string take_error() override;
  bool has_caches() const override { return true; }
  golden::CacheLookup cache_line(sts::CacheLevel level, std::uint64_t addr) const override;
  std::size_t write_buffer_entries() const override;
  void drain_caches(bool flush) override;
  const std::vector<golden::DramWrite>* dram_writes() const override;
  // Host-speed hints on (the default) or off: no effect on any result (a test checks it).
  void set_hints(bool on);
  // A workload run's ops generated and planned ahead on a second host thread (AheadFeed), on
  // by default where the host has two cores or more; no effect on any result (a test checks
  // it). Off with the RTL coalescer in the loop (it forms the lines on the model's thread).
  void set_plan_thread(bool on) { plan_thread_ = on; }
  // Runs the fence as an operation (its cost, what it waits for), then drains as every model.
  void fence(const golden::WarpContext& ctx, isa::Scope scope) override;

 private:
  struct Top;
  struct Hinted {  // the line whose L2 set leaving_hint() hinted for an op, its slice
    std::uint32_t slice = 0;
    std::uint64_t line = 0;
    bool valid = false;
  };
  bool next_op(struct PlannedOp& op);
  void run_kernel();  // sc_start until the model is idle
  void submit(const golden::StoreResult& r, const golden::WarpContext& ctx, bool tcgen05,
              unsigned lane_bytes);
  void remember(const golden::StoreResult& r, const golden::WarpContext& ctx, std::uint32_t sm);
  std::string history_for(std::uint64_t addr, const std::string& space) const;
  void prefetch(const golden::StoreResult& r, std::uint32_t sm) const;
  bool pull(WarpOp& into);
  // The first hint for the L2 write an op's store causes (prefetch() gives the second).
  Hinted leaving_hint(const WarpOp& op) const;
  // The hint for the state of the SM `op` runs on, kStateAhead ops before it (plan thread).
  void state_hint(const WarpOp& op) const;
  static constexpr std::uint64_t kStateAhead = 4;
  void activate() const;
  void plan_store(const isa::Instruction* ins, const isa::SassSt* sass,
                  const golden::WarpContext& ctx, const golden::WarpOperands* ops,
                  const golden::SassRegisterFile* regs, golden::StoreResult& out);
  void run_pending();  // sc_start while anything is scheduled
  // The cache cores' failures (an RTL core's assertion or hang) into errors_.
  void collect_core_errors();

  SimConfig cfg_;
  sc_core::sc_simcontext* sim_ = nullptr;
  std::unique_ptr<class Timebase> tb_;
  Stats stats_;
  golden::MachineState image_;
  std::unique_ptr<class PayloadPool> pool_;
  std::unique_ptr<struct SimContext> ctx_;
  HostArena arena_;  // the C++ cache cores' arrays (before top_: outlives them)
  std::unique_ptr<Top> top_;
  std::unique_ptr<struct HostHints> hints_;  // where the caches' sets lie (prefetch)

  // The feed: one pending store (sts) or the workload.
  // The workload is read one op ahead: feed_[cur_] is the op being planned, the other one
  // the next op (when ahead_ is Ready). Reading the next op comes between the two hints for
  // the current one, so the first has time to land.
  enum class Ahead : std::uint8_t { None, Ready, End };
  Workload* workload_ = nullptr;
  std::array<WarpOp, 2> feed_;
  unsigned cur_ = 0;
  Ahead ahead_ = Ahead::None;
  Hinted hinted_;
  golden::StoreResult res_;
  golden::Scratch scratch_;
  std::deque<std::pair<golden::StoreResult, golden::WarpContext>> pending_;
  golden::StoreResult pending_res_;
  bool pending_tcgen05_ = false;
  std::uint8_t pending_lane_bytes_ = 0;
  std::optional<std::pair<golden::WarpContext, isa::Scope>> pending_fence_;  // sts mode
  // AT: release stores waiting behind their fences, by warp (Lsu::warp_key); an op read while
  // its warp's store waited; the storage of the op being issued.
  struct Deferred {
    PlannedOp op;
    golden::StoreResult res;
  };
  bool next_at(PlannedOp& op);
  bool next_workload_op(PlannedOp& op);
  // The planned op of workload op `cur` (its store planned already: `planned`, else here).
  void issue_workload_op(const WarpOp& cur, const golden::StoreResult* planned, PlannedOp& op);

  // The plan thread (set_plan_thread): the workload's ops, planned ahead.
  // A slot of the feed, as the simulation thread reads it: `planned` and the op's scalar
  // fields on the slot's first host cache line (the hint for the op after next asks for it).
  struct alignas(64) AheadOp {
    bool planned = false;  // res holds op's plan (else the model's thread plans it)
    WarpOp op;
    golden::StoreResult res;
  };
  using Feed = AheadFeed<AheadOp>;
  static constexpr std::size_t kAheadOps = 256;
  bool fill_ahead(AheadOp& slot);
  bool next_fed_op(PlannedOp& op);
  bool plan_thread_ = std::thread::hardware_concurrency() >= 2;
  // The plan thread's scratch, written by every plan: on host cache lines of its own, so that
  // the simulation thread's members beside it are not taken away from its core.
  struct alignas(64) AheadScratch {
    golden::Scratch scratch;
  };
  AheadScratch ahead_scratch_;
  alignas(64) Hinted hinted_next_;  // leaving_hint() of the op after the current one
  std::uint64_t hinted_next_op_ = 0;
  std::unique_ptr<Feed> feed_thread_;  // during run() (after what its thread reads)
  std::map<std::size_t, Deferred> deferred_;
  std::optional<PlannedOp> held_;
  golden::StoreResult held_res_, issuing_res_;
  std::vector<std::string> errors_;
  std::uint64_t ops_ = 0;
  // Workload stores that faulted (a .sts run reports its faults through its expectations).
  void report_fault(const golden::StoreResult& r, const golden::WarpContext& ctx, std::uint32_t sm);
  static constexpr std::uint64_t kFaultsReported = 8;
  std::uint64_t faulted_ops_ = 0;
  Progress progress_;

  // Last-N history (mismatch reports).
  struct Remembered {
    std::uint64_t seq;
    std::uint32_t sm, cta, warp;
    std::vector<std::pair<golden::Dest, std::uint64_t>> lines;  // dest, line
  };
  std::vector<Remembered> history_;  // a ring: slot seq % size() holds store #seq
  std::uint64_t seq_ = 0;
  std::unique_ptr<Coalescer> coalescer_;  // RTL in the loop; null: golden::coalesce in plan
};

}  // namespace stu::sim
