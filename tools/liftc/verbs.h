#pragma once
// The verbs of the liftc driver. Each verb is a self-contained entry: its
// usage text, the options it accepts and the function that runs it, so adding
// a verb touches this list and one new file.

#include "tools/liftc/command_line.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace liftcc::cli {

struct Verb {
  std::string name;
  std::string summary; ///< one line for `liftc --help`
  std::string usage;   ///< full text for `liftc VERB --help`
  OptionSpec options;
  /// Returns the process exit status; throws on errors (main reports them).
  int (*run)(const CommandLine &, std::ostream &out);
};

std::vector<Verb> allVerbs();

int runCheck(const CommandLine &cl, std::ostream &out);
int runEval(const CommandLine &cl, std::ostream &out);
int runCompile(const CommandLine &cl, std::ostream &out);
int runRun(const CommandLine &cl, std::ostream &out);
int runRewrite(const CommandLine &cl, std::ostream &out);
int runExplore(const CommandLine &cl, std::ostream &out);
int runTune(const CommandLine &cl, std::ostream &out);
int runBest(const CommandLine &cl, std::ostream &out);
int runMerge(const CommandLine &cl, std::ostream &out);
int runBench(const CommandLine &cl, std::ostream &out);
int runExport(const CommandLine &cl, std::ostream &out);
int runSchema(const CommandLine &cl, std::ostream &out);

} // namespace liftcc::cli
