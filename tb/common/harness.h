// The pieces every block's cosimulation is made of (docs/cosim.md):
//
//   Rng          the one seed convention: every random choice of a run derives from its seed
//   Scoreboard   in-order, field-by-field comparison with a ring of the last 32 matches
//   Clocked      a Verilated block with its context, clock, reset, X-randomisation and an FST
//                waveform of a cycle window
//   run_stream   the driver/monitor loop of a valid/ready block: random input gaps, random
//                back-pressure on the output ready, every input's golden outputs expected in
//                order, every request answered at the end, nothing left in flight
//
// A block supplies a Bench type (its transaction types, driver, monitor, golden call; see
// tb/store_align/cosim_store_align.cpp) and calls run_stream<Bench>.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "code_coverage.h"
#include "cosim.h"
#include "fcov.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace stu::tb {

// Random numbers of one run. Streams are split by purpose (stimulus, handshakes) so that a
// change in one (say, the stall probability) does not change the other.
class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint64_t next() { return g_(); }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }
  template <typename T, std::size_t N>
  const T& pick(const std::array<T, N>& a) {
    return a[below(N)];
  }

 private:
  std::mt19937_64 g_;
};

// The last N items, oldest first.
template <typename T, std::size_t N = 32>
class Ring {
 public:
  void push(const T& t, uint64_t index) {
    items_[head_] = Item{index, t};
    head_ = (head_ + 1) % N;
    if (size_ < N) ++size_;
  }
  struct Item {
    uint64_t index = 0;
    T value{};
  };
  template <typename F>
  void for_each(F f) const {
    for (std::size_t i = 0; i < size_; ++i) f(items_[(head_ + N - size_ + i) % N]);
  }

 private:
  std::array<Item, N> items_{};
  std::size_t head_ = 0, size_ = 0;
};

// In-order comparison of the DUT's output transactions with the golden ones. Bench provides
// `static bool equal(const Out&, const Out&)` (fast path), `static std::string diff(want,
// got)` ("field: expected X, actual Y; ...") and `static std::string show(const Out&)`.
template <typename Bench>
class Scoreboard {
 public:
  using Out = typename Bench::Out;
  // `input`: the index of the input transaction the output belongs to (for the report).
  void expect(const Out& o, uint64_t input) { expected_.push_back(Expected{o, input}); }
  bool empty() const { return expected_.empty(); }
  std::size_t outstanding() const { return expected_.size(); }
  uint64_t matched() const { return matched_; }
  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  uint64_t failure_cycle() const { return failure_cycle_; }
  // The input transaction whose output failed (or the last one expected).
  uint64_t failure_input() const { return failure_input_; }

  // Returns false on the first mismatch (and records the report).
  bool observe(const Out& got, uint64_t cycle) {
    if (expected_.empty()) {
      fail(cycle, "the DUT produced a transaction the golden model did not:\n  actual:   " +
                      Bench::show(got));
      return false;
    }
    const Out& want = expected_.front().out;
    failure_input_ = expected_.front().input;
    if (!Bench::equal(want, got)) {
      fail(cycle, "expected: " + Bench::show(want) + "\n  actual:   " + Bench::show(got) +
                      "\n  fields:   " + Bench::diff(want, got));
      return false;
    }
    history_.push(got, matched_);
    ++matched_;
    expected_.pop_front();
    return true;
  }
  // A failure that is not a data mismatch (an assertion, a hang, a leftover transaction).
  void fail(uint64_t cycle, const std::string& what) {
    if (!failure_.empty()) return;
    failure_cycle_ = cycle;
    if (!expected_.empty()) failure_input_ = expected_.front().input;
    failure_ = "at output transaction " + std::to_string(matched_) + " (of input transaction " +
               std::to_string(failure_input_) + ", cycle " + std::to_string(cycle) + ")\n  " +
               what + "\n  last matched (oldest first):";
    bool any = false;
    history_.for_each([&](const typename Ring<Out>::Item& it) {
      failure_ += "\n    #" + std::to_string(it.index) + " " + Bench::show(it.value);
      any = true;
    });
    if (!any) failure_ += " none";
  }

 private:
  struct Expected {
    Out out;
    uint64_t input;
  };
  std::deque<Expected> expected_;
  Ring<Out> history_;
  uint64_t failure_input_ = 0;
  uint64_t matched_ = 0;
  std::string failure_;
  uint64_t failure_cycle_ = 0;
};

// A Verilated block on a clock: its own context (X-randomisation seeded from the run's seed,
// assertions reported instead of exiting), reset, and an optional FST waveform of a window.
template <typename Dut>
class Clocked {
 public:
  Clocked(uint64_t seed, const CosimOptions& o)
      : ctx_(std::make_unique<VerilatedContext>()), seed_(seed) {
    ctx_->fatalOnError(false);  // an assertion sets gotError() instead of exiting
    ctx_->randReset(2);         // --x-assign/--x-initial unique: random, from the seed
    ctx_->randSeed(int(seed % 0x7FFFFFFF) + 1);
    const bool trace = !o.wave.empty();
    if (trace) ctx_->traceEverOn(true);
    dut_ = std::make_unique<Dut>(ctx_.get(), "dut");
    if (trace) {
      wave_from_ = o.wave_from;
      wave_to_ = o.wave_to;
      fst_ = std::make_unique<VerilatedFstC>();
      dut_->trace(fst_.get(), 99);
      fst_->open(o.wave.c_str());
    }
  }
  ~Clocked() {
    if (fst_) fst_->close();
    dut_->final();
    save_code_coverage(*ctx_, dut_->modelName(), seed_);
  }
  Dut& dut() { return *dut_; }
  uint64_t cycle() const { return cycle_; }
  bool assertion_failed() const { return ctx_->gotError(); }

  void reset(unsigned cycles = 2) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    for (unsigned i = 0; i < cycles; ++i) {
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      dut_->eval();
    }
    dut_->rst_ni = 1;
    dut_->eval();
  }
  // The inputs of this cycle are set: let the combinational outputs settle (sample them now).
  void settle() {
    dut_->clk_i = 0;
    dut_->eval();
    dump(2 * cycle_);
  }
  // The rising edge: registers take their next values.
  void rise() {
    dut_->clk_i = 1;
    dut_->eval();
    dump(2 * cycle_ + 1);
    ++cycle_;
  }

 private:
  void dump(uint64_t t) {
    if (fst_ && cycle_ >= wave_from_ && cycle_ <= wave_to_) fst_->dump(t);
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t seed_;
  uint64_t cycle_ = 0, wave_from_ = 0, wave_to_ = 0;
};

// The driver/monitor loop of a block with one valid/ready input and one valid/ready output.
// Bench (an object, so it may hold configuration) provides:
//   types   Dut, In, Out
//   void    setup(Clocked<Dut>&, Rng&)           after reset (configuration registers)
//   In      gen(Rng&)                            constrained-random stimulus
//   void    ref(const In&, std::vector<Out>&)    the golden function's outputs for one input
//   size_t  beats(const In&)                     input beats of one transaction (1 for most)
//   void    drive(Dut&, const In&, size_t beat)  put a beat on the input, valid high
//   void    idle(Dut&)                           input valid low
//   bool    in_ready(Dut&), out_valid(Dut&); void set_out_ready(Dut&, bool)
//   Out     sample(Dut&)                         the output transaction on the port
// plus Scoreboard's equal/diff/show, and, for functional coverage (fcov.h), optionally
//   void    declare_coverage(Coverage&)          declare the block's points, keep handles
//   void    cover_in(const In&)                  count one input (called after ref)
//   void    cover_out(const Out&)                count one output the DUT gave
template <typename Bench, typename = void>
struct HasCoverage : std::false_type {};
template <typename Bench>
struct HasCoverage<Bench, std::void_t<decltype(&Bench::declare_coverage)>> : std::true_type {};

// The handshake states every block is covered for: an input held while the block is not
// ready (a full buffer or a busy stage) and an output held while its consumer is not.
struct HandshakeCoverage {
  CoverPoint* p = nullptr;
  void declare(Coverage* c, const char* block) {
    if (c) p = &c->point(std::string(block) + ".handshake", {"input_waits", "output_stalled"});
  }
  void sample(bool input_waits, bool output_stalled) {
    if (!p) return;
    if (input_waits) p->hit(0);
    if (output_stalled) p->hit(1);
  }
};

template <typename Bench>
CosimResult run_stream(Bench& bench, const char* block, const CosimOptions& o) {
  using In = typename Bench::In;
  using Out = typename Bench::Out;
  const auto t0 = std::chrono::steady_clock::now();
  CosimResult r;
  r.block = block;
  r.seed = o.seed;
  Rng stim(o.seed * 0x9E3779B97F4A7C15ull + 1);  // stimulus
  Rng hs(o.seed * 0xBF58476D1CE4E5B9ull + 2);    // handshakes: gaps and stalls
  Clocked<typename Bench::Dut> sim(o.seed, o);
  auto& dut = sim.dut();
  Scoreboard<Bench> sb;
  std::vector<Out> outs;

  bench.idle(dut);
  bench.set_out_ready(dut, false);
  sim.reset();
  bench.setup(sim, stim);
  HandshakeCoverage handshake;
  handshake.declare(o.coverage, block);
  constexpr bool kCovers = HasCoverage<Bench>::value;
  if constexpr (kCovers) {
    if (o.coverage) bench.declare_coverage(*o.coverage);
  }

  In cur{};  // the input being offered (valid stays high until it is taken)
  bool offering = false;
  size_t beat = 0, beats = 0;
  uint64_t sent = 0, generated = 0, idle_cycles = 0;
  constexpr uint64_t kHangCycles = 10000;
  while (!sb.failed()) {
    if (!offering && sent < o.txns && !hs.chance(o.gap)) {
      cur = bench.gen(stim);
      offering = true;
      outs.clear();
      bench.ref(cur, outs);
      if constexpr (kCovers) {
        if (o.coverage) bench.cover_in(cur);  // after ref: a bench may cover what ref decided
      }
      for (const Out& e : outs) sb.expect(e, generated);
      ++generated;
      beat = 0;
      beats = bench.beats(cur);
    }
    if (!offering && sent >= o.txns && sb.empty()) break;
    if (offering)
      bench.drive(dut, cur, beat);
    else
      bench.idle(dut);
    const bool ready = !hs.chance(o.stall);
    bench.set_out_ready(dut, ready);
    sim.settle();
    const bool in_fire = offering && bench.in_ready(dut);
    bool progress = in_fire;
    const bool out_valid = bench.out_valid(dut);
    handshake.sample(offering && !in_fire, out_valid && !ready);
    if (ready && out_valid) {
      const Out got = bench.sample(dut);
      if constexpr (kCovers) {
        if (o.coverage) bench.cover_out(got);
      }
      sb.observe(got, sim.cycle());
      progress = true;
    }
    sim.rise();
    if (sim.assertion_failed())
      sb.fail(sim.cycle(), "an RTL assertion failed (its message is above)");
    if (in_fire && ++beat == beats) {
      offering = false;
      ++sent;
    }
    idle_cycles = progress ? 0 : idle_cycles + 1;
    if (idle_cycles > kHangCycles)
      sb.fail(sim.cycle(), "no progress for " + std::to_string(kHangCycles) +
                               " cycles: " + std::to_string(sb.outstanding()) +
                               " expected transactions outstanding (the DUT hangs)");
  }
  // Nothing left in flight: with the output ready, the DUT must stay silent.
  for (unsigned i = 0; i < 16 && !sb.failed(); ++i) {
    bench.idle(dut);
    bench.set_out_ready(dut, true);
    sim.settle();
    if (bench.out_valid(dut)) sb.observe(bench.sample(dut), sim.cycle());
    sim.rise();
  }
  r.txns = sent;
  r.matched = sb.matched();
  r.cycles = sim.cycle();
  r.ok = !sb.failed();
  if (!r.ok) {
    r.report = "cosim " + std::string(block) + ": MISMATCH, seed " + std::to_string(o.seed) + ", " +
               sb.failure() + "\n  reproduce: " +
               repro_command(block, o.seed, std::min(o.txns, sb.failure_input() + 1));
    r.wave_from = sb.failure_cycle() > 64 ? sb.failure_cycle() - 64 : 0;
    r.wave_to = sb.failure_cycle() + 8;
  }
  if (!o.wave.empty()) r.wave = o.wave;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// Runs a block; on a mismatch (when asked) reruns the same seed with an FST waveform of the
// cycles around it and names the file in the report.
template <typename Run>
CosimResult run_with_wave(const char* block, const CosimOptions& o, Run run) {
  CosimResult r = run(o);
  if (r.ok || !o.rerun_for_wave || !o.wave.empty()) return r;
  CosimOptions w = o;
  w.coverage = nullptr;  // the first run counted
  w.wave = o.wave_dir + "/cosim_" + block + "_seed" + std::to_string(o.seed) + ".fst";
  w.wave_from = r.wave_from;
  w.wave_to = r.wave_to;
  const CosimResult again = run(w);
  r.wave = w.wave;
  r.report += "\n  waveform:  " + w.wave + " (cycles " + std::to_string(w.wave_from) + ".." +
              std::to_string(w.wave_to) + ")";
  if (again.ok || again.matched != r.matched)
    r.report += "\n  note: the rerun did not fail at the same transaction (nondeterminism?)";
  return r;
}

}  // namespace stu::tb
