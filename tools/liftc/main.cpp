// liftc: the liftcc command-line driver.
//
// Errors are reported as one line "liftc: error: ..." on stderr with exit
// status 1 (bad program or input) or 2 (bad command line), never as a crash:
// scripts and the auto-tuner drive liftc and need to tell the two apart.

#include "liftcc/version.h"
#include "tools/liftc/verbs.h"

#include <exception>
#include <iostream>

namespace {

void printOverview(std::ostream &out) {
  out << "usage: liftc VERB [ARGS...]\n"
         "\n"
         "liftcc compiles functional stencil programs (JSON, see docs/program-format.md)\n"
         "to OpenCL C and CUDA C.\n"
         "\n"
         "verbs:\n";
  for (const liftcc::cli::Verb &verb : liftcc::cli::allVerbs())
    out << "  " << verb.name << std::string(verb.name.size() < 10 ? 10 - verb.name.size() : 1, ' ') << verb.summary << "\n";
  out << "\n"
         "Run 'liftc VERB --help' (or 'liftc help VERB') for the options of a verb;\n"
         "'liftc --version' prints the version of liftc and of its JSON formats.\n";
}

const liftcc::cli::Verb *findVerb(const std::vector<liftcc::cli::Verb> &verbs, const std::string &name) {
  for (const liftcc::cli::Verb &verb : verbs)
    if (verb.name == name) return &verb;
  return nullptr;
}

int run(const std::vector<std::string> &args) {
  using namespace liftcc::cli;
  if (args.empty()) {
    printOverview(std::cerr);
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h") {
    printOverview(std::cout);
    return 0;
  }
  if (args[0] == "--version") {
    std::cout << "liftc " LIFTCC_VERSION_STRING " (program format " << LIFTCC_PROGRAM_FORMAT_VERSION
              << ", launch.json format " << LIFTCC_LAUNCH_FORMAT_VERSION << ")\n";
    return 0;
  }
  std::vector<Verb> verbs = allVerbs();
  if (args[0] == "help") {
    if (args.size() == 1) {
      printOverview(std::cout);
      return 0;
    }
    const Verb *verb = findVerb(verbs, args[1]);
    if (!verb) throw UsageError("unknown verb '" + args[1] + "'");
    std::cout << verb->usage;
    return 0;
  }
  const Verb *verb = findVerb(verbs, args[0]);
  if (!verb) throw UsageError("unknown verb '" + args[0] + "'");
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string &arg : rest)
    if (arg == "--help" || arg == "-h") {
      std::cout << verb->usage;
      return 0;
    }
  return verb->run(CommandLine::parse(rest, verb->options), std::cout);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return run(args);
  } catch (const liftcc::cli::UsageError &e) {
    std::cerr << "liftc: error: " << e.what() << " (see 'liftc --help')\n";
    return 2;
  } catch (const std::exception &e) {
    std::cerr << "liftc: error: " << e.what() << "\n";
    return 1;
  }
}
