// The RTL store unit as a `.sts` model (see rtl_model.h).
#include "rtl_model.h"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Vstu_l1_wpath_max.h"
#include "Vstu_l2_wslice_max.h"
#include "Vstu_store_unit.h"
#include "bits.h"
#include "blocks.h"
#include "cache_ports.h"
#include "ports.h"
#include "stu/golden/executor.h"
#include "stu/golden/store_align.h"
#include "stu/isa/space_rules.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace stu::tb {
namespace {

namespace LR = rtl::layout::line_req;
namespace TW = rtl::layout::tmem_write;
using golden::MemSpace;

static_assert(port_words<decltype(Vstu_store_unit::in_data_i)> ==
                  words_for_bits(32 * golden::kMaxAccessBytes * 8),
              "stu_store_unit data: 32 lanes of golden::kMaxAccessBytes");
static_assert(port_words<decltype(Vstu_store_unit::req_o)> == words_for_bits(LR::kWidth),
              "stu_store_unit request is one line_req_t");

enum Kind : uint8_t { kSt = 0, kAsync = 1, kSass = 2, kAsyncRelease = 3, kTcgen05 = 4 };

unsigned log2u(unsigned v) { return unsigned(__builtin_ctz(v)); }

// The decoded warp store the top takes (what the front end gives the store unit).
struct Decoded {
  Kind kind = kSt;
  bool mmio = false;
  bool has_policy = false;
  uint32_t active = 0;
  bool generic = true;
  isa::Space space = isa::Space::Global;
  unsigned elem_bytes = 4, elems = 1;
  uint8_t sinks = 0;
  golden::MisalignMode mode = golden::MisalignMode::Fault;
  golden::FaultKind space_fault[8] = {};
  uint32_t plg = 0;
  unsigned scope = 0;  // 0 none, 1 + isa::Scope
  std::array<uint64_t, 32> addr{}, mbar{}, policy{};
  std::array<std::array<uint8_t, 32>, 32> data{};
  // tcgen05.st
  isa::TmemShape shape = isa::TmemShape::S32x32b;
  unsigned num = 1, regs = 0;
  bool unpack = false;
  uint32_t split = 0;
  uint16_t alloc = 0;
  const golden::WarpOperands* ops = nullptr;  // the register beats: value(j, t)
};

// The cache blocks behind the top: the Verilated stu_l1_wpath (its l2 port) -> stu_l2_wslice
// (its DRAM port), at their maxima, configured to the test's geometry. Each global line
// request of a store is offered to the L1 as MemoryHierarchy::store feeds its hierarchy (in
// order, the release point on the store's first global line, the store's cache attributes and
// ordering); the L1 decodes its own action; the L2 action it carries is the decoder's
// (golden::l2_store_action, a pure policy function: the request format carries it). Their
// state is read back through the blocks' debug ports.
class RtlCaches {
 public:
  static constexpr unsigned kL1MaxSets = 64, kL1MaxWays = 8, kWbMax = 16;
  static constexpr unsigned kL2MaxSets = 128, kL2MaxWays = 16;

  // Empty when the blocks hold the geometry; else why not.
  static std::string check(const golden::HierarchyConfig& c) {
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

  RtlCaches(VerilatedContext* ctx, const golden::HierarchyConfig& c)
      : l1_(std::make_unique<Vstu_l1_wpath_max>(ctx, "stu_l1_wpath")),
        l2_(std::make_unique<Vstu_l2_wslice_max>(ctx, "stu_l2_wslice")) {
    Vstu_l1_wpath_max& a = *l1_;
    Vstu_l2_wslice_max& b = *l2_;
    a.cfg_set_mask_i = c.l1.sets() - 1;
    a.cfg_ways_i = c.l1.ways;
    a.cfg_wb_entries_i = c.write_buffer;
    b.cfg_set_mask_i = c.l2.sets() - 1;
    b.cfg_ways_i = c.l2.ways;
    a.req_valid_i = b.req_valid_i = 0;
    a.ev_ready_i = b.res_ready_i = b.dram_ready_i = 1;
    a.l2_ready_i = 0;
    a.clk_i = b.clk_i = 0;
    a.rst_ni = b.rst_ni = 0;
    a.eval();
    b.eval();
    edge();
    a.rst_ni = b.rst_ni = 1;
    a.eval();
    b.eval();
  }
  ~RtlCaches() {
    l1_->final();
    l2_->final();
  }

  uint64_t cycles() const { return cycles_; }
  const golden::HierarchyEvents& events() const { return events_; }
  const std::vector<golden::DramWrite>& dram() const { return dram_; }

  // The global line requests of one store.
  void store(const golden::StoreResult& r) {
    events_.clear();
    bool release = r.order.release;
    for (const golden::LineRequest& req : r.lines) {
      if (req.dest.space != MemSpace::Global) continue;
      line(req, r.cache, r.order, release);
      release = false;
    }
  }
  // `drain`: a drain request to the L1; `flush`: then a flush request to the L2.
  void drain(bool flush) {
    events_.clear();
    namespace F = rtl::layout::l1_req;
    auto& w = l1_->req_i;
    zero(w);
    put_field(w, 0, F::drain, 1);
    run(true, false);
    if (flush) run(false, true);
  }

  golden::CacheLookup lookup(bool l1, uint64_t addr) const {
    return l1 ? debug_lookup(*l1_, addr) : debug_lookup(*l2_, addr);
  }
  size_t write_buffer_entries() const {
    l1_->eval();
    return l1_->dbg_wb_count_o;
  }
  std::string take_error() { return std::exchange(error_, std::string()); }

 private:
  template <typename W>
  static void zero(W& w) {
    for (size_t i = 0; i < port_words<W>; ++i) w[i] = 0;
  }
  void line(const golden::LineRequest& req, const golden::CacheAttrs& attrs,
            const golden::Ordering& order, bool release) {
    const uint64_t line = req.line & ~uint64_t(golden::kLineBytes - 1);
    pack_l1_req(l1_->req_i, req, attrs, order, release);
    line_ = line;
    run(true, false);
  }

  void edge() {
    l1_->clk_i = 1;
    l2_->clk_i = 1;
    l1_->eval();
    l2_->eval();
    ++cycles_;
    l1_->clk_i = 0;
    l2_->clk_i = 0;
  }

  // Offers the L1 request (to_l1) or a flush to the L2 (flush) and clocks both blocks until it
  // is taken and everything it caused has left: the L1 event, the L2 writes, their results and
  // DRAM writes. The L1's L2 port feeds the L2's request port (the L2's ready depends on its
  // state and output readies only, so the order of evaluation is L2, L1, L2); every output is
  // always ready.
  void run(bool to_l1, bool flush) {
    namespace E = rtl::layout::l1_event;
    namespace W = rtl::layout::l2_write;
    namespace R = rtl::layout::l2_result;
    namespace D = rtl::layout::dram_write;
    Vstu_l1_wpath_max& a = *l1_;
    Vstu_l2_wslice_max& b = *l2_;
    a.req_valid_i = to_l1;
    bool offer_flush = flush, taken = false, ev_seen = false, flushed = false;
    uint32_t results = 0, want_writes = 0;
    std::vector<golden::L2Write> sent;  // L2 writes taken, awaiting their results
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      b.eval();
      a.l2_ready_i = !offer_flush && b.req_ready_o;
      a.eval();
      if (offer_flush) {
        zero(b.req_i);
        put_field(b.req_i, 0, W::flush, 1);
        b.req_valid_i = 1;
      } else {
        for (size_t i = 0; i < port_words<decltype(b.req_i)>; ++i) b.req_i[i] = a.l2_o[i];
        b.req_valid_i = a.l2_valid_o;
      }
      b.eval();
      const bool quiet = !a.ev_valid_o && !a.l2_valid_o && !b.res_valid_o && !b.dram_valid_o;
      if (taken && quiet && (flush ? flushed : ev_seen && results == want_writes)) return;
      if (a.ev_valid_o) {
        const auto& e = a.ev_o;
        ev_seen = true;
        want_writes = uint32_t(get_field(e, 0, E::drained));
        if (!get_field(e, 0, E::drain)) {
          golden::L1Event ev;
          ev.line = line_;
          ev.action.on_hit = get_field(e, 0, E::invalidate) ? golden::L1OnHit::Invalidate
                                                            : golden::L1OnHit::Update;
          ev.action.allocate = get_field(e, 0, E::allocate);
          ev.action.cls = golden::EvictClass(get_field(e, 0, E::cls));
          if (get_field(e, 0, E::keep_cls)) ev.action.cls = std::nullopt;
          ev.hit = get_field(e, 0, E::hit);
          ev.allocated = get_field(e, 0, E::allocated);
          ev.invalidated = get_field(e, 0, E::invalidated);
          ev.evicted = get_field(e, 0, E::evicted);
          ev.victim_line = get_field(e, 0, E::victim_line);
          ev.wb.merged = get_field(e, 0, E::merged);
          ev.wb.drained = want_writes;
          events_.l1.push_back(ev);
        }
      }
      if (a.l2_valid_o && a.l2_ready_i) {
        const auto& w = a.l2_o;
        golden::L2Write lw;
        lw.req.line = get_field(w, 0, W::line);
        lw.req.bytes = {get_bits(w, W::bytes.lsb, 64), get_bits(w, W::bytes.lsb + 64, 64)};
        get_bytes(w, W::data.lsb, lw.req.data.data(), golden::kLineBytes);
        lw.req.l2.cls = golden::EvictClass(get_field(w, 0, W::cls));
        if (get_field(w, 0, W::keep_cls)) lw.req.l2.cls = std::nullopt;
        lw.req.l2.allocate = get_field(w, 0, W::allocate);
        lw.req.l2.mode =
            get_field(w, 0, W::through) ? golden::WriteMode::Through : golden::WriteMode::Back;
        sent.push_back(lw);
      }
      if (b.res_valid_o) {
        const auto& r = b.res_o;
        if (get_field(r, 0, R::flush)) {
          flushed = true;
        } else if (results < sent.size()) {
          golden::L2Write& lw = sent[results];
          lw.hit = get_field(r, 0, R::hit);
          lw.allocated = get_field(r, 0, R::allocated);
          lw.evicted = get_field(r, 0, R::evicted);
          lw.victim_line = get_field(r, 0, R::victim_line);
          events_.l2.push_back(lw);
          ++results;
        }
      }
      if (b.dram_valid_o) {
        const auto& d = b.dram_o;
        golden::DramWrite dw;
        dw.line = get_field(d, 0, D::line);
        dw.bytes = {get_bits(d, D::bytes.lsb, 64), get_bits(d, D::bytes.lsb + 64, 64)};
        dw.cause = golden::DramCause(get_field(d, 0, D::cause));
        get_bytes(d, D::data.lsb, dw.data.data(), golden::kLineBytes);
        events_.dram.push_back(dw);
        dram_.push_back(dw);
      }
      const bool l1_taken = a.req_valid_i && a.req_ready_o;
      const bool flush_taken = offer_flush && b.req_ready_o;
      edge();
      if (l1_taken) {
        a.req_valid_i = 0;
        taken = true;
      }
      if (flush_taken) {
        offer_flush = false;
        b.req_valid_i = 0;
        taken = true;
      }
      if (l1_->contextp()->gotError() && error_.empty())
        error_ = "an RTL assertion failed in the cache blocks (its message is above)";
    }
    if (error_.empty())
      error_ = "the RTL cache blocks did not finish within " + std::to_string(kMaxCycles) +
               " cycles (they hang)";
  }

  static constexpr uint64_t kMaxCycles = 1 << 16;
  std::unique_ptr<Vstu_l1_wpath_max> l1_;
  std::unique_ptr<Vstu_l2_wslice_max> l2_;
  golden::HierarchyEvents events_;
  std::vector<golden::DramWrite> dram_;
  uint64_t line_ = 0;
  uint64_t cycles_ = 0;
  std::string error_;
};

class RtlModel final : public RtlStoreModel {
 public:
  RtlModel(const golden::ModelConfig& cfg, const golden::HierarchyConfig* caches,
           const RtlTrace* trace)
      : image_(cfg), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    ctx_->randReset(2);  // X-randomisation from the seed (1 unless the cosimulation gives one)
    ctx_->randSeed(int((trace ? trace->x_seed : 1) % 0x7FFFFFFF) + 1);
    const bool wave = trace && !trace->path.empty();
    if (wave) ctx_->traceEverOn(true);
    dut_ = std::make_unique<Vstu_store_unit>(ctx_.get(), "stu_store_unit");
    if (wave) {
      trace_ = *trace;
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(trace->path.c_str());
    }
    // Every input valid low before reset: X-randomisation starts the inputs at random values
    // too, and a stray in_valid_i would start a warp during the configuration cycles.
    dut_->in_valid_i = 0;
    dut_->reg_valid_i = 0;
    dut_->cfg_valid_i = 0;
    dut_->alloc_rsp_valid_i = 0;
    dut_->mbar_rd_rsp_valid_i = 0;
    dut_->req_ready_i = dut_->ev_ready_i = dut_->tm_ready_i = 0;
    dut_->mbar_wr_ready_i = dut_->st_ready_i = 0;
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->eval();
    tick();
    dut_->rst_ni = 1;
    dut_->eval();
    const uint64_t regs[] = {cfg.map.shared.base, cfg.map.shared.size, cfg.map.shared_cta_stride,
                             cfg.map.local.base,  cfg.map.local.size,  cfg.map.param.base,
                             cfg.map.param.size,  cfg.map.konst.base,  cfg.map.konst.size,
                             cfg.cluster_ctas,    cfg.shared_bytes,    cfg.local_bytes,
                             cfg.param_func_bytes};
    for (unsigned i = 0; i < 13; ++i) {
      dut_->cfg_valid_i = 1;
      dut_->cfg_sel_i = uint8_t(i);
      dut_->cfg_data_i = regs[i];
      tick();
    }
    dut_->cfg_valid_i = 0;
    if (caches) {
      no_caches_ = RtlCaches::check(*caches);
      if (no_caches_.empty()) caches_ = std::make_unique<RtlCaches>(ctx_.get(), *caches);
    }
  }
  ~RtlModel() override {
    caches_.reset();
    if (fst_) fst_->close();
    dut_->final();
  }

  bool has_caches() const override { return caches_ != nullptr; }
  std::string no_caches_reason() const override {
    return no_caches_.empty() ? StoreModel::no_caches_reason() : no_caches_;
  }
  golden::CacheLookup cache_line(sts::CacheLevel level, uint64_t addr) const override {
    return caches_ ? caches_->lookup(level == sts::CacheLevel::L1, addr) : golden::CacheLookup{};
  }
  size_t write_buffer_entries() const override {
    return caches_ ? caches_->write_buffer_entries() : 0;
  }
  void drain_caches(bool flush) override {
    if (caches_) caches_->drain(flush);
  }
  const golden::HierarchyEvents* cache_events() const override {
    return caches_ ? &caches_->events() : nullptr;
  }
  const std::vector<golden::DramWrite>* dram_writes() const override {
    return caches_ ? &caches_->dram() : nullptr;
  }

  std::string_view name() const override { return "rtl"; }
  uint64_t cycles() const override { return cycles_; }
  golden::MachineState& image() override { return image_; }

  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override {
    execute_top(ins, ctx, ops, out);
    if (caches_) caches_->store(out);
  }
  void execute_sass(const isa::SassSt& s, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile& rf, golden::StoreResult& out) override {
    execute_sass_top(s, ctx, rf, out);
    if (caches_) caches_->store(out);
  }

  std::string take_error() override {
    std::string e = std::exchange(error_, std::string());
    if (caches_ && e.empty()) e = caches_->take_error();
    return e;
  }

 private:
  void execute_top(const isa::Instruction& ins, const golden::WarpContext& ctx,
                   const golden::WarpOperands& ops, golden::StoreResult& out) {
    out.clear();
    out.order = golden::ordering_of(ins);  // the decoder's rule; the RTL narrows the scope
    out.cache.cop = ins.cop;
    out.cache.l1 = ins.l1;
    out.cache.l2 = ins.l2;
    if (ins.cache_hint) {  // the policy decoder belongs to the L2 (stu_l2_wslice, planned)
      out.cache.has_policy = true;
      const unsigned low = ctx.active ? unsigned(__builtin_ctz(ctx.active)) : 0;
      out.cache.policy = golden::decode_policy(ops.policy[low]);
    }
    if (ctx.active == 0 || ins.stores_nothing()) return;  // nothing reaches the unit (ptxas)
    Decoded d;
    d.active = ctx.active;
    if (ins.op == isa::Opcode::Tcgen05St) {
      d.regs = ins.tmem_regs();
      if (!ins.shape || d.regs == 0 || ops.src.size() < size_t(d.regs) * 32) {
        bad_instruction(ctx.active, out);
        return;
      }
      d.kind = kTcgen05;
      d.shape = *ins.shape;
      d.num = ins.num ? ins.num : 1;
      d.unpack = ins.unpack16;
      d.split = ins.split_off ? uint32_t(ins.split_off->value) : 0;
      if (ctx.cta < image_.config().cluster_ctas)
        d.alloc = image_.cta(ctx.cta).tmem_alloc.unit_mask();  // the allocator's state
      for (unsigned l = 0; l < 32; ++l) d.addr[l] = address_of(ins.addr, ops.addr[l]);
      d.ops = &ops;
      run(d, ctx, out);
      out.bytes =
          4ull * unsigned(__builtin_popcount(out.stored_mask)) * d.regs * (d.unpack ? 2 : 1);
      return;
    }
    const unsigned elems = ins.vec_lanes();
    const unsigned esize = ins.type ? isa::bytes_of(*ins.type) : 0;
    if (!ins.type || ops.src.size() < size_t(elems) * 32 || esize * elems == 0 ||
        esize * elems > golden::kMaxAccessBytes) {
      bad_instruction(ctx.active, out);  // the decoder rejects it: no operation reaches the unit
      return;
    }
    d.kind = ins.op != isa::Opcode::StAsync ? kSt : ins.is_async_release() ? kAsyncRelease : kAsync;
    d.mmio = ins.mmio;
    d.has_policy = ins.cache_hint;
    d.policy = ops.policy;
    d.generic = !ins.space;
    if (ins.space) d.space = *ins.space;
    d.elem_bytes = esize;
    d.elems = elems;
    if (ins.src.size() == elems)
      for (unsigned e = 0; e < elems; ++e)
        if (ins.src[e].kind == isa::Operand::Kind::Sink) d.sinks |= uint8_t(1u << e);
    for (unsigned s = 0; s <= unsigned(MemSpace::Tmem); ++s) {
      const isa::SpaceViolations v = isa::space_violations(ins, golden::isa_space(MemSpace(s)));
      d.space_fault[s] = v.has(isa::SpaceRule::ReadOnly) ? golden::FaultKind::ReadOnly
                         : v.any()                       ? golden::FaultKind::IllegalForSpace
                                                         : golden::FaultKind::None;
    }
    d.scope = out.order.scope ? 1 + unsigned(*out.order.scope) : 0;
    for (unsigned l = 0; l < 32; ++l) {
      d.addr[l] = address_of(ins.addr, ops.addr[l]);
      if (ins.mbar) d.mbar[l] = address_of(*ins.mbar, ops.mbar[l]);
      for (unsigned e = 0; e < elems; ++e) {
        const golden::RegValue& v = ops.value(e, l);
        uint8_t* p = d.data[l].data() + e * esize;
        std::memcpy(p, &v.lo, esize < 8 ? esize : 8);
        if (esize > 8) std::memcpy(p + 8, &v.hi, esize - 8);
      }
    }
    run(d, ctx, out);
    if (out.order.scope) {
      const unsigned s = narrowed_scope_;
      out.order.scope = s ? std::optional<isa::Scope>(isa::Scope(s - 1)) : std::nullopt;
    }
  }

  void execute_sass_top(const isa::SassSt& s, const golden::WarpContext& ctx,
                        const golden::SassRegisterFile& rf, golden::StoreResult& out) {
    out.clear();
    out.cache.cop = isa::CacheOp(uint8_t(s.cop));
    Decoded d;
    d.kind = kSass;
    const unsigned size = isa::bytes_of(s.size);
    d.elem_bytes = size;
    d.mode = image_.config().sass_misalign;
    for (unsigned l = 0; l < 32; ++l) {
      if (!(ctx.active >> l & 1)) continue;
      if (s.guard && rf.pred(l, s.guard->index) == s.guard->negated) continue;
      d.active |= 1u << l;
      // The address generation of SASS ST (the front end of the unit, golden::sass_address).
      d.addr[l] = golden::sass_address(s, rf, l, image_.config().sass_regs);
      if (rf.pred(l, s.plg.index) != s.plg.negated) d.plg |= 1u << l;
      for (unsigned b = 0; b < size; ++b) {
        const unsigned reg = s.rb == isa::kRZ ? isa::kRZ : s.rb + b / 4;
        d.data[l][b] = uint8_t(rf.read(l, reg) >> (8 * (b % 4)));
      }
    }
    run(d, ctx, out);
  }

  static uint64_t address_of(const isa::Address& a, uint64_t reg) {
    if (a.base == isa::Address::Base::Immediate) return uint64_t(a.offset);
    return reg + uint64_t(a.offset);
  }
  static void bad_instruction(uint32_t active, golden::StoreResult& out) {
    for (uint32_t m = active; m; m &= m - 1)
      out.set_fault(unsigned(__builtin_ctz(m)), golden::FaultKind::BadInstruction, 0);
  }
  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dump(1);
    ++cycles_;
    dut_->clk_i = 0;
    dut_->eval();
    dump(0);
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

  // Drives one decoded warp store through the top and collects what it reports.
  void run(const Decoded& d, const golden::WarpContext& ctx, golden::StoreResult& out) {
    Vstu_store_unit& u = *dut_;
    u.in_kind_i = d.kind;
    u.in_mmio_i = d.mmio;
    u.in_has_policy_i = d.has_policy;
    u.in_cta_i = ctx.cta;
    u.in_warp_i = ctx.warp;
    u.in_active_i = d.active;
    u.in_generic_i = d.generic;
    u.in_space_i = uint8_t(d.space);
    u.in_elem_log2_i = uint8_t(log2u(d.elem_bytes));
    u.in_elems_log2_i = uint8_t(log2u(d.elems));
    u.in_sinks_i = d.sinks;
    u.in_mode_i = d.mode == golden::MisalignMode::Fault ? 1 : 0;
    uint64_t space_fault = 0;
    for (unsigned s = 0; s < 8; ++s) space_fault |= uint64_t(d.space_fault[s]) << (5 * s);
    u.in_space_fault_i = space_fault;
    u.in_plg_i = d.plg;
    u.in_shape_i = uint8_t(d.shape);
    u.in_num_i = uint8_t(d.num);
    u.in_unpack_i = d.unpack;
    u.in_split_i = d.split;
    u.in_alloc_i = d.alloc;
    unsigned beat = 0;
    u.in_scope_i = uint8_t(d.scope);
    for (unsigned l = 0; l < 32; ++l) {
      put_bits(u.in_addr_i, 64 * l, 64, d.addr[l]);
      put_bits(u.in_mbar_i, 64 * l, 64, d.mbar[l]);
      put_bits(u.in_policy_i, 64 * l, 64, d.policy[l]);
      put_bytes(u.in_data_i, 256 * l, d.data[l].data(), 32);
    }
    u.in_valid_i = 1;
    u.alloc_rsp_valid_i = 0;
    u.mbar_rd_rsp_valid_i = 0;
    u.mbar_wr_ready_i = 1;
    u.ev_ready_i = 1;
    u.st_ready_i = 1;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      // Back-pressure on the request and event ports: a fixed pseudo-random pattern.
      lfsr_ = lfsr_ >> 1 ^ (-(lfsr_ & 1u) & 0xB400u);
      u.req_ready_i = (lfsr_ & 3) != 0;
      u.ev_ready_i = (lfsr_ & 12) != 0;
      u.tm_ready_i = (lfsr_ & 48) != 0;
      u.reg_valid_i = d.kind == kTcgen05 && beat < d.regs && !u.in_valid_i;
      if (u.reg_valid_i) {
        u.reg_last_i = beat + 1 == d.regs;
        for (unsigned t = 0; t < 32; ++t) u.reg_data_i[t] = uint32_t(d.ops->value(beat, t).lo);
      }
      u.clk_i = 0;
      u.eval();
      const bool taken = u.in_valid_i && u.in_ready_o;  // at this cycle's edge
      // The memory side answers in the cycle it is asked (then the outputs settle again).
      if (u.alloc_req_valid_o || u.mbar_rd_valid_o) {
        u.alloc_rsp_valid_i = u.alloc_req_valid_o;
        u.alloc_rsp_ok_i = u.alloc_req_valid_o &&
                           image_.allocations().contains(u.alloc_req_addr_o, u.alloc_req_size_o);
        u.mbar_rd_rsp_valid_i = u.mbar_rd_valid_o;
        if (u.mbar_rd_valid_o)
          u.mbar_rd_word_i = golden::encode(image_.mbar(u.mbar_rd_cta_o, u.mbar_rd_offset_o));
        u.eval();
      }
      if (u.req_valid_o && u.req_ready_i) take_line(out);
      if (u.tm_valid_o && u.tm_ready_i) take_tmem(out);
      const bool beat_taken = u.reg_valid_i && u.reg_ready_o;
      if (u.ev_valid_o && u.ev_ready_i)
        out.mbar.push_back(golden::MbarEvent{uint16_t(u.ev_cta_o), u.ev_offset_o, u.ev_bytes_o,
                                             uint8_t(u.ev_lane_o), bool(u.ev_completed_o)});
      if (u.mbar_wr_valid_o && u.mbar_wr_ready_i)
        image_.set_mbar(u.mbar_wr_cta_o, u.mbar_wr_offset_o, golden::decode_mbar(u.mbar_wr_word_o));
      const bool done = u.st_valid_o && u.st_ready_i;
      if (done) take_status(out);
      dump(0);
      u.clk_i = 1;
      u.eval();
      dump(1);
      ++cycles_;
      if (taken) u.in_valid_i = 0;
      if (beat_taken) ++beat;
      u.alloc_rsp_valid_i = 0;
      u.mbar_rd_rsp_valid_i = 0;
      if (ctx_->gotError() && error_.empty())
        error_ = "an RTL assertion failed in stu_store_unit (its message is above)";
      if (done) return;
    }
    error_ = "the RTL store unit gave no status within " + std::to_string(kMaxCycles) +
             " cycles (it hangs)";
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
    out.bytes += l.bytes.count();
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
    const Vstu_store_unit& u = *dut_;
    for (unsigned l = 0; l < 32; ++l) {
      const auto k = golden::FaultKind(get_bits(u.st_fault_o, 5 * l, 5));
      if (k != golden::FaultKind::None)
        out.set_fault(l, k, get_bits(u.st_fault_addr_o, 64 * l, 64));
    }
    out.stored_mask = u.st_stored_o;
    out.forced_align_mask = u.st_forced_o;
    narrowed_scope_ = u.st_scope_o;
  }

  static constexpr uint64_t kMaxCycles = 1 << 20;
  golden::MachineState image_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vstu_store_unit> dut_;
  uint32_t lfsr_ = 0xACE1u;
  unsigned narrowed_scope_ = 0;
  std::string error_;
  uint64_t cycles_ = 0;
  RtlTrace trace_;
  bool dumped_ = false;
  uint64_t last_dump_ = 0;
  std::unique_ptr<VerilatedFstC> fst_;
  std::unique_ptr<RtlCaches> caches_;  // with `cache` lines in the header
  std::string no_caches_;              // why not, when the blocks cannot hold the geometry
};

}  // namespace

std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const RtlTrace* trace) {
  return std::make_unique<RtlModel>(cfg, nullptr, trace);
}
std::unique_ptr<RtlStoreModel> make_rtl_model(const golden::ModelConfig& cfg,
                                              const golden::HierarchyConfig& caches,
                                              const RtlTrace* trace) {
  return std::make_unique<RtlModel>(cfg, &caches, trace);
}

}  // namespace stu::tb
