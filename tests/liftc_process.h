#pragma once
// Running the liftc binary (and other commands) from tests, the way users
// and scripts run them.

#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace liftcc::test {

struct ProcessRun {
  int status;         ///< exit status, -1 if the process did not exit normally
  std::string output; ///< stdout and stderr together
};
using LiftcRun = ProcessRun;

/// Single-quotes a word for /bin/sh.
inline std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Runs a /bin/sh command line (already quoted) to completion.
inline ProcessRun runShell(const std::string &commandLine) {
  std::string command = "(" + commandLine + ") 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

/// Runs `liftc <commandLine>` (already quoted for the shell) to completion.
inline LiftcRun runLiftc(const std::string &commandLine) {
  return runShell(shellQuote(LIFTCC_LIFTC_PATH) + " " + commandLine);
}

} // namespace liftcc::test
