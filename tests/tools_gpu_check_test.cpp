// tools/gpu-check.sh's plumbing, without a GPU: option errors, the order of
// its steps (CUDA's before OpenCL's, so a short lease measures CUDA first)
// and --deadline, which skips what no longer fits and says so. With a
// deadline of one second every step is skipped, so nothing is built or run.

#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"

#include <doctest/doctest.h>

#include <string>

namespace liftcc {
namespace {

test::ProcessRun gpuCheck(const std::string &arguments) {
  return test::runShell(test::shellQuote((test::sourceDir() / "tools/gpu-check.sh").string()) + " " + arguments);
}

} // namespace

TEST_CASE("tools/gpu-check: unknown phases and targets are one-line errors, exit 2") {
  test::TempDir dir;
  std::string out = test::shellQuote((dir.path() / "out").string());
  test::ProcessRun phase = gpuCheck("--phases build,tune --out " + out);
  CHECK(phase.status == 2);
  CHECK(phase.output.find("--phases: unknown phase 'tune'") != std::string::npos);
  test::ProcessRun target = gpuCheck("--targets cuda,hip --out " + out);
  CHECK(target.status == 2);
  CHECK(target.output.find("--targets: unknown target 'hip'") != std::string::npos);
}

TEST_CASE("tools/gpu-check: per target in order, CUDA first; --deadline skips what does not fit") {
  test::TempDir dir;
  std::string out = test::shellQuote((dir.path() / "out").string());
  test::ProcessRun run = gpuCheck("--phases explore,bench --deadline 1 --out " + out);
  CHECK(run.status == 1); // skipped steps are not a success
  INFO(run.output);
  std::vector<std::string> steps = {"explore-cuda-jacobi2d_5pt",        "explore-cuda-heat", "explore-cuda-gaussian",
                                    "explore-cuda-jacobi2d_5pt_iter64", "best-cuda",         "bench-cuda",
                                    "explore-opencl-jacobi2d_5pt",      "bench-opencl"};
  size_t summary = run.output.find("gpu-check summary");
  REQUIRE(summary != std::string::npos);
  size_t at = summary;
  for (const std::string &step : steps) {
    CAPTURE(step);
    size_t found = run.output.find(step + " ", at);
    REQUIRE(found != std::string::npos);
    CHECK(run.output.compare(run.output.find_first_not_of(' ', found + step.size()), 18, "SKIPPED (deadline)") == 0);
    at = found;
  }
  CHECK(run.output.find("test-cuda") == std::string::npos); // phase not asked for
}

TEST_CASE("tools/gpu-check: --rehearse prepares CUDA variants only, without GPU tests or bench") {
  test::TempDir dir;
  std::string out = test::shellQuote((dir.path() / "out").string());
  test::ProcessRun run = gpuCheck("--rehearse --phases test,explore,bench --deadline 1 --out " + out);
  INFO(run.output);
  CHECK(run.status == 1);
  for (const char *program : {"jacobi2d_5pt", "heat", "gaussian", "jacobi2d_5pt_iter64"})
    CHECK(run.output.find(std::string("prepare-cuda-") + program + " ") != std::string::npos);
  for (const char *absent : {"test-cuda", "bench-", "opencl-", "explore-cuda", "best-cuda"})
    CHECK(run.output.find(absent) == std::string::npos);
}

} // namespace liftcc
