#pragma once
// Running the liftc binary from tests, the way users and scripts run it.

#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace liftcc::test {

struct LiftcRun {
  int status;         ///< exit status, -1 if liftc did not exit normally
  std::string output; ///< stdout and stderr together
};

/// Single-quotes a word for /bin/sh.
inline std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Runs `liftc <commandLine>` (already quoted for the shell) to completion.
inline LiftcRun runLiftc(const std::string &commandLine) {
  std::string command = shellQuote(LIFTCC_LIFTC_PATH) + " " + commandLine + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

} // namespace liftcc::test
