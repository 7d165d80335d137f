#include "tlm_model.h"

#include <cstddef>
#include <cstdio>

#include <algorithm>
#include <chrono>
#include <thread>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <systemc>
#include <tlm>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "addr_resolver.h"
#include "dram.h"
#include "host_prefetch.h"
#include "l1.h"
#include "l2_slice.h"
#include "lsu.h"
#include "mbarrier_unit.h"
#include "shared_mem.h"
#include "sim_context.h"
#include "tensor_mem.h"
#include "xbar.h"

namespace stu::sim {

namespace {
constexpr std::size_t kHistory = 64;  // stores kept for a mismatch report

SimConfig effective(SimConfig c, const std::optional<golden::HierarchyConfig>& caches) {
  if (caches) {  // a .sts test: one SM, one L2 slice of the test's geometry
    c.gpu.sms = 1;
    c.l1.bytes = caches->l1.bytes;
    c.l1.ways = caches->l1.ways;
    c.l1.write_buffer_entries = caches->write_buffer;
    c.l2.slices = 1;
    c.l2.slice_bytes = caches->l2.bytes;
    c.l2.ways = caches->l2.ways;
  }
  if (caches) c.l1.write_buffer_policy = WbPolicy::OnFull;  // the golden rule, exactly
  return c;
}
}  // namespace

struct TlmModel::Top : sc_core::sc_module {
  Agenda agenda;  // first: the stages below schedule on it
  MBarrierUnit mbu;
  Lsu lsu;
  AddrResolver resolver;
  std::vector<std::unique_ptr<L1>> l1;
  Xbar xbar;
  std::vector<std::unique_ptr<L2Slice>> l2;
  Dram dram;
  SharedMem shared;
  TensorMem tmem;

  Top(const sc_core::sc_module_name& n, TlmModel& m, SimContext& c, const CoreFactory& f,
      HostArena& arena)
      : sc_module(n),
        agenda("agenda", c),
        mbu("mbarrier", c),
        lsu("lsu", c, mbu, [&m](PlannedOp& op) { return m.next_op(op); }),
        resolver("resolver", c),
        xbar("xbar", c),
        dram("dram", c),
        shared("shared", c),
        tmem("tmem", c) {
    const golden::HierarchyConfig h = hierarchy_of(c.cfg);
    lsu.out.out.bind(resolver.in);
    for (std::uint32_t s = 0; s < c.cfg.gpu.sms; ++s) {
      auto core = f.l1 ? f.l1(h.l1, h.write_buffer) : make_l1_core(h.l1, h.write_buffer, &arena);
      l1.push_back(
          std::make_unique<L1>(("l1_" + std::to_string(s)).c_str(), c, s, std::move(core)));
      resolver.out.bind(l1.back()->in);
      l1.back()->to_xbar.out.bind(xbar.in);
    }
    resolver.out.bind(shared.in);
    resolver.out.bind(tmem.in);
    shared.to_mbar.out.bind(mbu.in);
    c.data = &dram.data();
    for (std::uint32_t s = 0; s < c.cfg.l2.slices; ++s) {
      auto core = f.l2 ? f.l2(h.l2) : make_l2_core(h.l2, &arena);
      l2.push_back(std::make_unique<L2Slice>(("l2_" + std::to_string(s)).c_str(), c,
                                             std::move(core), s, &arena));
      xbar.out.bind(l2.back()->in);
      l2.back()->to_dram.out.bind(dram.in);
    }
  }
};

// Where every C++ cache core keeps its sets (one small array each for the L1s and the L2
// slices), so that the hints for a store's lines are issued without reading the modules'
// and cores' own objects first: those are as cold as the sets when the SMs take turns.
struct HostHints {
  std::vector<CacheHints> l1;                  // per SM (empty: an RTL core)
  std::vector<const golden::WriteBuffer*> wb;  // per SM (null: an RTL core)
  L2Hints l2;
  explicit HostHints(const SimConfig& cfg) : l2(cfg) {}
};

void TlmModel::activate() const {
  sc_core::sc_curr_simcontext = sim_;
  sc_core::sc_default_global_context = sim_;
  // TLM-2.0 keeps the global quantum in one process-wide object: each model sets its own
  // whenever it runs, so models with different quanta can take turns in one process.
  if (tb_) tlm_utils::tlm_quantumkeeper::set_global_quantum(tb_->time(cfg_.sim.quantum_cycles));
}

TlmModel::TlmModel(const SimConfig& cfg, const golden::ModelConfig& mc,
                   const std::optional<golden::HierarchyConfig>& caches, const CoreFactory& cores)
    : cfg_(effective(cfg, caches)), image_(mc) {
  sim_ = new sc_core::sc_simcontext;
  activate();
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);  // before any sc_time exists
  tb_ = std::make_unique<Timebase>(cfg_.clock, *sim_);
  pool_ = std::make_unique<PayloadPool>();
  ctx_ = std::make_unique<SimContext>(
      SimContext{cfg_, *tb_, stats_, image_, *pool_, nullptr, nullptr, GlobalImage::Written, {}});
  stats_.core_mhz = cfg_.clock.core_mhz;
  stats_.launch_cycles = cfg_.gpu.launch_cycles;
  activate();  // the quantum, now that the clock and the resolution are known
  top_ = std::make_unique<Top>("stu_tlm", *this, *ctx_, cores, arena_);
  hints_ = std::make_unique<HostHints>(cfg_);
  for (const auto& l : top_->l1) {
    const golden::SectoredCache* c = l->core().cache_array();
    hints_->l1.push_back(c ? CacheHints(c->layout()) : CacheHints{});
    hints_->wb.push_back(l->core().write_buffer());
  }
  for (const auto& s : top_->l2) {
    const golden::SectoredCache* c = s->core().cache_array();
    hints_->l2.slices.push_back(c ? CacheHints(c->layout()) : CacheHints{});
    hints_->l2.slices.back().set_slot_bytes(s->slot_bytes());
    hints_->l2.paid_arrays.push_back(s->paid_array());
  }
  hints_->l2.dram = &top_->dram;
  ctx_->l2_hints = &hints_->l2;
  top_->dram.keep_log(true);  // a .sts test reads DRAM's writes; run() turns it off
  if (cores.coalescer) {
    coalescer_ = cores.coalescer();
    scratch_.record_accesses = true;  // the RTL coalescer forms the lines from them
  }
  if (cores.mbar) top_->mbu.set_core(cores.mbar());
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_,
                                          sc_core::SC_DO_NOTHING);
}

void TlmModel::run_pending() {
  while (sc_core::sc_pending_activity()) sc_core::sc_start();
}

const std::vector<golden::DramWrite>* TlmModel::dram_writes() const { return &top_->dram.log(); }

TlmModel::~TlmModel() {
  feed_thread_.reset();
  activate();
  top_.reset();
  // The simulation context is left to the process: SystemC 2.3 cannot always tear one down
  // after elaboration (sc_simcontext's destructor walks objects already gone).
  sc_core::sc_curr_simcontext = nullptr;
  sc_core::sc_default_global_context = nullptr;
#ifdef __GLIBC__
  // Hand the freed arrays back to the system. Without this glibc keeps them (the left
  // simulation context pins the heap's top) and the next model in the process does not reuse
  // them all: an AT h100 model grew the process by about 185 MiB each time, now about 10 MiB.
  malloc_trim(0);
#endif
}

void TlmModel::record_events(std::vector<LogEntry>* log) { ctx_->log = log; }

void TlmModel::run_kernel() {
  activate();
  top_->lsu.more_ops();
  sc_core::sc_start();
}

// --- the feed ---------------------------------------------------------------------------

void TlmModel::set_hints(bool on) {
  ctx_->hints = on;
  pool_->hints = on;
  ctx_->l2_hints = on ? &hints_->l2 : nullptr;
}

bool TlmModel::next_op(PlannedOp& op) {
  if (pending_fence_) {  // sts mode: a fence statement
    op = PlannedOp{};
    op.kind = OpKind::Fence;
    op.ctx = pending_fence_->first;
    op.scope = pending_fence_->second;
    pending_fence_.reset();
    stats_.warp_ops = ++ops_;
    return true;
  }
  if (!pending_.empty()) {  // sts mode: one store at a time
    pending_res_ = std::move(pending_.front().first);
    op = PlannedOp{};
    op.kind = OpKind::Store;
    op.ctx = pending_.front().second;
    op.res = &pending_res_;
    op.tcgen05 = pending_tcgen05_;
    op.lane_bytes = pending_lane_bytes_;
    pending_.pop_front();
    stats_.warp_ops = ++ops_;  // a .sts store is a warp op like a workload's
    return true;
  }
  if (!workload_) return false;
  return cfg_.sim.mode == SimMode::At ? next_at(op) : next_workload_op(op);
}

// AT: a release store's fence goes as an op of its own (the LSU starts it and goes on), and the
// store waits here until its warp's next op comes (or the workload ends), so the LSU's one
// thread issues the SM's other warps meanwhile, as LT's per-warp times do.
bool TlmModel::next_at(PlannedOp& op) {
  auto take_deferred = [&](std::map<std::size_t, Deferred>::iterator it) {
    issuing_res_ = std::move(it->second.res);
    op = it->second.op;
    op.res = &issuing_res_;
    deferred_.erase(it);
    return true;
  };
  PlannedOp next;
  if (held_) {  // read while its warp's release store waited, which has gone now
    next = *held_;
    held_.reset();
  } else if (!next_workload_op(next)) {
    if (deferred_.empty()) return false;
    return take_deferred(deferred_.begin());
  }
  const std::size_t key = Lsu::warp_key(next, cfg_.gpu.sms);
  const auto it = deferred_.find(key);
  if (it != deferred_.end()) {  // the warp's waiting store goes first
    held_ = next;
    if (next.res) {
      held_res_ = *next.res;
      held_->res = &held_res_;
    }
    return take_deferred(it);
  }
  if (next.kind == OpKind::Store && next.res && next.res->order.release && !next.tcgen05) {
    Deferred d;
    d.res = *next.res;
    d.op = next;
    d.op.fenced = true;
    d.op.instructions = 0;  // they went with the fence
    deferred_.emplace(key, std::move(d));
    op = next;
    op.kind = OpKind::Fence;
    op.res = nullptr;
    op.scope = next.res->order.scope.value_or(isa::Scope::Gpu);
    return true;
  }
  op = next;
  return true;
}

bool TlmModel::next_workload_op(PlannedOp& op) {
  if (feed_thread_) return next_fed_op(op);
  if (ahead_ == Ahead::None) ahead_ = pull(feed_[cur_ ^ 1]) ? Ahead::Ready : Ahead::End;
  if (ahead_ == Ahead::End) return false;
  cur_ ^= 1;  // the op read ahead is now the current one; read the one after it
  const WarpOp& cur = feed_[cur_];
  if (ctx_->hints) hinted_ = leaving_hint(cur);
  ahead_ = pull(feed_[cur_ ^ 1]) ? Ahead::Ready : Ahead::End;
  issue_workload_op(cur, nullptr, op);
  return true;
}

// The slot's `planned` (padded to the op's alignment) and the op's scalar fields share the
// slot's first host cache line, which next_fed_op()'s look-ahead hint asks for.
static_assert(offsetof(WarpOp, ops) + alignof(WarpOp) <= 64, "WarpOp: scalar fields past 64 B");

// The plan thread's step: the workload's next op, its store planned, except a store whose
// plan reads the barriers' states (st.async with an [mbar] operand: its complete-tx), which
// the model's modules change as the run goes; that one is planned on the model's thread when
// its turn comes, as without the plan thread. Every other plan reads only what no op changes:
// the configuration, the windows, the allocations (their look-up cache is thread-safe) and
// the TMEM allocation made at set-up.
bool TlmModel::fill_ahead(AheadOp& slot) {
  if (!workload_->next(slot.op)) return false;
  const isa::Instruction* ins = slot.op.ins;
  slot.planned = slot.op.kind == OpKind::Store && !(ins->op == isa::Opcode::StAsync && ins->mbar);
  if (slot.planned)
    golden::plan(image_, *ins, slot.op.ctx, slot.op.ops, slot.res, ahead_scratch_.scratch);
  return true;
}

bool TlmModel::next_fed_op(PlannedOp& op) {
  const AheadOp* s = feed_thread_->next();
  if (!s) {
    if (!workload_->error().empty()) errors_.push_back(workload_->error());
    return false;
  }
  if (ctx_->hints) {
    // The first L2 hint of this op was given when the op before it was taken, so that it has
    // that op's whole run to land (the plan, which it overlapped before, is done already).
    hinted_ = hinted_next_op_ == ops_ + 1 ? hinted_next_ : leaving_hint(s->op);
    // The ops come from the other thread's cache: the next op's line requests are loaded now
    // (its fields were hinted one op ago), and the fields of the op after it.
    if (const AheadOp* after = feed_thread_->peek()) {
      hinted_next_ = leaving_hint(after->op);
      hinted_next_op_ = ops_ + 2;
      const auto& lines = after->res.lines;
      prefetch_lines(lines.data(), lines.size() * sizeof(lines[0]));
    }
    if (const AheadOp* later = feed_thread_->peek(1)) {
      prefetch_lines(later, std::size_t(reinterpret_cast<const char*>(&later->op.ops) -
                                        reinterpret_cast<const char*>(later)));
      prefetch_range(&later->res.fault_mask, &later->res + 1);  // (its last line too)
    }
    // Further ahead, the state of the SM an op will run on: its LSU, L1 and crossbar port and
    // its write buffer (which leaving_hint() reads for that op three ops later). The op's
    // fields were asked for when it was kStateAhead + 1 ops ahead.
    if (const AheadOp* far = feed_thread_->peek(kStateAhead - 1)) state_hint(far->op);
    if (const AheadOp* farther = feed_thread_->peek(kStateAhead)) prefetch_lines(farther, 64);
  }
  issue_workload_op(s->op, s->planned ? &s->res : nullptr, op);
  return true;
}

void TlmModel::issue_workload_op(const WarpOp& cur, const golden::StoreResult* planned,
                                 PlannedOp& op) {
  ++ops_;
  if (progress_ && (ops_ & 0x3FFF) == 0) progress_(ops_);
  op = PlannedOp{};
  op.kind = cur.kind;
  op.sm = cur.sm % cfg_.gpu.sms;
  op.ctx = cur.ctx;
  op.mbar_offset = cur.mbar_offset;
  op.tx_bytes = cur.tx_bytes;
  op.parity = cur.parity;
  op.scope = cur.scope;
  op.instructions = cur.instructions;
  op.slot = cur.slot;
  if (cur.kind != OpKind::Store) return;
  if (!planned) {
    plan_store(cur.ins, nullptr, cur.ctx, &cur.ops, nullptr, res_);
    planned = &res_;
  }
  const golden::StoreResult& r = *planned;
  if (r.fault_mask) report_fault(r, cur.ctx, op.sm);
  remember(r, cur.ctx, op.sm);
  if (ctx_->hints) prefetch(r, op.sm);
  op.res = &r;
  op.tcgen05 = cur.ins->op == isa::Opcode::Tcgen05St;
  op.lane_bytes = std::uint8_t(cur.ins->access_bytes());
}

// A workload store that faults is a finding, as in a .sts run: the first few are reported with
// the lane, kind and address, the rest counted at the end of the run. The lanes that did not
// fault still store (the golden model's rule, which the image check holds the model to).
void TlmModel::report_fault(const golden::StoreResult& r, const golden::WarpContext& ctx,
                            std::uint32_t sm) {
  ++faulted_ops_;
  if (faulted_ops_ > kFaultsReported) return;
  const unsigned lane = static_cast<unsigned>(__builtin_ctz(r.fault_mask));
  const golden::Fault& f = r.fault[lane];
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(f.addr));
  const unsigned others = static_cast<unsigned>(__builtin_popcount(r.fault_mask)) - 1;
  errors_.push_back("warp op " + std::to_string(ops_) + " (SM " + std::to_string(sm) + ", CTA " +
                    std::to_string(ctx.cta) + ", warp " + std::to_string(ctx.warp) +
                    ") faulted: lane " + std::to_string(lane) + " " +
                    std::string(golden::to_string(f.kind)) + " at " + addr +
                    (others ? " (and " + std::to_string(others) + " more lanes)" : std::string()));
}

bool TlmModel::pull(WarpOp& into) {
  if (workload_->next(into)) return true;
  if (!workload_->error().empty()) errors_.push_back(workload_->error());
  return false;
}

void TlmModel::state_hint(const WarpOp& op) const {
  const std::uint32_t sm = op.sm % cfg_.gpu.sms;
  top_->lsu.prefetch_sm(sm);
  top_->l1[sm]->prefetch_state();
  top_->xbar.prefetch_port(sm);
  // The write buffer by address alone: its first host lines (its ring and the first slots'
  // lines) and its last (the head and the count).
  if (const golden::WriteBuffer* wb = hints_->wb[sm]) {
    const char* p = reinterpret_cast<const char*>(wb);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(reinterpret_cast<const char*>(wb + 1) - 1);
  }
}

TlmModel::Hinted TlmModel::leaving_hint(const WarpOp& op) const {
  // The first hint for the line the op's L1 sends on to the L2: in a full write buffer each
  // store pushes out the oldest entry, stored hundreds of ops before, so that line's L2 set
  // is cold. Its metadata is loaded while the op is planned (or, with the plan thread, while
  // the op before it runs); prefetch() then hints the way.
  const std::uint32_t sm = op.sm % cfg_.gpu.sms;
  const HostHints& h = *hints_;
  std::uint64_t line = 0;
  if (op.kind != OpKind::Store || !h.wb[sm] || !h.wb[sm]->oldest_line(line)) return {};
  const int slice = h.l2.slice(line);
  if (slice < 0) return {};
  h.l2.meta(slice, line);
  return {std::uint32_t(slice), line, true};
}

void TlmModel::prefetch(const golden::StoreResult& r, std::uint32_t sm) const {
  // The L1 sets of a store's global lines and the state of the modules on its path, loaded
  // into the host's caches while the store travels to them (a host-speed hint; the model's
  // state is not touched). Then the L2: the way the write of the line hinted by
  // leaving_hint() will take (its set is in by now); with no such line (an empty buffer:
  // the store's own lines leave at once), the sets of the store's lines.
  const HostHints& h = *hints_;
  for (const golden::LineRequest& l : r.lines)
    if (l.dest.space == golden::MemSpace::Global && h.l1[sm]) h.l1[sm].prefetch_meta(l.line);
  const bool hinted = hinted_.valid;  // (for this op: leaving_hint() ran before)
  if (hinted) {
    if (const auto victim = h.l2.way(int(hinted_.slice), hinted_.line)) {
      top_->dram.prefetch_bank(*victim);
      top_->dram.prefetch_line(*victim);
    }
    top_->l2[hinted_.slice]->prefetch_paid(h.l2.local(hinted_.line));
  } else {
    for (const golden::LineRequest& l : r.lines) {
      if (l.dest.space != golden::MemSpace::Global) continue;
      const int slice = h.l2.slice(l.line);
      if (slice >= 0) h.l2.probe(slice, l.line);
    }
  }
  // Then the modules' objects, by address alone: reading a member here would wait for its
  // object's line (what members point to, the timing bins, write-buffer slots and the cores,
  // was hinted too until measured to gain nothing).
  top_->l1[sm]->prefetch_state();
  top_->lsu.prefetch_sm(sm);
  top_->xbar.prefetch_port(sm);
  if (hinted) {
    top_->l2[hinted_.slice]->prefetch_state();
    return;
  }
  for (const golden::LineRequest& l : r.lines) {
    if (l.dest.space != golden::MemSpace::Global) continue;
    top_->l2[l2_slice_of(cfg_.l2, l.line)]->prefetch_state();
  }
}

void TlmModel::remember(const golden::StoreResult& r, const golden::WarpContext& ctx,
                        std::uint32_t sm) {
  // A ring of kHistory entries whose line lists keep their capacity (no allocation per store).
  if (history_.empty()) history_.resize(kHistory);
  ++seq_;
  Remembered& m = history_[seq_ % kHistory];
  m.seq = seq_;
  m.sm = sm;
  m.cta = ctx.cta;
  m.warp = ctx.warp;
  m.lines.clear();
  for (const golden::LineRequest& l : r.lines) m.lines.emplace_back(l.dest, l.line);
}

std::string TlmModel::history_for(std::uint64_t addr, const std::string& space) const {
  std::string s;
  const std::uint64_t line = addr & ~std::uint64_t(golden::kLineBytes - 1);
  const std::uint64_t kept = std::min<std::uint64_t>(seq_, history_.size());
  for (std::uint64_t seq = seq_; seq > seq_ - kept; --seq) {  // newest first
    const Remembered* it = &history_[seq % kHistory];
    for (const auto& [dest, l] : it->lines) {
      if (l != line ||
          std::string(golden::to_string(dest.space)) != (space == "dram" ? "global" : space))
        continue;
      s += "  store #" + std::to_string(it->seq) + " (sm " + std::to_string(it->sm) + ", cta " +
           std::to_string(it->cta) + ", warp " + std::to_string(it->warp) + ") wrote that line\n";
      break;
    }
  }
  if (s.empty()) s = "  no store among the last " + std::to_string(kept) + " wrote that line\n";
  return s;
}

void TlmModel::plan_store(const isa::Instruction* ins, const isa::SassSt* sass,
                          const golden::WarpContext& ctx, const golden::WarpOperands* ops,
                          const golden::SassRegisterFile* regs, golden::StoreResult& out) {
  if (ins) {
    golden::plan(image_, *ins, ctx, *ops, out, scratch_);
  } else {
    golden::plan_sass(image_, *sass, ctx, *regs, out, scratch_);
  }
  if (coalescer_ && out.tmem.empty()) {  // the RTL coalescer forms the line requests
    out.lines.clear();
    coalescer_->coalesce(scratch_.accesses.data(), scratch_.naccess, scratch_.group, out.lines);
    const std::string e = coalescer_->take_error();
    if (!e.empty()) errors_.push_back("coalescer (rtl): " + e);
  }
}

// --- workload run -------------------------------------------------------------------------

void TlmModel::run(Workload& w, const Progress& progress) {
  activate();
  workload_ = &w;
  ahead_ = Ahead::None;
  progress_ = progress;
  top_->dram.preload(image_.global());
  top_->dram.keep_log(false);  // memory bounded by the lines touched: no per-write log
  // Global memory is checked in DRAM, every byte (finish with dram_all): the L1 keeps no
  // second copy of the stores in the image.
  ctx_->global_image = GlobalImage::NotWritten;
  const auto t0 = std::chrono::steady_clock::now();
  hinted_next_op_ = 0;
  // The plan thread also moves the global bytes (the L2's lines, DRAM's memory: DataPlane),
  // behind the simulation.
  // The slots' bytes are then that thread's: this one does not hint them.
  const auto slot_hints = [this](bool on) {
    for (std::size_t s = 0; s < top_->l2.size(); ++s)
      hints_->l2.slices[s].set_slot_bytes(on ? top_->l2[s]->slot_bytes() : nullptr);
  };
  if (plan_thread_ && !coalescer_) {
    slot_hints(false);
    feed_thread_ = std::make_unique<Feed>(
        kAheadOps, [this](AheadOp& s) { return fill_ahead(s); }, top_->dram.data().start_behind());
  }
  top_->lsu.finish();
  sc_core::sc_start();
  feed_thread_.reset();
  top_->dram.data().stop_behind();  // (the last moves are part of the run's time)
  slot_hints(true);
  stats_.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats_.warp_ops = ops_;
  if (faulted_ops_ > kFaultsReported) {
    errors_.push_back(std::to_string(faulted_ops_) + " warp ops faulted in all (the first " +
                      std::to_string(kFaultsReported) + " are reported above)");
  }
  if (!top_->lsu.ended())
    errors_.push_back(
        "the workload did not finish: a warp waits for a barrier phase that never completes "
        "(deadlock)");
  workload_ = nullptr;
}

RunReport TlmModel::run_checked(Workload& w, Workload& reference, golden::MachineState& golden,
                                const Progress& progress) {
  std::string ref_error;
  std::thread ref([&] { ref_error = run_golden(reference, golden); });
  run(w, progress);
  ref.join();
  // Both read the same input: a reader's error (a bad trace line) is reported once.
  if (!ref_error.empty() && ref_error != w.error())
    errors_.push_back("golden reference: " + ref_error);
  return finish(golden, true);
}

RunReport TlmModel::finish(const golden::MachineState& golden, bool dram_all) {
  activate();
  stats_.cycles = std::max(stats_.cycles, top_->lsu.last_cycle());
  stats_.dram_bytes_in_run = stats_.get(Metric::DramBytesWrite);
  stats_.dram_read_bytes_in_run = stats_.get(Metric::DramBytesRead);
  Cycle t = std::max<Cycle>(tb_->now(), top_->lsu.last_cycle());
  if (cfg_.sim.mode == SimMode::Lt) {
    Cycle end = t;
    for (auto& l : top_->l1) end = std::max(end, l->drain(t));
    for (auto& s : top_->l2) end = std::max(end, s->flush(end));
  } else {
    for (auto& l : top_->l1) l->drain(t);
    run_pending();
    for (auto& s : top_->l2) s->flush(tb_->now());
    run_pending();
  }
  collect_core_errors();
  RunReport r;
  r.errors = errors_;
  for (const std::string& e : top_->lsu.errors()) r.errors.push_back(e);
  for (const std::string& e : top_->mbu.errors()) r.errors.push_back(e);
  for (const std::string& e : top_->shared.errors()) r.errors.push_back(e);
  // Without the L1's copy in the image, global memory is compared in DRAM only, everywhere.
  const bool global_in_image = ctx_->global_image == GlobalImage::Written;
  r.mismatch = compare_images(golden, image_,
                              global_in_image ? ImageSpaces::All : ImageSpaces::AllButGlobal);
  if (!r.mismatch)
    r.mismatch = compare_dram(golden, top_->dram.memory(), top_->dram.written(),
                              dram_all || !global_in_image);
  if (!r.mismatch && global_in_image)
    r.mismatch =
        missing_in_dram(golden, top_->dram.memory(), ctx_->global_taken, top_->dram.written());
  if (r.mismatch) r.mismatch_context = history_for(r.mismatch->addr, r.mismatch->space);
  r.ok = !r.mismatch && r.errors.empty();
  return r;
}

// --- sts::StoreModel --------------------------------------------------------------------------

void TlmModel::fence(const golden::WarpContext& ctx, isa::Scope scope) {
  pending_fence_.emplace(ctx, scope);
  const auto t0 = std::chrono::steady_clock::now();
  run_kernel();
  stats_.host_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sts::StoreModel::fence(ctx, scope);
}

void TlmModel::submit(const golden::StoreResult& r, const golden::WarpContext& ctx, bool tcgen05,
                      unsigned lane_bytes) {
  pending_.emplace_back(r, ctx);
  pending_tcgen05_ = tcgen05;
  pending_lane_bytes_ = std::uint8_t(lane_bytes);
  remember(r, ctx, 0);
  const auto t0 = std::chrono::steady_clock::now();
  run_kernel();
  stats_.host_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void TlmModel::execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
                       const golden::WarpOperands& ops, golden::StoreResult& out) {
  plan_store(&ins, nullptr, ctx, &ops, nullptr, out);
  submit(out, ctx, ins.op == isa::Opcode::Tcgen05St, ins.access_bytes());
}

void TlmModel::execute_sass(const isa::SassSt& st, const golden::WarpContext& ctx,
                            const golden::SassRegisterFile& regs, golden::StoreResult& out) {
  plan_store(nullptr, &st, ctx, nullptr, &regs, out);
  submit(out, ctx, false, isa::bytes_of(st.size));
}

void TlmModel::collect_core_errors() {
  for (std::size_t i = 0; i < top_->l1.size(); ++i) {
    const std::string e = top_->l1[i]->core().take_error();
    if (!e.empty())
      errors_.push_back("l1 " + std::to_string(i) + " (" + top_->l1[i]->core().name() + "): " + e);
  }
  for (std::size_t i = 0; i < top_->l2.size(); ++i) {
    const std::string e = top_->l2[i]->core().take_error();
    if (!e.empty())
      errors_.push_back("l2 slice " + std::to_string(i) + " (" + top_->l2[i]->core().name() +
                        "): " + e);
  }
}

std::string TlmModel::take_error() {
  collect_core_errors();
  std::vector<std::string>* lists[] = {&errors_, &top_->lsu.errors(), &top_->mbu.errors(),
                                       &top_->shared.errors()};
  std::string s;
  for (auto* l : lists) {
    for (const std::string& e : *l) s += (s.empty() ? "" : "; ") + e;
    l->clear();
  }
  return s;
}

golden::CacheLookup TlmModel::cache_line(sts::CacheLevel level, std::uint64_t addr) const {
  if (level == sts::CacheLevel::L1) return top_->l1[0]->core().lookup(addr);
  const L2Slice& s = *top_->l2[l2_slice_of(cfg_.l2, addr)];
  return s.core().lookup(s.local(addr));
}

std::size_t TlmModel::write_buffer_entries() const { return top_->l1[0]->core().wb_entries(); }

void TlmModel::drain_caches(bool flush) {
  activate();
  const Cycle t = std::max<Cycle>(tb_->now(), top_->lsu.last_cycle());
  for (auto& l : top_->l1) l->drain(t);
  run_pending();
  if (flush) {
    for (auto& s : top_->l2) s->flush(tb_->now());
    run_pending();
  }
}

}  // namespace stu::sim
