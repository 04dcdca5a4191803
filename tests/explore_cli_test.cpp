// liftc explore / best / merge run as processes, the way job scripts run
// them: killed mid-run with SIGKILL, resumed, sharded and merged.

#include "search/result_store.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_device.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::readFile;
using test::TempDir;

using Run = test::LiftcRun;
std::string quote(const std::string &s) { return test::shellQuote(s); }

std::string joinQuoted(const std::vector<std::string> &args) {
  std::string out;
  for (const auto &a : args) out += " " + quote(a);
  return out;
}

Run liftc(const std::vector<std::string> &args) { return test::runLiftc(joinQuoted(args)); }

/// Starts liftc in the background with its output going to `log`.
pid_t spawnLiftc(const std::vector<std::string> &args, const fs::path &log) {
  // Everything is prepared before fork: the child only calls async-signal-safe
  // functions (the test binary may have OpenCL threads running).
  std::vector<std::string> all{LIFTCC_LIFTC_PATH};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (auto &a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::string logPath = log.string();
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int fd = open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

/// The result store (the only .jsonl file) under a results directory.
std::optional<fs::path> storeIn(const fs::path &resultsDir) {
  if (!fs::exists(resultsDir)) return std::nullopt;
  for (const auto &entry : fs::recursive_directory_iterator(resultsDir))
    if (entry.path().extension() == ".jsonl") return entry.path();
  return std::nullopt;
}

size_t completeLines(const fs::path &path) {
  std::string text = readFile(path);
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

/// The number right after the first occurrence of `label` in `output`.
/// (No std::regex: GCC 12 warns inside it under -O2 -fsanitize=address.)
size_t numberAfter(const std::string &output, const std::string &label) {
  size_t at = output.find(label);
  REQUIRE_MESSAGE(at != std::string::npos, "no '" << label << "' in: " << output);
  return std::stoul(output.substr(at + label.size()));
}

/// "evaluated: 8 (3 from the result store ...)" -> {8, 3}.
std::pair<size_t, size_t> evaluatedCounts(const std::string &output) {
  size_t evaluated = numberAfter(output, "evaluated: ");
  size_t reused = numberAfter(output, "evaluated: " + std::to_string(evaluated) + " (");
  CHECK(output.find(std::to_string(reused) + " from the result store") != std::string::npos);
  return {evaluated, reused};
}

bool haveDevice() { return ocl::test::testDevice().has_value(); }

/// liftc explore on jacobi2d_5pt at a tiny size, writing to `out`.
std::vector<std::string> exploreArgs(const fs::path &out, std::vector<std::string> extra) {
  std::vector<std::string> args{"explore", (test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string(),
                                "--size", "N=16,M=16", "--out", out.string(), "--runs", "2", "--quiet",
                                // Re-timed finalists append lines of their own; these tests count
                                // lines (explore_baselines_test.cpp covers the re-timing).
                                "--finalists", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

} // namespace

TEST_CASE("explore/cli: a killed exploration resumes without measuring anything twice") {
  if (!haveDevice()) return;
  TempDir dir;
  fs::path results = dir.path() / "results";
  const std::vector<std::string> args = exploreArgs(results, {"--evals", "8"});

  pid_t pid = spawnLiftc(args, dir.path() / "killed.log");
  // Wait for the first complete record, then kill without warning.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  bool exitedEarly = false;
  for (;;) {
    if (auto store = storeIn(results); store && completeLines(*store) >= 1) break;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exitedEarly = true;
      break;
    }
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, readFile(dir.path() / "killed.log"));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE_MESSAGE(!exitedEarly,
                  "liftc explore ended before it could be killed: " << readFile(dir.path() / "killed.log"));
  REQUIRE(kill(pid, SIGKILL) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));

  // Every complete record survived the kill, and the store loads.
  fs::path store = *storeIn(results);
  size_t recorded = search::ResultStore(store.string()).records().size();
  CHECK(recorded >= 1);
  CHECK(recorded < 8);
  CHECK(recorded == completeLines(store));

  // Resume: the recorded evaluations come from the store, free; --evals
  // counts the new measurements.
  Run resumed = liftc(args);
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  auto [evaluated, reused] = evaluatedCounts(resumed.output);
  // The baselines come first, uncharged: those the killed run did not record
  // are measured on top of the 8.
  const size_t baselines = numberAfter(resumed.output, "baselines: ");
  CHECK(baselines >= 4);
  CHECK(evaluated == std::max(recorded, baselines) + 8);
  CHECK(reused == recorded);
  CHECK(completeLines(store) == evaluated);
  CHECK(search::ResultStore(store.string()).records().size() == evaluated);
  test::checkNoBugs(search::ResultStore(store.string()).records());
  CHECK(resumed.output.find("best kernel: ") != std::string::npos);
  CHECK_MESSAGE(resumed.output.find("of the copy roof") != std::string::npos, resumed.output);

  // Once more with --evals 1: everything recorded is reused, one is new.
  std::vector<std::string> oneMore = exploreArgs(results, {"--evals", "1"});
  Run again = liftc(oneMore);
  REQUIRE_MESSAGE(again.status == 0, again.output);
  CHECK(evaluatedCounts(again.output) == std::pair<size_t, size_t>{evaluated + 1, evaluated});
  CHECK(completeLines(store) == evaluated + 1);

  // liftc best finds the kernel by a substring of the device name.
  std::string deviceName = ocl::listDevices().front().name;
  std::string deviceWord = deviceName.substr(0, deviceName.find_first_of(" -"));
  Run best = liftc({"best", results.string(), "--device", deviceWord});
  REQUIRE_MESSAGE(best.status == 0, best.output);
  CHECK_MESSAGE(best.output.find("// program jacobi2d_5pt at N=16,M=16 on " + deviceName) != std::string::npos,
                best.output);
  // The kernel's signature: "kernel void" or, where the winner requires its
  // work-group shape, "kernel __attribute__((reqd_work_group_size(...))) void".
  size_t signature = best.output.find("\nkernel ");
  REQUIRE_MESSAGE(signature != std::string::npos, best.output);
  std::string signatureLine = best.output.substr(signature + 1, best.output.find('\n', signature + 1) - signature - 1);
  CHECK_MESSAGE(signatureLine.find(" void ") != std::string::npos, signatureLine);
  CHECK_MESSAGE(best.output.find("// why it won: a ") != std::string::npos, best.output);
  Run anyDevice = liftc({"best", results.string()});
  CHECK_MESSAGE(anyDevice.status == 0, anyDevice.output);
  CHECK(anyDevice.output == best.output);
  CHECK(liftc({"best", results.string(), "--device", "no-such-device"}).status == 1);
  CHECK(liftc({"best", results.string(), "--program", "gaussian"}).status == 1);
}

TEST_CASE("explore/cli: a time budget ends the exploration") {
  if (!haveDevice()) return;
  TempDir dir;
  auto start = std::chrono::steady_clock::now();
  // 30 s: enumerating the space (its specialised and noinline-border twins
  // regenerate kernels) and a first PoCL build take about a second under
  // ASan, over 4 s at a load average of 15, and 8 s were not enough while
  // another test file ran beside this one (ctest -j) and a build ran too.
  Run run = liftc(exploreArgs(dir.path(), {"--budget", "30s", "--strategy", "random", "--seed", "3"}));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_MESSAGE(run.status == 0, run.output);
  size_t space = numberAfter(run.output, "space: ");
  auto [evaluated, reused] = evaluatedCounts(run.output);
  CHECK(reused == 0);
  CHECK(evaluated >= 1);
  CHECK(evaluated < space); // the default space at 16 x 16 takes far longer than a second
  CHECK(seconds < 120);     // start-up, space enumeration and the evaluation in flight
}

TEST_CASE("explore/cli: an iterate that runs 0 times is verified but reports no time or rate (run too)") {
  if (!haveDevice()) return;
  TempDir dir;
  fs::path program = dir.path() / "still.json";
  std::ofstream(program) << R"({"liftcc": 1, "sizes": ["N"], "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"op": "iterate", "n": 0, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "avg",
   "grids": {"g": "clamp"}, "body": "return (g[-1] + g[0] + g[1]) / 3.0f;"}}, "in": {"param": "A"}}})";
  Run run = liftc({"explore", program.string(), "--size", "N=64", "--out", (dir.path() / "results").string(), "--runs",
                   "2", "--quiet", "--finalists", "0", "--evals", "3"});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  // Before: "best: plain, 0.000 ms, 64000.0 M elements/s" and a roof fraction.
  CHECK_MESSAGE(run.output.find("(iterate runs 0 times: no variant launches a kernel, each returns its input; "
                                "verified, not timed)") != std::string::npos,
                run.output);
  CHECK_MESSAGE(run.output.find("why it won") == std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("0.000") == std::string::npos, run.output);
  Run single = liftc({"run", program.string(), "--size", "N=64", "--opt", "plain", "--check"});
  REQUIRE_MESSAGE(single.status == 0, single.output);
  CHECK_MESSAGE(single.output.find("kernel time: none (iterate runs 0 times: no kernel is launched and the result is "
                                   "the input)") != std::string::npos,
                single.output);
  CHECK_MESSAGE(single.output.find("inf") == std::string::npos, single.output);
}

TEST_CASE("explore/cli: --prune reports what it skipped; a bad factor is one line") {
  if (!haveDevice()) return;
  TempDir dir;
  Run run = liftc(exploreArgs(dir.path(), {"--evals", "4", "--prune", "3"}));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("pruned: ") != std::string::npos);
  CHECK(run.output.find("3x slower than the best") != std::string::npos);
  for (const char *bad : {"1", "0.5", "x", "3x"}) {
    CAPTURE(bad);
    Run refused = liftc(exploreArgs(dir.path(), {"--prune", bad}));
    CHECK(refused.status != 0);
    CHECK(refused.output.find("liftc: error: --prune expects a factor above 1") == 0);
    CHECK(std::count(refused.output.begin(), refused.output.end(), '\n') == 1);
  }
}

TEST_CASE("explore/cli: --search names the search method; --strategy, its old name, still works with a note") {
  TempDir dir;
  for (std::vector<std::string> bad : std::vector<std::vector<std::string>>{
           {"--search", "sideways"}, {"--strategy", "sideways"}, {"--search", "model", "--strategy", "model"}}) {
    CAPTURE(bad[0]);
    Run refused = liftc(exploreArgs(dir.path(), bad));
    CHECK(refused.status == 2);
    CHECK(refused.output.find("liftc: error: " + bad[0]) == 0);
    CHECK(std::count(refused.output.begin(), refused.output.end(), '\n') == 1);
  }
  if (!haveDevice()) return;
  Run old =
      liftc(exploreArgs(dir.path(), {"--evals", "1", "--families", "plain", "--no-roofline", "--strategy", "random"}));
  REQUIRE_MESSAGE(old.status == 0, old.output);
  CHECK(old.output.find("liftc: note: --strategy is deprecated") != std::string::npos);
  Run current =
      liftc(exploreArgs(dir.path(), {"--evals", "1", "--families", "plain", "--no-roofline", "--search", "random"}));
  REQUIRE_MESSAGE(current.status == 0, current.output);
  CHECK(current.output.find("deprecated") == std::string::npos);
}

TEST_CASE("explore/cli: a program the code generator refuses is one line naming why, not 'no variant'") {
  // No configuration of a program iterating, per row, a state that pairs a
  // scalar with the row lowers (a per-element state of scalars is a loop in
  // the kernel, one of an array a host loop over all rows; a tuple holding
  // both is neither); the exploration of such a refusal (then: loops side
  // by side of different counts) used to report "0 candidates (2 dropped as
  // not fitting the device)" and "no variant ran successfully".
  if (!haveDevice()) return;
  TempDir dir;
  fs::path program = dir.path() / "pair_per_row.json";
  {
    std::ofstream out(program);
    out << R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
      "userFuns": {"damp": {"params": [{"name": "v", "type": "float"}], "returns": "float", "body": "return 0.5f * v;"}},
      "inputs": [{"name": "U", "type": "[[float]M]N"}],
      "body": {"op": "map", "f": {"lambda": ["row"], "body": {"op": "get", "index": 1, "in": {"op": "iterate", "n": 2,
        "f": {"lambda": ["s"], "body": {"op": "tuple", "in": [{"op": "get", "index": 0, "in": {"param": "s"}},
               {"op": "map", "f": {"userFun": "damp"}, "in": {"op": "get", "index": 1, "in": {"param": "s"}}}]}},
        "in": {"op": "tuple", "in": [{"op": "at", "index": 0, "in": {"param": "row"}}, {"param": "row"}]}}}},
       "in": {"param": "U"}}})";
  }
  Run run = liftc({"explore", program.string(), "--size", "N=16,M=16", "--evals", "2", "--quiet", "--out",
                   (dir.path() / "results").string()});
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("liftc: error: " + program.string() +
                                ": iterate inside a per-element function over a state of type (float, [float]16)") !=
                    std::string::npos,
                run.output);
  CHECK(run.output.find("no variant ran successfully") == std::string::npos);
}

TEST_CASE("explore/cli: shards, merge and the T4 export") {
  if (!haveDevice()) return;
  TempDir dir;
  fs::path a = dir.path() / "a", b = dir.path() / "b", merged = dir.path() / "merged", t4 = dir.path() / "a.t4.json";
  Run shard0 = liftc(exploreArgs(a, {"--shard", "0/2", "--evals", "3", "--t4", t4.string()}));
  REQUIRE_MESSAGE(shard0.status == 0, shard0.output);
  Run shard1 = liftc(exploreArgs(b, {"--shard", "1/2", "--evals", "3", "--no-roofline"}));
  REQUIRE_MESSAGE(shard1.status == 0, shard1.output);
  CHECK_MESSAGE(shard1.output.find("(no copy roof measured)") != std::string::npos, shard1.output);
  // Each shard's baselines (its share of them), uncharged, and three more.
  const size_t baselines0 = numberAfter(shard0.output, "baselines: "),
               baselines1 = numberAfter(shard1.output, "baselines: ");
  CHECK(baselines0 + baselines1 >= 4);
  CHECK(evaluatedCounts(shard0.output) == std::pair<size_t, size_t>{baselines0 + 3, 0});

  // Every shard has half of the candidates, and they are different ones.
  size_t space = numberAfter(shard0.output, "space: "), half = numberAfter(shard0.output, "this shard: ");
  CHECK(half == (space + 1) / 2);
  search::ResultStore storeA(storeIn(a)->string(), search::ResultStore::Access::Read),
      storeB(storeIn(b)->string(), search::ResultStore::Access::Read);
  REQUIRE(storeA.records().size() == baselines0 + 3);
  REQUIRE(storeB.records().size() == baselines1 + 3);
  for (const auto &r : storeA.records()) CHECK_MESSAGE(storeB.find(r.key) == nullptr, r.key);
  // Same relative store path in both: (device, program, sizes).
  CHECK(fs::relative(*storeIn(a), a) == fs::relative(*storeIn(b), b));

  nlohmann::json exported = nlohmann::json::parse(readFile(t4));
  CHECK(exported.at("schema_version") == "1.0.0");
  REQUIRE(exported.at("results").size() == baselines0 + 3);
  CHECK(exported.at("results")[0].at("configuration").contains("recipe"));

  Run merge = liftc({"merge", "--out", merged.string(), a.string(), b.string()});
  REQUIRE_MESSAGE(merge.status == 0, merge.output);
  const size_t all = baselines0 + baselines1 + 6;
  CHECK_MESSAGE(merge.output.find("merged " + std::to_string(all) + " record(s) from 2 store file(s)") !=
                    std::string::npos,
                merge.output);
  search::ResultStore union_(storeIn(merged)->string(), search::ResultStore::Access::Read);
  CHECK(union_.records().size() == all);
  test::checkNoBugs(union_.records());
  // The merged best kernel is the faster of the two shards'.
  double bestNs = std::min(storeA.best()->medianNs, storeB.best()->medianNs);
  bool foundLaunch = false;
  for (const auto &entry : fs::recursive_directory_iterator(merged))
    if (entry.path().filename() == "launch.json") {
      foundLaunch = true;
      CHECK(nlohmann::json::parse(readFile(entry.path())).at("medianNs").get<double>() == bestNs);
      CHECK(fs::exists(entry.path().parent_path() / "kernel.cl"));
    }
  CHECK(foundLaunch);

  // Resuming against the merged directory measures nothing already there.
  Run resumed = liftc(exploreArgs(merged, {"--evals", "2"}));
  REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
  auto [evaluated, reused] = evaluatedCounts(resumed.output);
  // Every baseline was measured by one of the shards; the two charged
  // evaluations are new (the exhaustive order stops at its second unstored candidate).
  CHECK(evaluated == reused + 2);
  CHECK(reused >= baselines0 + baselines1);
  CHECK(reused <= all);

  CHECK(liftc(exploreArgs(dir.path() / "bad", {"--shard", "2/2"})).status == 2);
  CHECK(liftc(exploreArgs(dir.path() / "bad", {"--shard", "1"})).status == 2);
  CHECK(liftc({"merge", a.string()}).status == 2);
}

} // namespace liftcc
