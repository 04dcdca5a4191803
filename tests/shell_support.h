#pragma once
// Running shell commands from tests (compilers, CMake, the exported
// applications) and the tools the export and install suites need.

#include "tests/liftc_process.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace liftcc::test {

struct ShellRun {
  int status;         ///< exit status, -1 if the command did not exit normally
  std::string output; ///< stdout and stderr together
};

/// The words quoted for /bin/sh and joined with spaces.
inline std::string quoteArgs(const std::vector<std::string> &args) {
  std::string out;
  for (const std::string &a : args) out += (out.empty() ? "" : " ") + shellQuote(a);
  return out;
}

/// Runs a /bin/sh command line (already quoted) to completion.
inline ShellRun runShell(const std::string &commandLine) {
  std::string command = "(" + commandLine + ") 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

/// The C compiler CMake found for these tests ("" if none).
inline std::string cCompiler() {
#ifdef LIFTCC_TEST_C_COMPILER
  return LIFTCC_TEST_C_COMPILER;
#else
  return "";
#endif
}

/// Flags every exported C file must compile cleanly with.
inline const char *strictCFlags() { return "-std=c99 -Wall -Wextra -Werror -pedantic"; }

} // namespace liftcc::test
