// Issue #34, class 4: every option of every verb that takes a duration, a
// count, a factor or a size, given extreme values, is refused with exit 2
// and one line naming the option before any work (tools/liftc/option_values.h).
// `--timeout 1e10s` had overflowed into an instant timeout, `--budget nan`
// and `inf` had parsed as unlimited, `--evals 0` had measured one variant.

#include "tests/explore_test_support.h"
#include "tests/liftc_batch.h"
#include "tests/liftc_numeric_options.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <filesystem>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::exampleArgument;
using test::shellQuote;

/// The values of the issue: each is no count, factor or duration any option accepts.
const std::vector<std::string> kExtremeValues{"0",   "-1", "nan", "inf", "1e10s", "1e300", "18446744073709551616",
                                              "10x", "",   "-0",  " 8",  "0x10",  "+3",    "1e-400"};

TEST_CASE("option ranges: every numeric option of every verb refuses extreme values with one line, exit 2") {
  test::TempDir dir;
  std::vector<test::BatchCase> cases;
  std::vector<std::pair<std::string, std::string>> expected; // command line, what its error names
  // Each option with three of the values, in turn, so that every value
  // meets a dozen options and the suite stays within seconds (the fuzz
  // suite draws the rest at random).
  const std::vector<test::NumericOption> options = test::everyNumericOption(exampleArgument("jacobi1d_3pt"));
  for (size_t o = 0; o < options.size(); ++o)
    for (size_t k = 0; k < 3; ++k) {
      const test::NumericOption &option = options[o];
      const std::string &value = kExtremeValues[(3 * o + k) % kExtremeValues.size()];
      if (option.zeroAllowed && value == "0") continue;
      cases.push_back({option.withValue(shellQuote(value))});
      expected.emplace_back(cases.back().args, option.named);
    }
  std::vector<test::ProcessRun> runs = test::runLiftcBatch(cases, dir.path(), 8);
  for (size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(expected[i].first);
    CHECK_MESSAGE(runs[i].status == 2, runs[i].output);
    CHECK_MESSAGE(test::isOneErrorLine(runs[i].output), runs[i].output);
    CHECK_MESSAGE(runs[i].output.find(expected[i].second) != std::string::npos, runs[i].output);
  }
  // Refused before any work: no result store, no exported file.
  CHECK(!fs::exists(dir.path() / "results"));
  CHECK(!fs::exists(dir.path() / "exported"));
}

TEST_CASE("option ranges: the error names the value found and the range accepted") {
  test::TempDir dir;
  const std::string explore = "explore " + exampleArgument("jacobi1d_3pt") + " --size N=64 --out results ";
  std::vector<test::BatchCase> cases{{explore + "--timeout 1e10s"}, {explore + "--budget nan"},
                                     {explore + "--evals 0"},       {explore + "--runs 1001"},
                                     {explore + "--timeout 24.5h"}, {explore + "--budget 721h"}};
  std::vector<std::string> expected{
      "--timeout expects a duration from 1 ms to 24 h (e.g. 90s, 10m, 1h; plain numbers are seconds), found '1e10s'",
      "--budget expects a duration from 1 ms to 720 h",
      "--evals expects an integer from 1 to 1000000, found '0'",
      "--runs expects an integer from 1 to 1000, found '1001'",
      "found '24.5h'",
      "found '721h'"};
  std::vector<test::ProcessRun> runs = test::runLiftcBatch(cases, dir.path());
  for (size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(cases[i].args);
    CHECK(runs[i].status == 2);
    CHECK_MESSAGE(runs[i].output.find(expected[i]) != std::string::npos, runs[i].output);
  }
}

TEST_CASE("option ranges: the bounds themselves are accepted") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  test::TempDir dir;
  // --space enumerates only: every option is parsed, nothing is measured.
  test::ProcessRun run = test::runLiftc(
      "explore " + exampleArgument("jacobi1d_3pt") + " --size N=64 --out " + shellQuote((dir.path() / "r").string()) +
      " --space --timeout 24h --budget 720h --evals 1000000 --runs 1000 --seed 18446744073709551615 "
      "--prepare-threads 64 --prune 1000000 --shard 65535/65536");
  CHECK_MESSAGE(run.status == 0, run.output);
  test::ProcessRun shortest = test::runLiftc("explore " + exampleArgument("jacobi1d_3pt") + " --size N=64 --out " +
                                             shellQuote((dir.path() / "r").string()) +
                                             " --space --timeout 1ms --budget 0.001 --evals 1 --runs 1 --seed 0");
  CHECK_MESSAGE(shortest.status == 0, shortest.output);
}

} // namespace
} // namespace liftcc
