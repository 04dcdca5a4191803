#pragma once
// Running many liftc command lines from one test, a few at a time, each
// bounded by coreutils' `timeout`: a table of a few hundred cases stays
// within seconds, and a hang fails its case (status 124 or 137) instead of
// blocking the suite.

#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include <filesystem>
#include <string>
#include <vector>

namespace liftcc::test {

struct BatchCase {
  std::string args;             ///< liftc's arguments, quoted for the shell
  bool stdoutToDevFull = false; ///< standard output is /dev/full; `output` is then stderr only
};

/// Runs `liftc ARGS` for every case in `dir` (its working directory, also
/// where the outputs are kept), `parallel` at a time. Returns, per case, the
/// exit status (124 or 137: it ran past `timeoutSeconds`; 128+N: killed by
/// signal N) and its output.
inline std::vector<ProcessRun> runLiftcBatch(const std::vector<BatchCase> &cases, const std::filesystem::path &dir,
                                             size_t parallel = 4, int timeoutSeconds = 60) {
  std::string script = "cd " + shellQuote(dir.string()) + " || exit 99\n";
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string out = shellQuote((dir / ("case" + std::to_string(i) + ".out")).string());
    const std::string rc = shellQuote((dir / ("case" + std::to_string(i) + ".rc")).string());
    const std::string redirect = cases[i].stdoutToDevFull ? " >/dev/full 2>" + out : " >" + out + " 2>&1";
    script += "(timeout -k 5 " + std::to_string(timeoutSeconds) + " " + shellQuote(LIFTCC_LIFTC_PATH) + " " +
              cases[i].args + redirect + " </dev/null; echo $? >" + rc + ") &\n";
    if ((i + 1) % parallel == 0) script += "wait\n";
  }
  script += "wait\n";
  const std::filesystem::path scriptPath = dir / "batch.sh";
  {
    std::ofstream file(scriptPath);
    file << script;
  }
  ProcessRun shell = runShell("sh " + shellQuote(scriptPath.string()));
  if (shell.status != 0) throw std::runtime_error("the batch script failed: " + shell.output);
  std::vector<ProcessRun> runs;
  for (size_t i = 0; i < cases.size(); ++i) {
    std::string rc = readFile(dir / ("case" + std::to_string(i) + ".rc"));
    runs.push_back({rc.empty() ? -1 : std::stoi(rc), readFile(dir / ("case" + std::to_string(i) + ".out"))});
  }
  return runs;
}

/// The example program examples/json/NAME.json, quoted for the shell: the
/// program argument of most batch cases.
inline std::string exampleArgument(const std::string &name) {
  return shellQuote((sourceDir() / "examples" / "json" / (name + ".json")).string());
}

/// liftc's error format: one line "liftc: error: ...", short.
inline bool isOneErrorLine(const std::string &output) {
  return output.rfind("liftc: error: ", 0) == 0 && output.find('\n') == output.size() - 1 && output.size() < 400;
}

} // namespace liftcc::test
