// The models a `.sts` program runs on. The runner does the set-up steps on the model's image,
// hands it each warp store with its operand values, and checks expectations against the
// effects the model reports and the image it leaves. The golden model is one; the RTL top and
// the TLM model implement the same interface with their own datapaths (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stu/golden/cache.h"
#include "stu/golden/config.h"
#include "stu/golden/executor.h"
#include "stu/golden/state.h"
#include "stu/isa/instruction.h"
#include "stu/isa/sass.h"

namespace stu::sts {

enum class CacheLevel : uint8_t { L1, L2 };

// What an expectation reads, for models that cannot see everything (a GPU sees memory and the
// error that ends a kernel, nothing of the transactions in between).
enum class Effect : uint8_t {
  Memory,      // global, shared, local memory
  Tmem,        // tensor memory cells
  Mbarrier,    // an mbarrier's state
  Faults,      // the faults of the last store
  Store,       // the rest of the last store: lines, sectors, bytes, stored, forced, events, order
  CacheAttrs,  // the last store's cache attributes
  Caches,      // the L1, write buffer, L2 and DRAM
};

// The interface is narrow, in the manner of ibex's dv/cosim/cosim.h: the set-up steps the host
// performs (host_*), one warp store at a time (execute*), and the queries the expectations
// make (image, cache queries, observes, fault_seen). Golden, the RTL, the TLM model and a real
// GPU (src/gpu) each implement it.
class StoreModel {
 public:
  virtual ~StoreModel() = default;
  // "golden", "rtl", "tlm": for messages.
  virtual std::string_view name() const = 0;
  // The memory, TMEM and mbarrier image: set-up steps write it, expectations and --dump read
  // it, and the model's stores must leave their effects in it (by the model's own datapath).
  virtual golden::MachineState& image() = 0;
  // One warp store; `out` receives its effects (faults, line requests, TMEM runs, mbarrier
  // events, ordering and cache attributes) in the golden layouts.
  virtual void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
                       const golden::WarpOperands& ops, golden::StoreResult& out) = 0;
  virtual void execute_sass(const isa::SassSt& st, const golden::WarpContext& ctx,
                            const golden::SassRegisterFile& regs, golden::StoreResult& out) = 0;
  // Whether the model executes this form; `why` says why not (the runner reports it as an
  // error at the store and goes on).
  virtual bool supports(const isa::Instruction&, std::string&) const { return true; }
  // A failure of the model itself in the last store (an RTL assertion, a hang); empty when none.
  virtual std::string take_error() { return {}; }
  // Something the model says about the last store that is not a failure (the runner prints it
  // as a note at the store): why the GPU did not run it, say. Empty when none.
  virtual std::string take_note() { return {}; }

  // The host's set-up steps: `alloc global`, `write` (memory, not TMEM), and an `mbarrier`
  // operation (its fault, or None). The defaults apply them to the image (the mbarrier in stu's
  // layout, golden::mbar_step); a model that builds a program from them (the GPU) records them
  // and leaves the barrier's arithmetic to the hardware.
  virtual bool host_alloc(uint64_t base, uint64_t size) {
    return image().allocations().add(base, size);
  }
  virtual bool host_write(const golden::Dest& d, uint64_t off, const uint8_t* bytes, size_t n) {
    return image().write(d, off, bytes, n);
  }
  virtual golden::FaultKind host_mbarrier(uint32_t cta, uint64_t off, const golden::MbarOp& op) {
    const golden::MbarStep st = golden::mbar_step(image().mbar(cta, off), op);
    if (st.fault == golden::FaultKind::None) image().set_mbar(cta, off, st.next);
    return st.fault;
  }

  // Whether the model can observe what an expectation reads (now: a GPU stops observing memory
  // after a kernel that faulted). An expectation it cannot observe is reported as not
  // observable, never as a pass.
  virtual bool observes(Effect) const { return true; }
  // A model that sees faults only as the error that ends a whole store (a GPU: one CUDA error
  // per kernel) says whether an expected fault kind (None: no fault) agrees with what it saw,
  // or that it cannot tell; PerLane (the default): the runner compares lane by lane.
  enum class FaultVerdict : uint8_t { PerLane, Agrees, Disagrees, Unobservable };
  virtual FaultVerdict fault_seen(golden::FaultKind) const { return FaultVerdict::PerLane; }
  // How the last store ended, in the model's words (a GPU: "cudaErrorMisalignedAddress").
  virtual std::string store_outcome() const { return {}; }

  // tcgen05.alloc / tcgen05.dealloc on a CTA, by the model's own allocator (the golden model:
  // the TmemAllocator of its image; the RTL: stu_tmem_alloc). The allocated address, or nullopt;
  // whether the dealloc named one live allocation.
  virtual std::optional<uint32_t> tmem_alloc(uint32_t cta, uint32_t cols) {
    return image().cta(cta).tmem_alloc.alloc(cols);
  }
  virtual bool tmem_dealloc(uint32_t cta, uint32_t taddr, uint32_t cols) {
    return image().cta(cta).tmem_alloc.dealloc(taddr, cols);
  }

  // A fence of warp `ctx` (`fence.sc|acq_rel.SCOPE` in a test). It changes no memory; a
  // .cluster, .gpu or .sys fence makes the warp's earlier stores visible beyond its SM, so a
  // model with caches drains its write buffer into the L2 (as a release store does first).
  // The TLM model also runs it as an operation with its cost; a GPU runs each store as a
  // kernel of its own, whose end orders it, and needs nothing.
  virtual void fence(const golden::WarpContext& ctx, isa::Scope scope) {
    (void)ctx;
    if (scope != isa::Scope::Cta && has_caches()) drain_caches(false);
  }

  // The caches (L1, write buffer, L2 slice) the model keeps when the test configures them
  // (`cache` lines in the header), each model by its own means; cache expectations and
  // `drain` / `flush` read and drive them through these queries only.
  virtual bool has_caches() const { return false; }
  // Why the model has no caches (the message of a cache statement without them).
  virtual std::string no_caches_reason() const {
    return "the " + std::string(name()) + " model keeps no caches";
  }
  // The line holding `addr` in the L1 or the L2 slice, as golden::SectoredCache::lookup
  // reports it (hit false: absent). Only with caches.
  virtual golden::CacheLookup cache_line(CacheLevel level, uint64_t addr) const {
    (void)level;
    (void)addr;
    return {};
  }
  // Entries in the write buffer (0 without caches).
  virtual size_t write_buffer_entries() const { return 0; }
  // `drain`: the write buffer drains into the L2; `flush`: then every dirty L2 line goes to
  // DRAM.
  virtual void drain_caches(bool flush) { (void)flush; }
  // What the caches did in the last store, drain or flush (nullptr without caches). For
  // tracing only: a model may report less than golden does.
  virtual const golden::HierarchyEvents* cache_events() const { return nullptr; }
  // Every DRAM write so far, in order (nullptr without caches).
  virtual const std::vector<golden::DramWrite>* dram_writes() const { return nullptr; }
};

// The golden reference model (golden::execute / execute_sass on its own MachineState). With
// caches configured, the global line requests of every store also go through a
// golden::MemoryHierarchy; the memory image is the architectural state either way.
class GoldenModel final : public StoreModel {
 public:
  explicit GoldenModel(const golden::ModelConfig& cfg,
                       const std::optional<golden::HierarchyConfig>& caches = std::nullopt)
      : state_(cfg) {
    if (caches) caches_ = golden::MemoryHierarchy::create(*caches);
  }
  std::string_view name() const override { return "golden"; }
  golden::MachineState& image() override { return state_; }
  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override {
    golden::execute(state_, ins, ctx, ops, out, scratch_);
    to_caches(out);
  }
  void execute_sass(const isa::SassSt& st, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile& regs, golden::StoreResult& out) override {
    golden::execute_sass(state_, st, ctx, regs, out, scratch_);
    to_caches(out);
  }
  bool has_caches() const override { return caches_.has_value(); }
  golden::CacheLookup cache_line(CacheLevel level, uint64_t addr) const override {
    if (!caches_) return {};
    return (level == CacheLevel::L1 ? caches_->l1() : caches_->l2()).lookup(addr);
  }
  size_t write_buffer_entries() const override {
    return caches_ ? caches_->write_buffer().size() : 0;
  }
  void drain_caches(bool flush) override {
    if (!caches_) return;
    events_.clear();
    flush ? caches_->flush(events_) : caches_->drain(events_);
    log_dram();
  }
  const golden::HierarchyEvents* cache_events() const override {
    return caches_ ? &events_ : nullptr;
  }
  const std::vector<golden::DramWrite>* dram_writes() const override {
    return caches_ ? &dram_ : nullptr;
  }

 private:
  void to_caches(const golden::StoreResult& out) {
    if (!caches_) return;
    events_.clear();
    caches_->store(out, events_);
    log_dram();
  }
  void log_dram() { dram_.insert(dram_.end(), events_.dram.begin(), events_.dram.end()); }

  golden::MachineState state_;
  golden::Scratch scratch_;
  std::optional<golden::MemoryHierarchy> caches_;
  golden::HierarchyEvents events_;
  std::vector<golden::DramWrite> dram_;
};

}  // namespace stu::sts
