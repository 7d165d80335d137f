// A trace (Accel-Sim .traceg[.xz], kernelslist.g, .stut) as a workload: every store record
// becomes one warp store of the record's space and width (docs/tlm.md, "Workloads").
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <utility>

#include "stu/diag.h"
#include "stu/isa/parser.h"
#include "stu/workload/trace.h"
#include "trace_dispatch.h"
#include "workload.h"

namespace stu::sim {
namespace {

// Index of a width in bytes among 1, 2, 4, 8, 16, 32; -1 for any other.
int width_index(std::uint32_t w) {
  switch (w) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    case 16:
      return 4;
    case 32:
      return 5;
    default:
      return -1;
  }
}

class TraceWorkload : public Workload {
 public:
  TraceWorkload(const std::string& path, const SmLimits& limits)
      : path_(path), src_(workload::open_any_trace(path)), dispatch_(*src_, limits) {
    dispatch_.set_accept([this](const workload::StoreRecord& r, std::uint64_t index) {
      if (r.kind == workload::RecordKind::Store && width_index(r.width) < 0)
        return path_ + ": store '" + r.opcode + "' of " + std::to_string(r.width) +
               " bytes per lane (record " + std::to_string(index) +
               "): widths 1, 2, 4, 8, 16 and 32 are supported";
      return std::string();
    });
    static const char* const kSpaces[4] = {".global", ".shared", ".local", ""};
    static const char* const kForms[6] = {
        ".b8 [%rd1], %r1;",
        ".b16 [%rd1], %r1;",
        ".b32 [%rd1], %r1;",
        ".b64 [%rd1], %rd2;",
        ".v4.b32 [%rd1], {%r1, %r2, %r3, %r4};",
        ".v8.b32 [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};"};
    for (unsigned s = 0; s < 4; ++s) {
      for (unsigned w = 0; w < 6; ++w) {
        const std::string text = std::string("st") + kSpaces[s] + kForms[w];
        Diagnostics d;
        auto ins = isa::parse_instruction(text, d, 1);
        if (!ins || d.has_errors()) {
          error_ = "internal: cannot parse '" + text + "'";
          return;
        }
        ins_[s][w] = std::move(*ins);
      }
    }
    cfg_.cluster_ctas = 1;
    cfg_.warps_per_cta = 32;
    cfg_.shared_bytes = golden::ModelConfig::kMaxSharedBytes;
    cfg_.local_bytes = 64 << 10;
  }

  std::string name() const override { return "trace " + path_; }
  golden::ModelConfig model_config() const override { return cfg_; }
  bool allocate_all() const override { return true; }
  bool setup(golden::MachineState& m, std::string& error) const override {
    if (!m.allocations().add(0x1000, (1ull << 63) - 0x1000)) {
      error = "trace: cannot allocate global memory [0x1000, 2^63)";
      return false;
    }
    return true;
  }

  bool next(WarpOp& op) override {
    if (!error_.empty()) return false;
    if (!dispatch_.next(d_)) {
      error_ = dispatch_.error();
      return false;
    }
    const workload::StoreRecord& rec = d_.rec;
    op.sm = d_.sm;
    op.slot = d_.slot;
    op.ctx = golden::WarpContext{0, std::uint16_t(rec.warp % cfg_.warps_per_cta), rec.mask};
    op.instructions = float(rec.issued);
    if (rec.kind == workload::RecordKind::Fence) {  // MEMBAR: a fence of the warp
      op.kind = OpKind::Fence;
      op.ins = nullptr;
      op.scope = rec.scope == workload::FenceScope::Cta   ? isa::Scope::Cta
                 : rec.scope == workload::FenceScope::Sys ? isa::Scope::Sys
                                                          : isa::Scope::Gpu;
      op.ops.src.clear();
      return true;
    }
    const isa::Instruction& ins = ins_[unsigned(rec.space)][width_index(rec.width)];
    const unsigned elems = ins.vec_lanes();
    op.kind = OpKind::Store;
    op.ins = &ins;
    op.ops.policy.fill(0);
    op.ops.mbar.fill(0);
    // Shared and local records carry generic addresses in the kernel's windows (the header's
    // `-shmem base_addr` / `-local mem base_addr`): the store takes the offset in its space.
    std::uint64_t base = 0;
    if (rec.space == workload::StoreSpace::Shared) base = d_.shmem_base;
    if (rec.space == workload::StoreSpace::Local) base = d_.local_base;
    for (unsigned l = 0; l < 32; ++l) {
      const std::uint64_t a = rec.addr[l];
      op.ops.addr[l] = (base != 0 && a >= base) ? a - base : a;
    }
    op.ops.src.resize(std::size_t(elems) * 32);
    for (unsigned e = 0; e < elems; ++e)
      for (unsigned l = 0; l < 32; ++l) op.ops.src[e * 32 + l] = op_value(d_.index, l, e);
    op.mbar_offset = 0;
    op.tx_bytes = 0;
    op.parity = 0;
    return true;
  }

  std::string error() const override { return error_; }

  std::vector<std::string> notes() const override {
    std::vector<std::string> out;
    for (const TraceDispatcher::KernelNote& k : dispatch_.kernels())
      out.push_back("kernel " + std::to_string(k.id) + ": " + std::to_string(k.ctas) +
                    (k.ctas == 1 ? " CTA of " : " CTAs of ") + std::to_string(k.warps_per_cta) +
                    (k.warps_per_cta == 1 ? " warp, " : " warps, ") +
                    std::to_string(k.ctas_per_sm) + " per SM at once" +
                    (k.segments > 1 ? ", dispatched in " + std::to_string(k.segments) +
                                          " segments (the dispatcher's buffer)"
                                    : std::string()));
    const workload::SkipCounts& s = src_->skipped();
    if (s.total == 0) return out;
    out.push_back(std::to_string(s.total) + " other instructions passed over (of " +
                  std::to_string(src_->instructions()) + ")");
    for (const auto& [opcode, n] : s.by_opcode)
      out.push_back("  " + opcode + ": " + std::to_string(n));
    return out;
  }

 private:
  std::string path_;
  std::unique_ptr<workload::StoreSource> src_;
  TraceDispatcher dispatch_;
  std::array<std::array<isa::Instruction, 6>, 4> ins_;  // [space][width index]
  golden::ModelConfig cfg_;
  Dispatched d_;
  std::string error_;
};

}  // namespace

std::unique_ptr<Workload> trace_workload(const std::string& path, const SmLimits& limits) {
  return std::make_unique<TraceWorkload>(path, limits);
}

}  // namespace stu::sim
