// Randomised fuzzing of liftc's command line: random verbs, options and
// values (huge, negative, empty, non-ASCII, paths, devices), sizes and
// program files, each run as a process in a scratch directory. Acceptable
// outcomes: success, or exit status 1/2 with exactly one error line under
// 300 characters that names an option or a file. Never a signal, a
// sanitizer report, a hang, or a file written outside the scratch directory.
//
// Runs within LIFTCC_CLI_FUZZ_SECONDS (default 60) or LIFTCC_CLI_FUZZ_CASES
// cases (default 400), whichever ends first, from LIFTCC_CLI_FUZZ_SEED.

#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

namespace liftcc {
namespace {

namespace fs = std::filesystem;

uint64_t envOr(const char *name, uint64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtoull(value, nullptr, 10) : fallback;
}

template <class T> const T &pick(std::mt19937_64 &rng, const std::vector<T> &items) {
  return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(rng)];
}

/// Every file below `root`, as paths relative to it.
std::set<std::string> listing(const fs::path &root) {
  std::set<std::string> out;
  for (const auto &entry : fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied))
    out.insert(fs::relative(entry.path(), root).string());
  return out;
}

std::string randomSize(std::mt19937_64 &rng) {
  static const std::vector<std::string> values = {"1",
                                                  "2",
                                                  "3",
                                                  "8",
                                                  "16",
                                                  "64",
                                                  "0",
                                                  "-1",
                                                  "-9223372036854775808",
                                                  "9223372036854775807",
                                                  "99999999999999999999",
                                                  "1099511627776",
                                                  "2147483648",
                                                  "46341",
                                                  "",
                                                  "1e3",
                                                  "0x10",
                                                  "N",
                                                  " 8",
                                                  "8 ",
                                                  "\xc3\xa9"};
  static const std::vector<std::string> names = {"N", "M", "O", "K", "", "n", "N,M", "\xc3\x91"};
  std::string text;
  int count = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < count; ++i) text += (i ? "," : "") + pick(rng, names) + "=" + pick(rng, values);
  if (rng() % 8 == 0) text += ",";
  return text;
}

std::string randomValue(std::mt19937_64 &rng, const std::string &option) {
  static const std::vector<std::string> generic = {"",
                                                   "0",
                                                   "1",
                                                   "-1",
                                                   "8",
                                                   "1024",
                                                   "4096",
                                                   "18446744073709551616",
                                                   "9223372036854775807",
                                                   "plain",
                                                   "tiled",
                                                   "local",
                                                   "opencl",
                                                   "cuda",
                                                   "exhaustive",
                                                   "random",
                                                   "annealing",
                                                   "0/1",
                                                   "1/0",
                                                   "3/2",
                                                   "1/2",
                                                   "10m",
                                                   "0s",
                                                   "-5s",
                                                   "1e308h",
                                                   "nan",
                                                   "sm_90",
                                                   "sm_1",
                                                   "8,8",
                                                   "8,8,8,8",
                                                   "0,0",
                                                   "4097",
                                                   "\xe2\x88\x9e",
                                                   "..",
                                                   ".",
                                                   "/",
                                                   "../x",
                                                   "../../x",
                                                   "/tmp",
                                                   "-",
                                                   "--size",
                                                   "N=8",
                                                   "A=random",
                                                   "A=/dev/zero",
                                                   "A=missing.bin",
                                                   "B=random",
                                                   "r",
                                                   "out",
                                                   "global",
                                                   "kernel",
                                                   "k(){} kernel void x",
                                                   "liftcc_kernel",
                                                   "/body",
                                                   "/body/in",
                                                   "/nowhere",
                                                   "mapFusion",
                                                   "overlappedTiling2D(8)",
                                                   "splitJoin(4)",
                                                   std::string(3000, 'z')};
  if (option == "size") return randomSize(rng);
  // Outputs stay inside the scratch directory (the campaign checks that
  // nothing lands outside it), or are devices that fail to write.
  if (option == "output" || option == "metadata" || option == "ptx" || option == "t4" || option == "csv" ||
      option == "markdown")
    return pick(rng, std::vector<std::string>{"o.txt", "sub/o.txt", "/dev/full", "/dev/null", "", "prog.json", "adir",
                                              "o.txt"});
  if (option == "out" || option == "results")
    return pick(rng, std::vector<std::string>{"r", "r2", "", "adir", "prog.json", "r/best"});
  return pick(rng, generic);
}

struct VerbSpec {
  std::string name;
  std::vector<std::string> valued, flags;
  bool takesProgram = true;
};

// The device verbs are given few evaluations so one case stays short.
const std::vector<VerbSpec> kVerbs = {
    {"check", {"size"}, {}},
    {"eval", {"size", "input", "seed", "output"}, {"print"}},
    {"compile", {"target", "output", "metadata", "size", "local", "kernel-name", "opt", "tile", "ptx", "arch"}, {}},
    {"run", {"size", "seed", "repeat", "local", "opt", "tile", "target"}, {"check"}},
    {"rewrite", {"size", "rule", "at", "output"}, {"list", "json"}},
    {"explore", {"size", "target", "out", "budget", "strategy", "runs", "seed", "shard", "name", "t4"}, {"quiet"}},
    {"tune", {"size", "opt", "tile", "local", "target", "out", "runs", "name"}, {}},
    {"best", {"device", "program"}, {}, false},
    {"merge", {"out"}, {}, false},
    {"frobnicate", {"size"}, {}},
};

TEST_CASE("fuzz/cli: random command lines give a result or one short error line, never a crash or a stray file") {
  test::TempDir sandbox;
  fs::path work = sandbox.path() / "work";
  fs::create_directories(work / "adir");
  fs::copy_file(test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json", work / "prog.json");
  fs::copy_file(test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json", work / "prog2.json");
  fs::copy_file(test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json", work / "...json");
  std::ofstream(work / "empty.json") << "";
  std::ofstream(work / "bad.json") << R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1e999}]})";
  std::ofstream(work / "\xc3\xa9t\xc3\xa9.json")
      << "{\"liftcc\": 1, \"inputs\": [], \"body\": {\"op\": \"\xe2\x88\x9e\"}}";
  const std::vector<std::string> programs = {
      "prog.json", "prog.json", "prog2.json", "...json",  "missing.json",           "adir",
      "/dev/zero", "/dev/null", "empty.json", "bad.json", "\xc3\xa9t\xc3\xa9.json", "r",
      ""};
  const std::set<std::string> outside = listing(sandbox.path());

  uint64_t seed = envOr("LIFTCC_CLI_FUZZ_SEED", 17), cases = envOr("LIFTCC_CLI_FUZZ_CASES", 400);
  double seconds = double(envOr("LIFTCC_CLI_FUZZ_SECONDS", 60));
  std::mt19937_64 rng(seed);
  auto start = std::chrono::steady_clock::now();
  uint64_t done = 0, succeeded = 0;
  for (; done < cases; ++done) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) break;
    const VerbSpec &verb = pick(rng, kVerbs);
    std::string args = verb.name;
    // Half the cases start from a valid command line and change one or two
    // things, so that they get past the first check into the deeper code.
    bool valid = rng() % 2 == 0;
    if (verb.takesProgram || rng() % 2)
      args += " " + test::shellQuote(valid ? std::string("prog.json") : pick(rng, programs));
    if (verb.name == "merge" && rng() % 2) args += " r";
    if (verb.takesProgram && (valid || rng() % 3 != 0))
      args += " --size " + pick(rng, std::vector<std::string>{"N=16", "N=64", "N=16,M=16", "N=8,M=8"});
    if (valid && (verb.name == "compile" || verb.name == "run" || verb.name == "tune"))
      args += " --opt " + pick(rng, std::vector<std::string>{"plain", "tiled", "local"});
    if (valid && verb.name == "rewrite") args += " --list";
    if (valid && (verb.name == "explore" || verb.name == "tune" || verb.name == "merge")) args += " --out r";
    int options = std::uniform_int_distribution<int>(0, valid ? 2 : 4)(rng);
    for (int i = 0; i < options; ++i) {
      int kind = std::uniform_int_distribution<int>(0, 9)(rng);
      if (kind == 0 && !verb.flags.empty())
        args += " --" + pick(rng, verb.flags);
      else if (kind == 1)
        args += " --" + pick(rng, std::vector<std::string>{"bogus", "", "-", "size=", "help2", "x=y"});
      else if (kind == 2)
        args += " " + test::shellQuote(pick(rng, std::vector<std::string>{"-o", "-x", "extra", "--", "-"}));
      else {
        std::string option = pick(rng, verb.valued);
        std::string value = randomValue(rng, option);
        args += rng() % 4 == 0 ? " --" + option + "=" + test::shellQuote(value)
                               : " --" + option + " " + test::shellQuote(value);
      }
    }
    if (verb.name == "explore") args += " --evals 1 --runs 1";
    if (verb.name == "run") args += " --repeat 1";
    CAPTURE(args);
    // A per-case time limit catches hangs; the OpenCL compiler needs a few seconds at most.
    std::string command = "cd " + test::shellQuote(work.string()) + " && timeout 120 " +
                          test::shellQuote(LIFTCC_LIFTC_PATH) + " " + args + " 2>&1 >/dev/null";
    FILE *pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::string errors;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) errors.append(buffer, n);
    int raw = pclose(pipe);
    int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    REQUIRE_MESSAGE((status == 0 || status == 1 || status == 2), "status " << status << ": " << errors);
    REQUIRE_MESSAGE(errors.find("Sanitizer") == std::string::npos, errors);
    REQUIRE_MESSAGE(errors.find("runtime error:") == std::string::npos, errors);
    if (status == 0) {
      ++succeeded;
      continue;
    }
    // stderr: warnings and progress may precede it; the error is the last line.
    REQUIRE_MESSAGE(!errors.empty(), "exit status " << status << " without a message");
    REQUIRE(errors.back() == '\n');
    size_t lineStart = errors.rfind('\n', errors.size() - 2);
    std::string line = errors.substr(lineStart == std::string::npos ? 0 : lineStart + 1);
    REQUIRE_MESSAGE(line.rfind("liftc: error: ", 0) == 0, errors);
    CHECK_MESSAGE(line.size() < 300, line);
    // It names an option, a verb, or the file/directory it is about.
    bool named = line.find("--") != std::string::npos || line.find("'") != std::string::npos ||
                 line.find(".json") != std::string::npos || line.find("/dev/") != std::string::npos ||
                 line.find("missing ") != std::string::npos || line.find("size") != std::string::npos;
    CHECK_MESSAGE(named, line);
  }
  MESSAGE("CLI fuzz: " << done << " cases (" << succeeded << " succeeded) in "
                       << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
  CHECK(done >= std::min<uint64_t>(cases, 20));
  // Nothing was written outside the scratch directory.
  std::set<std::string> after = listing(sandbox.path());
  for (const std::string &path : after)
    CHECK_MESSAGE((outside.count(path) || path.rfind("work/", 0) == 0),
                  "written outside the scratch directory: " << path);
}

} // namespace
} // namespace liftcc
