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
  TraceWorkload(const std::string& path, std::uint32_t sms) : path_(path), sms_(sms ? sms : 1) {
    src_ = workload::open_any_trace(path);
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
    if (!src_->next(rec_)) {
      if (!src_->ok()) error_ = src_->error_text();
      return false;
    }
    if (rec_.kind == workload::RecordKind::Fence) {  // MEMBAR: a fence of the warp
      op.kind = OpKind::Fence;
      op.sm = sm_of_record();
      op.ins = nullptr;
      op.ctx = golden::WarpContext{0, std::uint16_t(rec_.warp % cfg_.warps_per_cta), rec_.mask};
      op.scope = rec_.scope == workload::FenceScope::Cta   ? isa::Scope::Cta
                 : rec_.scope == workload::FenceScope::Sys ? isa::Scope::Sys
                                                           : isa::Scope::Gpu;
      op.ops.src.clear();
      op.instructions = float(rec_.issued);
      ++index_;
      return true;
    }
    const int wi = width_index(rec_.width);
    if (wi < 0) {
      error_ = path_ + ": store '" + rec_.opcode + "' of " + std::to_string(rec_.width) +
               " bytes per lane (record " + std::to_string(index_ + 1) +
               "): widths 1, 2, 4, 8, 16 and 32 are supported";
      return false;
    }
    const unsigned space = unsigned(rec_.space);
    const isa::Instruction& ins = ins_[space][wi];
    const unsigned elems = ins.vec_lanes();

    op.kind = OpKind::Store;
    op.sm = sm_of_record();
    op.ins = &ins;
    op.ctx = golden::WarpContext{0, std::uint16_t(rec_.warp % cfg_.warps_per_cta), rec_.mask};
    op.ops.policy.fill(0);
    op.ops.mbar.fill(0);
    // Shared and local records carry generic addresses in the kernel's windows (the header's
    // `-shmem base_addr` / `-local mem base_addr`): the store takes the offset in its space.
    std::uint64_t base = 0;
    if (rec_.space == workload::StoreSpace::Shared) base = src_->kernel().shmem_base;
    if (rec_.space == workload::StoreSpace::Local) base = src_->kernel().local_base;
    for (unsigned l = 0; l < 32; ++l) {
      const std::uint64_t a = rec_.addr[l];
      op.ops.addr[l] = (base != 0 && a >= base) ? a - base : a;
    }
    op.ops.src.resize(std::size_t(elems) * 32);
    for (unsigned e = 0; e < elems; ++e)
      for (unsigned l = 0; l < 32; ++l) op.ops.src[e * 32 + l] = op_value(index_, l, e);
    op.mbar_offset = 0;
    op.tx_bytes = 0;
    op.parity = 0;
    op.instructions = float(rec_.issued);
    ++index_;
    return true;
  }

  std::string error() const override { return error_; }

  // The block scheduler's first wave: CTAs to SMs round robin, in launch order (the linear CTA
  // index x + gx (y + gy z) of the record's kernel), each kernel from SM 0.
  std::uint32_t sm_of_record() const {
    const auto& grid = src_->kernel().grid;
    const std::uint64_t linear =
        rec_.cta[0] + std::uint64_t(std::max(grid[0], 1u)) *
                          (rec_.cta[1] + std::uint64_t(std::max(grid[1], 1u)) * rec_.cta[2]);
    return std::uint32_t(linear % sms_);
  }

  std::vector<std::string> notes() const override {
    std::vector<std::string> out;
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
  std::uint32_t sms_;
  std::unique_ptr<workload::StoreSource> src_;
  std::array<std::array<isa::Instruction, 6>, 4> ins_;  // [space][width index]
  golden::ModelConfig cfg_;
  workload::StoreRecord rec_;
  std::uint64_t index_ = 0;
  std::string error_;
};

}  // namespace

std::unique_ptr<Workload> trace_workload(const std::string& path, std::uint32_t sms) {
  return std::make_unique<TraceWorkload>(path, sms);
}

}  // namespace stu::sim
