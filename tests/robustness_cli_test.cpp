// Issue #17 (robustness), through the liftc process as users run it: sizes
// and limits, failed and dangerous writes, names that reach paths,
// identifiers, and error messages. Every case asserts the one-line error
// and what it names, so a regression to a crash or a silent success fails.

#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::LiftcRun;
using test::TempDir;

std::string quote(const std::string &s) { return test::shellQuote(s); }
std::string example(const std::string &name) {
  return quote((test::sourceDir() / "examples" / "json" / (name + ".json")).string());
}

bool isOneErrorLine(const std::string &output) {
  return output.rfind("liftc: error: ", 0) == 0 && output.find('\n') == output.size() - 1 && output.size() < 300;
}

void write(const fs::path &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

/// Runs liftc in `dir` and requires one error line with `status` containing every piece of `expected`.
void expectError(const fs::path &dir, const std::string &args, int status, const std::vector<std::string> &expected) {
  CAPTURE(args);
  LiftcRun run = [&] {
    std::string command = "cd " + quote(dir.string()) + " && " + quote(LIFTCC_LIFTC_PATH) + " " + args + " 2>&1";
    FILE *pipe = popen(command.c_str(), "r");
    std::string output;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    int s = pclose(pipe);
    return LiftcRun{WIFEXITED(s) ? WEXITSTATUS(s) : -1, output};
  }();
  CHECK_MESSAGE(run.status == status, run.output);
  CHECK_MESSAGE(isOneErrorLine(run.output), run.output);
  for (const std::string &piece : expected) CHECK_MESSAGE(run.output.find(piece) != std::string::npos, run.output);
}

const char *kIterate = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
  "userFuns": {"avg": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}, {"name": "c", "type": "float"}],
                       "returns": "float", "body": "return (a + b + c) / 3.0f;"}},
  "inputs": [{"name": "A", "type": "[float]N"}],
  "body": {"op": "iterate", "n": 1000000000, "f": {"lambda": ["x"], "body": {"op": "map", "f": {"lambda": ["w"], "body":
    {"apply": {"userFun": "avg"}, "args": [{"op": "at", "index": 0, "in": {"param": "w"}},
      {"op": "at", "index": 1, "in": {"param": "w"}}, {"op": "at", "index": 2, "in": {"param": "w"}}]}},
    "in": {"op": "slide", "size": 3, "step": 1, "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp", "in": {"param": "x"}}}}},
    "in": {"param": "A"}}})";

TEST_CASE("robustness/cli: sizes whose products overflow are refused; big grids compile with 64-bit indices") {
  TempDir dir;
  expectError(dir.path(), "compile " + example("jacobi2d_5pt") + " --size N=9223372036854775807,M=4", 2,
              {"size N = 9223372036854775807 is above liftc's limit 2^40"});
  expectError(dir.path(), "compile " + example("jacobi2d_5pt") + " --size N=1099511627776,M=1099511627776 --opt plain",
              2, {"has more than 2^60 values"});
  // A declared length that is a product of sizes must not wrap into a small constant.
  write(dir.path() / "prod.json", R"json({"liftcc": 1, "sizes": ["N", "M", "O"],
    "userFuns": {"id": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x;"}},
    "inputs": [{"name": "A", "type": "[float](N*M*O)"}],
    "body": {"op": "mapGlb", "dim": 0, "f": {"userFun": "id"}, "in": {"param": "A"}}})json");
  expectError(dir.path(), "compile prod.json --size N=1099511627776,M=1099511627776,O=16", 2,
              {"input A", "beyond 2^62"});
  LiftcRun big =
      test::runLiftc("compile " + example("jacobi2d_5pt") + " --opt plain --size N=46341,M=46341 -o " +
                     quote((dir.path() / "k.cl").string()) + " --metadata " + quote((dir.path() / "k.json").string()));
  REQUIRE_MESSAGE(big.status == 0, big.output);
  nlohmann::json meta = nlohmann::json::parse(test::readFile(dir.path() / "k.json"));
  CHECK(meta["indexBits"] == 64);
  CHECK(meta["args"][0]["count"] == "2147488281"); // 46341^2, not wrapped
  CHECK(test::readFile(dir.path() / "k.cl").find("const long gid") != std::string::npos);
}

TEST_CASE("robustness/cli: resource limits are checked before running") {
  TempDir dir;
  write(dir.path() / "iterate.json", kIterate);
  expectError(dir.path(), "eval iterate.json --size N=16", 2, {"iterate repeats more than 65536 times"});
  expectError(dir.path(), "run iterate.json --size N=16 --opt plain", 2, {"iterate repeats more than"});
  expectError(dir.path(), "eval " + example("jacobi2d_5pt") + " --size N=50000,M=50000", 2,
              {"reference interpreter accepts at most"});
  expectError(dir.path(), "check /dev/zero", 1, {"/dev/zero", "not a regular file"});
  write(dir.path() / "huge.json", std::string((16 << 20) + 1, ' '));
  expectError(dir.path(), "check huge.json", 1, {"huge.json", "may have at most 16777216"});
  if (!ocl::test::testDevice()) return;
  expectError(dir.path(), "run " + example("jacobi2d_5pt") + " --size N=50000,M=50000 --opt plain --check", 2,
              {"reference interpreter accepts at most"});
  expectError(dir.path(), "run " + example("jacobi2d_5pt") + " --size N=2048,M=2048 --opt local --tile 1024", 2,
              {"bytes of local memory; the device has"});
  expectError(dir.path(), "tune " + example("jacobi2d_5pt") + " --size N=2048,M=2048 --opt local --tile 1024 --out r",
              2, {"bytes of local memory; the device has"});
}

TEST_CASE("robustness/cli: failed writes fail, and outputs never overwrite inputs") {
  TempDir dir;
  fs::copy_file(test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json", dir.path() / "p.json");
  std::string before = test::readFile(dir.path() / "p.json");
  expectError(dir.path(), "compile p.json --opt plain --size N=64,M=64 -o /dev/full", 1,
              {"failed writing '/dev/full'"});
  expectError(dir.path(), "compile p.json --opt plain --size N=64,M=64 -o k.cl --metadata /dev/full", 1,
              {"failed writing '/dev/full'"});
  expectError(dir.path(), "compile p.json --opt plain --size N=64,M=64 -o p.json", 1,
              {"--output 'p.json' would overwrite the input"});
  expectError(dir.path(), "compile p.json --opt plain --size N=64,M=64 --metadata ./p.json", 1,
              {"would overwrite the input"});
  expectError(dir.path(), "eval p.json --size N=8,M=8 --output p.json", 1, {"would overwrite the input"});
  CHECK(test::readFile(dir.path() / "p.json") == before);
  CHECK_FALSE(fs::exists(dir.path() / "k.cl")); // nothing is written when a later write fails first
}

TEST_CASE("robustness/cli: names never reach paths unchecked") {
  TempDir dir;
  expectError(dir.path(), "explore " + example("jacobi1d_3pt") + " --size N=64 --name ../../x --out r", 2,
              {"--name '../../x'"});
  expectError(dir.path(), "tune " + example("jacobi1d_3pt") + " --size N=64 --name /tmp/x --out r", 2,
              {"--name '/tmp/x'"});
  CHECK_FALSE(fs::exists(dir.path() / "r"));
  if (!ocl::test::testDevice()) return;
  // A program file named "...json" is filed under a safe name, inside --out.
  fs::copy_file(test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json", dir.path() / "...json");
  LiftcRun run = test::runLiftc("tune " + quote((dir.path() / "...json").string()) + " --size N=64 --out " +
                                quote((dir.path() / "r").string()));
  CHECK_MESSAGE(run.status == 0, run.output);
  size_t files = 0;
  for (const auto &entry : fs::recursive_directory_iterator(dir.path() / "r")) {
    files += entry.is_regular_file();
    CHECK(entry.path().filename() != "..");
  }
  CHECK(files == 3); // the store, kernel.cl, launch.json
  CHECK(fs::exists(dir.path() / "r" / "best"));
}

TEST_CASE("robustness/cli: symbolic links inside --out are not followed for writing") {
  if (!ocl::test::testDevice()) return;
  TempDir dir;
  fs::path out = dir.path() / "r";
  LiftcRun first = test::runLiftc("tune " + example("jacobi1d_3pt") + " --size N=64 --out " + quote(out.string()));
  REQUIRE_MESSAGE(first.status == 0, first.output);
  // Replace the store by a link to an unrelated file: tune must refuse it.
  fs::path store;
  for (const auto &entry : fs::recursive_directory_iterator(out))
    if (entry.path().extension() == ".jsonl") store = entry.path();
  REQUIRE(!store.empty());
  write(dir.path() / "victim.txt", "precious\n");
  fs::remove(store);
  fs::create_symlink(dir.path() / "victim.txt", store);
  expectError(dir.path(), "tune " + example("jacobi1d_3pt") + " --size N=64 --opt tiled --tile 4 --out r", 1,
              {"symbolic link"});
  // merge into a directory whose launch.json is a link
  fs::path merged = dir.path() / "m";
  fs::create_directories(merged);
  fs::copy(out / "best", merged / "best", fs::copy_options::recursive);
  for (const auto &entry : fs::recursive_directory_iterator(merged))
    if (entry.path().filename() == "launch.json") {
      fs::path link = entry.path();
      fs::remove(link);
      fs::create_symlink(dir.path() / "victim.txt", link);
      break;
    }
  fs::remove(store);
  write(store, "");
  LiftcRun merge = test::runLiftc("merge --out " + quote(merged.string()) + " " + quote(out.string()));
  CHECK(merge.status == 1);
  CHECK_MESSAGE(merge.output.find("symbolic link") != std::string::npos, merge.output);
  CHECK(test::readFile(dir.path() / "victim.txt") == "precious\n");
}

const char *kNamedInputs = R"({"liftcc": 1, "sizes": ["N"],
  "userFuns": {"id": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x;"}},
  "inputs": [{"name": "INPUT", "type": "[float]N"}],
  "body": {"op": "mapGlb", "dim": 0, "f": {"userFun": "id"}, "in": {"param": "INPUT"}}})";

TEST_CASE("robustness/cli: identifiers that would break the kernel are refused at check") {
  TempDir dir;
  for (std::string name : {"global", "kernel", "half", "get_global_id"}) {
    std::string program = kNamedInputs;
    for (size_t at; (at = program.find("INPUT")) != std::string::npos;) program.replace(at, 5, name);
    write(dir.path() / "p.json", program);
    expectError(dir.path(), "check p.json", 1, {"p.json", "/inputs/0/name", "'" + name + "'"});
  }
  std::string program = kNamedInputs;
  for (size_t at; (at = program.find("INPUT")) != std::string::npos;) program.replace(at, 5, "A");
  write(dir.path() / "p.json", program);
  expectError(dir.path(), "compile p.json --kernel-name 'k(){} kernel void x'", 2,
              {"--kernel-name", "not a valid C identifier"});
  expectError(dir.path(), "compile p.json --kernel-name kernel", 2, {"--kernel-name 'kernel'"});
  expectError(dir.path(), "compile p.json --kernel-name id", 1, {"user function 'id' has the kernel's name"});
}

TEST_CASE("robustness/cli: messages name the file and the place, and stay short") {
  TempDir dir;
  write(dir.path() / "big.json", R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1e999}], "inputs": [], "body": {}})");
  expectError(dir.path(), "check big.json", 1, {"big.json: /sizes/0/min: the number is out of range"});
  write(dir.path() / "typo.json", R"({"liftcc": 1, "sizes": ["N"], "inputs": [{"name": "A", "type": "[float]N"}],
    "body": {"op": "split", "n": 4, "in": {"param": "A"}}})");
  expectError(dir.path(), "check typo.json", 1, {"typo.json: /body"});
  write(dir.path() / "long.json",
        R"({"liftcc": 1, "inputs": [], "body": {"op": ")" + std::string(1 << 20, 'x') + "\"}}");
  expectError(dir.path(), "check long.json", 1, {"long.json: /body/op: unknown primitive", "characters"});
  fs::create_directory(dir.path() / "adir");
  expectError(dir.path(), "check adir", 1, {"'adir' is a directory, not a program file"});
  expectError(dir.path(), "compile " + example("jacobi2d_5pt") + " --size N=64,M=64", 1,
              {"jacobi2d_5pt.json", "not lowered", "--opt plain"});
  expectError(dir.path(), "compile " + example("jacobi2d_5pt") + " --opt plain --size N=64,M=64 --local 8,8", 2,
              {"--local applies to kernels with work-groups"});
  expectError(dir.path(), "compile " + example("jacobi2d_5pt") + " --opt tiled --size N=64,M=64 --local 8,8,8", 2,
              {"--local gives 3 sizes but the kernel has 2 dimension(s)"});
  expectError(dir.path(),
              "compile " + example("jacobi2d_5pt") + " --opt plain --size N=64,M=64 --opt2 " + std::string(5000, 'y'),
              2, {"unknown option '--opt2'"});
}

} // namespace
} // namespace liftcc
