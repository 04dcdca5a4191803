// Issue #34, class 7: standard output is an output like any file. With it
// on /dev/full, every verb that prints (check, best, schema, compile without
// -o and rewrite --json had exited 0 with nothing written) exits 1 with one
// line on stderr (tools/liftc/standard_output.h).

#include "tests/explore_test_support.h"
#include "tests/liftc_batch.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <filesystem>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::exampleArgument;
using test::shellQuote;

void checkAllRefused(const std::vector<test::BatchCase> &cases, const std::vector<test::ProcessRun> &runs) {
  for (size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(cases[i].args);
    CHECK_MESSAGE(runs[i].status == 1, runs[i].output);
    CHECK_MESSAGE(test::isOneErrorLine(runs[i].output), runs[i].output);
    CHECK_MESSAGE(runs[i].output.find("cannot write standard output") != std::string::npos, runs[i].output);
  }
}

TEST_CASE("stdout errors: every verb that prints without a device fails on /dev/full with one line") {
  test::TempDir dir;
  const std::string p2 = exampleArgument("jacobi2d_5pt"), p1 = exampleArgument("jacobi1d_3pt");
  std::vector<test::BatchCase> cases{
      {"--help", true},
      {"--version", true},
      {"help explore", true},
      {"explore --help", true},
      {"check " + p2, true},
      {"check " + p2 + " --size N=64,M=64", true},
      {"schema", true},
      {"schema --markdown", true},
      {"compile " + p2 + " --opt plain --size N=64,M=64", true},
      {"compile " + p2 + " --opt tiled --size N=64,M=64 --target cuda", true},
      {"rewrite " + p2 + " --json", true},
      {"rewrite " + p2 + " --list --size N=64,M=64", true},
      {"eval " + p1 + " --size N=16", true},
      // Large output: it stops at the first failed write, not a million values later.
      {"eval " + p1 + " --size N=100000 --print", true},
      {"export " + p2 + " --size N=64,M=64 --opt plain --out exported", true},
  };
  checkAllRefused(cases, test::runLiftcBatch(cases, dir.path()));
}

TEST_CASE("stdout errors: the verbs that measure, and those reading their results, fail on /dev/full too") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  test::TempDir dir;
  const std::string p1 = exampleArgument("jacobi1d_3pt");
  // tune records a best kernel before printing: best, merge and export read it.
  std::vector<test::BatchCase> first{
      {"tune " + p1 + " --size N=64 --opt plain --runs 1 --out results --name tuned", true},
      {"run " + p1 + " --size N=64 --opt plain --repeat 1", true},
      {"explore " + p1 + " --size N=64 --space --out spaced", true},
      {"explore " + p1 + " --size N=64 --families plain --evals 1 --runs 1 --quiet --no-roofline --out explored", true},
  };
  checkAllRefused(first, test::runLiftcBatch(first, dir.path(), 2));
  fs::path best;
  for (const auto &entry : fs::recursive_directory_iterator(dir.path() / "results"))
    if (entry.path().filename() == "launch.json") best = entry.path().parent_path();
  REQUIRE(!best.empty());
  std::vector<test::BatchCase> second{
      {"best results", true},
      {"merge --out merged results", true},
      {"export " + shellQuote(best.string()) + " --out exported", true},
  };
  checkAllRefused(second, test::runLiftcBatch(second, dir.path()));
}

} // namespace
} // namespace liftcc
