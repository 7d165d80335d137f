// Cosimulation of the store-unit top (rtl/stu_store_unit.sv, through the `stu run --on rtl`
// model) against golden::execute / golden::execute_sass: random warp stores of every form the
// top runs (PTX st of every width and vector, generic and every state space, strong, mmio,
// sinks; st.async with its mbarrier; SASS ST), random addresses around the allocations,
// windows and barriers, every result compared field by field (faults with their addresses,
// stored and forced-down lanes, line requests, mbarrier events, the narrowed scope), and at the
// end the two memory images (global allocations, shared memory, mbarriers) compared byte by
// byte. The golden side runs on its own MachineState; the RTL side on the harness's image.
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "blocks.h"
#include "fcov.h"
#include "harness.h"
#include "ports.h"
#include "rtl_model.h"
#include "stu/diag.h"
#include "stu/golden/cache.h"
#include "stu/golden/executor.h"
#include "stu/golden/policy.h"
#include "stu/isa/parser.h"
#include "stu/isa/sass.h"

namespace stu::tb {
namespace {

using golden::MachineState;
using golden::StoreResult;

// The forms: one template per line, with $A the address register and sources $R (32-bit),
// $D (64-bit), $Q (128-bit), $H (16-bit), $B (8-bit), $M the mbarrier, $T a TMEM address, $P
// the .L2::cache_hint policy.
const char* const kPtx[] = {
    "st.global.u32 [$A], $R;",
    "st.global.u8 [$A+1], $B;",
    "st.global.b16 [$A], $H;",
    "st.global.u64 [$A], $D;",
    "st.global.b128 [$A], $Q;",
    "st.global.v2.u32 [$A], {$R, $R};",
    "st.global.v4.u32 [$A+16], {$R, _, $R, $R};",
    "st.global.v8.b32 [$A], {$R, $R, $R, $R, $R, $R, $R, $R};",
    "st.global.v4.b64 [$A], {$D, $D, _, $D};",
    "st.global.cs.v2.f64 [$A], {$D, $D};",
    "st.relaxed.gpu.global.u32 [$A], $R;",
    "st.release.sys.global.u32 [$A], $R;",
    "st.mmio.relaxed.sys.global.u32 [$A], $R;",
    "st.volatile.u32 [$A], $R;",
    "st.u32 [$A], $R;",
    "st.v4.u32 [$A], {$R, $R, $R, $R};",
    "st.release.sys.u64 [$A], $D;",
    "st.global.L1::no_allocate.u32 [$A], $R;",
    "st.global.L2::cache_hint.u32 [$A], $R, $P;",
    "st.global.L1::evict_last.L2::cache_hint.v2.u32 [$A], {$R, $R}, $P;",
    "st.L2::cache_hint.u64 [$A], $D, $P;",
    "st.shared.u32 [$A], $R;",
    "st.shared::cta.v2.u64 [$A], {$D, $D};",
    "st.shared::cluster.u32 [$A], $R;",
    "st.relaxed.cluster.shared::cluster.u32 [$A], $R;",
    "st.relaxed.cta.u32 [$A], $R;",
    "st.relaxed.cta.shared::cta.u64 [$A], $D;",
    "st.release.cta.shared.u32 [$A], $R;",
    "st.release.cluster.shared::cluster.v2.u32 [$A], {$R, $R};",
    "st.release.gpu.u32 [$A], $R;",
    "st.release.cta.global.u16 [$A], $H;",
    "st.volatile.global.u64 [$A], $D;",
    "st.volatile.shared::cta.u32 [$A], $R;",
    "st.volatile.shared::cluster.u8 [$A+3], $B;",
    "st.mmio.relaxed.sys.u32 [$A], $R;",
    "st.relaxed.sys.global.v2.u32 [$A], {$R, $R};",
    "st.v4.b64 [$A], {$D, $D, $D, $D};",
    "st.async.mbarrier::complete_tx::bytes.u32 [$A], $R, [$M];",
    "st.global.v2.u8 [$A], {$B, $B};",
    "st.shared.v4.u8 [$A], {$B, _, $B, $B};",
    "st.global.v4.b16 [$A], {$H, $H, $H, $H};",
    "st.local.v2.b16 [$A+4], {$H, $H};",
    "st.local.u16 [$A], $H;",
    "st.local.v2.u32 [$A+8], {$R, $R};",
    "st.param::func.u32 [$A], $R;",
    "st.const.u32 [$A], $R;",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [$A], $R, [$M];",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [$A], {$R, $R, $R, $R}, [$M];",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.s64 [$A], {$D, $D}, [$M];",
    "st.async.release.global.u32 [$A], $R;",
    "st.async.u32 [$A], $R;",
    "st.global.v8.b16 [$A], {$H, $H, $H, $H, $H, $H, $H, $H};",
    "st.shared.v8.u8 [$A], {$B, $B, $B, $B, $B, $B, $B, $B};",
    "st.global.L2::evict_last.u32 [$A], $R;",
    "st.global.L2::evict_normal.u32 [$A], $R;",
    "st.global.L1::evict_first.L2::evict_first.v2.u32 [$A], {$R, $R};",
    "tcgen05.st.sync.aligned.32x32b.x4.b32 [$T], {$R, $R, $R, $R};",
    "tcgen05.st.sync.aligned.32x32b.x1.unpack::16b.b32 [$T], {$R};",
    "tcgen05.st.sync.aligned.16x64b.x2.b32 [$T], {$R, $R};",
    "tcgen05.st.sync.aligned.16x128b.x1.unpack::16b.b32 [$T], {$R, $R};",
    "tcgen05.st.sync.aligned.16x256b.x1.b32 [$T], {$R, $R, $R, $R};",
    "tcgen05.st.sync.aligned.16x32bx2.x2.b32 [$T], 16, {$R, $R};",
};
const char* const kSass[] = {
    "ST.E [R2], R4",     "ST.E.64 [R2+0x8], R4", "ST.E.128 [R2], R4",  "ST.E.U8 [R2+0x3], R4",
    "ST.E.S16 [R2], R4", "ST [R2], R4",          "ST.E [R2], R4, !PT", "ST.E.CG [R2+-0x10], R4",
    "ST.E [0x1400], R4",  // Ra omitted: the immediate alone, an absolute 32-bit address
};

struct Form {
  std::string text;
  bool sass = false;
  isa::Instruction ins;
  isa::SassSt st;
};

std::vector<Form> forms() {
  std::vector<Form> out;
  for (const char* t : kPtx) {
    std::string s = t;
    auto sub = [&](const std::string& from, const std::string& to) {
      for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
        s.replace(p, from.size(), to);
    };
    sub("$A", "%rd1");
    sub("$M", "%rd2");
    sub("$R", "%r1");
    sub("$D", "%rd3");
    sub("$Q", "%q1");
    sub("$H", "%h1");
    sub("$B", "%rs1");
    sub("$T", "%r2");
    sub("$P", "%rd4");
    Diagnostics d;
    auto ins = isa::parse_instruction(s, d);
    if (!ins || d.has_errors()) {  // a template the parser rejects is a bug of this bench
      std::fprintf(stderr, "cosim store_unit: template does not parse: %s\n", s.c_str());
      continue;
    }
    out.push_back(Form{s, false, *ins, {}});
  }
  for (const char* t : kSass) {
    Diagnostics d;
    auto st = isa::parse_sass_st(t, d);
    if (!st || d.has_errors()) {
      std::fprintf(stderr, "cosim store_unit: template does not parse: %s\n", t);
      continue;
    }
    out.push_back(Form{t, true, {}, *st});
  }
  return out;
}

constexpr uint64_t kGlobalA = 0x10000, kGlobalB = 0xFFFF'FFFF'FFFF'F000ull;
constexpr uint64_t kMbarBase = 0x400;  // shared offsets of the barriers (8 of them)

std::string compare_dram(const std::vector<golden::DramWrite>& g,
                         const std::vector<golden::DramWrite>* r);

struct Bench {
  golden::ModelConfig cfg;
  std::unique_ptr<MachineState> gold;
  std::unique_ptr<RtlStoreModel> rtl;
  golden::Scratch scratch;
  // Half the seeds run the store path with its caches (a random small geometry), the golden
  // side a MemoryHierarchy of the same geometry; their DRAM writes are compared.
  std::optional<golden::MemoryHierarchy> caches;
  golden::HierarchyEvents events;
  std::vector<golden::DramWrite> dram;

  // After the golden caches' step (its events in `events`): adds its DRAM writes to the log
  // and compares the log and the write buffer's occupancy with the RTL's ("" when equal).
  // The golden caches' DRAM writes of their last step go into the log.
  void log_dram() { dram.insert(dram.end(), events.dram.begin(), events.dram.end()); }
  std::string caches_agree() {
    log_dram();
    std::string d = compare_dram(dram, rtl->dram_writes());
    if (d.empty() && rtl->write_buffer_entries() != caches->write_buffer().size())
      d = "write buffer: expected " + std::to_string(caches->write_buffer().size()) +
          " entries, actual " + std::to_string(rtl->write_buffer_entries());
    return d;
  }

  void setup(Rng& r, uint64_t seed, const RtlTrace* trace) {
    cfg = golden::ModelConfig{};
    cfg.cluster_ctas = 1 + uint32_t(r.below(4));
    cfg.warps_per_cta = 4;
    cfg.shared_bytes = 16 << 10;
    cfg.local_bytes = 1 << 10;
    cfg.param_func_bytes = 512;
    // The address windows of this seed: the defaults sometimes, else four windows at random
    // places in a random region, with random sizes and a random CTA stride (as the
    // addr_resolve bench draws them), local sometimes at the very top of memory.
    if (r.chance(0.75)) {
      for (int attempt = 0; attempt < 100; ++attempt) {
        golden::ModelConfig c = cfg;
        c.map.shared_cta_stride = uint64_t(1) << (14 + r.below(9));  // holds shared_bytes
        const uint64_t region = uint64_t(0x10 + r.below(0x60)) << 40;
        c.map.shared = {region, c.map.shared_cta_stride * (c.cluster_ctas + r.below(4))};
        c.map.local = {region + (uint64_t(1) << 36), uint64_t(1 + r.below(1 << 12)) << 12};
        c.map.param = {region + (uint64_t(2) << 36), uint64_t(1 + r.below(16)) << 12};
        c.map.konst = {region + (uint64_t(3) << 36), uint64_t(1 + r.below(256)) << 12};
        if (r.chance(0.1)) c.map.local = {~uint64_t(0) - 0xFFFFF - 0x10000, 0x100000};
        if (c.check().empty()) {
          cfg = c;
          break;
        }
      }
    }
    cfg.sass_misalign =
        r.chance(0.5) ? golden::MisalignMode::Fault : golden::MisalignMode::ForceAlign;
    // A small register count in every other seed (so that any four seeds in a row have both):
    // 2, the SASS forms' Ra (R2) at it, an absolute address; 3, Ra below it and its high half
    // (R3) at it, read as zero.
    if (seed % 2 == 0) cfg.sass_regs = 2 + uint32_t(seed / 2 % 2);
    gold = std::make_unique<MachineState>(cfg);
    caches.reset();
    dram.clear();
    if (r.chance(0.5)) {
      golden::HierarchyConfig hc;
      hc.l1 = {uint64_t(256) << r.below(4), 1u << r.below(3)};
      hc.l2 = {uint64_t(1024) << r.below(4), 1u << r.below(4)};
      if (r.chance(0.5)) hc.l2.replacement = golden::Replacement::Random;
      hc.write_buffer = 1 + unsigned(r.below(8));
      caches = golden::MemoryHierarchy::create(hc);
      rtl = make_rtl_model(cfg, hc, trace);
    } else {
      rtl = make_rtl_model(cfg, trace);
    }
    for (MachineState* m : {gold.get(), &rtl->image()}) {
      m->allocations().add(kGlobalA, 0x4000);
      m->allocations().add(kGlobalB, 0x1000);  // ends at 2^64
      for (uint32_t c = 0; c < cfg.cluster_ctas; ++c)
        for (unsigned b = 0; b < 6; ++b) {  // barriers 6, 7 stay uninitialised
          golden::MbarState s;
          s.expected = s.pending = 1 + b;
          s.tx = b == 5 ? 64 - golden::kMbarMaxTx : int32_t(b * 64);  // 5: near the tx limit
          m->set_mbar(c, kMbarBase + 8 * b, s);
        }
    }
    for (uint32_t c = 0; c < cfg.cluster_ctas; ++c) {  // TMEM columns 0..63 and 128..255
      gold->cta(c).tmem_alloc.alloc(64);
      gold->cta(c).tmem_alloc.alloc(32);
      gold->cta(c).tmem_alloc.alloc(128);
      gold->cta(c).tmem_alloc.dealloc(64, 32);
      rtl->tmem_alloc(c, 64);  // the RTL's own allocator
      rtl->tmem_alloc(c, 32);
      rtl->tmem_alloc(c, 128);
      rtl->tmem_dealloc(c, 64, 32);
    }
  }

  // A lane's address for the form: mostly in range, sometimes at an edge or beyond.
  uint64_t address(Rng& r, const Form& f, unsigned lane, uint64_t base, unsigned size,
                   int pattern) {
    uint64_t a = 0;
    const golden::AddressMap& m = cfg.map;
    const bool generic = f.sass || !f.ins.space;
    const isa::Space named = generic ? isa::Space::Global : *f.ins.space;
    int where = pattern;  // 0 global A, 1 global B, 2 shared, 3 local, 4 param/const, 5 random
    if (!generic) {
      const isa::Space e = isa::effective(named);
      where = e == isa::Space::Global                                ? (pattern % 2)
              : isa::is_shared(e)                                    ? 2
              : e == isa::Space::Local                               ? 3
              : e == isa::Space::ParamFunc || e == isa::Space::Const ? 4
                                                                     : pattern;
    }
    const uint64_t step = r.chance(0.7) ? size : size * (1 + r.below(8));
    switch (where) {
      case 0:
        a = kGlobalA + base % 0x4000 + lane * step;
        break;
      case 1:
        a = kGlobalB + (base % 0x1000) + lane * step;
        break;
      case 2: {
        const uint64_t rank = r.below(cfg.cluster_ctas + (r.chance(0.05) ? 1 : 0));
        const uint64_t off = (base % (cfg.shared_bytes + 64)) + lane * step;
        const bool cluster = !generic && isa::effective(named) == isa::Space::SharedCluster;
        a = generic ? m.shared.base + rank * m.shared_cta_stride + off
                    : (cluster ? rank * m.shared_cta_stride + off : off);
        break;
      }
      case 3:
        a = (generic ? m.local.base : 0) + base % (cfg.local_bytes + 32) + lane * size;
        break;
      case 4:
        // (.param::func up to a little beyond its frame: the frame's size is configured)
        a = (generic ? m.konst.base : 0) + base % (cfg.param_func_bytes + 64) + lane * size;
        break;
      default:
        a = r.next();
        break;
    }
    if (r.chance(0.03)) a += 1 + r.below(size > 1 ? size - 1 : 1);  // misaligned
    return a;
  }

  struct Warp {
    const Form* form = nullptr;
    golden::WarpContext ctx;
    golden::WarpOperands ops;
    golden::SassRegisterFile rf;
  };

  Warp gen(Rng& r, const std::vector<Form>& fs) {
    Warp w;
    w.form = &fs[r.below(fs.size())];
    const Form& f = *w.form;
    w.ctx.cta = uint16_t(r.below(cfg.cluster_ctas + (r.chance(0.02) ? 1 : 0)));
    w.ctx.warp = uint16_t(r.below(cfg.warps_per_cta));
    w.ctx.active = r.chance(0.6) ? ~0u : uint32_t(r.next());
    if (r.chance(0.03)) w.ctx.active = 1u << r.below(32);  // one lane
    const int pattern = int(r.below(6));
    const uint64_t base = r.next() & ~uint64_t(127) >> (r.chance(0.5) ? 0 : 40);
    if (f.sass) {
      const unsigned size = isa::bytes_of(f.st.size);
      for (unsigned l = 0; l < 32; ++l) {
        const uint64_t a = address(r, f, l, base, size, pattern) - uint64_t(f.st.imm);
        w.rf.write(l, 2, uint32_t(a));
        w.rf.write(l, 3, uint32_t(a >> 32));
        for (unsigned k = 0; k < 4; ++k) w.rf.write(l, 4 + k, uint32_t(r.next()));
        w.rf.set_pred(l, 0, r.chance(0.9));
      }
      return w;
    }
    const isa::Instruction& ins = f.ins;
    if (ins.op == isa::Opcode::Tcgen05St) {
      if (r.chance(0.5)) w.ctx.active = ~0u;
      const uint32_t quarter = r.chance(0.9) ? w.ctx.warp % 4 : uint32_t(r.below(4));
      const uint32_t lane = 32 * quarter + uint32_t(r.below(r.chance(0.8) ? 2 : 32));
      const uint32_t cols[] = {0, 8, 32, 40, 60, 128, 200, 230, 250, 500};
      const uint32_t taddr = lane << 16 | cols[r.below(10)];
      for (unsigned l = 0; l < 32; ++l) w.ops.addr[l] = taddr;
      if (r.chance(0.03)) w.ops.addr[r.below(32)] ^= 1;
      if (r.chance(0.02)) w.ops.addr[0] = w.ops.addr[1] = uint64_t(1) << 32;  // not uniform
      w.ops.src.assign(size_t(ins.tmem_regs()) * 32, golden::RegValue{});
      for (golden::RegValue& v : w.ops.src) v = golden::RegValue{r.next(), r.next()};
      return w;
    }
    const unsigned elems = ins.vec_lanes();
    const unsigned size = isa::bytes_of(*ins.type) * elems;
    if (ins.cache_hint) {
      // A policy of each decode class (createpolicy's values usually; traps too), mostly the
      // same in every lane, sometimes each lane's own.
      const auto policy = [&]() -> uint64_t {
        switch (r.below(6)) {
          case 0:
            return 0;  // opaque
          case 1:      // named (CUTLASS CacheHintSm90)
            return r.pick(std::array<uint64_t, 3>{0x1000000000000000ull, 0x12F0000000000000ull,
                                                  0x14F0000000000000ull});
          case 2:  // fractional
            return golden::encode_fractional_policy(golden::L2Priority(r.below(4)),
                                                    golden::L2Priority(r.below(4)),
                                                    float(1 + r.below(16)) / 16.0f);
          case 3:  // a trap: bit 59 with bit 60 clear, or bits 55:52 all ones
            return r.chance(0.5) ? (uint64_t(1) << 59) | (r.next() & ((uint64_t(1) << 59) - 1))
                                 : 0x1FF0000000000000ull | (r.next() & 0xFFFFFFFFFFFFull);
          default:
            return r.next();
        }
      };
      const uint64_t same = policy();
      const bool each = r.chance(0.1);
      for (unsigned l = 0; l < 32; ++l) w.ops.policy[l] = each ? policy() : same;
    }
    for (unsigned l = 0; l < 32; ++l) {
      w.ops.addr[l] = address(r, f, l, base, size, pattern) - uint64_t(ins.addr.offset);
      // The barrier: mostly a valid one in the data's CTA, sometimes not.
      const unsigned b = unsigned(r.below(r.chance(0.9) ? 6 : 8));
      uint64_t mb = kMbarBase + 8 * b;
      if (r.chance(0.03)) mb += 4;
      if (r.chance(0.02)) mb = cfg.shared_bytes - 8 * r.below(2);  // at or past the end
      const bool cluster = ins.space && isa::effective(*ins.space) == isa::Space::SharedCluster;
      const uint64_t rank =
          r.chance(0.9) ? (w.ops.addr[l] / cfg.map.shared_cta_stride) : r.below(4);
      w.ops.mbar[l] = cluster ? rank * cfg.map.shared_cta_stride + mb : mb;
    }
    w.ops.src.assign(size_t(elems) * 32, golden::RegValue{});
    for (golden::RegValue& v : w.ops.src) v = golden::RegValue{r.next(), r.next()};
    return w;
  }
};

// The DRAM writes both sides made so far (the caches' outcome): "" when equal.
std::string compare_dram(const std::vector<golden::DramWrite>& g,
                         const std::vector<golden::DramWrite>* r) {
  if (!r) return "the RTL path has no caches";
  if (g.size() != r->size())
    return "DRAM writes: expected " + std::to_string(g.size()) + ", actual " +
           std::to_string(r->size());
  for (size_t i = 0; i < g.size(); ++i) {
    const golden::DramWrite &a = g[i], &b = (*r)[i];
    if (a.line != b.line || !(a.bytes == b.bytes) || a.cause != b.cause || a.data != b.data)
      return "DRAM write " + std::to_string(i) + ": expected " + hex(a.line) + " " +
             std::string(golden::to_string(a.cause)) + ", actual " + hex(b.line) + " " +
             std::string(golden::to_string(b.cause)) + (a.data != b.data ? " (data differs)" : "");
  }
  return "";
}

std::string summary(const StoreResult& s) {
  std::string t = "stored " + hex(s.stored_mask) + " faults " + hex(s.fault_mask) + " lines " +
                  std::to_string(s.lines.size()) + " bytes " + std::to_string(s.bytes) +
                  " mbar events " + std::to_string(s.mbar.size());
  if (!s.tmem.empty()) t += " tmem runs " + std::to_string(s.tmem.size());
  return t;
}

// Every field of two results: "" when equal.
std::string compare_results(const StoreResult& g, const StoreResult& r) {
  std::string s;
  auto add = [&](const std::string& what) { s += (s.empty() ? "" : "; ") + what; };
  for (unsigned l = 0; l < 32; ++l) {
    if (g.fault[l].kind != r.fault[l].kind || (g.fault[l] && g.fault[l].addr != r.fault[l].addr)) {
      add("fault lane " + std::to_string(l) + ": expected " +
          std::string(golden::to_string(g.fault[l].kind)) + " at " + hex(g.fault[l].addr) +
          ", actual " + std::string(golden::to_string(r.fault[l].kind)) + " at " +
          hex(r.fault[l].addr));
      break;
    }
  }
  if (g.stored_mask != r.stored_mask)
    add("stored: expected " + hex(g.stored_mask) + ", actual " + hex(r.stored_mask));
  if (g.forced_align_mask != r.forced_align_mask)
    add("forced: expected " + hex(g.forced_align_mask) + ", actual " + hex(r.forced_align_mask));
  if (g.lines.size() != r.lines.size())
    add("lines: expected " + std::to_string(g.lines.size()) + ", actual " +
        std::to_string(r.lines.size()));
  for (size_t i = 0; i < std::min(g.lines.size(), r.lines.size()); ++i) {
    const std::string d = golden::compare(g.lines[i], r.lines[i]);
    if (!d.empty()) {
      add("line " + std::to_string(i) + " (" + golden::to_string(g.lines[i]) + "): " + d);
      break;
    }
  }
  if (g.mbar.size() != r.mbar.size())
    add("mbar events: expected " + std::to_string(g.mbar.size()) + ", actual " +
        std::to_string(r.mbar.size()));
  for (size_t i = 0; i < std::min(g.mbar.size(), r.mbar.size()); ++i) {
    const golden::MbarEvent &a = g.mbar[i], &b = r.mbar[i];
    if (a.cta != b.cta || a.offset != b.offset || a.bytes != b.bytes || a.lane != b.lane ||
        a.phase_completed != b.phase_completed) {
      add("mbar event " + std::to_string(i) + ": expected lane " + std::to_string(a.lane) +
          " cta " + std::to_string(a.cta) + " at " + hex(a.offset) + " bytes " +
          std::to_string(a.bytes) + (a.phase_completed ? " completed" : "") + ", actual lane " +
          std::to_string(b.lane) + " cta " + std::to_string(b.cta) + " at " + hex(b.offset) +
          " bytes " + std::to_string(b.bytes) + (b.phase_completed ? " completed" : ""));
      break;
    }
  }
  if (g.tmem.size() != r.tmem.size())
    add("tmem runs: expected " + std::to_string(g.tmem.size()) + ", actual " +
        std::to_string(r.tmem.size()));
  for (size_t i = 0; i < std::min(g.tmem.size(), r.tmem.size()); ++i) {
    const golden::TmemWrite &a = g.tmem[i], &b = r.tmem[i];
    if (a.cta != b.cta || a.lane != b.lane || a.col != b.col || a.col_mask != b.col_mask ||
        a.unpacked != b.unpacked || a.data != b.data) {
      add("tmem run " + std::to_string(i) + ": expected lane " + std::to_string(a.lane) + " col " +
          std::to_string(a.col) + " mask " + hex(a.col_mask) + ", actual lane " +
          std::to_string(b.lane) + " col " + std::to_string(b.col) + " mask " + hex(b.col_mask) +
          (a.data != b.data ? " (data differs)" : ""));
      break;
    }
  }
  if (g.order.scope != r.order.scope)
    add("scope: expected " +
        (g.order.scope ? std::string(isa::to_string(*g.order.scope)) : std::string("none")) +
        ", actual " +
        (r.order.scope ? std::string(isa::to_string(*r.order.scope)) : std::string("none")));
  if (g.bytes != r.bytes)
    add("bytes: expected " + std::to_string(g.bytes) + ", actual " + std::to_string(r.bytes));
  // The ordering and the decoded cache policy are the RTL's decisions too.
  const golden::Ordering &go = g.order, &ro = r.order;
  if (go.sem != ro.sem || go.strong != ro.strong || go.release != ro.release ||
      go.mmio != ro.mmio || go.is_volatile != ro.is_volatile || go.async != ro.async)
    add("ordering: expected sem " + std::string(isa::to_string(go.sem)) + " strong " +
        std::to_string(go.strong) + " release " + std::to_string(go.release) + " async " +
        std::to_string(go.async) + ", actual sem " + std::string(isa::to_string(ro.sem)) +
        " strong " + std::to_string(ro.strong) + " release " + std::to_string(ro.release) +
        " async " + std::to_string(ro.async));
  if (g.cache.has_policy && (g.stored_mask | g.fault_mask) &&
      g.cache.policy.str() != r.cache.policy.str())
    add("policy: expected " + g.cache.policy.str() + ", actual " + r.cache.policy.str());
  return s;
}

// The final images: every allocated global byte, shared memory and the barriers.
std::string compare_images(const MachineState& g, const MachineState& r,
                           const golden::ModelConfig& cfg) {
  auto region = [&](const golden::Dest& d, uint64_t off, size_t n,
                    const char* what) -> std::string {
    std::vector<uint8_t> a(n), b(n);
    g.read(d, off, a.data(), n);
    r.read(d, off, b.data(), n);
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i])
        return std::string("final image differs: ") + what + " " + hex(off + i) + ": expected " +
               hex(a[i]) + ", actual " + hex(b[i]);
    return "";
  };
  std::string s = region({}, kGlobalA, 0x4000, "global");
  if (s.empty()) s = region({}, kGlobalB, 0x1000, "global");
  for (uint32_t c = 0; c < cfg.cluster_ctas && s.empty(); ++c)
    s = region(golden::Dest{golden::MemSpace::Shared, uint16_t(c), 0}, 0, cfg.shared_bytes,
               "shared");
  for (uint32_t c = 0; c < cfg.cluster_ctas && s.empty(); ++c)
    for (unsigned b = 0; b < 8 && s.empty(); ++b)
      if (!(g.mbar(c, kMbarBase + 8 * b) == r.mbar(c, kMbarBase + 8 * b)))
        s = "final mbarrier differs: cta " + std::to_string(c) + " at " + hex(kMbarBase + 8 * b);
  for (uint32_t c = 0; c < cfg.cluster_ctas && s.empty(); ++c) {
    const uint32_t* a = g.cta(c).tmem.empty() ? nullptr : g.cta(c).tmem.data();
    const uint32_t* b = r.cta(c).tmem.empty() ? nullptr : r.cta(c).tmem.data();
    for (uint32_t i = 0; i < golden::kTmemLanes * golden::kTmemColumns && s.empty(); ++i)
      if ((a ? a[i] : 0) != (b ? b[i] : 0))
        s = "final TMEM differs: cta " + std::to_string(c) + " lane " +
            std::to_string(i / golden::kTmemColumns) + " col " +
            std::to_string(i % golden::kTmemColumns) + ": expected " + hex(a ? a[i] : 0) +
            ", actual " + hex(b ? b[i] : 0);
  }
  return s;
}

}  // namespace

// Functional coverage of the store-unit top: every form the bench runs; the qualifier crosses
// (semantics x state space, semantics x scope, element width x vector) with the ISA's rules as
// the illegal bins; every fault class (bad_instruction: the bench sends a few warps of a CTA
// outside the cluster); the policy decode classes (the trap included).
class StoreUnitCoverage {
 public:
  explicit StoreUnitCoverage(Coverage& c, const std::vector<Form>& forms) {
    std::vector<std::string> names;
    for (const Form& f : forms) names.push_back(f.text);
    form_ = &c.point("store_unit.form", names);
    sem_space_ = c.crossed(
        "store_unit.sem_x_space",
        c.point("store_unit.sem", {"weak", "volatile", "relaxed", "release", "mmio"}),
        c.point("store_unit.space", {"generic", "global", "shared::cta", "shared::cluster", "local",
                                     "param::func", "const"}),
        [](size_t m, size_t sp) {
          const bool global_or_generic = sp <= 1, shared = sp == 2 || sp == 3;
          if (m == 4 && !global_or_generic) return "st.mmio: .global or generic only";
          if ((m == 2 || m == 3) && !global_or_generic && !shared)
            return ".relaxed/.release: .global, .shared or generic only";
          if (m == 1 && !global_or_generic && !shared)
            return ".volatile: .global, .shared or generic (ptxas 13.0 rejects .volatile.local)";
          return "";
        });
    sem_scope_ = c.crossed("store_unit.sem_x_scope",
                           c.point("store_unit.strong_sem", {"relaxed", "release"}),
                           c.point("store_unit.scope", {"cta", "cluster", "gpu", "sys"}));
    width_vec_ = c.crossed("store_unit.element_bits_x_vector",
                           c.point("store_unit.element_bits", {"8", "16", "32", "64", "128"}),
                           c.point("store_unit.vector", {"scalar", "v2", "v4", "v8"}),
                           [](size_t w, size_t v) {
                             if (v == 3 && w >= 3)
                               return ".v8 of 64- or 128-bit elements: more than 32 bytes";
                             if (w == 4 && v != 0) return ".b128 is not a vector element";
                             return "";
                           });
    std::vector<std::string> faults;
    for (unsigned k = 1; k <= unsigned(golden::FaultKind::IllegalInstruction); ++k)
      faults.emplace_back(golden::to_string(golden::FaultKind(k)));
    fault_ = &c.point("store_unit.fault", faults);
    policy_ = &c.point("store_unit.policy", {"opaque", "fractional", "named", "trap"});
    active_ = &c.point("store_unit.active_lanes", {"all", "some", "one"});
    async_cluster_ = &c.point("store_unit.st_async_cluster", {"one_cta", "several_ctas"});
    behind_ = &c.point("store_unit.offered_behind",
                       {"store_behind_store", "command_behind_store", "command_behind_command"});
  }
  // The pipelined front end: what was offered while the unit was busy (and matched).
  enum class Behind : size_t { StoreBehindStore, CommandBehindStore, CommandBehindCommand };
  void offered(Behind b) { behind_->hit(size_t(b)); }
  void sample(size_t form, const Form& f, const golden::StoreResult& g,
              const golden::WarpContext& ctx, const golden::WarpOperands& ops,
              uint32_t cluster_ctas) {
    form_->hit(form);
    const int lanes = __builtin_popcount(ctx.active);
    if (lanes) active_->hit(lanes == 32 ? 0 : lanes == 1 ? 2 : 1);
    if (!f.sass && f.ins.op == isa::Opcode::StAsync && f.ins.mbar)
      async_cluster_->hit(cluster_ctas == 1 ? 0 : 1);
    for (unsigned l = 0; l < 32; ++l)
      if (g.fault[l].kind != golden::FaultKind::None) fault_->hit(size_t(g.fault[l].kind) - 1);
    if (f.sass) return;
    const isa::Instruction& ins = f.ins;
    if (ins.op != isa::Opcode::St) return;
    const size_t sem = ins.mmio ? 4 : size_t(ins.effective_sem());
    size_t space = 0;
    if (ins.space) {
      switch (isa::effective(*ins.space)) {
        case isa::Space::Global:
          space = 1;
          break;
        case isa::Space::SharedCta:
          space = 2;
          break;
        case isa::Space::SharedCluster:
          space = 3;
          break;
        case isa::Space::Local:
          space = 4;
          break;
        case isa::Space::ParamFunc:
          space = 5;
          break;
        default:
          space = 6;
          break;
      }
    }
    sem_space_.hit(sem, space);
    if (ins.scope && (sem == 2 || sem == 3)) sem_scope_.hit(sem - 2, size_t(*ins.scope));
    if (ins.type) {
      const unsigned bits = isa::bytes_of(*ins.type) * 8;
      const size_t w = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : 4;
      const unsigned lanes = ins.vec_lanes();
      width_vec_.hit(w, lanes == 1 ? 0 : lanes == 2 ? 1 : lanes == 4 ? 2 : 3);
    }
    if (ins.cache_hint && ctx.active) {
      const unsigned lowest = unsigned(__builtin_ctz(ctx.active));
      policy_->hit(size_t(golden::decode_policy(ops.policy[lowest]).kind));  // enum order
    }
  }

 private:
  CoverPoint *form_, *fault_, *policy_, *active_, *async_cluster_, *behind_;
  Crossed sem_space_, sem_scope_, width_vec_;
};

CosimResult cosim_store_unit(const CosimOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  CosimResult res;
  res.block = "store_unit";
  res.seed = o.seed;
  static const std::vector<Form> kForms = forms();
  Rng r(o.seed * 0x9E3779B97F4A7C15ull + 7);
  Bench b;
  // X values from the seed too; and a memory side that answers late and stalls every output
  // at random (RtlEnvironment), from the seed, at the --stall probability.
  const RtlTrace trace{o.wave, o.wave_from, o.wave_to, o.seed,
                       RtlEnvironment{o.seed * 0xD1B54A32D192ED03ull + 11, 4, o.stall}};
  b.setup(r, o.seed, &trace);
  Ring<std::string> history;
  StoreResult g, t;
  std::optional<StoreUnitCoverage> cov;
  if (o.coverage) cov.emplace(*o.coverage, kForms);
  // Drains and flushes between stores (with caches): drawn from their own generators, so the
  // stores a seed makes do not depend on them. Half of them are given while the caches are
  // still at work on the store before (RtlStoreModel::leave_caches_busy): the two are then
  // compared together, after the command. A quarter of them are two commands in a row.
  Rng cmds(o.seed * 0xA0761D6478BD642Full + 13);
  Rng busy(o.seed * 0xE7037ED1A0B428DBull + 17);
  // A pipelined front end, from its own generator too: half the time the operation after a
  // store (the next store, or the command) is offered while the store is in progress, and the
  // second of two commands while the first one is (RtlStoreModel::offer_next); the cache
  // comparison then waits for the next operation that ends with the caches quiet.
  Rng pipe(o.seed * 0x8BB84B93962EACC9ull + 19);
  std::optional<Bench::Warp> ahead;  // the next store, when offered behind this one
  for (uint64_t i = 0; i < o.txns; ++i) {
    const Bench::Warp w = ahead ? std::move(*ahead) : b.gen(r, kForms);
    ahead.reset();
    const uint64_t first_cycle = b.rtl->cycles();
    const Form& f = *w.form;
    const bool cmd = b.caches && cmds.chance(0.01);
    const bool flush = cmd && cmds.chance(0.4);
    const bool twice = cmd && cmds.chance(0.25);
    const bool flush2 = twice && cmds.chance(0.4);
    const bool early = cmd && busy.chance(0.5);
    if (early) b.rtl->leave_caches_busy();
    bool behind = false;  // something offered behind the store: its caches still busy after it
    bool store_behind = false;
    if (cmd) {
      if ((behind = pipe.chance(0.5))) b.rtl->offer_next_command(flush);
    } else if (i + 1 < o.txns && pipe.chance(0.5)) {
      ahead = b.gen(r, kForms);
      const Bench::Warp& n = *ahead;
      behind = store_behind = n.form->sass ? b.rtl->offer_next_sass(n.form->st, n.ctx, n.rf)
                                           : b.rtl->offer_next(n.form->ins, n.ctx, n.ops);
    }
    const bool cmd_behind = twice && pipe.chance(0.5);
    if (f.sass) {
      golden::execute_sass(*b.gold, f.st, w.ctx, w.rf, g, b.scratch);
      b.rtl->execute_sass(f.st, w.ctx, w.rf, t);
    } else {
      golden::execute(*b.gold, f.ins, w.ctx, w.ops, g, b.scratch);
      b.rtl->execute(f.ins, w.ctx, w.ops, t);
    }
    std::string diff = b.rtl->take_error();
    if (diff.empty()) diff = compare_results(g, t);
    if (diff.empty() && b.caches) {
      b.events.clear();
      b.caches->store(g, b.events);
      if (early || behind)
        b.log_dram();  // compared after the command, or after a store that ends quiet
      else
        diff = b.caches_agree();
    }
    // A drain (or a flush) after it, and sometimes another one.
    for (unsigned k = 0; diff.empty() && k < (twice ? 2u : cmd ? 1u : 0u); ++k) {
      const bool fl = k == 0 ? flush : flush2;
      b.events.clear();
      if (fl)
        b.caches->flush(b.events);
      else
        b.caches->drain(b.events);
      const bool offer = k == 0 && cmd_behind;
      if (offer) b.rtl->offer_next_command(flush2);
      b.rtl->drain_caches(fl);
      diff = b.rtl->take_error();
      if (diff.empty()) {
        if (offer)
          b.log_dram();
        else
          diff = b.caches_agree();
      }
      if (!diff.empty())
        diff = std::string("the ") + (k ? "second " : "") + (fl ? "flush" : "drain") +
               " after this store" +
               (k == 0 && behind       ? " (offered while the store was in progress)"
                : k == 0 && early      ? " (given while the caches worked on it)"
                : k == 1 && cmd_behind ? " (offered while the first command was in progress)"
                                       : "") +
               ": " + diff;
    }
    ++res.txns;
    if (!diff.empty()) {
      res.report = "cosim store_unit: MISMATCH, seed " + std::to_string(o.seed) +
                   ", at warp store " + std::to_string(i) + "\n  store:    " + f.text + " (cta " +
                   std::to_string(w.ctx.cta) + " warp " + std::to_string(w.ctx.warp) + " mask " +
                   hex(w.ctx.active) + ")\n  expected: " + summary(g) +
                   "\n  actual:   " + summary(t) + "\n  fields:   " + diff +
                   "\n  last matched (oldest first):";
      history.for_each([&](const Ring<std::string>::Item& it) {
        res.report += "\n    #" + std::to_string(it.index) + " " + it.value;
      });
      // (with the store offered behind this one, which the run must draw again)
      res.report +=
          "\n  reproduce: " + repro_command("store_unit", o.seed, i + (store_behind ? 2 : 1));
      res.wave_from = first_cycle > 64 ? first_cycle - 64 : 0;
      res.wave_to = b.rtl->cycles() + 8;
      break;
    }
    history.push(f.text + ": " + summary(g), i);
    ++res.matched;
    if (cov) {
      cov->sample(size_t(w.form - kForms.data()), f, g, w.ctx, w.ops, b.cfg.cluster_ctas);
      using Behind = StoreUnitCoverage::Behind;
      if (store_behind) cov->offered(Behind::StoreBehindStore);
      if (cmd && behind) cov->offered(Behind::CommandBehindStore);
      if (cmd_behind) cov->offered(Behind::CommandBehindCommand);
    }
  }
  if (res.report.empty() && b.caches) {  // everything still in the caches goes to DRAM
    b.events.clear();
    b.caches->flush(b.events);
    b.dram.insert(b.dram.end(), b.events.dram.begin(), b.events.dram.end());
    b.rtl->drain_caches(true);
    std::string d = b.rtl->take_error();
    if (d.empty()) d = compare_dram(b.dram, b.rtl->dram_writes());
    if (!d.empty())
      res.report = "cosim store_unit: MISMATCH, seed " + std::to_string(o.seed) +
                   ", at the final flush: " + d +
                   "\n  reproduce: " + repro_command("store_unit", o.seed, o.txns);
  }
  if (res.report.empty()) {
    const std::string d = compare_images(*b.gold, b.rtl->image(), b.cfg);
    if (!d.empty())
      res.report = "cosim store_unit: MISMATCH, seed " + std::to_string(o.seed) + ", " + d +
                   "\n  reproduce: " + repro_command("store_unit", o.seed, o.txns);
  }
  res.ok = res.report.empty();
  res.cycles = b.rtl->cycles();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace stu::tb
