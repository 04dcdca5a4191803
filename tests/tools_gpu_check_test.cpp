// tools/gpu-check.sh's plumbing, without a GPU: option errors, the order of
// its steps (CUDA's before OpenCL's, so a short lease measures CUDA first)
// and --deadline, which skips what no longer fits and says so. With a
// deadline of one second every step is skipped, so nothing is built or run.

#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

TEST_CASE("tools/gpu-check: with --deadline the explorations leave --bench-reserve seconds for the bench") {
  // A stand-in liftc that does nothing: each step's log starts with the
  // command it ran, so the budgets given to the explorations can be read.
  test::TempDir dir;
  std::filesystem::path fakeBuild = dir.path() / "build";
  std::filesystem::create_directories(fakeBuild / "tools/liftc");
  std::filesystem::path fakeLiftc = fakeBuild / "tools/liftc/liftc";
  std::ofstream(fakeLiftc) << "#!/bin/sh\nexit 0\n";
  std::filesystem::permissions(fakeLiftc, std::filesystem::perms::owner_all);
  std::filesystem::path out = dir.path() / "out";
  test::ProcessRun run =
      gpuCheck("--phases explore,bench --targets cuda --deadline 400 --bench-reserve 150 --build-dir " +
               test::shellQuote(fakeBuild.string()) + " --out " + test::shellQuote(out.string()));
  INFO(run.output);
  CHECK(run.status == 0);
  std::vector<std::filesystem::path> runs;
  for (const auto &entry : std::filesystem::directory_iterator(out))
    if (entry.path().filename().string().rfind("run-", 0) == 0) runs.push_back(entry.path());
  REQUIRE(runs.size() == 1);
  auto firstLine = [&](const std::string &step) {
    std::ifstream log(runs[0] / (step + ".log"));
    std::string line;
    std::getline(log, line);
    return line;
  };
  auto budgetOf = [&](const std::string &step) {
    std::string line = firstLine(step);
    size_t at = line.find("--budget ");
    return at == std::string::npos ? -1 : std::stoi(line.substr(at + 9));
  };
  // (400 - 150 - the seconds already spent) / 4 explorations - 15 s of
  // overhead each: 47 s for the first when nothing took long before it;
  // then (400 - 150) / 3 - 15 > 60, so the last keeps the default 60 s.
  int first = budgetOf("explore-cuda-jacobi2d_5pt");
  CHECK(first <= 47);
  CHECK(first >= 40);
  CHECK(firstLine("explore-cuda-jacobi2d_5pt_iter64").find("--budget 60s ") != std::string::npos);
  CHECK(firstLine("bench-cuda").find(" bench ") != std::string::npos);
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
