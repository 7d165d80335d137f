// stu lower: each PTX store in canonical form, followed by the SASS it lowers to.
#include <iostream>
#include <memory>

#include "cli.h"
#include "stu/isa/lowering.h"
#include "stu/isa/printer.h"

namespace stu::cli {
namespace {

struct LowerArgs {
  std::vector<std::string> files;
  ptx::CheckOptions check;
  size_t max_errors = 0;
};

int run_lower(const LowerArgs& o) {
  return for_each_input(o.files, [&](const std::string& f, std::string_view text) {
    Diagnostics d;
    std::string out;
    auto visit = [&](const isa::Instruction& ins, bool valid, const isa::Target& target,
                     const isa::SymbolLookup& names) {
      out += f + ":" + std::to_string(ins.loc.line) + ": " + isa::print(ins) + "\n";
      if (!valid) {
        out += "    (not lowered: invalid)\n";
        return;
      }
      const auto sass = isa::lower(ins, target, isa::proven_space(ins, names));
      if (sass.empty())
        out += ins.op == isa::Opcode::StBulk ? "    (not lowered: no observed SASS)\n"
                                             : "    (no instruction: ptxas 13.0 emits no store)\n";
      for (const auto& s : sass) out += "    " + s.str() + "\n";
    };
    ptx::check_module(text, d, o.check, visit);
    std::cout << out;
    print_diags(d, f, o.max_errors);
    return d.has_errors();
  });
}

}  // namespace

Command add_lower(CLI::App& app) {
  auto args = std::make_shared<LowerArgs>();
  CLI::App* sub = app.add_subcommand(
      "lower", "print each PTX store in canonical form and the SASS it lowers to");
  add_files(*sub, args->files, "PTX modules; '-' is stdin");
  add_target_options(*sub, args->check);
  add_max_errors(*sub, args->max_errors);
  return {sub, [args] { return run_lower(*args); }};
}

}  // namespace stu::cli
