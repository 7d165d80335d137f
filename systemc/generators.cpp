// The built-in workload generators (docs/tlm.md, "Workloads"). Each is a pull source: next()
// computes op i from i alone (addresses and data), so memory does not grow with `warps`.
// Instructions are parsed once from PTX text when the generator is made and kept as members;
// the ops point at them.
#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <utility>

#include "stu/diag.h"
#include "stu/golden/address.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/tmem.h"
#include "stu/isa/parser.h"
#include "workload.h"

namespace stu::sim {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

namespace {
// The value of (lane, element) from the op's seed: one multiply-xorshift round each half, so a
// warp's 32..256 values cost one splitmix64 in all.
constexpr std::uint64_t kLaneStep = 0x9E3779B97F4A7C15ull;
// The low half from k = seed ^ ((element << 8 | lane) + 1) * kLaneStep.
std::uint64_t low_of(std::uint64_t k) {
  k = (k ^ (k >> 29)) * 0xBF58476D1CE4E5B9ull;
  return k ^ (k >> 32);
}
golden::RegValue value_of_seed(std::uint64_t seed, unsigned lane, unsigned element) {
  const std::uint64_t k = low_of(seed ^ ((std::uint64_t(element) << 8 | lane) + 1) * kLaneStep);
  return golden::RegValue{k, (k ^ (k >> 31)) * 0x94D049BB133111EBull};
}
}  // namespace

golden::RegValue op_value(std::uint64_t op, unsigned lane, unsigned element) {
  return value_of_seed(splitmix64(op), lane, element);
}

namespace {

using golden::MachineState;
using golden::ModelConfig;

// Where the generators' global memory starts (far below every generic window).
constexpr std::uint64_t kGlobalBase = 0x10'0000'0000ull;  // 64 GiB
constexpr std::uint64_t kMaxFootprint = 1ull << 40;       // 1 TiB
constexpr std::uint64_t kDefaultFootprint = 64ull << 20;  // 64 MiB

// Parses one instruction; a failure (a bug here, never the user's) is kept in `error`.
isa::Instruction parse(const std::string& text, std::string& error) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d, 1);
  if (!ins || d.has_errors()) {
    if (error.empty()) {
      error = "internal: cannot parse '" + text + "'";
      if (!d.all().empty()) error += ": " + d.all().front().message;
    }
    return isa::Instruction{};
  }
  return std::move(*ins);
}

// Braced (or single) source list of `n` registers: `%r1` or `{%r1, %r2, ...}`.
std::string sources(unsigned n) {
  if (n == 1) return "%r1";
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(i + 1);
  return s + "}";
}

// `st.global.bW` / `.v4.b32` / `.v8.b32` for a width in bytes (1, 2, 4, 8, 16, 32).
std::string global_store(unsigned width, const std::string& quals = "") {
  switch (width) {
    case 1:
      return "st" + quals + ".global.b8 [%rd1], %r1;";
    case 2:
      return "st" + quals + ".global.b16 [%rd1], %r1;";
    case 4:
      return "st" + quals + ".global.b32 [%rd1], %r1;";
    case 8:
      return "st" + quals + ".global.b64 [%rd1], %rd2;";
    case 16:
      return "st" + quals + ".global.v4.b32 [%rd1], " + sources(4) + ";";
    default:
      return "st" + quals + ".global.v8.b32 [%rd1], " + sources(8) + ";";
  }
}

bool width_ok(std::uint32_t w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32;
}

std::string width_error(std::uint32_t w) {
  return "width: must be one of 1, 2, 4, 8, 16, 32 (got " + std::to_string(w) + ")";
}

// Resets an op for reuse (the source vector keeps its capacity).
void begin_op(WarpOp& op, OpKind kind, std::uint32_t sm, std::uint16_t cta, std::uint16_t warp,
              std::uint32_t active = 0xFFFFFFFFu) {
  op.kind = kind;
  op.sm = sm;
  op.ins = nullptr;
  op.ctx = golden::WarpContext{cta, warp, active};
  op.ops.addr.fill(0);
  op.ops.policy.fill(0);
  op.ops.mbar.fill(0);
  if (kind != OpKind::Store) op.ops.src.clear();  // a store's store_op sizes and fills it
  op.mbar_offset = 0;
  op.tx_bytes = 0;
  op.parity = 0;
  op.instructions = 0;
}

// A store op of `ins` with `elems` source elements of op_value(index, lane, element).
void store_op(WarpOp& op, const isa::Instruction& ins, std::uint64_t index, unsigned elems,
              std::uint32_t sm, std::uint16_t cta, std::uint16_t warp,
              std::uint32_t active = 0xFFFFFFFFu) {
  begin_op(op, OpKind::Store, sm, cta, warp, active);
  op.ins = &ins;
  op.ops.src.resize(std::size_t(elems) * 32);
  const std::uint64_t seed = splitmix64(index);  // op_value(index, l, e), the seed once
  golden::RegValue* const src = op.ops.src.data();
  if (ins.type && isa::bytes_of(*ins.type) > 8) {
    for (unsigned e = 0; e < elems; ++e)
      for (unsigned l = 0; l < 32; ++l) src[e * 32 + l] = value_of_seed(seed, l, e);
  } else {  // registers of 8 bytes or less: the high half is never read, left 0
    golden::RegValue* v = src;
    for (unsigned e = 0; e < elems; ++e) {
      std::uint64_t step = ((std::uint64_t(e) << 8) + 1) * kLaneStep;  // lane 0's
      for (unsigned l = 0; l < 32; ++l, step += kLaneStep) *v++ = {low_of(seed ^ step), 0};
    }
  }
}

// What the generators share: name, parameters, the op counter.
class Generator : public Workload {
 public:
  Generator(std::string name, const GenParams& p) : name_(std::move(name)), p_(p) {}
  std::string name() const override { return name_; }
  std::string error() const override { return error_; }
  std::uint64_t size_hint() const override { return total_; }
  ModelConfig model_config() const override { return cfg_; }
  bool next(WarpOp& op) override {
    if (!error_.empty() || i_ >= total_) return false;
    make(i_, op);
    ++i_;
    return true;
  }
  // Parameter checks and instruction parsing, done by the factory after construction.
  const std::string& init_error() const { return error_; }

 protected:
  virtual void make(std::uint64_t i, WarpOp& op) = 0;
  // Global stores: the one allocation of [kGlobalBase, + bytes).
  bool alloc_global(MachineState& m, std::uint64_t bytes, std::string& error) const {
    if (!m.allocations().add(kGlobalBase, bytes)) {
      error = name_ + ": cannot allocate the global range";
      return false;
    }
    return true;
  }
  std::uint32_t sm_of(std::uint64_t warp) const { return std::uint32_t(warp % p_.sms); }
  // Op i is the (i / sms)-th op of its SM: the SM's warps take turns.
  std::uint16_t warp_in_cta(std::uint64_t warp) const {
    return std::uint16_t(warp / p_.sms % cfg_.warps_per_cta);
  }
  // The footprint rounded down to whole chunks, at least one chunk (error otherwise).
  std::uint64_t chunks_in(std::uint64_t footprint, std::uint64_t chunk) {
    if (footprint < chunk) {
      error_ = "footprint: must be at least " + std::to_string(chunk) + " bytes (got " +
               std::to_string(footprint) + ")";
      return 1;
    }
    return footprint / chunk;
  }

  std::string name_;
  GenParams p_;
  ModelConfig cfg_;
  std::string error_;
  std::uint64_t total_ = 0;
  std::uint64_t i_ = 0;
};

std::uint64_t footprint_or(const GenParams& p, std::uint64_t def) {
  return p.footprint ? p.footprint : def;
}

// --- stream, stream_v4b64 --------------------------------------------------------------------
// Warp i writes the i-th 32*width-byte chunk (wrapping in the footprint), lane l at l*width.
class Stream : public Generator {
 public:
  Stream(const GenParams& p, bool v4b64) : Generator(v4b64 ? "stream_v4b64" : "stream", p) {
    width_ = v4b64 ? 32 : p.width;
    if (!v4b64 && !width_ok(width_)) {
      error_ = width_error(width_);
      return;
    }
    ins_ =
        parse(v4b64 ? "st.global.v4.b64 [%rd1], {%rd2, %rd3, %rd4, %rd5};" : global_store(width_),
              error_);
    elems_ = ins_.vec_lanes();
    chunks_ = chunks_in(footprint_or(p, kDefaultFootprint), 32ull * width_);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, chunks_ * 32 * width_, error);
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    store_op(op, ins_, i, elems_, sm_of(i), 0, warp_in_cta(i));
    const std::uint64_t base = kGlobalBase + (i % chunks_) * 32 * width_;
    std::uint64_t a = base;  // stepped, not multiplied: the loop vectorises
    for (unsigned l = 0; l < 32; ++l, a += width_) op.ops.addr[l] = a;
  }
  std::uint32_t width_ = 4;
  unsigned elems_ = 1;
  std::uint64_t chunks_ = 1;
  isa::Instruction ins_;
};

// --- strided ---------------------------------------------------------------------------------
// Lane l of warp i writes `width` bytes at chunk_i + l*stride; chunks are 32*stride bytes.
class Strided : public Generator {
 public:
  explicit Strided(const GenParams& p) : Generator("strided", p) {
    width_ = p.width;
    stride_ = p.stride ? p.stride : 128;
    if (!width_ok(width_)) {
      error_ = width_error(width_);
      return;
    }
    if (stride_ % width_ || stride_ > (1ull << 30)) {
      error_ = "stride: must be a multiple of the width (" + std::to_string(width_) +
               ") up to 2^30 (got " + std::to_string(stride_) + ")";
      return;
    }
    ins_ = parse(global_store(width_), error_);
    elems_ = ins_.vec_lanes();
    chunks_ = chunks_in(footprint_or(p, kDefaultFootprint), 32 * stride_);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, chunks_ * 32 * stride_, error);
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    store_op(op, ins_, i, elems_, sm_of(i), 0, warp_in_cta(i));
    const std::uint64_t base = kGlobalBase + (i % chunks_) * 32 * stride_;
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = base + l * stride_;
  }
  std::uint32_t width_ = 4;
  std::uint64_t stride_ = 128;
  unsigned elems_ = 1;
  std::uint64_t chunks_ = 1;
  isa::Instruction ins_;
};

// --- scatter ---------------------------------------------------------------------------------
// Every lane a random address in the footprint, aligned to max(4, width): a seeded
// permutation of (op, lane), so the stream reproduces from its seed and never races.
class Scatter : public Generator {
 public:
  explicit Scatter(const GenParams& p) : Generator("scatter", p) {
    width_ = p.width;
    if (!width_ok(width_)) {
      error_ = width_error(width_);
      return;
    }
    align_ = std::max<std::uint32_t>(4, width_);
    ins_ = parse(global_store(width_), error_);
    elems_ = ins_.vec_lanes();
    slots_ = chunks_in(footprint_or(p, kDefaultFootprint), align_);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, slots_ * align_, error);
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    store_op(op, ins_, i, elems_, sm_of(i), 0, warp_in_cta(i));
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = kGlobalBase + slot(i * 32 + l) * align_;
  }
  // A seeded permutation of the slots (the largest power of two of them): every lane of the
  // stream gets its own slot until the stream has used them all, so no two warps race for a
  // location (a race's final value is any of them, and the golden-image check would compare
  // one ordering with another).
  std::uint64_t slot(std::uint64_t k) const {
    unsigned bits = 0;
    while (bits < 63 && (std::uint64_t(2) << bits) <= slots_) ++bits;
    const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
    std::uint64_t x = (k + splitmix64(p_.seed)) & mask;
    for (int round = 0; round < 3; ++round) {  // each step is a bijection on `bits` bits
      x = (x * 0x9E3779B97F4A7C15ull) & mask;  // odd multiplier
      x ^= x >> (bits / 2 + 1);
      x = (x + splitmix64(p_.seed + round)) & mask;
    }
    return x;
  }
  std::uint32_t width_ = 4, align_ = 4;
  unsigned elems_ = 1;
  std::uint64_t slots_ = 1;
  isa::Instruction ins_;
};

// --- partial ---------------------------------------------------------------------------------
// Sectors written in part, three patterns in turn, each warp in its own 256-byte chunk:
//   0: st.global.b8, lane l at 4l (every sector gets 8 of its 32 bytes)
//   1: st.global.b16, even lanes only, lane l at 4l (8 of 32 bytes, every other lane active)
//   2: st.global.b32, lane l at 8l (16 of 32 bytes, the chunk's 8 sectors)
class Partial : public Generator {
 public:
  explicit Partial(const GenParams& p) : Generator("partial", p) {
    ins_[0] = parse("st.global.b8 [%rd1], %r1;", error_);
    ins_[1] = parse("st.global.b16 [%rd1], %r1;", error_);
    ins_[2] = parse("st.global.b32 [%rd1], %r1;", error_);
    chunks_ = chunks_in(footprint_or(p, kDefaultFootprint), kChunk);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, chunks_ * kChunk, error);
  }

 private:
  static constexpr std::uint64_t kChunk = 256;
  void make(std::uint64_t i, WarpOp& op) override {
    const unsigned k = unsigned(i % 3);
    store_op(op, ins_[k], i, 1, sm_of(i), 0, warp_in_cta(i), k == 1 ? 0x55555555u : ~0u);
    const std::uint64_t base = kGlobalBase + (i % chunks_) * kChunk;
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = base + l * (k == 2 ? 8u : 4u);
  }
  std::uint64_t chunks_ = 1;
  std::array<isa::Instruction, 3> ins_;
};

// --- bank_conflict ---------------------------------------------------------------------------
// st.shared.b32, lane l at slot + l*stride in the CTA's shared memory: stride 4 is
// conflict-free, 8 two-way, ..., 128 32-way. Slots are 32*stride bytes rounded up to 128.
class BankConflict : public Generator {
 public:
  explicit BankConflict(const GenParams& p) : Generator("bank_conflict", p) {
    stride_ = p.stride ? p.stride : 128;
    if (stride_ % 4 || stride_ < 4 || stride_ > 4096) {
      error_ =
          "stride: must be a multiple of 4 from 4 to 4096 (got " + std::to_string(stride_) + ")";
      return;
    }
    cfg_.shared_bytes = 128 << 10;
    const std::uint64_t span = 32 * stride_;
    slot_ = (span + 127) / 128 * 128;
    slots_ = cfg_.shared_bytes / slot_;
    ins_ = parse("st.shared.b32 [%r1], %r2;", error_);
    total_ = p.warps;
  }
  bool setup(MachineState&, std::string&) const override { return true; }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    // One CTA's shared memory lives on one SM: every warp of the CTA issues there, in turn
    // (a slot's ops, i apart by a multiple of 32, are one warp's: no two warps race).
    store_op(op, ins_, i, 1, 0, 0, std::uint16_t(i % cfg_.warps_per_cta));
    const std::uint64_t base = (i % slots_) * slot_;
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = base + l * stride_;
  }
  std::uint64_t stride_ = 128, slot_ = 4096, slots_ = 1;
  isa::Instruction ins_;
};

// --- dsmem_ring ------------------------------------------------------------------------------
// A cluster of 4 CTAs, one warp each (on SM = CTA rank). Round r: every CTA arrives on its own
// barrier expecting the 512 bytes it will receive; every CTA c stores 512 bytes with st.async
// into CTA (c+1)%4's buffer, completing (c+1)%4's barrier; every CTA waits on its own barrier
// for the parity of the round. The order (arrives, stores, waits) is valid sequentially.
class DsmemRing : public Generator {
 public:
  static constexpr unsigned kCtas = 4;
  static constexpr std::uint64_t kMbar = 0;         // barrier offset in every CTA
  static constexpr std::uint64_t kBuf = 0x400;      // first buffer slot
  static constexpr std::uint32_t kBytes = 32 * 16;  // per store: 32 lanes x 16 bytes
  static constexpr std::uint64_t kSlots = 64;

  explicit DsmemRing(const GenParams& p) : Generator("dsmem_ring", p) {
    cfg_.cluster_ctas = kCtas;
    cfg_.warps_per_cta = 1;
    cfg_.shared_bytes = kBuf + kSlots * kBytes;
    ins_ = parse(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, "
        "%r5}, [%r6];",
        error_);
    rounds_ = std::max<std::uint64_t>(1, (p.warps + kCtas - 1) / kCtas);
    total_ = rounds_ * 3 * kCtas;
  }
  bool setup(MachineState& m, std::string&) const override {
    for (unsigned c = 0; c < kCtas; ++c) m.set_mbar(c, kMbar, golden::MbarState{0, 1, 1, 0});
    return true;
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    const std::uint64_t round = i / (3 * kCtas);
    const unsigned step = unsigned(i % (3 * kCtas)) / kCtas;  // 0 arrive, 1 store, 2 wait
    const unsigned c = unsigned(i % kCtas);
    if (step == 0) {
      begin_op(op, OpKind::MbarArrive, c, std::uint16_t(c), 0, 1);
      op.mbar_offset = kMbar;
      op.tx_bytes = kBytes;
    } else if (step == 2) {
      begin_op(op, OpKind::MbarWait, c, std::uint16_t(c), 0);
      op.mbar_offset = kMbar;
      op.parity = std::uint32_t(round & 1);
    } else {
      const unsigned d = (c + 1) % kCtas;
      store_op(op, ins_, round * kCtas + c, 4, c, std::uint16_t(c), 0);
      const std::uint64_t buf = kBuf + (round % kSlots) * kBytes;
      for (unsigned l = 0; l < 32; ++l) {
        op.ops.addr[l] = golden::shared_cluster_addr(cfg_, d, buf + l * 16);
        op.ops.mbar[l] = golden::shared_cluster_addr(cfg_, d, kMbar);
      }
    }
  }
  std::uint64_t rounds_ = 1;
  isa::Instruction ins_;
};

// --- tcgen05_epilogue ------------------------------------------------------------------------
// 4 warps of one CTA write TMEM (all 512 columns allocated), warp w in lane quarter w. Store k
// of a warp is at column (8k) mod 512: even k `32x32b.x4` (32 lanes x 4 columns), odd k
// `16x256b.x1` (16 lanes x 8 columns, the quarter's upper or lower half in turn). After every
// 4th store of each warp (and at the end) each warp waits (tcgen05.wait::st).
class Tcgen05Epilogue : public Generator {
 public:
  static constexpr unsigned kWarps = 4;
  static constexpr unsigned kWaitEvery = 4;

  explicit Tcgen05Epilogue(const GenParams& p) : Generator("tcgen05_epilogue", p) {
    cfg_.warps_per_cta = kWarps;
    ins_[0] = parse("tcgen05.st.sync.aligned.32x32b.x4.b32 [%r1], {%r2, %r3, %r4, %r5};", error_);
    ins_[1] = parse("tcgen05.st.sync.aligned.16x256b.x1.b32 [%r1], {%r2, %r3, %r4, %r5};", error_);
    rounds_ = std::max<std::uint64_t>(1, (p.warps + kWarps - 1) / kWarps);
    groups_ = (rounds_ + kWaitEvery - 1) / kWaitEvery;
    total_ = rounds_ * kWarps + groups_ * kWarps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    if (!m.cta(0).tmem_alloc.alloc(golden::kTmemColumns)) {
      error = name_ + ": cannot allocate 512 TMEM columns";
      return false;
    }
    return true;
  }

 private:
  // Ops come in groups: kWaitEvery rounds of 4 stores, then 4 waits (the last group shorter).
  void make(std::uint64_t i, WarpOp& op) override {
    const std::uint64_t full = (kWaitEvery + 1) * kWarps;  // ops of a full group
    const std::uint64_t g = i / full;
    const std::uint64_t in_group = i % full;
    const std::uint64_t rounds_in_group =
        std::min<std::uint64_t>(kWaitEvery, rounds_ - g * kWaitEvery);
    const unsigned w = unsigned(in_group % kWarps);
    if (in_group >= rounds_in_group * kWarps) {
      begin_op(op, OpKind::TmemWait, 0, 0, std::uint16_t(w));
      return;
    }
    const std::uint64_t k = g * kWaitEvery + in_group / kWarps;  // the warp's store number
    const unsigned form = unsigned(k & 1);
    store_op(op, ins_[form], k * kWarps + w, 4, 0, 0, std::uint16_t(w));
    std::uint32_t lane = 32 * w;
    if (form == 1) lane += 16 * std::uint32_t((k >> 1) & 1);
    const std::uint32_t col = std::uint32_t((8 * k) % golden::kTmemColumns);
    const std::uint32_t taddr = golden::TmemAddr{lane, col}.encode();
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = taddr;
  }
  std::uint64_t rounds_ = 1, groups_ = 1;
  std::array<isa::Instruction, 2> ins_;
};

// --- flag_publish ----------------------------------------------------------------------------
// 8 producer warps, interleaved op by op. Each warp repeats: 3 weak st.global.v4.b32 data
// stores (512 bytes each, in its own data chunks), then a flag store by lane 0 of the group
// number (1, 2, ...) to its flag word: st.release.gpu for even (group + warp), else
// st.relaxed.gpu. The 8 flags share one 128-byte line after the data.
class FlagPublish : public Generator {
 public:
  static constexpr unsigned kWarps = 8;
  static constexpr unsigned kData = 3;
  static constexpr std::uint64_t kChunk = 512;

  explicit FlagPublish(const GenParams& p) : Generator("flag_publish", p) {
    cfg_.warps_per_cta = kWarps;
    data_ = parse("st.global.v4.b32 [%rd1], {%r1, %r2, %r3, %r4};", error_);
    release_ = parse("st.release.gpu.global.b32 [%rd1], %r1;", error_);
    relaxed_ = parse("st.relaxed.gpu.global.b32 [%rd1], %r1;", error_);
    chunks_ = chunks_in(footprint_or(p, 1ull << 20), kChunk * kWarps) * kWarps;
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, chunks_ * kChunk + 128, error);
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    const unsigned w = unsigned(i % kWarps);
    const std::uint64_t s = i / kWarps;  // the warp's op number
    const std::uint64_t group = s / (kData + 1);
    const unsigned k = unsigned(s % (kData + 1));
    if (k < kData) {
      store_op(op, data_, i, 4, sm_of(w), 0, std::uint16_t(w));
      const std::uint64_t c = ((group * kData + k) * kWarps + w) % chunks_;
      for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = kGlobalBase + c * kChunk + l * 16;
      return;
    }
    const bool rel = (group + w) % 2 == 0;
    store_op(op, rel ? release_ : relaxed_, i, 1, sm_of(w), 0, std::uint16_t(w), 1);
    op.ops.src[0] = golden::RegValue{group + 1, 0};
    op.ops.addr[0] = kGlobalBase + chunks_ * kChunk + 4 * w;
  }
  std::uint64_t chunks_ = kWarps;
  isa::Instruction data_, release_, relaxed_;
};

// --- mmio ------------------------------------------------------------------------------------
// st.mmio.relaxed.sys.global.b32 to a 128-byte register window per SM, written by warp 0 of
// that SM alone (so no two warps race on a register): on each SM, its k-th op has lane 0 alone
// write register (k/4) mod 32, so four of its ops in a row hit the same address (they must
// never merge); every 8th the whole warp writes the window (lane l register l).
class Mmio : public Generator {
 public:
  explicit Mmio(const GenParams& p) : Generator("mmio", p) {
    ins_ = parse("st.mmio.relaxed.sys.global.b32 [%rd1], %r1;", error_);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, std::uint64_t(kWindow) * p_.sms, error);
  }

 private:
  static constexpr unsigned kWindow = 128;
  void make(std::uint64_t i, WarpOp& op) override {
    const std::uint32_t sm = sm_of(i);
    const std::uint64_t k = i / p_.sms;  // the op's place among its SM's
    const std::uint64_t window = kGlobalBase + std::uint64_t(kWindow) * sm;
    const bool all = k % 8 == 7;
    store_op(op, ins_, i, 1, sm, 0, 0, all ? ~0u : 1u);
    if (all) {
      for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = window + 4 * l;
    } else {
      op.ops.addr[0] = window + 4 * ((k / 4) % 32);
    }
  }
  isa::Instruction ins_;
};

// --- chain_l2 --------------------------------------------------------------------------------
// The calibration chain (docs/calibration.md): one warp (warp 0 of CTA 0 on SM 0; `sms` is not
// used), lane 0 alone stores 4 bytes with st.relaxed.gpu.global.b32 to a line of its own: op i
// at line i (wrapping in the footprint, default 16 MiB: 131072 distinct lines). Each store is
// acknowledged by the L2, so its latency is the L2 store latency (l2.hit_latency). No store is
// acknowledged by DRAM (on an H200 not even a .mmio one), so there is no DRAM chain.
class Chain : public Generator {
 public:
  explicit Chain(const GenParams& p) : Generator("chain_l2", p) {
    ins_ = parse("st.relaxed.gpu.global.b32 [%rd1], %r1;", error_);
    lines_ = chunks_in(footprint_or(p, 16ull << 20), golden::kLineBytes);
    total_ = p.warps;
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, lines_ * golden::kLineBytes, error);
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    store_op(op, ins_, i, 1, 0, 0, 0, 1u);
    op.ops.addr[0] = kGlobalBase + (i % lines_) * golden::kLineBytes;
  }
  std::uint64_t lines_ = 1;
  isa::Instruction ins_;
};

// --- dsmem_pair ------------------------------------------------------------------------------
// The correlation suite's `async` experiment (gpu/store_bench.cu k_async): a 2-CTA cluster, CTA
// r on SM r. In each phase CTA 1 arrives once on its barrier expecting n x 512 bytes; warp 0 of
// CTA 0 sends them with n st.async.v4 (512 bytes each, into the same 512-byte buffer of CTA 1)
// completing that barrier; CTA 1 waits for the phase. n is at most 2047 (the barrier's
// transaction count holds 2^20 - 1 bytes): `warps` stores in ceil(warps / 2047) phases, each
// with its arrive and its wait.
class DsmemPair : public Generator {
 public:
  static constexpr std::uint64_t kMbar = 0, kBuf = 0x400;
  static constexpr std::uint32_t kBytes = 32 * 16;
  static constexpr std::uint64_t kPerPhase = std::uint64_t(golden::kMbarMaxTx) / kBytes;

  explicit DsmemPair(const GenParams& p) : Generator("dsmem_pair", p) {
    cfg_.cluster_ctas = 2;
    cfg_.warps_per_cta = 1;
    cfg_.shared_bytes = kBuf + kBytes;
    ins_ = parse(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, "
        "%r5}, [%r6];",
        error_);
    const std::uint64_t phases = std::max<std::uint64_t>(1, (p.warps + kPerPhase - 1) / kPerPhase);
    total_ = p.warps + 2 * phases;
  }
  bool setup(MachineState& m, std::string&) const override {
    m.set_mbar(1, kMbar, golden::MbarState{0, 1, 1, 0});
    return true;
  }

 private:
  void make(std::uint64_t i, WarpOp& op) override {
    const std::uint64_t phase = i / (kPerPhase + 2), j = i % (kPerPhase + 2);
    const std::uint64_t n = std::min(kPerPhase, p_.warps - phase * kPerPhase);  // its stores
    if (j == 0) {
      begin_op(op, OpKind::MbarArrive, 1, 1, 0, 1);
      op.mbar_offset = kMbar;
      op.tx_bytes = std::uint32_t(n * kBytes);
    } else if (j == n + 1) {
      begin_op(op, OpKind::MbarWait, 1, 1, 0);
      op.mbar_offset = kMbar;
      op.parity = std::uint32_t(phase & 1);
    } else {
      store_op(op, ins_, i, 4, 0, 0, 0);
      for (unsigned l = 0; l < 32; ++l) {
        op.ops.addr[l] = golden::shared_cluster_addr(cfg_, 1, kBuf + l * 16);
        op.ops.mbar[l] = golden::shared_cluster_addr(cfg_, 1, kMbar);
      }
    }
  }
  isa::Instruction ins_;
};

// --- sm_chain ------------------------------------------------------------------------------
// The correlation suite's `chain` experiments (gpu/suite.txt): `cta_warps` warps of CTA 0 on
// SM 0, lanes 0 .. `lanes`-1 active. Iteration i of warp w does each '+'-separated part of `op`
// in turn: a store part (st, st.relaxed.gpu, st.volatile, st.mmio, st.release.sys, ...) stores
// 4 bytes a lane to line i * cta_warps + w of the footprint (lane l at 4 l), a fence part
// (fence.sc.gpu, fence.acq_rel.cta, ...) is a Fence op of its scope. `warps` counts the
// iterations of all warps together; warp w's iterations interleave with the other warps'.
class SmChain : public Generator {
 public:
  explicit SmChain(const GenParams& p) : Generator("sm_chain", p) {
    if (p.cta_warps < 1 || p.cta_warps > 32) {
      error_ = "cta_warps: must be in 1..32 (got " + std::to_string(p.cta_warps) + ")";
      return;
    }
    if (p.lanes < 1 || p.lanes > 32) {
      error_ = "lanes: must be in 1..32 (got " + std::to_string(p.lanes) + ")";
      return;
    }
    cfg_.warps_per_cta = std::max<std::uint32_t>(cfg_.warps_per_cta, p.cta_warps);
    std::size_t from = 0;
    for (;;) {
      const std::size_t plus = p.op.find('+', from);
      if (!add_part(p.op.substr(from, plus == std::string::npos ? std::string::npos : plus - from)))
        return;
      if (plus == std::string::npos) break;
      from = plus + 1;
    }
    lines_ = chunks_in(footprint_or(p, 16ull << 20), golden::kLineBytes);
    total_ = p.warps * parts_.size();
  }
  bool setup(MachineState& m, std::string& error) const override {
    return alloc_global(m, lines_ * golden::kLineBytes, error);
  }

 private:
  struct Part {
    bool fence = false;
    isa::Scope scope = isa::Scope::Gpu;
    std::size_t ins = 0;  // into ins_
  };
  bool add_part(const std::string& part) {
    Part x;
    const auto scope_of = [&](const std::string& s) {
      for (auto [name, sc] : {std::pair<const char*, isa::Scope>{"cta", isa::Scope::Cta},
                              {"cluster", isa::Scope::Cluster},
                              {"gpu", isa::Scope::Gpu},
                              {"sys", isa::Scope::Sys}}) {
        if (s == name) {
          x.scope = sc;
          return true;
        }
      }
      return false;
    };
    if (part.rfind("fence.", 0) == 0) {  // fence.<sc|acq_rel>.<scope>
      const std::size_t dot = part.find('.', 6);
      const std::string sem = part.substr(6, dot == std::string::npos ? dot : dot - 6);
      if ((sem != "sc" && sem != "acq_rel") || dot == std::string::npos ||
          !scope_of(part.substr(dot + 1))) {
        error_ = "op: '" + part + "' is no fence.{sc,acq_rel}.{cta,cluster,gpu,sys}";
        return false;
      }
      x.fence = true;
    } else if (part == "st" || part.rfind("st.", 0) == 0) {
      std::string quals = part.substr(2);
      if (quals == ".mmio") quals = ".mmio.relaxed.sys";
      ins_.push_back(parse("st" + quals + ".global.b32 [%rd1], %r1;", error_));
      if (!error_.empty()) {
        error_ = "op: '" + part + "' is no 4-byte global store: " + error_;
        return false;
      }
      x.ins = ins_.size() - 1;
    } else {
      error_ = "op: '" + part + "' is neither a store (st...) nor a fence (fence...)";
      return false;
    }
    parts_.push_back(x);
    return true;
  }
  void make(std::uint64_t i, WarpOp& op) override {
    const Part& x = parts_[i % parts_.size()];
    const std::uint64_t n = i / parts_.size();  // iteration of all warps
    const std::uint16_t w = std::uint16_t(n % p_.cta_warps);
    const std::uint32_t active = p_.lanes == 32 ? 0xFFFFFFFFu : (std::uint32_t(1) << p_.lanes) - 1;
    if (x.fence) {
      begin_op(op, OpKind::Fence, 0, 0, w, active);
      op.scope = x.scope;
      return;
    }
    store_op(op, ins_[x.ins], i, 1, 0, 0, w, active);
    const std::uint64_t line = kGlobalBase + (n % lines_) * golden::kLineBytes;
    for (unsigned l = 0; l < 32; ++l) op.ops.addr[l] = line + 4 * l;
  }
  std::vector<Part> parts_;
  std::vector<isa::Instruction> ins_;
  std::uint64_t lines_ = 1;
};

template <typename T, typename... A>
std::unique_ptr<Workload> make(std::string& error, A&&... a) {
  auto g = std::make_unique<T>(std::forward<A>(a)...);
  if (!g->init_error().empty()) {
    error = g->init_error();
    return nullptr;
  }
  return g;
}

}  // namespace

const std::vector<GeneratorInfo>& generators() {
  static const std::vector<GeneratorInfo> list = {
      {"stream", "coalesced streaming st.global of `width` bytes per lane (1..32)"},
      {"stream_v4b64", "coalesced streaming st.global.v4.b64 (32 bytes per lane)"},
      {"strided", "lane i writes `width` bytes at i * `stride` (default 128)"},
      {"scatter", "random width-aligned (at least 4) addresses in the footprint, from `seed`"},
      {"partial", "sectors written in part (b8 / every-other-lane b16 / b32 every 8 bytes)"},
      {"bank_conflict", "st.shared.b32, lane i at i * `stride` (4: conflict-free, 128: 32-way)"},
      {"dsmem_ring", "4-CTA cluster ring: mbarrier arrive.expect_tx, st.async, wait"},
      {"tcgen05_epilogue", "4 warps tcgen05.st 32x32b.x4 / 16x256b.x1, tcgen05.wait::st"},
      {"flag_publish", "weak v4 data stores then a st.release / st.relaxed .gpu flag"},
      {"mmio", "st.mmio.relaxed.sys to a 128-byte register window per SM, repeated addresses"},
      {"chain_l2", "calibration: one lane of one warp, st.relaxed.gpu to a new line each op"},
      {"dsmem_pair",
       "2-CTA cluster: warp 0 of CTA 0 st.async's `warps` x 512 B into CTA 1, which waits"},
      {"sm_chain",
       "`cta_warps` warps of SM 0, `lanes` lanes: each iteration `op` (st..., fence..., "
       "'+'-joined) "
       "to a new line"},
  };
  return list;
}

namespace {

// A generator's ops with the instructions a warp issues for each (GenParams::instructions):
// op i takes floor((i+1)x) - floor(ix) of them, so any stretch of ops averages x.
class Issued : public Workload {
 public:
  Issued(std::unique_ptr<Workload> inner, double per_op) : inner_(std::move(inner)), x_(per_op) {}
  std::string name() const override { return inner_->name(); }
  golden::ModelConfig model_config() const override { return inner_->model_config(); }
  bool setup(golden::MachineState& m, std::string& error) const override {
    return inner_->setup(m, error);
  }
  bool next(WarpOp& op) override {
    if (!inner_->next(op)) return false;
    const double upto = std::floor(double(n_ + 1) * x_);
    op.instructions = float(upto - std::floor(double(n_) * x_));
    ++n_;
    return true;
  }
  std::string error() const override { return inner_->error(); }
  std::uint64_t size_hint() const override { return inner_->size_hint(); }
  std::vector<std::string> notes() const override { return inner_->notes(); }
  bool allocate_all() const override { return inner_->allocate_all(); }

 private:
  std::unique_ptr<Workload> inner_;
  double x_;
  std::uint64_t n_ = 0;
};

std::unique_ptr<Workload> make_plain(std::string_view name, const GenParams& p,
                                     std::string& error) {
  if (name == "stream") return make<Stream>(error, p, false);
  if (name == "stream_v4b64") return make<Stream>(error, p, true);
  if (name == "strided") return make<Strided>(error, p);
  if (name == "scatter") return make<Scatter>(error, p);
  if (name == "partial") return make<Partial>(error, p);
  if (name == "bank_conflict") return make<BankConflict>(error, p);
  if (name == "dsmem_ring") return make<DsmemRing>(error, p);
  if (name == "tcgen05_epilogue") return make<Tcgen05Epilogue>(error, p);
  if (name == "flag_publish") return make<FlagPublish>(error, p);
  if (name == "chain_l2") return make<Chain>(error, p);
  if (name == "sm_chain") return make<SmChain>(error, p);
  if (name == "dsmem_pair") return make<DsmemPair>(error, p);
  return make<Mmio>(error, p);
}

}  // namespace

std::unique_ptr<Workload> make_generator(std::string_view name, const GenParams& p,
                                         std::string& error) {
  error.clear();
  const auto known = [&] {
    for (const GeneratorInfo& g : generators())
      if (g.name == name) return true;
    return false;
  };
  if (!known()) {
    std::string list;
    for (const GeneratorInfo& g : generators()) list += (list.empty() ? "" : ", ") + g.name;
    error = "unknown workload '" + std::string(name) + "' (generators: " + list + ")";
    return nullptr;
  }
  if (p.sms == 0) {
    error = "sms: must be at least 1 (got 0)";
    return nullptr;
  }
  if (p.warps == 0) {
    error = "warps: must be at least 1 (got 0)";
    return nullptr;
  }
  if (p.footprint > kMaxFootprint) {
    error = "footprint: must be at most 2^40 bytes (got " + std::to_string(p.footprint) + ")";
    return nullptr;
  }
  if (!(p.instructions >= 0) || p.instructions > 65536) {
    error = "instructions: must be in 0..65536 (got " + std::to_string(p.instructions) + ")";
    return nullptr;
  }
  std::unique_ptr<Workload> w = make_plain(name, p, error);
  if (w && p.instructions > 0) return std::make_unique<Issued>(std::move(w), p.instructions);
  return w;
}

}  // namespace stu::sim
