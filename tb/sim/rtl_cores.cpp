// RTL in the loop of the TLM model: the Verilated blocks as the TLM modules' cores
// (systemc/cores.h). Each adapter owns one Verilated model with its own context, clocks it
// cycle by cycle for every call (with a cycle limit: a hang is an error, never an endless loop)
// and reports Verilator assertion failures and hangs through take_error().
//
//   l1_wpath   Vstu_l1_wpath_max  (at most 64 sets x 8 ways, 16 write-buffer entries)
//   l2_wslice  Vstu_l2_wslice_max (at most 128 sets x 16 ways)
//   mbarrier   Vstu_mbarrier
//   coalescer  Vstu_coalescer
//
// Larger cache geometries are clamped to what the blocks hold (name() says so): the L1 is
// write-through and the L2 is flushed at the end, so the golden-image check does not depend on
// the geometry.
// The Verilated (--cc) headers first: after a SystemC header (tlm_model.h) verilated.h would
// take the time from sc_time_stamp(), which these models do not use.
#include "Vstu_coalescer.h"
#include "Vstu_l1_wpath_max.h"
#include "Vstu_l2_wslice_max.h"
#include "Vstu_mbarrier.h"
#include "verilated.h"

#include "rtl_cores.h"

#include "cosim.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bits.h"
#include "blocks.h"
#include "cache_ports.h"
#include "cores.h"
#include "ports.h"
#include "stu/golden/access.h"
#include "stu/golden/cache.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/store_align.h"

namespace stu::tb {
namespace {

constexpr uint64_t kMaxCycles = 1 << 16;  // per call: far beyond any block's latency

template <typename W>
void zero(W& w) {
  for (size_t i = 0; i < port_words<W>; ++i) w[i] = 0;
}

// The one Verilated context of every RTL core, never destroyed. Verilator routes a model's
// scope registration (construction, destruction) and its assertion failures ($error) to the
// thread's current context, not the model's own, and the thread's context dangles once the
// last one constructed is destroyed: with one context per core, a run that destroys cores of
// several blocks locks a destroyed context's mutex. So all the cores share this context, made
// the thread's current one before each use.
VerilatedContext& shared_context() {
  static VerilatedContext* const ctx = [] {
    auto* c = new VerilatedContext;
    c->fatalOnError(false);  // an assertion sets gotError(); the adapter reports it
    return c;
  }();
  Verilated::threadContextp(ctx);
  return *ctx;
}

// One Verilated block in the shared context: reset, clock edges, the error state.
template <typename Dut>
class Block {
 public:
  explicit Block(const char* kind) {
    static unsigned instances = 0;  // scope names are unique within the context
    const std::string name = std::string(kind) + "_" + std::to_string(instances++);
    dut_ = std::make_unique<Dut>(&shared_context(), name.c_str());
  }
  ~Block() {
    enter();
    dut_->final();
    dut_.reset();
  }
  // Makes the shared context the thread's own; before each use of the block (dut() does).
  void enter() const { shared_context(); }
  Dut& dut() const {
    enter();
    return *dut_;
  }
  void reset() {
    enter();
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    edge();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  // One rising edge (inputs already set and evaluated); the clock returns low.
  void edge() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
  }
  // After each edge: an assertion failure (during this block's evaluation, the only one
  // running) becomes the error; the context's flags are cleared for the next one.
  void check(std::string& error, const char* what) {
    VerilatedContext* const ctx = dut_->contextp();
    if (!ctx->gotError()) return;
    ctx->gotError(false);
    ctx->gotFinish(false);
    const std::string e =
        std::string("an RTL assertion failed in ") + what + " (its message is above)";
    if (error.find(e) == std::string::npos) error = error.empty() ? e : error + "; " + e;
  }

 private:
  std::unique_ptr<Dut> dut_;
};

std::string hang_text(const char* what) {
  return std::string("the RTL ") + what + " did not finish within " + std::to_string(kMaxCycles) +
         " cycles (it hangs)";
}

std::string append(std::string a, const std::string& b) { return a.empty() ? b : a + "; " + b; }

// The geometry a `_max` block holds: ways and sets clamped to its maxima.
golden::CacheGeometry clamp(const golden::CacheGeometry& g, unsigned max_sets, unsigned max_ways,
                            bool& clamped) {
  const uint32_t ways = std::clamp<uint32_t>(g.ways, 1, max_ways);
  const uint32_t sets = std::clamp<uint32_t>(g.sets(), 1, max_sets);
  clamped = ways != g.ways || sets != g.sets();
  golden::CacheGeometry c;
  c.ways = ways;
  c.bytes = uint64_t(sets) * ways * golden::kLineBytes;
  return c;
}

// --- L1 write path ---------------------------------------------------------------------------

// Vstu_l1_wpath_max as the L1 core. The block reports hit and merged in its event; the entries
// that leave on its L2 port carry line, bytes, data and L2 action. What the port does not carry
// (the entry's ordering, mergeable, and how many stores merged into it, for the statistics and
// the trace) is kept alongside, in a shadow of the buffer's order that each leaving entry is
// checked against.
class RtlL1Core final : public sim::L1Core {
 public:
  static constexpr unsigned kMaxSets = 64, kMaxWays = 8, kWbMax = 16;

  RtlL1Core(const golden::CacheGeometry& g, unsigned wb) : b_("stu_l1_wpath") {
    bool clamped = false;
    const golden::CacheGeometry c = clamp(g, kMaxSets, kMaxWays, clamped);
    const unsigned entries = std::clamp(wb, 1u, kWbMax);
    name_ = "rtl";
    std::string why;
    if (clamped)
      why =
          "clamped to " + std::to_string(c.sets()) + " sets x " + std::to_string(c.ways) + " ways";
    if (entries != wb)
      why += std::string(why.empty() ? "" : ", ") + std::to_string(entries) + "-entry write buffer";
    if (!why.empty()) name_ += " (" + why + ")";
    auto& d = b_.dut();
    d.cfg_set_mask_i = c.sets() - 1;
    d.cfg_ways_i = c.ways;
    d.cfg_wb_entries_i = entries;
    d.req_valid_i = 0;
    d.ev_ready_i = 1;
    d.l2_ready_i = 1;
    b_.reset();
  }

  std::string name() const override { return name_; }

  sim::L1Result store(const golden::LineRequest& req, const golden::CacheAttrs& attrs,
                      const golden::Ordering& order, bool release_point,
                      std::vector<golden::WbEntry>& out) override {
    const uint64_t line = req.line & ~uint64_t(golden::kLineBytes - 1);
    pack_l1_req(b_.dut().req_i, req, attrs, order, release_point);
    const Event ev = run(out);
    sim::L1Result r;
    r.hit = ev.hit;
    r.merged = ev.merged;
    // The shadow, as the buffer: the leaving entries were taken off its front in run(); then
    // the request merged into the youngest entry of its line, or was appended.
    if (ev.seen) {
      if (ev.merged) {
        auto it = std::find_if(shadow_.rbegin(), shadow_.rend(),
                               [&](const Meta& m) { return m.line == line; });
        if (it == shadow_.rend() || !it->mergeable)
          error_ = append(
              error_, "the RTL L1 merged line " + hex(line) + " into no weak entry of that line");
        else
          ++it->stores;
      } else {
        shadow_.push_back(Meta{line, !order.strong && !order.mmio, 1});
      }
    }
    return r;
  }

  void drain(std::vector<golden::WbEntry>& out) override {
    auto& w = b_.dut().req_i;
    zero(w);
    put_field(w, 0, rtl::layout::l1_req::drain, 1);
    run(out);
  }

  golden::CacheLookup lookup(uint64_t addr) const override { return debug_lookup(b_.dut(), addr); }
  unsigned wb_entries() const override {
    b_.dut().eval();
    return b_.dut().dbg_wb_count_o;
  }
  std::string take_error() override { return std::exchange(error_, std::string()); }

 private:
  struct Meta {
    uint64_t line = 0;
    bool mergeable = true;
    uint32_t stores = 1;
  };
  struct Event {
    bool seen = false, hit = false, merged = false;
  };

  // Offers req_i and clocks the block until the request is taken, its event has left and so
  // have the entries it says left the buffer (every output always ready).
  Event run(std::vector<golden::WbEntry>& out) {
    namespace E = rtl::layout::l1_event;
    namespace W = rtl::layout::l2_write;
    Event ev;
    if (hung_) return ev;  // a hung block stays out of the loop (its error was reported)
    auto& d = b_.dut();
    d.req_valid_i = 1;
    d.ev_ready_i = 1;
    d.l2_ready_i = 1;
    bool taken = false;
    uint32_t want = 0, got = 0;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      d.eval();
      if (taken && ev.seen && got >= want && !d.ev_valid_o && !d.l2_valid_o) return ev;
      if (d.ev_valid_o) {
        const auto& e = d.ev_o;
        ev.seen = true;
        want = uint32_t(get_field(e, 0, E::drained));
        ev.hit = get_field(e, 0, E::hit);
        ev.merged = get_field(e, 0, E::merged);
      }
      if (d.l2_valid_o) {
        const auto& w = d.l2_o;
        golden::WbEntry e;
        e.line = get_field(w, 0, W::line);
        e.bytes = {get_bits(w, W::bytes.lsb, 64), get_bits(w, W::bytes.lsb + 64, 64)};
        get_bytes(w, W::data.lsb, e.data.data(), golden::kLineBytes);
        e.l2.cls = golden::EvictClass(get_field(w, 0, W::cls));
        if (get_field(w, 0, W::keep_cls)) e.l2.cls = std::nullopt;
        e.l2.mode =
            get_field(w, 0, W::through) ? golden::WriteMode::Through : golden::WriteMode::Back;
        if (shadow_.empty() || shadow_.front().line != e.line) {
          error_ = append(error_, "the RTL L1 sent line " + hex(e.line) +
                                      " to the L2 out of the write buffer's order");
        } else {
          e.mergeable = shadow_.front().mergeable;
          e.stores = shadow_.front().stores;
        }
        if (!shadow_.empty()) shadow_.pop_front();
        out.push_back(e);
        ++got;
      }
      const bool req_taken = d.req_valid_i && d.req_ready_o;
      b_.edge();
      b_.check(error_, "stu_l1_wpath");
      if (req_taken) {
        d.req_valid_i = 0;
        taken = true;
      }
    }
    d.req_valid_i = 0;
    hung_ = true;
    error_ = append(error_, hang_text("stu_l1_wpath"));
    return ev;
  }

  Block<Vstu_l1_wpath_max> b_;
  std::string name_;
  std::deque<Meta> shadow_;
  std::string error_;
  bool hung_ = false;
};

// --- L2 write slice --------------------------------------------------------------------------

// Vstu_l2_wslice_max as an L2 slice's core. The block sends a write-through's bytes to its DRAM
// port itself (cause WriteThrough); the TLM L2Slice sends the write-through from the entry, so
// the core drops those: only a dirty victim (cause Eviction) is reported.
class RtlL2Core final : public sim::L2Core {
 public:
  static constexpr unsigned kMaxSets = 128, kMaxWays = 16;

  explicit RtlL2Core(const golden::CacheGeometry& g) : b_("stu_l2_wslice") {
    bool clamped = false;
    const golden::CacheGeometry c = clamp(g, kMaxSets, kMaxWays, clamped);
    name_ = clamped ? "rtl (clamped to " + std::to_string(c.sets()) + " sets x " +
                          std::to_string(c.ways) + " ways)"
                    : "rtl";
    auto& d = b_.dut();
    d.cfg_set_mask_i = c.sets() - 1;
    d.cfg_ways_i = c.ways;
    d.cfg_random_i = g.replacement == golden::Replacement::Random;
    d.req_valid_i = 0;
    d.res_ready_i = 1;
    d.dram_ready_i = 1;
    b_.reset();
  }

  std::string name() const override { return name_; }

  sim::L2Result write(const golden::WbEntry& e) override {
    namespace W = rtl::layout::l2_write;
    auto& w = b_.dut().req_i;
    zero(w);
    put_field(w, 0, W::line, e.line & ~uint64_t(golden::kLineBytes - 1));
    put_bits(w, W::bytes.lsb, 64, e.bytes.lo);
    put_bits(w, W::bytes.lsb + 64, 64, e.bytes.hi);
    put_field(w, 0, W::cls, uint64_t(e.l2.cls.value_or(golden::EvictClass::Normal)));
    put_field(w, 0, W::keep_cls, !e.l2.cls.has_value());
    put_field(w, 0, W::through, e.l2.mode == golden::WriteMode::Through);
    std::array<uint8_t, golden::kLineBytes> data{};
    for (unsigned i = 0; i < golden::kLineBytes; ++i)
      if (e.bytes.test(i)) data[i] = e.data[i];
    put_bytes(w, W::data.lsb, data.data(), golden::kLineBytes);
    sim::L2Result r;
    run(false, &r, nullptr, e.l2.mode == golden::WriteMode::Through);
    return r;
  }

  void flush(std::vector<golden::CacheLineOut>& out) override {
    auto& w = b_.dut().req_i;
    zero(w);
    put_field(w, 0, rtl::layout::l2_write::flush, 1);
    run(true, nullptr, &out, false);
  }

  bool keeps_data() const override { return true; }  // the block's data array
  golden::CacheLookup lookup(uint64_t addr) const override { return debug_lookup(b_.dut(), addr); }
  std::string take_error() override { return std::exchange(error_, std::string()); }

 private:
  // Offers req_i and clocks the block until its result and the DRAM writes it announced have
  // left: a write's victim (when dirty) and write-through; a flush's lines, then its result.
  void run(bool flush, sim::L2Result* r, std::vector<golden::CacheLineOut>* flushed, bool through) {
    namespace R = rtl::layout::l2_result;
    namespace D = rtl::layout::dram_write;
    if (hung_) return;
    auto& d = b_.dut();
    d.req_valid_i = 1;
    d.res_ready_i = 1;
    d.dram_ready_i = 1;
    bool taken = false, result = false;
    uint32_t want_dram = 0, dram = 0;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      d.eval();
      if (taken && result && dram >= want_dram && !d.res_valid_o && !d.dram_valid_o) return;
      if (d.res_valid_o) {
        const auto& o = d.res_o;
        result = true;
        if (flush) {
          if (!get_field(o, 0, R::flush))
            error_ = append(error_, "the RTL L2 answered a flush with a write's result");
        } else {
          const golden::LineByteMask dirty{get_bits(o, R::victim_dirty.lsb, 64),
                                           get_bits(o, R::victim_dirty.lsb + 64, 64)};
          r->hit = get_field(o, 0, R::hit);
          r->set = uint32_t(get_field(o, 0, R::set_idx));
          r->way = uint32_t(get_field(o, 0, R::way));
          r->evicted = get_field(o, 0, R::evicted) && !dirty.empty();
          if (r->evicted) {
            r->victim.line = get_field(o, 0, R::victim_line);
            r->victim.valid = {get_bits(o, R::victim_valid.lsb, 64),
                               get_bits(o, R::victim_valid.lsb + 64, 64)};
            r->victim.dirty = dirty;
            r->victim.cls = golden::EvictClass(get_field(o, 0, R::victim_cls));
          }
          want_dram = uint32_t(r->evicted) + uint32_t(through);
        }
      }
      if (d.dram_valid_o) {
        const auto& o = d.dram_o;
        ++dram;
        golden::CacheLineOut l;
        l.line = get_field(o, 0, D::line);
        l.dirty = {get_bits(o, D::bytes.lsb, 64), get_bits(o, D::bytes.lsb + 64, 64)};
        l.valid = l.dirty;
        get_bytes(o, D::data.lsb, l.data.data(), golden::kLineBytes);
        const auto cause = golden::DramCause(get_field(o, 0, D::cause));
        if (flush) {
          if (cause == golden::DramCause::Flush)
            flushed->push_back(l);
          else
            error_ = append(error_, "the RTL L2 flush wrote line " + hex(l.line) +
                                        " to DRAM with another cause");
        } else if (cause == golden::DramCause::Eviction) {
          if (r->evicted && l.line == r->victim.line)
            r->victim.data = l.data;  // the dirty bytes (0 elsewhere)
          else
            error_ = append(error_, "the RTL L2 evicted line " + hex(l.line) +
                                        " that its result did not announce");
        }
        // cause WriteThrough: the L2Slice sends the write-through itself, from the entry
      }
      const bool req_taken = d.req_valid_i && d.req_ready_o;
      b_.edge();
      b_.check(error_, "stu_l2_wslice");
      if (req_taken) {
        d.req_valid_i = 0;
        taken = true;
      }
    }
    d.req_valid_i = 0;
    hung_ = true;
    error_ = append(error_, hang_text("stu_l2_wslice"));
  }

  Block<Vstu_l2_wslice_max> b_;
  std::string name_;
  std::string error_;
  bool hung_ = false;
};

// --- mbarrier --------------------------------------------------------------------------------

// Vstu_mbarrier: golden::encode(state) and the operation in, the next word, completion and
// fault out (one transaction per step).
class RtlMbarCore final : public sim::MbarCore {
 public:
  RtlMbarCore() : b_("stu_mbarrier") {
    auto& d = b_.dut();
    d.in_valid_i = 0;
    d.out_ready_i = 1;
    b_.reset();
  }
  std::string name() const override { return "rtl"; }

  golden::MbarStep step(const golden::MbarState& s, const golden::MbarOp& op) override {
    // A hung block stays out of the loop: its error was reported (the run fails).
    if (hung_) return golden::mbar_step(s, op);
    golden::MbarStep r;
    r.next = s;
    auto& d = b_.dut();
    d.in_valid_i = 1;
    d.word_i = golden::encode(s);
    d.op_i = uint8_t(op.kind);
    d.count_i = op.count;
    d.out_ready_i = 1;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      d.eval();
      const bool in_taken = d.in_valid_i && d.in_ready_o;
      const bool out_taken = d.out_valid_o && d.out_ready_i;
      if (out_taken) {
        r.next = golden::decode_mbar(d.word_o);
        r.phase_completed = d.completed_o;
        r.fault = golden::FaultKind(d.fault_o);
      }
      b_.edge();
      b_.check(error_, "stu_mbarrier");
      if (in_taken) d.in_valid_i = 0;
      if (out_taken) return r;
    }
    d.in_valid_i = 0;
    hung_ = true;
    error_ = append(error_, hang_text("stu_mbarrier"));
    return golden::mbar_step(s, op);
  }
  std::string take_error() override { return std::exchange(error_, std::string()); }

 private:
  Block<Vstu_mbarrier> b_;
  std::string error_;
  bool hung_ = false;
};

// --- coalescer -------------------------------------------------------------------------------

// Vstu_coalescer: one warp's lane accesses in (one per lane, each aligned to its size, so within
// one sector), its line requests out until last_o. A warp the block's port cannot carry (two
// accesses of one lane, or one crossing a sector: a misaligned store split by the planner) is
// coalesced by golden::coalesce instead; name() counts those.
class RtlCoalescer final : public sim::Coalescer {
 public:
  RtlCoalescer() : b_("stu_coalescer") {
    auto& d = b_.dut();
    d.in_valid_i = 0;
    d.out_ready_i = 1;
    b_.reset();
  }
  std::string name() const override {
    return fallback_ ? "rtl (" + std::to_string(fallback_) +
                           " warps by golden::coalesce: not one aligned access per lane)"
                     : "rtl";
  }

  void coalesce(const golden::LaneAccess* acc, size_t n, golden::LaneGroup group,
                std::vector<golden::LineRequest>& out) override {
    namespace LA = rtl::layout::lane_access;
    uint32_t lanes = 0;
    bool any = false, fits = n <= 32 && !hung_;
    for (size_t i = 0; fits && i < n; ++i) {
      const golden::LaneAccess& a = acc[i];
      const bool pow2 =
          a.size >= 1 && a.size <= golden::kMaxAccessBytes && (a.size & (a.size - 1)) == 0;
      if (a.lane >= 32 || (lanes >> a.lane & 1) || !pow2 || (a.offset & (a.size - 1)) != 0) {
        fits = false;
        break;
      }
      lanes |= 1u << a.lane;
      any = any || (a.byte_mask & golden::access_byte_mask(a.size)) != 0;
    }
    if (!fits) {
      ++fallback_;
      golden::coalesce(acc, n, group, out);
      return;
    }
    if (!any) return;  // every lane a sink: no line
    auto& d = b_.dut();
    zero(d.acc_i);
    d.lane_valid_i = lanes;
    d.group_log2_i = uint8_t(group.log2());
    for (size_t i = 0; i < n; ++i) {
      const golden::LaneAccess& a = acc[i];
      const unsigned base = a.lane * LA::kWidth;
      put_field(d.acc_i, base, LA::dest_space, uint64_t(a.dest.space));
      put_field(d.acc_i, base, LA::dest_cta, a.dest.cta);
      put_field(d.acc_i, base, LA::dest_thread, a.dest.thread);
      put_field(d.acc_i, base, LA::offset, a.offset);
      put_field(d.acc_i, base, LA::size, a.size);
      // The mask's bits past the access's size are not part of it (golden::coalesce).
      put_field(d.acc_i, base, LA::byte_mask, a.byte_mask & golden::access_byte_mask(a.size));
      for (unsigned b = 0; b < golden::kMaxAccessBytes; b += 8) {
        uint64_t v;
        std::memcpy(&v, a.data.data() + b, 8);
        put_bits(d.acc_i, base + LA::data.lsb + 8 * b, 64, v);
      }
    }
    d.in_valid_i = 1;
    d.out_ready_i = 1;
    for (uint64_t cycle = 0; cycle < kMaxCycles; ++cycle) {
      d.eval();
      const bool in_taken = d.in_valid_i && d.in_ready_o;
      const bool out_taken = d.out_valid_o && d.out_ready_i;
      bool last = false;
      if (out_taken) {
        out.push_back(read_line_req(d.req_o));
        last = d.last_o;
      }
      b_.edge();
      b_.check(error_, "stu_coalescer");
      if (in_taken) d.in_valid_i = 0;
      if (last) return;
    }
    d.in_valid_i = 0;
    hung_ = true;
    error_ = append(error_, hang_text("stu_coalescer"));
  }
  std::string take_error() override { return std::exchange(error_, std::string()); }

 private:
  Block<Vstu_coalescer> b_;
  std::string error_;
  uint64_t fallback_ = 0;
  bool hung_ = false;
};

}  // namespace

const std::vector<std::string>& sim_rtl_blocks() {
  static const std::vector<std::string> blocks = [] {
    std::vector<std::string> v;
    for (const RegistryBlock& b : registry())
      if (b.sim_rtl) v.push_back(b.name);
    return v;
  }();
  return blocks;
}

bool rtl_core_factory(const std::vector<std::string>& blocks, sim::CoreFactory& out,
                      std::string& error) {
  for (const std::string& b : blocks) {
    // The registry decides which blocks can be in the loop; each of them has its adapter below.
    const std::vector<std::string>& marked = sim_rtl_blocks();
    if (std::find(marked.begin(), marked.end(), b) == marked.end()) {
      std::string list;
      for (const std::string& n : marked) list += (list.empty() ? "" : ", ") + n;
      error = find_registry_block(b)
                  ? "block '" + b +
                        "' has no RTL core for the TLM model (blocks with one: " + list + ")"
                  : "unknown RTL block '" + b + "' (blocks: " + list + ")";
      return false;
    }
    if (b == "l1_wpath") {
      out.l1 = [](const golden::CacheGeometry& g, unsigned wb) -> std::unique_ptr<sim::L1Core> {
        return std::make_unique<RtlL1Core>(g, wb);
      };
    } else if (b == "l2_wslice") {
      out.l2 = [](const golden::CacheGeometry& g) -> std::unique_ptr<sim::L2Core> {
        return std::make_unique<RtlL2Core>(g);
      };
    } else if (b == "mbarrier") {
      out.mbar = []() -> std::unique_ptr<sim::MbarCore> { return std::make_unique<RtlMbarCore>(); };
    } else if (b == "coalescer") {
      out.coalescer = []() -> std::unique_ptr<sim::Coalescer> {
        return std::make_unique<RtlCoalescer>();
      };
    } else {
      error = "block '" + b + "' is marked sim_rtl in rtl/blocks.json, but has no adapter here";
      return false;
    }
    if (std::find(out.names.begin(), out.names.end(), b) == out.names.end()) out.names.push_back(b);
  }
  return true;
}

}  // namespace stu::tb
