// cmake --install of this build into a temporary prefix, then a consumer
// project (tests/consumer) built against it twice: with find_package(liftcc)
// and with pkg-config. Also liftc --version and the version macros.

#include "core/json/program_json.h"
#include "liftcc/version.h"
#include "tests/explore_test_support.h"
#include "tests/shell_support.h"

#include <doctest/doctest.h>

#include <string>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::runShell;
using test::shellQuote;

/// The one file named `name` below `root` (lib/ may be lib64/ or multiarch).
std::optional<fs::path> findBelow(const fs::path &root, const std::string &name) {
  for (const auto &entry : fs::recursive_directory_iterator(root))
    if (entry.path().filename() == name) return entry.path();
  return std::nullopt;
}

const std::string kExpectedConsumerOutput = "liftcc " LIFTCC_VERSION_STRING "\n"
                                            "result: 4 6 9 11\n"
                                            "json format: 1\n"
                                            "kernel: liftcc_kernel";
// The exporter's C templates are compiled into the library: nothing to find at run time.
const std::string kExpectedExport = "exported: jacobi_opencl.h, jacobi_opencl.c (launch)\n";

} // namespace

TEST_CASE("version: liftc --version, liftcc/version.h and the JSON format agree") {
  CHECK(std::string(LIFTCC_VERSION_STRING) == std::to_string(LIFTCC_VERSION_MAJOR) + "." +
                                                  std::to_string(LIFTCC_VERSION_MINOR) + "." +
                                                  std::to_string(LIFTCC_VERSION_PATCH));
  static_assert(LIFTCC_PROGRAM_FORMAT_VERSION == kProgramFormatVersion, "liftcc/version.h and core/json disagree");
  test::LiftcRun run = test::runLiftc("--version");
  CHECK(run.status == 0);
  CHECK(run.output == "liftc " LIFTCC_VERSION_STRING " (program format 1, launch.json format 1)\n");
}

TEST_CASE("install: find_package(liftcc) and pkg-config consumers build against an installed tree") {
#if !defined(LIFTCC_TEST_BINARY_DIR)
  MESSAGE("the install test needs the CMake paths of this build: skipped");
#else
  test::TempDir dir;
  fs::path prefix = dir.path() / "prefix";
  test::ShellRun install = runShell(shellQuote(LIFTCC_TEST_CMAKE_COMMAND) + " --install " +
                                    shellQuote(LIFTCC_TEST_BINARY_DIR) + " --prefix " + shellQuote(prefix.string()));
  REQUIRE_MESSAGE(install.status == 0, install.output);

  // The tree: liftc, headers at their source paths below include/liftcc, the archives, the package files.
  CHECK(fs::exists(prefix / "bin" / "liftc"));
  CHECK(fs::exists(prefix / "include" / "liftcc" / "liftcc" / "version.h"));
  CHECK(fs::exists(prefix / "include" / "liftcc" / "core" / "ir" / "expr.h"));
  CHECK(fs::exists(prefix / "include" / "liftcc" / "exporter" / "export.h"));
  CHECK(findBelow(prefix, "libliftcc_core.a"));
  CHECK(findBelow(prefix, "libliftcc_exporter.a"));
  CHECK_FALSE(findBelow(prefix, "libliftcc_bench.a")); // liftc's own benchmark harness stays out
  std::optional<fs::path> config = findBelow(prefix, "liftccConfig.cmake"), pc = findBelow(prefix, "liftcc.pc");
  REQUIRE(config);
  REQUIRE(pc);

  // The installed liftc runs and knows its version.
  test::ShellRun version = runShell(shellQuote((prefix / "bin" / "liftc").string()) + " --version");
  CHECK(version.status == 0);
  CHECK(version.output.find("liftc " LIFTCC_VERSION_STRING " ") == 0);

  // find_package(liftcc) -> liftcc::liftcc.
  fs::path consumer = test::sourceDir() / "tests" / "consumer", build = dir.path() / "build";
  test::ShellRun configure = runShell(shellQuote(LIFTCC_TEST_CMAKE_COMMAND) + " -S " + shellQuote(consumer.string()) +
                                      " -B " + shellQuote(build.string()) +
                                      " -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH=" + shellQuote(prefix.string()) +
                                      " -DCMAKE_CXX_COMPILER=" + shellQuote(LIFTCC_TEST_CXX_COMPILER));
  REQUIRE_MESSAGE(configure.status == 0, configure.output);
  test::ShellRun built = runShell(shellQuote(LIFTCC_TEST_CMAKE_COMMAND) + " --build " + shellQuote(build.string()));
  REQUIRE_MESSAGE(built.status == 0, built.output);
  test::ShellRun ran = runShell(shellQuote((build / "liftcc_consumer").string()));
  CHECK_MESSAGE(ran.status == 0, ran.output);
  CHECK_MESSAGE(ran.output.find(kExpectedConsumerOutput) == 0, ran.output);
  CHECK_MESSAGE(ran.output.find(kExpectedExport) != std::string::npos, ran.output);

  // pkg-config --cflags --libs liftcc.
  test::ShellRun pkgConfig = runShell("command -v pkg-config");
  if (pkgConfig.status != 0) {
    MESSAGE("no pkg-config: the liftcc.pc consumer is not built");
    return;
  }
  std::string env = "PKG_CONFIG_PATH=" + shellQuote(pc->parent_path().string()) + " ";
  test::ShellRun flags = runShell(env + "pkg-config --cflags --libs liftcc");
  REQUIRE_MESSAGE(flags.status == 0, flags.output);
  CHECK(flags.output.find("-lliftcc_core") != std::string::npos);
  fs::path binary = dir.path() / "consumer_pc";
  test::ShellRun compiled = runShell(shellQuote(LIFTCC_TEST_CXX_COMPILER) + " -std=c++20 $(" + env +
                                     "pkg-config --cflags liftcc) " + shellQuote((consumer / "consumer.cpp").string()) +
                                     " -o " + shellQuote(binary.string()) + " $(" + env + "pkg-config --libs liftcc)");
  REQUIRE_MESSAGE(compiled.status == 0, compiled.output);
  ran = runShell(shellQuote(binary.string()));
  CHECK_MESSAGE(ran.status == 0, ran.output);
  CHECK_MESSAGE(ran.output.find(kExpectedConsumerOutput) == 0, ran.output);
  CHECK_MESSAGE(ran.output.find(kExpectedExport) != std::string::npos, ran.output);
#endif
}

} // namespace liftcc
