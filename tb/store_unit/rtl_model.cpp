// The RTL store path as a `.sts` model (see rtl_model.h).
//
// The harness is the front end and the memory side, nothing more. It hands the RTL an
// instruction's static fields the way SASS encodes them (kind, width, semantics, scope, cache
// operator and priorities, .mmio, register numbers, immediates) and the operand registers'
// values; it answers the RTL's memory requests (global allocation checks, mbarrier words) from
// its image, writes the line requests and TMEM runs the RTL emits into it, and reads back the
// RTL's status, ordering, cache attributes, cache events and DRAM writes. Every decision that
// depends on run-time values is the RTL's: tests/style/rtl_harness_decisions.sh fails when this
// file calls one of the golden model's decision functions.
#include "rtl_model.h"

#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "Vstu_store_path.h"
#include "Vstu_store_path_nocache.h"
#include "bits.h"
#include "blocks.h"
#include "code_coverage.h"
#include "ports.h"
#include "stu/golden/executor.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace stu::tb {
namespace {

namespace LR = rtl::layout::line_req;
namespace L1E = rtl::layout::l1_event;
namespace L2W = rtl::layout::l2_write;
namespace L2R = rtl::layout::l2_result;
namespace DW = rtl::layout::dram_write;
using golden::MemSpace;

static_assert(port_words<decltype(Vstu_store_path::in_data_i)> ==
                  words_for_bits(32 * golden::kMaxAccessBytes * 8),
              "stu_store_path data: 32 lanes of golden::kMaxAccessBytes");
static_assert(port_words<decltype(Vstu_store_path::req_o)> == words_for_bits(LR::kWidth),
              "stu_store_path request is one line_req_t");

// The kinds of stu_store_unit's in_kind_i.
enum Kind : uint8_t { kSt = 0, kAsync = 1, kSass = 2, kAsyncRelease = 3, kTcgen05 = 4 };

unsigned log2u(unsigned v) { return unsigned(__builtin_ctz(v)); }

// One warp store as the front end hands it to the unit: static fields and register values.
struct Decoded {
  Kind kind = kSt;
  uint32_t active = 0;
  bool generic = true;
  isa::Space space = isa::Space::Global;
  unsigned elem_bytes = 4, elems = 1;
  uint8_t sinks = 0;
  isa::Sem sem = isa::Sem::Weak;
  std::optional<isa::Scope> scope;
  bool mmio = false;
  std::optional<isa::CacheOp> cop;
  std::optional<isa::L1Evict> l1;
  std::optional<isa::L2Evict> l2;
  bool has_policy = false;
  bool abs = false, mbar_abs = false;
  uint64_t imm = 0, mbar_imm = 0;
  // SASS ST.
  bool sass_extended = false, sass_no_ra = false;
  uint8_t sass_ra = 0;
  uint8_t guard = 7, plg = 7;  // predicate numbers; 7 is PT
  bool guard_neg = false, plg_neg = false;
  // Registers per lane.
  std::array<uint64_t, 32> addr{}, mbar{}, policy{};
  std::array<uint32_t, 32> ra_lo{}, ra_hi{};
  std::array<uint8_t, 32> pred{};
  std::array<std::array<uint8_t, 32>, 32> data{};
  // tcgen05.st
  isa::TmemShape shape = isa::TmemShape::S32x32b;
  unsigned num = 1, regs = 0;
  bool unpack = false;
  uint32_t split = 0;
  const golden::WarpOperands* ops = nullptr;  // the register beats: value(j, t)
};

// The geometry of the caches the path holds at most (its Verilated parameters).
constexpr unsigned kL1MaxSets = 64, kL1MaxWays = 8, kWbMax = 16;
constexpr unsigned kL2MaxSets = 128, kL2MaxWays = 16;

// Empty when the path's caches hold the geometry; else why not.
std::string caches_fit(const golden::HierarchyConfig& c) {
  auto level = [](const char* name, const golden::CacheGeometry& g, unsigned max_sets,
                  unsigned max_ways) -> std::string {
    if (g.sets() >= 1 && g.sets() <= max_sets && g.ways >= 1 && g.ways <= max_ways) return {};
    return std::string(name) + " of " + std::to_string(g.sets()) + " sets x " +
           std::to_string(g.ways) + " ways (at most " + std::to_string(max_sets) + " x " +
           std::to_string(max_ways) + ")";
  };
  std::string why = level("L1", c.l1, kL1MaxSets, kL1MaxWays);
  if (why.empty()) why = level("L2", c.l2, kL2MaxSets, kL2MaxWays);
  if (why.empty() && (c.write_buffer < 1 || c.write_buffer > kWbMax))
    why = "write buffer of " + std::to_string(c.write_buffer) + " entries (at most " +
          std::to_string(kWbMax) + ")";
  return why.empty() ? why : "the rtl model's cache blocks cannot hold this test's " + why;
}

template <typename Top>
class PathModel final : public RtlStoreModel {
 public:
  // `no_caches`: why a test that configures caches runs without them (empty: it configures none).
  PathModel(const golden::ModelConfig& cfg, const golden::HierarchyConfig* caches,
            const RtlTrace* trace, std::string no_caches = {})
      : image_(cfg),
        ctx_(std::make_unique<VerilatedContext>()),
        caches_(caches != nullptr),
        no_caches_(std::move(no_caches)) {
    ctx_->fatalOnError(false);
    ctx_->randReset(2);  // X-randomisation from the seed (1 unless the cosimulation gives one)
    x_seed_ = trace ? trace->x_seed : 1;
    if (trace) env_ = trace->env;
    env_rng_.seed(env_.seed);
    ctx_->randSeed(int(x_seed_ % 0x7FFFFFFF) + 1);
    const bool wave = trace && !trace->path.empty();
    if (wave) ctx_->traceEverOn(true);
    dut_ = std::make_unique<Top>(ctx_.get(), "stu_store_path");
    if (wave) {
      trace_ = *trace;
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(trace->path.c_str());
    }
    Top& u = *dut_;
    // Every input valid low before reset: X-randomisation starts the inputs at random values
    // too, and a stray in_valid_i would start a warp during the configuration cycles.
    u.in_valid_i = 0;
    u.reg_valid_i = 0;
    u.cfg_valid_i = 0;
    u.ta_req_valid_i = 0;
    u.cmd_valid_i = 0;
    u.alloc_rsp_valid_i = 0;
    u.mbar_rd_rsp_valid_i = 0;
    u.req_ready_i = u.ev_ready_i = u.tm_ready_i = 0;
    u.mbar_wr_ready_i = u.st_ready_i = 0;
    u.l1_ev_ready_i = u.l2_res_ready_i = u.dram_ready_i = 1;
    if (caches_) {
      u.cfg_l1_set_mask_i = caches->l1.sets() - 1;
      u.cfg_l1_ways_i = caches->l1.ways;
      u.cfg_wb_entries_i = caches->write_buffer;
      u.cfg_l2_set_mask_i = caches->l2.sets() - 1;
      u.cfg_l2_ways_i = caches->l2.ways;
      u.cfg_l2_random_i = caches->l2.replacement == golden::Replacement::Random;
    }
    u.rst_ni = 0;
    u.clk_i = 0;
    u.eval();
    tick();
    u.rst_ni = 1;
    u.eval();
    // Out of reset every output is idle: a valid high now would be a response, a request or an
    // event that nothing asked for.
    if (u.ta_rsp_valid_o || u.tm_valid_o || u.alloc_req_valid_o || u.mbar_rd_valid_o ||
        u.mbar_wr_valid_o || u.ev_valid_o || u.req_valid_o || u.st_valid_o || u.l1_ev_valid_o ||
        u.l2_wr_valid_o || u.l2_res_valid_o || u.dram_valid_o)
      error_ = "an output of stu_store_path is valid right after reset";
    check_tied_off();
    const uint64_t regs[] = {cfg.map.shared.base,
                             cfg.map.shared.size,
                             cfg.map.shared_cta_stride,
                             cfg.map.local.base,
                             cfg.map.local.size,
                             cfg.map.param.base,
                             cfg.map.param.size,
                             cfg.map.konst.base,
                             cfg.map.konst.size,
                             cfg.cluster_ctas,
                             cfg.shared_bytes,
                             cfg.local_bytes,
                             cfg.param_func_bytes,
                             cfg.sass_regs,
                             cfg.sass_misalign == golden::MisalignMode::Fault ? 1u : 0u};
    for (unsigned i = 0; (!trace || trace->configure) && i < sizeof regs / sizeof regs[0]; ++i) {
      u.cfg_valid_i = 1;
      u.cfg_sel_i = uint8_t(i);
      u.cfg_data_i = regs[i];
      tick();
    }
    u.cfg_valid_i = 0;
  }
  ~PathModel() override {
    if (fst_) fst_->close();
    dut_->final();
    save_code_coverage(*ctx_, dut_->modelName(), x_seed_);
  }

  bool has_caches() const override { return caches_; }
  std::string no_caches_reason() const override {
    return no_caches_.empty() ? StoreModel::no_caches_reason() : no_caches_;
  }
  golden::CacheLookup cache_line(sts::CacheLevel level, uint64_t addr) const override {
    golden::CacheLookup r;
    if (!caches_) return r;
    Top& u = *dut_;
    const uint64_t line = addr & ~uint64_t(golden::kLineBytes - 1);
    u.dbg_l1_line_i = line;
    u.dbg_l2_line_i = line;
    u.eval();  // combinational: no clock edge
    const bool l1 = level == sts::CacheLevel::L1;
    r.hit = l1 ? u.dbg_l1_hit_o : u.dbg_l2_hit_o;
    r.set = l1 ? u.dbg_l1_set_o : u.dbg_l2_set_o;
    r.way = l1 ? u.dbg_l1_way_o : u.dbg_l2_way_o;
    const auto& valid = l1 ? u.dbg_l1_valid_o : u.dbg_l2_valid_o;
    const auto& dirty = l1 ? u.dbg_l1_dirty_o : u.dbg_l2_dirty_o;
    r.valid = {get_bits(valid, 0, 64), get_bits(valid, 64, 64)};
    r.dirty = {get_bits(dirty, 0, 64), get_bits(dirty, 64, 64)};
    r.cls = golden::EvictClass(l1 ? u.dbg_l1_cls_o : u.dbg_l2_cls_o);
    return r;
  }
  size_t write_buffer_entries() const override {
    if (!caches_) return 0;
    dut_->eval();
    return dut_->dbg_wb_count_o;
  }
  void drain_caches(bool flush) override {
    if (!caches_) {  // the tied-off command port: taken at once, never busy
      Top& u = *dut_;
      u.cmd_valid_i = 1;
      u.cmd_flush_i = flush;
      u.clk_i = 0;
      u.eval();
      const bool taken = u.cmd_ready_o;
      clock_edge();
      u.cmd_valid_i = 0;
      u.eval();
      if (!taken && error_.empty())
        error_ = "stu_store_path without caches: a command was not taken at once";
      check_tied_off();
      return;
    }
    if (next_store_ && error_.empty())
      error_ = "rtl model: a store cannot be offered behind a command";
    if (!busy_left_) events_.clear();  // else the store's last events come first
    // After a store that left the caches busy, the L1's events stay stalled until the command
    // is taken and 1 to 4 cycles after it, so that the drain finds the L1 still at work.
    uint64_t hold = busy_left_ ? 1 + env_rng_() % 4 : 0;
    busy_left_ = false;
    Top& u = *dut_;
    // Offered behind the operation before: on the inputs already, or taken at its last edge.
    bool taken = std::exchange(cmd_taken_early_, false);
    if (std::exchange(cmd_offered_, false) && !taken && bool(u.cmd_flush_i) != flush)
      error_ = "rtl model: the command executed is not the one offer_next_command() offered";
    if (!taken) {
      u.cmd_valid_i = 1;
      u.cmd_flush_i = flush;
    }
    const bool offering = next_cmd_.has_value();  // then returns when no longer busy
    bool ended = false;
    const uint64_t flushes = flush_results_;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      if (env_.seed) stall_caches();
      if (hold) u.l1_ev_ready_i = 0;
      u.clk_i = 0;
      u.eval();
      const bool take = u.cmd_valid_i && u.cmd_ready_o;
      observe_caches();
      if (taken && !u.cmd_busy_o && !ended && error_.empty()) {
        ended = true;
        // A flush is busy until the L2 slice's flush result has been taken; a drain (and the
        // drain a flush starts with) until the L1 has given its last event and the L2 has
        // taken every entry that left the write buffer.
        if (flush && flush_results_ == flushes)
          error_ = "the RTL flush command ended before the L2 slice's flush result was taken";
        else if (u.l1_ev_valid_o || !l1_lines_.empty() || l2_seen_ != l2_expected_)
          error_ = std::string("the RTL ") + (flush ? "flush" : "drain") +
                   " command ended with the L1 still at work (an event or a write to the L2 "
                   "still to come)";
      }
      if (taken && take && u.cmd_busy_o && error_.empty())
        error_ = "the command offered behind a command was taken while that one was busy";
      const bool done = taken && !u.cmd_busy_o && (offering || caches_quiet());
      clock_edge();
      if (taken && hold) --hold;
      if (take) {
        u.cmd_valid_i = 0;
        if (taken) cmd_taken_early_ = true;  // the one offered behind it
        taken = true;
      }
      if (taken && next_cmd_ && !done) {  // the next command waits behind this one
        u.cmd_valid_i = 1;
        u.cmd_flush_i = *next_cmd_;
        cmd_offered_ = true;
        next_cmd_.reset();
      } else if (taken && !cmd_offered_ && !cmd_taken_early_ && env_.seed) {
        // The command's flush bit means nothing once it is taken: random from then on.
        u.cmd_flush_i = env_rng_() & 1;
      }
      if (done) return;
    }
    u.cmd_valid_i = 0;
    cmd_offered_ = false;
    next_cmd_.reset();
    error_ = "the RTL caches did not finish a " + std::string(flush ? "flush" : "drain") +
             " within " + std::to_string(kMaxCycles) + " cycles (they hang)";
  }
  const golden::HierarchyEvents* cache_events() const override {
    return caches_ ? &events_ : nullptr;
  }
  const std::vector<golden::DramWrite>* dram_writes() const override {
    return caches_ ? &dram_ : nullptr;
  }

  std::optional<uint32_t> tmem_alloc(uint32_t cta, uint32_t cols) override {
    uint32_t taddr = 0;
    if (!tmem_request(false, cta, cols, 0, taddr)) return std::nullopt;
    mirror_tmem(image_.cta(cta).tmem_alloc.alloc(cols) == std::optional<uint32_t>(taddr));
    return taddr;
  }
  bool tmem_dealloc(uint32_t cta, uint32_t taddr, uint32_t cols) override {
    uint32_t unused = 0;
    const bool ok = tmem_request(true, cta, cols, taddr, unused);
    if (ok) mirror_tmem(image_.cta(cta).tmem_alloc.dealloc(taddr, cols));
    return ok;
  }

  std::string_view name() const override { return "rtl"; }
  uint64_t cycles() const override { return cycles_; }
  void leave_caches_busy() override { leave_busy_ = caches_; }
  golden::MachineState& image() override { return image_; }

  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override {
    out.clear();
    events_.clear();
    // The static cache attributes (what the instruction names); the policy is the RTL's.
    out.cache.cop = ins.cop;
    out.cache.l1 = ins.l1;
    out.cache.l2 = ins.l2;
    out.cache.has_policy = ins.cache_hint;
    out.order.async = ins.op != isa::Opcode::St;
    Decoded d;
    const Reach reach = decode(ins, ctx, ops, d);
    if (reach != Reach::Unit) {  // nothing is offered behind what never reaches the unit
      next_store_.reset();
      next_cmd_.reset();
    }
    if (reach == Reach::Nothing) return;  // nothing reaches the unit (ptxas)
    if (reach == Reach::Rejected) {       // the decoder rejects it: no operation reaches the unit
      for (uint32_t m = ctx.active; m; m &= m - 1)
        out.set_fault(unsigned(__builtin_ctz(m)), golden::FaultKind::BadInstruction, 0);
      return;
    }
    if (d.kind != kTcgen05) {
      last_policy_raw_ = ops.policy[unsigned(__builtin_ctz(ctx.active))];  // with the decode
      out.order.mmio = ins.mmio;
    }
    run(d, ctx, out);
  }

  void execute_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile& rf, golden::StoreResult& out) override {
    out.clear();
    events_.clear();
    out.cache.cop = isa::CacheOp(uint8_t(s.cop));  // WB, CG, CS, WT in the same order
    Decoded d;
    decode_sass(s, ctx, rf, d);
    run(d, ctx, out);
  }

  bool offer_next(const isa::Instruction& ins, const golden::WarpContext& ctx,
                  const golden::WarpOperands& ops) override {
    Decoded d;
    if (decode(ins, ctx, ops, d) != Reach::Unit) return false;
    next_store_.emplace(std::move(d), ctx);
    return true;
  }
  bool offer_next_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                       const golden::SassRegisterFile& rf) override {
    Decoded d;
    decode_sass(s, ctx, rf, d);
    next_store_.emplace(std::move(d), ctx);
    return true;
  }
  void offer_next_command(bool flush) override {
    if (caches_) next_cmd_ = flush;  // without caches a command is taken at once, never busy
  }

  std::string take_error() override { return std::exchange(error_, std::string()); }

 private:
  // Whether a PTX store reaches the unit: ptxas drops a store with nothing to store, and the
  // decoder rejects an instruction whose operands do not fit its type.
  enum class Reach { Unit, Nothing, Rejected };
  // The instruction's static fields and operand registers as the front end hands them over.
  static Reach decode(const isa::Instruction& ins, const golden::WarpContext& ctx,
                      const golden::WarpOperands& ops, Decoded& d) {
    if (ctx.active == 0 || ins.stores_nothing()) return Reach::Nothing;
    d.active = ctx.active;
    d.abs = ins.addr.base == isa::Address::Base::Immediate;
    d.imm = uint64_t(ins.addr.offset);
    d.addr = ops.addr;
    if (ins.op == isa::Opcode::Tcgen05St) {
      d.regs = ins.tmem_regs();
      if (!ins.shape || d.regs == 0 || ops.src.size() < size_t(d.regs) * 32) return Reach::Rejected;
      d.kind = kTcgen05;
      d.shape = *ins.shape;
      d.num = ins.num ? ins.num : 1;
      d.unpack = ins.unpack16;
      d.split = ins.split_off ? uint32_t(ins.split_off->value) : 0;
      d.ops = &ops;
      return Reach::Unit;
    }
    const unsigned elems = ins.stored_elements();
    const unsigned esize = ins.type ? isa::bytes_of(*ins.type) : 0;
    if (!ins.type || ops.src.size() < size_t(elems) * 32 || esize * elems == 0 ||
        esize * elems > golden::kMaxAccessBytes)
      return Reach::Rejected;
    d.kind = ins.op != isa::Opcode::StAsync ? kSt : ins.is_async_release() ? kAsyncRelease : kAsync;
    d.generic = !ins.space;
    if (ins.space) d.space = *ins.space;
    d.elem_bytes = esize;
    d.elems = elems;
    if (ins.src.size() == elems)
      for (unsigned e = 0; e < elems; ++e)
        if (ins.src[e].kind == isa::Operand::Kind::Sink) d.sinks |= uint8_t(1u << e);
    d.sem = ins.effective_sem();
    d.scope = ins.scope;
    d.mmio = ins.mmio;
    d.cop = ins.cop;
    d.l1 = ins.l1;
    d.l2 = ins.l2;
    d.has_policy = ins.cache_hint;
    d.policy = ops.policy;
    if (ins.mbar) {
      d.mbar_abs = ins.mbar->base == isa::Address::Base::Immediate;
      d.mbar_imm = uint64_t(ins.mbar->offset);
      d.mbar = ops.mbar;
    }
    for (unsigned l = 0; l < 32; ++l) {
      for (unsigned e = 0; e < elems; ++e) {
        const golden::RegValue& v = ops.value(e, l);
        uint8_t* p = d.data[l].data() + e * esize;
        std::memcpy(p, &v.lo, esize < 8 ? esize : 8);
        if (esize > 8) std::memcpy(p + 8, &v.hi, esize - 8);
      }
    }
    return Reach::Unit;
  }
  static void decode_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                          const golden::SassRegisterFile& rf, Decoded& d) {
    d.kind = kSass;
    d.active = ctx.active;  // the unit applies the guard
    d.cop = isa::CacheOp(uint8_t(s.cop));
    const unsigned size = isa::bytes_of(s.size);
    d.elem_bytes = size;
    d.imm = uint64_t(s.imm);
    d.sass_extended = s.extended;
    d.sass_no_ra = s.absolute();
    d.sass_ra = s.ra;
    if (s.guard) {
      d.guard = s.guard->index;
      d.guard_neg = s.guard->negated;
    }
    d.plg = s.plg.index;
    d.plg_neg = s.plg.negated;
    // The register file: Ra, Ra+1, the data registers and the predicates of every lane.
    for (unsigned l = 0; l < 32; ++l) {
      d.ra_lo[l] = rf.read(l, s.ra);
      d.ra_hi[l] = rf.read(l, s.ra + 1u);
      for (unsigned p = 0; p < 7; ++p) d.pred[l] |= uint8_t(rf.pred(l, p)) << p;
      for (unsigned b = 0; b < size; ++b) {
        const unsigned reg = s.rb == isa::kRZ ? isa::kRZ : s.rb + b / 4;
        d.data[l][b] = uint8_t(rf.read(l, reg) >> (8 * (b % 4)));
      }
    }
  }
  void mirror_tmem(bool same) {
    if (!same && error_.empty())
      error_ = "the RTL TMEM allocator and the image's record of it disagree";
  }

  // tcgen05.alloc / dealloc on the unit's allocator port.
  bool tmem_request(bool dealloc, uint32_t cta, uint32_t cols, uint32_t taddr, uint32_t& out) {
    Top& u = *dut_;
    u.ta_req_valid_i = 1;
    u.ta_req_dealloc_i = dealloc;
    u.ta_req_cta_i = uint8_t(cta);
    u.ta_req_cols_i = cols;
    u.ta_req_taddr_i = taddr;
    tick();
    u.ta_req_valid_i = 0;
    u.eval();
    out = u.ta_rsp_taddr_o;
    return u.ta_rsp_valid_o && u.ta_rsp_ok_o;
  }

  // One clock cycle from wherever the clock is (a store's run leaves it high).
  void tick() {
    if (dut_->clk_i) {
      dut_->clk_i = 0;
      dut_->eval();
    }
    dut_->clk_i = 1;
    dut_->eval();
    dump(1);
    ++cycles_;
    dut_->clk_i = 0;
    dut_->eval();
    dump(0);
  }
  void clock_edge() {
    dump(0);
    dut_->clk_i = 1;
    dut_->eval();
    dump(1);
    ++cycles_;
    if (ctx_->gotError() && error_.empty())
      error_ = "an RTL assertion failed in stu_store_path (its message is above)";
  }
  // Samples the waveform (when traced): cycle c's low half at time 2c, its rising edge at 2c+1.
  void dump(unsigned half) {
    const uint64_t t = 2 * cycles_ + half;
    if (!fst_ || cycles_ < trace_.from || cycles_ > trace_.to || (dumped_ && t <= last_dump_))
      return;
    fst_->dump(t);
    dumped_ = true;
    last_dump_ = t;
  }

  // The caches' outputs taken this cycle (valid and ready): the L1's events (each non-drain
  // event belongs to the oldest global line sent), the L2 writes the slice takes and their
  // results, the DRAM writes.
  void observe_caches() {
    if (!caches_) return;
    Top& u = *dut_;
    if (u.l1_ev_valid_o && u.l1_ev_ready_i) {
      const auto& e = u.l1_ev_o;
      const uint32_t drained = uint32_t(get_field(e, 0, L1E::drained));
      l2_expected_ += drained;
      if (!get_field(e, 0, L1E::drain)) {
        golden::L1Event ev;
        if (!l1_lines_.empty()) {
          ev.line = l1_lines_.front();
          l1_lines_.pop_front();
        }
        ev.action.on_hit = get_field(e, 0, L1E::invalidate) ? golden::L1OnHit::Invalidate
                                                            : golden::L1OnHit::Update;
        ev.action.allocate = get_field(e, 0, L1E::allocate);
        ev.action.cls = golden::EvictClass(get_field(e, 0, L1E::cls));
        if (get_field(e, 0, L1E::keep_cls)) ev.action.cls = std::nullopt;
        ev.hit = get_field(e, 0, L1E::hit);
        ev.allocated = get_field(e, 0, L1E::allocated);
        ev.invalidated = get_field(e, 0, L1E::invalidated);
        ev.evicted = get_field(e, 0, L1E::evicted);
        ev.victim_line = get_field(e, 0, L1E::victim_line);
        ev.wb.merged = get_field(e, 0, L1E::merged);
        ev.wb.drained = drained;
        events_.l1.push_back(ev);
      }
    }
    if (u.l2_wr_valid_o) {
      const auto& w = u.l2_wr_o;
      golden::L2Write lw;
      lw.req.line = get_field(w, 0, L2W::line);
      lw.req.bytes = {get_bits(w, L2W::bytes.lsb, 64), get_bits(w, L2W::bytes.lsb + 64, 64)};
      get_bytes(w, L2W::data.lsb, lw.req.data.data(), golden::kLineBytes);
      lw.req.l2.cls = golden::EvictClass(get_field(w, 0, L2W::cls));
      if (get_field(w, 0, L2W::keep_cls)) lw.req.l2.cls = std::nullopt;
      lw.req.l2.mode =
          get_field(w, 0, L2W::through) ? golden::WriteMode::Through : golden::WriteMode::Back;
      l2_sent_.push_back(lw);
      ++l2_seen_;
    }
    if (u.l2_res_valid_o && u.l2_res_ready_i) {
      const auto& r = u.l2_res_o;
      if (get_field(r, 0, L2R::flush)) ++flush_results_;
      if (!get_field(r, 0, L2R::flush) && !l2_sent_.empty()) {
        golden::L2Write lw = l2_sent_.front();
        l2_sent_.pop_front();
        lw.hit = get_field(r, 0, L2R::hit);
        lw.allocated = get_field(r, 0, L2R::allocated);
        lw.evicted = get_field(r, 0, L2R::evicted);
        lw.victim_line = get_field(r, 0, L2R::victim_line);
        events_.l2.push_back(lw);
      }
    }
    if (u.dram_valid_o && u.dram_ready_i) {
      const auto& d = u.dram_o;
      golden::DramWrite dw;
      dw.line = get_field(d, 0, DW::line);
      dw.bytes = {get_bits(d, DW::bytes.lsb, 64), get_bits(d, DW::bytes.lsb + 64, 64)};
      dw.cause = golden::DramCause(get_field(d, 0, DW::cause));
      get_bytes(d, DW::data.lsb, dw.data.data(), golden::kLineBytes);
      events_.dram.push_back(dw);
      dram_.push_back(dw);
    }
  }
  // Without caches (Vstu_store_path_nocache) the cache side is tied off: the command port
  // ready and never busy, every cache output and debug read 0 (the classes EvictNormal).
  template <std::size_t N>
  static bool zero(const VlWide<N>& w) {
    for (std::size_t i = 0; i < N; ++i)
      if (w[i]) return false;
    return true;
  }
  static bool zero(uint64_t v) { return v == 0; }
  bool tied_off() const {
    const Top& u = *dut_;
    return u.cmd_ready_o && !u.cmd_busy_o && zero(u.l1_ev_valid_o) && zero(u.l1_ev_o) &&
           zero(u.l2_wr_valid_o) && zero(u.l2_wr_o) && zero(u.l2_res_valid_o) && zero(u.l2_res_o) &&
           zero(u.dram_valid_o) && zero(u.dram_o) && zero(u.dbg_l1_hit_o) && zero(u.dbg_l1_set_o) &&
           zero(u.dbg_l1_way_o) && zero(u.dbg_l1_valid_o) && zero(u.dbg_l1_dirty_o) &&
           zero(u.dbg_wb_count_o) && zero(u.dbg_l2_hit_o) && zero(u.dbg_l2_set_o) &&
           zero(u.dbg_l2_way_o) && zero(u.dbg_l2_valid_o) && zero(u.dbg_l2_dirty_o);
  }
  void check_tied_off() {
    if (!caches_ && !tied_off() && error_.empty())
      error_ = "stu_store_path without caches: a cache port is not tied off";
  }
  // Nothing in the caches still to come: every global line has its event, every entry that
  // left the buffer reached the L2 and has its result, and no output is valid.
  bool caches_quiet() const {
    if (!caches_) return true;
    const Top& u = *dut_;
    return l1_lines_.empty() && l2_seen_ == l2_expected_ && l2_sent_.empty() && !u.l1_ev_valid_o &&
           !u.l2_res_valid_o && !u.dram_valid_o;
  }

  // A warp store's fields on the unit's inputs (in_valid_i aside). In the cosimulation the
  // inputs its kind does not read carry random values: the unit must not look at them.
  void drive(const Decoded& d, const golden::WarpContext& ctx) {
    Top& u = *dut_;
    u.in_kind_i = d.kind;
    u.in_cta_i = ctx.cta;
    u.in_warp_i = ctx.warp;
    u.in_active_i = d.active;
    u.in_generic_i = d.generic;
    u.in_space_i = uint8_t(d.space);
    u.in_elem_log2_i = uint8_t(log2u(d.elem_bytes));
    u.in_elems_log2_i = uint8_t(log2u(d.elems));
    u.in_sinks_i = d.sinks;
    u.in_sem_i = uint8_t(d.sem);
    u.in_has_scope_i = d.scope.has_value();
    u.in_scope_i = d.scope ? uint8_t(*d.scope) : 0;
    u.in_mmio_i = d.mmio;
    u.in_has_cop_i = d.cop.has_value();
    u.in_cop_i = d.cop ? uint8_t(*d.cop) : 0;
    u.in_has_l1_i = d.l1.has_value();
    u.in_l1_i = d.l1 ? uint8_t(*d.l1) : 0;
    u.in_has_l2_i = d.l2.has_value();
    u.in_l2_i = d.l2 ? uint8_t(*d.l2) : 0;
    u.in_has_policy_i = d.has_policy;
    u.in_abs_i = d.abs;
    u.in_imm_i = d.imm;
    u.in_mbar_abs_i = d.mbar_abs;
    u.in_mbar_imm_i = d.mbar_imm;
    u.in_sass_extended_i = d.sass_extended;
    u.in_sass_no_ra_i = d.sass_no_ra;
    u.in_sass_ra_i = d.sass_ra;
    u.in_guard_i = d.guard;
    u.in_guard_neg_i = d.guard_neg;
    u.in_plg_i = d.plg;
    u.in_plg_neg_i = d.plg_neg;
    u.in_shape_i = uint8_t(d.shape);
    u.in_num_i = uint8_t(d.num);
    u.in_unpack_i = d.unpack;
    u.in_split_i = d.split;
    for (unsigned l = 0; l < 32; ++l) {
      put_bits(u.in_addr_i, 64 * l, 64, d.addr[l]);
      put_bits(u.in_mbar_i, 64 * l, 64, d.mbar[l]);
      put_bits(u.in_policy_i, 64 * l, 64, d.policy[l]);
      put_bits(u.in_ra_lo_i, 32 * l, 32, d.ra_lo[l]);
      put_bits(u.in_ra_hi_i, 32 * l, 32, d.ra_hi[l]);
      put_bits(u.in_pred_i, 7 * l, 7, d.pred[l]);
      put_bytes(u.in_data_i, 256 * l, d.data[l].data(), 32);
    }
    if (env_.seed) scramble_unread(d);
  }
  // The inputs a warp store of this kind leaves unread, at random: the SASS register operands,
  // guard and Plg of a PTX store; the PTX address of a SASS ST; the mbarrier operands of a store
  // without one, the policy without .L2::cache_hint, the TMEM fields of a store to memory, the
  // data of a tcgen05.st (its data comes in beats); the semantics and scope of a SASS ST, a
  // tcgen05.st and the mbarrier form of st.async (their ordering is fixed by the kind), and the
  // semantics of an .mmio store (always .relaxed.sys).
  void scramble_unread(const Decoded& d) {
    Top& u = *dut_;
    auto rnd = [&](auto& port, unsigned lsb, unsigned width) {
      put_bits(port, lsb, width,
               env_rng_() & (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1));
    };
    if (d.kind != kSass) {
      u.in_sass_extended_i = env_rng_() & 1;
      u.in_sass_no_ra_i = env_rng_() & 1;
      u.in_sass_ra_i = uint8_t(env_rng_());
      u.in_guard_i = env_rng_() & 7;
      u.in_guard_neg_i = env_rng_() & 1;
      u.in_plg_i = env_rng_() & 7;
      u.in_plg_neg_i = env_rng_() & 1;
      for (unsigned l = 0; l < 32; ++l) {
        rnd(u.in_ra_lo_i, 32 * l, 32);
        rnd(u.in_ra_hi_i, 32 * l, 32);
        rnd(u.in_pred_i, 7 * l, 7);
      }
    } else {
      u.in_abs_i = env_rng_() & 1;
      for (unsigned l = 0; l < 32; ++l) rnd(u.in_addr_i, 64 * l, 64);
    }
    if (d.kind != kAsync) {
      u.in_mbar_abs_i = env_rng_() & 1;
      u.in_mbar_imm_i = env_rng_();
      for (unsigned l = 0; l < 32; ++l) rnd(u.in_mbar_i, 64 * l, 64);
    }
    if (!d.has_policy)
      for (unsigned l = 0; l < 32; ++l) rnd(u.in_policy_i, 64 * l, 64);
    if (d.kind == kSass || d.kind == kTcgen05 || d.kind == kAsync) {  // their ordering is fixed
      u.in_sem_i = env_rng_() & 3;
      u.in_has_scope_i = env_rng_() & 1;
      u.in_scope_i = env_rng_() & 3;
    } else if (d.mmio) {  // .mmio is .relaxed.sys whatever the semantics field says
      u.in_sem_i = env_rng_() & 3;
    }
    if (d.kind != kTcgen05) {
      u.in_num_i = uint8_t(env_rng_());
      u.in_unpack_i = env_rng_() & 1;
      u.in_split_i = uint32_t(env_rng_());
    } else {
      for (unsigned l = 0; l < 32; ++l)
        for (unsigned w = 0; w < 4; ++w) rnd(u.in_data_i, 256 * l + 64 * w, 64);
    }
  }

  // Drives one warp store through the path and collects what it reports.
  void run(const Decoded& d, const golden::WarpContext& ctx, golden::StoreResult& out) {
    Top& u = *dut_;
    const bool was_offered = on_inputs_.has_value();
    if (on_inputs_) {  // offered behind the store before: on the inputs, unchanged, since then
      if (on_inputs_->kind != d.kind || on_inputs_->active != d.active ||
          on_inputs_->cta != ctx.cta || on_inputs_->warp != ctx.warp)
        if (error_.empty())
          error_ = "rtl model: the store executed is not the one offer_next() offered";
      on_inputs_.reset();
    } else {
      drive(d, ctx);
    }
    unsigned beat = 0;
    u.in_valid_i = 1;
    u.alloc_rsp_valid_i = 0;
    u.mbar_rd_rsp_valid_i = 0;
    u.mbar_wr_ready_i = 1;
    u.st_ready_i = 1;
    bool done = false, accepted = false;
    alloc_wait_.fill(kNotAsked);
    mbar_wait_ = kNotAsked;
    const bool offering = next_store_ || next_cmd_;  // then returns at its status
    // In the cosimulation a tcgen05.st's register beats start with the warp itself half the
    // time (the unit must take them only once it has taken the warp); not behind another warp,
    // whose own beats the port may still carry.
    const bool beats_early = env_.seed && !was_offered && d.kind == kTcgen05 && (env_rng_() & 1);
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      if (env_.seed) {  // random back-pressure on every output port
        u.req_ready_i = !stall();
        u.ev_ready_i = !stall();
        u.tm_ready_i = !stall();
        u.mbar_wr_ready_i = !stall();
        u.st_ready_i = !stall();
        stall_caches();
      } else {  // on the request, event and TMEM ports: a fixed pseudo-random pattern
        lfsr_ = lfsr_ >> 1 ^ (-(lfsr_ & 1u) & 0xB400u);
        u.req_ready_i = (lfsr_ & 3) != 0;
        u.ev_ready_i = (lfsr_ & 12) != 0;
        u.tm_ready_i = (lfsr_ & 48) != 0;
      }
      u.reg_valid_i = d.kind == kTcgen05 && beat < d.regs && (accepted || beats_early);
      if (u.reg_valid_i) {
        u.reg_last_i = beat + 1 == d.regs;
        for (unsigned t = 0; t < 32; ++t)
          put_bits(u.reg_data_i, 32 * t, 32, uint32_t(d.ops->value(beat, t).lo));
      }
      u.clk_i = 0;
      u.eval();
      if ((leave_busy_ || cmd_offered_) && u.l1_ev_ready_i &&
          (u.st_valid_o || (u.l1_ev_valid_o && ev_held_ < kEvHold))) {
        // The L1's events wait up to kEvHold cycles each, and the last one from the status
        // on, so the command that follows finds the L1 still at work (bounded: the L1 takes
        // no line while it holds an event, and the unit gives its status after its last line).
        u.l1_ev_ready_i = 0;
        u.eval();
      }
      ev_held_ = u.l1_ev_valid_o && !u.l1_ev_ready_i ? ev_held_ + 1 : 0;
      const bool taken = u.in_valid_i && u.in_ready_o;  // at this cycle's edge
      // The memory side answers a request when its latency has passed (0: in the cycle it is
      // asked), while the request holds; then the outputs settle again.
      const uint32_t asked = u.alloc_req_valid_o;
      uint32_t answer = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(asked >> l & 1)) {
          alloc_wait_[l] = kNotAsked;
          continue;
        }
        if (alloc_wait_[l] == kNotAsked) alloc_wait_[l] = latency();
        if (alloc_wait_[l] == 0) answer |= 1u << l;
      }
      if (!u.mbar_rd_valid_o) {
        mbar_wait_ = kNotAsked;
      } else if (mbar_wait_ == kNotAsked) {
        mbar_wait_ = latency();
      }
      const bool mbar_answer = u.mbar_rd_valid_o && mbar_wait_ == 0;
      if (answer || mbar_answer) {
        uint32_t ok = 0;
        for (uint32_t m = answer; m; m &= m - 1) {
          const unsigned l = unsigned(__builtin_ctz(m));
          if (image_.allocations().contains(get_bits(u.alloc_req_addr_o, 64 * l, 64),
                                            u.alloc_req_size_o))
            ok |= 1u << l;
        }
        u.alloc_rsp_valid_i = answer;
        u.alloc_rsp_ok_i = ok;
        u.mbar_rd_rsp_valid_i = mbar_answer;
        if (mbar_answer)
          u.mbar_rd_word_i = golden::encode(image_.mbar(u.mbar_rd_cta_o, u.mbar_rd_offset_o));
        u.eval();
      }
      // A request answered at this edge is done; one still waiting is a cycle closer.
      for (unsigned l = 0; l < 32; ++l)
        if (alloc_wait_[l] != kNotAsked)
          alloc_wait_[l] = alloc_wait_[l] ? alloc_wait_[l] - 1 : kNotAsked;
      if (mbar_wait_ != kNotAsked) mbar_wait_ = mbar_wait_ ? mbar_wait_ - 1 : kNotAsked;
      if (u.req_valid_o && u.req_ready_i) take_line(out);
      if (u.tm_valid_o && u.tm_ready_i) take_tmem(out);
      const bool beat_taken = u.reg_valid_i && u.reg_ready_o;
      if (u.ev_valid_o && u.ev_ready_i)
        out.mbar.push_back(golden::MbarEvent{uint16_t(u.ev_cta_o), u.ev_offset_o, u.ev_bytes_o,
                                             uint8_t(u.ev_lane_o), bool(u.ev_completed_o)});
      if (u.mbar_wr_valid_o && u.mbar_wr_ready_i)
        image_.set_mbar(u.mbar_wr_cta_o, u.mbar_wr_offset_o, golden::decode_mbar(u.mbar_wr_word_o));
      if (u.st_valid_o && u.st_ready_i) {
        take_status(out);
        done = true;
        if (d.kind == kTcgen05 && beat < d.regs && error_.empty())
          error_ = "the RTL gave a tcgen05.st's status before taking its last register beat";
      }
      observe_caches();
      // What waits behind this store is taken only once it is done.
      if (accepted && error_.empty() && (taken || (cmd_offered_ && u.cmd_ready_o)))
        error_ = std::string("the ") + (taken ? "store" : "command") +
                 " offered behind a store was taken before the store's status";
      const bool finished = done && (leave_busy_ || offering || caches_quiet());
      clock_edge();
      if (taken && !accepted) {
        accepted = true;
        offer_what_follows();
      }
      if (beat_taken) ++beat;
      u.alloc_rsp_valid_i = 0;
      u.mbar_rd_rsp_valid_i = 0;
      if (finished) {
        check_tied_off();
        busy_left_ = (leave_busy_ || offering) && !caches_quiet();
        leave_busy_ = false;
        return;
      }
    }
    u.in_valid_i = 0;
    leave_busy_ = false;
    next_store_.reset();
    next_cmd_.reset();
    error_ = "the RTL store path gave no status within " + std::to_string(kMaxCycles) +
             " cycles (it hangs)";
  }

  // After a store is taken: the operation offered behind it goes on the inputs (a store with
  // in_valid_i, a command with cmd_valid_i), and waits; with nothing behind it, in_valid_i
  // falls and, in the cosimulation, the store inputs take random values (the unit holds what
  // it took).
  void offer_what_follows() {
    Top& u = *dut_;
    if (next_store_) {
      drive(next_store_->first, next_store_->second);
      on_inputs_ = Offered{next_store_->first.kind, next_store_->first.active,
                           next_store_->second.cta, next_store_->second.warp};
      next_store_.reset();
      return;  // in_valid_i stays high
    }
    u.in_valid_i = 0;
    if (next_cmd_) {
      u.cmd_valid_i = 1;
      u.cmd_flush_i = *next_cmd_;
      cmd_offered_ = true;
      next_cmd_.reset();
    }
    if (!env_.seed) return;
    Decoded junk;
    junk.kind = Kind(env_rng_() % 5);
    junk.active = uint32_t(env_rng_());
    junk.imm = env_rng_();
    for (unsigned l = 0; l < 32; ++l) {
      junk.addr[l] = env_rng_();
      for (unsigned w = 0; w < 4; ++w) {
        const uint64_t v = env_rng_();
        std::memcpy(junk.data[l].data() + 8 * w, &v, 8);
      }
    }
    golden::WarpContext ctx;
    ctx.cta = uint16_t(env_rng_());
    ctx.warp = uint16_t(env_rng_());
    drive(junk, ctx);
  }

  void take_line(golden::StoreResult& out) {
    const golden::LineRequest l = read_line_req(dut_->req_o);
    // The memory side: the request's masked bytes go into the image, run by run.
    for (unsigned b = 0; b < golden::kLineBytes;) {
      if (!l.bytes.test(b)) {
        ++b;
        continue;
      }
      unsigned e = b;
      while (e < golden::kLineBytes && l.bytes.test(e)) ++e;
      image_.write(l.dest, l.line + b, l.data.data() + b, e - b);
      b = e;
    }
    if (caches_ && l.dest.space == MemSpace::Global) l1_lines_.push_back(l.line);
    out.lines.push_back(l);
  }

  // A TMEM run: into the result and into the image's TMEM (the memory side).
  void take_tmem(golden::StoreResult& out) {
    const golden::TmemWrite w = read_tmem_write(dut_->tm_o);
    if (w.cta < image_.config().cluster_ctas && w.lane < golden::kTmemLanes) {
      uint32_t* cells = image_.cta(w.cta).tmem_cells();
      for (unsigned i = 0; i < 32; ++i)
        if ((w.col_mask >> i & 1) && w.col + i < golden::kTmemColumns)
          cells[w.lane * golden::kTmemColumns + w.col + i] = w.data[i];
    }
    out.tmem.push_back(w);
  }

  void take_status(golden::StoreResult& out) {
    const Top& u = *dut_;
    for (unsigned l = 0; l < 32; ++l) {
      const auto k = golden::FaultKind(get_bits(u.st_fault_o, 5 * l, 5));
      if (k != golden::FaultKind::None)
        out.set_fault(l, k, get_bits(u.st_fault_addr_o, 64 * l, 64));
    }
    out.stored_mask = u.st_stored_o;
    out.forced_align_mask = u.st_forced_o;
    out.bytes = u.st_bytes_o;
    golden::Ordering& o = out.order;
    o.sem = isa::Sem(u.st_sem_o);
    o.strong = u.st_strong_o;
    o.scope = u.st_has_scope_o ? std::optional<isa::Scope>(isa::Scope(u.st_scope_o)) : std::nullopt;
    o.release = u.st_release_o;
    o.is_volatile = u.st_volatile_o;
    o.async = u.st_async_o;
    if (out.cache.has_policy) {
      golden::CachePolicy& p = out.cache.policy;
      p.kind = golden::CachePolicy::Kind(u.st_policy_kind_o);
      p.primary = golden::L2Priority(u.st_policy_primary_o);
      p.secondary = golden::L2Priority(u.st_policy_secondary_o);
      p.fraction = float(u.st_policy_lines_o) / 16.0f;
      p.raw = last_policy_raw_;
    }
  }

  static constexpr uint64_t kMaxCycles = 1 << 20;
  golden::MachineState image_;
  std::unique_ptr<VerilatedContext> ctx_;
  uint64_t x_seed_ = 1;  // the X-randomisation seed (names the coverage file)
  std::unique_ptr<Top> dut_;
  bool caches_ = false;
  uint64_t flush_results_ = 0;             // the L2 slice's flush results taken
  static constexpr unsigned kEvHold = 12;  // cycles an L1 event waits before a command
  unsigned ev_held_ = 0;                   // cycles the L1's current event has waited
  bool leave_busy_ = false;  // leave_caches_busy(): the next store returns at its status
  bool busy_left_ = false;   // the last store did, and the caches were still at work
  // The pipelined front end (offer_next): the store or command to offer behind the current
  // operation once it is taken; the store on the inputs now, waiting to be taken (what of it
  // the next execute() checks); a command offered, and one taken at the last edge of the
  // command before it.
  struct Offered {
    Kind kind;
    uint32_t active;
    uint16_t cta, warp;
  };
  std::optional<std::pair<Decoded, golden::WarpContext>> next_store_;
  std::optional<bool> next_cmd_;
  std::optional<Offered> on_inputs_;
  bool cmd_offered_ = false;
  bool cmd_taken_early_ = false;
  std::string no_caches_;
  uint32_t lfsr_ = 0xACE1u;
  // The memory side (RtlEnvironment): cycles each lane's allocation request and the mbarrier
  // read still wait before they are answered.
  static constexpr unsigned kNotAsked = ~0u;
  RtlEnvironment env_;
  std::mt19937_64 env_rng_;
  std::array<unsigned, 32> alloc_wait_{};
  unsigned mbar_wait_ = kNotAsked;
  unsigned latency() {
    return env_.max_latency ? unsigned(env_rng_() % (env_.max_latency + 1)) : 0;
  }
  bool stall() { return double(env_rng_() >> 11) * 0x1.0p-53 < env_.stall; }
  // Random back-pressure on the caches' outputs too (the L1's events, the L2's results, the
  // DRAM writes): a result held in the slice keeps it busy, so a drain's or a flush's steps
  // wait for it.
  void stall_caches() {
    if (!caches_) return;
    Top& u = *dut_;
    u.l1_ev_ready_i = !stall();
    u.l2_res_ready_i = !stall();
    u.dram_ready_i = !stall();
  }
  std::string error_;
  uint64_t cycles_ = 0;
  uint64_t last_policy_raw_ = 0;
  RtlTrace trace_;
  bool dumped_ = false;
  uint64_t last_dump_ = 0;
  std::unique_ptr<VerilatedFstC> fst_;
  // The caches' events of the last store, drain or flush, and every DRAM write so far.
  golden::HierarchyEvents events_;
  std::vector<golden::DramWrite> dram_;
  std::deque<uint64_t> l1_lines_;        // global lines sent to the L1, awaiting their events
  std::deque<golden::L2Write> l2_sent_;  // L2 writes taken, awaiting their results
  uint64_t l2_expected_ = 0, l2_seen_ = 0;
};

}  // namespace

std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const RtlTrace* trace) {
  return std::make_unique<PathModel<Vstu_store_path_nocache>>(cfg, nullptr, trace);
}

std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const golden::HierarchyConfig& caches,
                                              const RtlTrace* trace) {
  const std::string why = caches_fit(caches);
  if (!why.empty())
    return std::make_unique<PathModel<Vstu_store_path_nocache>>(cfg, nullptr, trace, why);
  return std::make_unique<PathModel<Vstu_store_path>>(cfg, &caches, trace);
}

}  // namespace stu::tb
