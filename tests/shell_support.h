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

using ShellRun = ProcessRun;

/// The words quoted for /bin/sh and joined with spaces.
inline std::string quoteArgs(const std::vector<std::string> &args) {
  std::string out;
  for (const std::string &a : args) out += (out.empty() ? "" : " ") + shellQuote(a);
  return out;
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
