// Issue #34, class 5: the budget covers everything an exploration does.
// `explore --budget 10s --evals 3` of a 1000x1000 box sum had run 138 s with
// no output and measured nothing: the interpreter's reference at sampled
// points of the full size (a million additions each) was computed before the
// first measurement, outside the budget. Now the interpreters stop at the
// deadline (core/interp/deadline.h) and the exploration says in one line that
// its budget could not measure one variant (exit 1). The reference may take
// a quarter of the budget: past that the timed runs go unchecked at full
// size and the exploration measures (each variant verified at its small size).

#include "core/interp/deadline.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/full_size_check.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_batch.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace liftcc {
namespace {

using Clock = std::chrono::steady_clock;

/// Sums a 1000x1000 window around each output: at N = M = 1999, a million
/// outputs of a million additions each.
const char *kBoxSum = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1000}, {"name": "M", "min": 1000}],
 "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}],
                      "returns": "float", "body": "return a + b;"}},
 "inputs": [{"name": "A", "type": "[[float]M]N"}],
 "body": {"op": "mapN", "dims": 2,
   "f": {"lambda": ["w"], "body": {"op": "at", "index": 0, "in":
     {"op": "reduce", "f": {"userFun": "add"}, "init": {"literal": 0.0, "type": "float"},
      "in": {"op": "join", "in": {"param": "w"}}}}},
   "in": {"op": "slideN", "dims": 2, "size": 1000, "step": 1, "in": {"param": "A"}}}})";

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

TEST_CASE("explore budget: the full-size reference stops at its deadline") {
  Program typed = typeCheck(readProgram(kBoxSum), {{"N", 1999}, {"M", 1999}});
  const std::map<std::string, int64_t> sizes{{"N", 1999}, {"M", 1999}};
  tuner::InputBytes inputs = randomInputBytes(typed, sizes, 1);
  auto start = Clock::now();
  CHECK_THROWS_AS(explore::fullSizeReference(typed, sizes, inputs, start + std::chrono::milliseconds(200)),
                  DeadlineReached);
  double seconds = secondsSince(start);
  MESSAGE("a 0.2 s deadline stopped the reference after ", seconds, " s");
  CHECK(seconds < 2);
  // A deadline already past stops it at once.
  CHECK_THROWS_AS(explore::fullSizeReference(typed, sizes, inputs, Clock::now()), DeadlineReached);
}

TEST_CASE("explore budget: a budget too small for one measurement ends within seconds with one line, exit 1") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  test::TempDir dir;
  { std::ofstream(dir.path() / "box.json") << kBoxSum; }
  auto start = Clock::now();
  test::ProcessRun run = test::runLiftcBatch(
      {{"explore box.json --size N=1999,M=1999 --budget 2s --evals 3 --quiet --no-roofline --out results"}}, dir.path(),
      1, 120)[0];
  double seconds = secondsSince(start);
  MESSAGE("explore --budget 2s ended after ", seconds, " s: ", run.output);
  CHECK(run.status == 1);
  CHECK_MESSAGE(test::isOneErrorLine(run.output), run.output);
  CHECK_MESSAGE(run.output.find("the --budget of 2 s ended before one variant was measured, while ") !=
                    std::string::npos,
                run.output);
  // Two seconds, and what follows the deadline on a loaded machine under
  // ASan (reading the program, enumerating, the process's start and end).
  CHECK(seconds < 2 + 20);
}

TEST_CASE("explore budget: a full-size reference past its share of the budget leaves the timed run unchecked, and "
          "the exploration measures") {
  // 3000 steps of a 3-point average over 20000 points: the interpreter's
  // reference at sampled points of the full size runs the whole loop (many
  // seconds), the kernels a few tens of milliseconds. It may take a quarter
  // of the budget; past that each variant is verified at its small size only
  // and the exploration says so (it had ended with "the --budget of 12 s
  // ended before one variant was measured").
  auto device = ocl::test::testDevice();
  if (!device) return;
  test::TempDir dir;
  {
    std::ofstream(dir.path() / "long.json") << R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}],
 "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"op": "iterate", "n": 3000, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "avg",
   "grids": {"g": "clamp"}, "body": "return 0.25f*(g[-1] + 2.0f*g[0] + g[1]);"}}, "in": {"param": "A"}}})";
  }
  test::ProcessRun run = test::runLiftcBatch(
      {{"explore long.json --size N=20000 --budget 12s --families plain --no-roofline --out results"}}, dir.path(), 1,
      120)[0];
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK_MESSAGE(run.output.find("verified: all of N=13; not the timed run: the interpreter's reference at sampled "
                                "points of the full size took more than a quarter of the budget") != std::string::npos,
                run.output);
}

} // namespace
} // namespace liftcc
