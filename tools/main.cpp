// stu: the command-line front end of the store-unit model.
//
//   stu check [--target sm_XX] [--ptx-version X.Y] [--stats] [-q] [--max-errors N] FILE...
//   stu lower [--target sm_XX] [--ptx-version X.Y] FILE.ptx...
//   stu conformance [--show N] DIR|FILE...
//   stu run [--trace] [--dump FILE|-] [--junit FILE] [-q] TEST.sts...
//   stu tmem-map
//   stu trace [--to FILE.stut] [--top N] [-q] TRACE
//   stu cosim [--block NAME|all] [--seed S] [--seeds N] [--txns N] [--wave FILE] [--junit FILE]
//   stu sim [--config NAME|FILE] [--workload NAME|FILE] [--mode lt|at] ...
//   stu correlate --measured FILE.jsonl [--ncu FILE.csv --ncu-launches FILE] [--baseline FILE]
//   stu help [COMMAND]            (or stu COMMAND --help)
//
// One file per subcommand (tools/cmd_*.cpp, see cli.h). Exit status: 0 success, 1 a finding
// (an error in the input, a failed expectation), 2 usage or I/O error.
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli.h"

namespace {

using stu::cli::Command;
using stu::cli::kOk;
using stu::cli::kUsage;

constexpr Command (*kCommands[])(CLI::App&) = {
    stu::cli::add_check,    stu::cli::add_lower,     stu::cli::add_conformance,
    stu::cli::add_run,      stu::cli::add_tmem_map,  stu::cli::add_trace,
#if STU_HAVE_COSIM
    stu::cli::add_cosim,    stu::cli::add_blocks,    stu::cli::add_coverage,
    stu::cli::add_testplan,
#endif
#if STU_HAVE_SYSTEMC
    stu::cli::add_sim,      stu::cli::add_correlate,
#endif
};

int usage_error(const std::string& msg, const std::string& help_of = "") {
  std::cerr << "stu: error: " << msg << "\n"
            << "run 'stu " << (help_of.empty() ? "" : help_of + " ") << "--help' for the "
            << (help_of.empty() ? "commands" : "options") << "\n";
  return kUsage;
}

// An option the subcommand does not have: name the subcommands that do.
std::string not_applicable(const CLI::App& app, const CLI::App& sub, const std::string& arg) {
  const std::string name = arg.substr(0, arg.find('='));
  std::string owners;
  for (const CLI::App* other : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (other == &sub || !other->get_option_no_throw(name)) continue;
    owners += (owners.empty() ? "'stu " : ", 'stu ") + other->get_name() + "'";
  }
  if (owners.empty()) return "unknown option '" + name + "' for 'stu " + sub.get_name() + "'";
  return "option '" + name + "' does not apply to 'stu " + sub.get_name() +
         "' (it is an option of " + owners + ")";
}

CLI::App* find_command(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stu: a model of the GPU store unit (PTX st, st.async, tcgen05.st; SASS ST)", "stu"};
  app.footer(
      "Exit status: 0 success, 1 a finding (errors in the input, a failed expectation), 2 usage "
      "or I/O error.\nRun 'stu COMMAND --help' for the options of a command.");
  app.require_subcommand(0, 1);
  std::vector<Command> commands;
  for (auto add : kCommands) {
    commands.push_back(add(app));
    commands.back().app->allow_extras();  // reported below, naming the option
    CLI::App& sub = *commands.back().app;
    const std::string about = sub.get_footer();
    sub.footer((about.empty() ? "" : about + "\n\n") +
               "Exit status: 0 success, 1 a finding, 2 usage or I/O error.");
  }
  app.add_subcommand("help", "print this text, or the options of a command: stu help COMMAND");

  if (argc < 2) return usage_error("no command given");
  const std::string first = argv[1];
  if (!first.empty() && first[0] != '-' && !find_command(app, first))
    return usage_error("unknown command '" + first + "'");
  if (first == "help") {  // before parsing, so the top level's help is not a subcommand's
    if (argc == 2) {
      std::cout << app.help();
      return kOk;
    }
    CLI::App* sub = find_command(app, argv[2]);
    if (argc > 3 || !sub) return usage_error("'stu help' takes one command name");
    std::cout << sub->help("stu");
    return kOk;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const auto parsed = app.get_subcommands();
    const std::string sub = parsed.empty() ? "" : parsed.front()->get_name();
    return usage_error(e.what(), sub);
  }
  for (const Command& c : commands) {
    if (!c.app->parsed()) continue;
    for (const std::string& extra : c.app->remaining())
      return usage_error(not_applicable(app, *c.app, extra), c.app->get_name());
    if (const CLI::Option* files = c.app->get_option_no_throw("files"); files && !files->count())
      return usage_error("no input files", c.app->get_name());
    try {
      return c.run();
    } catch (const std::bad_alloc&) {
      std::cerr << "stu: error: out of memory\n";
      return kUsage;
    }
  }
  return usage_error("no command given");
}

#if STU_HAVE_SYSTEMC
// libsystemc's own main() would call sc_main; stu has its main() above and runs SystemC
// models from its subcommands, so this is never called. It resolves the library's reference.
extern "C" int sc_main(int, char**) { return 2; }
#endif
