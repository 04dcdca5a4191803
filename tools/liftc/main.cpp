// liftc: the liftcc command-line driver.
//
// Errors are reported as one line "liftc: error: ..." on stderr with exit
// status 1 (bad program or input, or standard output that cannot be
// written) or 2 (bad command line), never as a crash:
// scripts and the auto-tuner drive liftc and need to tell the two apart.

#include "codegen/generate.h"
#include "core/io/safe_file.h"
#include "core/typecheck/type_error.h"
#include "liftcc/version.h"
#include "rewrite/apply.h"
#include "tools/liftc/standard_output.h"
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
    out << "  " << verb.name << std::string(verb.name.size() < 10 ? 10 - verb.name.size() : 1, ' ') << verb.summary
        << "\n";
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
    if (!verb) throw UsageError("unknown verb '" + liftcc::io::shown(args[1]) + "'");
    std::cout << verb->usage;
    return 0;
  }
  const Verb *verb = findVerb(verbs, args[0]);
  if (!verb) throw UsageError("unknown verb '" + liftcc::io::shown(args[0]) + "'");
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string &arg : rest)
    if (arg == "--help" || arg == "-h") {
      std::cout << verb->usage;
      return 0;
    }
  CommandLine cl = CommandLine::parse(rest, verb->options);
  try {
    return verb->run(cl, std::cout);
  } catch (const std::exception &e) {
    // Errors from the compiler's passes name the node (/body/...), not the
    // file they came from: add it, so every error says where.
    bool aboutTheProgram = dynamic_cast<const liftcc::codegen::CodegenError *>(&e) ||
                           dynamic_cast<const liftcc::rewrite::RewriteError *>(&e) ||
                           dynamic_cast<const liftcc::TypeError *>(&e);
    if (!aboutTheProgram) throw;
    std::string message = e.what();
    if (!cl.positional().empty() && message.find(cl.positional()[0]) == std::string::npos &&
        message.find(liftcc::io::shown(cl.positional()[0], 200)) == std::string::npos)
      throw std::runtime_error(liftcc::io::shown(cl.positional()[0], 200) + ": " + message);
    throw;
  }
}

/// The last guard of the one-line format: whatever a message carries (a
/// compiler log, a value echoed by a library, the JSON pointer of a node
/// 600 levels deep), the line stays one line of at most ~300 characters.
/// Messages should already be short; the cut keeps their start, which names
/// the file, option or node, and their end, which says what is wrong.
std::string oneLine(const std::string &message) {
  constexpr size_t kMaxMessage = 240, kKeptEnd = 100;
  std::string kept = message;
  if (message.size() > kMaxMessage)
    kept = message.substr(0, kMaxMessage - kKeptEnd) + " ...(" + std::to_string(message.size() - kMaxMessage) +
           " characters cut)... " + message.substr(message.size() - kKeptEnd);
  std::string out;
  for (char c : kept) out += c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
  return out;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    int status = run(args);
    // Whatever the verb, output that did not reach standard output is an error.
    liftcc::cli::finishStandardOutput();
    return status;
  } catch (const liftcc::cli::UsageError &e) {
    std::cerr << "liftc: error: " << oneLine(e.what()) << " (see 'liftc --help')\n";
    return 2;
  } catch (const std::bad_alloc &) {
    std::cerr << "liftc: error: out of memory\n";
    return 1;
  } catch (const std::exception &e) {
    std::cerr << "liftc: error: " << oneLine(e.what()) << "\n";
    return 1;
  }
}
