// The models a `.sts` program runs on. The runner does the set-up steps on the model's image,
// hands it each warp store with its operand values, and checks expectations against the
// effects the model reports and the image it leaves. The golden model is one; the RTL top and
// the TLM model implement the same interface with their own datapaths (docs/architecture.md).
#pragma once

#include <string>
#include <string_view>

#include "stu/golden/config.h"
#include "stu/golden/executor.h"
#include "stu/golden/state.h"
#include "stu/isa/instruction.h"
#include "stu/isa/sass.h"

namespace stu::sts {

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
};

// The golden reference model (golden::execute / execute_sass on its own MachineState).
class GoldenModel final : public StoreModel {
 public:
  explicit GoldenModel(const golden::ModelConfig& cfg) : state_(cfg) {}
  std::string_view name() const override { return "golden"; }
  golden::MachineState& image() override { return state_; }
  void execute(const isa::Instruction& ins, const golden::WarpContext& ctx,
               const golden::WarpOperands& ops, golden::StoreResult& out) override {
    golden::execute(state_, ins, ctx, ops, out, scratch_);
  }
  void execute_sass(const isa::SassSt& st, const golden::WarpContext& ctx,
                    const golden::SassRegisterFile& regs, golden::StoreResult& out) override {
    golden::execute_sass(state_, st, ctx, regs, out, scratch_);
  }

 private:
  golden::MachineState state_;
  golden::Scratch scratch_;
};

}  // namespace stu::sts
