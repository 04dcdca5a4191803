// liftc export and liftc best trust a best-kernel directory only as far as
// they can check it (explore/best_kernel_trust.h): an edited kernel file,
// argument list, element count or hash is refused with one line naming the
// file and field; text from the directory cannot break the exported C; and
// the limits on iterations and work-groups hold in every verb that produces
// a kernel (codegen/launch_limits.h).

#include "tests/best_kernel_entry.h"
#include "tests/explore_test_support.h"
#include "tests/shell_support.h"

#include <doctest/doctest.h>

#include "core/io/json.h"

#include <algorithm>
#include <fstream>
#include <functional>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::quoteArgs;
using test::readFile;
using test::shellQuote;
using test::TempDir;

test::LiftcRun liftc(const std::vector<std::string> &args) { return test::runLiftc(quoteArgs(args)); }

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

/// One best kernel below `results`, as explore writes it: Jacobi2D at 40 x 56
/// with the plain recipe, launched in 8 x 8 work-groups.
struct Entry {
  fs::path results, dir;
  json launch; ///< before sealing: the hashes are added when written
  std::string source;

  explicit Entry(const fs::path &root)
      : results(root / "results"), dir(results / "best" / "test-device" / "jacobi2d_5pt" / "N=40,M=56") {
    test::UnsealedEntry entry = test::jacobi2dPlainEntry();
    source = std::move(entry.source);
    launch = std::move(entry.launch);
  }

  /// Writes the kernel file and launch.json (sealed unless `seal` is false).
  void write(bool seal = true) const {
    fs::create_directories(dir);
    writeFile(dir / "kernel.cl", source);
    writeFile(dir / "launch.json", (seal ? test::sealedLaunch(launch, source) : launch).dump(2));
  }
};

bool isOneLine(const std::string &output) {
  return output.rfind("liftc: error: ", 0) == 0 && output.find('\n') == output.size() - 1 && output.size() < 300;
}

/// `liftc args...` fails with `status` and one line holding every piece; nothing is written to `out`.
void expectRefused(const std::vector<std::string> &args, int status, const std::vector<std::string> &pieces,
                   const fs::path &out = {}) {
  test::LiftcRun run = liftc(args);
  CAPTURE(quoteArgs(args));
  CHECK_MESSAGE(run.status == status, run.output);
  CHECK_MESSAGE(isOneLine(run.output), run.output);
  for (const std::string &piece : pieces) CHECK_MESSAGE(run.output.find(piece) != std::string::npos, run.output);
  if (!out.empty()) CHECK_FALSE(fs::exists(out));
}

} // namespace

TEST_CASE("export/trust: an edited kernel file, argument list, element count or hash is refused by export and best") {
  TempDir tmp;
  fs::path out = tmp.path() / "out";
  Entry entry(tmp.path());
  entry.write();
  // As explore wrote it, the entry exports and lists.
  test::LiftcRun run = liftc({"export", entry.dir.string(), "--out", out.string()});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  REQUIRE(liftc({"best", entry.results.string()}).status == 0);
  fs::remove_all(out);

  struct Edit {
    const char *what;
    std::function<void(Entry &)> edit;
    bool reseal; ///< the hashes recomputed after the edit (they are not secret)
    std::string expected;
  };
  const std::string launchJson = (entry.dir / "launch.json").string();
  const std::vector<Edit> edits{
      {"kernel file edited", [](Entry &e) { e.source += "// edited\n"; }, false,
       launchJson + ": /kernelSourceHash: kernel.cl is not the kernel its launch.json was measured with"},
      {"argument count shrunk", [](Entry &e) { e.launch["kernel"]["args"][1]["count"] = "16"; }, false,
       launchJson + ": /kernelHash: "},
      {"argument dropped", [](Entry &e) { e.launch["kernel"]["args"].erase(0); }, true,
       launchJson + ": /kernel/args: not the parameters of kernel"},
      {"argument added",
       [](Entry &e) {
         e.launch["kernel"]["args"].push_back({{"name", "N"}, {"type", "int"}, {"role", "size"}});
       },
       true, launchJson + ": /kernel/args: not the parameters of kernel"},
      {"argument type changed", [](Entry &e) { e.launch["kernel"]["args"][0]["type"] = "double"; }, true,
       launchJson + ": /kernel/args: "},
      {"argument renamed", [](Entry &e) { e.launch["kernel"]["args"][0]["name"] = "B"; }, true,
       launchJson + ": /kernel/args: "},
      {"input made the output", [](Entry &e) { e.launch["kernel"]["args"][0]["role"] = "output"; }, true,
       launchJson + ": /kernel/args: "},
      {"work-group changed",
       [](Entry &e) {
         e.launch["configuration"]["local"] = {16, 4, 1};
       },
       false, launchJson + ": /kernelHash: "},
      {"NDRange changed", [](Entry &e) { e.launch["kernel"]["globalSize"][0] = "4"; }, false,
       launchJson + ": /kernelHash: "},
      {"kernel hash edited", [](Entry &e) { e.launch["kernelHash"] = "0123456789abcdef"; }, false,
       launchJson + ": /kernelHash: "},
  };
  for (const Edit &edit : edits) {
    CAPTURE(edit.what);
    Entry edited = entry;
    edit.edit(edited);
    // Not resealed: the hashes of the entry as it was (unless edited too).
    json original = test::sealedLaunch(entry.launch, entry.source);
    json launch = edit.reseal ? test::sealedLaunch(edited.launch, edited.source) : edited.launch;
    if (!edit.reseal)
      for (const char *hash : {"kernelSourceHash", "kernelHash"})
        if (!launch.contains(hash)) launch[hash] = original[hash];
    fs::create_directories(edited.dir);
    writeFile(edited.dir / "kernel.cl", edited.source);
    writeFile(edited.dir / "launch.json", launch.dump(2));
    expectRefused({"export", edited.dir.string(), "--out", out.string()}, 1, {edit.expected}, out);
    expectRefused({"best", edited.results.string()}, 1, {edit.expected});
  }

  // Export needs the hashes; best lists entries written before they existed.
  for (const char *hash : {"kernelSourceHash", "kernelHash"}) {
    CAPTURE(hash);
    json launch = test::sealedLaunch(entry.launch, entry.source);
    launch.erase(hash);
    writeFile(entry.dir / "kernel.cl", entry.source);
    writeFile(entry.dir / "launch.json", launch.dump(2));
    expectRefused({"export", entry.dir.string(), "--out", out.string()}, 1,
                  {launchJson + ": missing field '" + std::string(hash) + "'"}, out);
    CHECK(liftc({"best", entry.results.string()}).status == 0);
  }
}

TEST_CASE("export/trust: text from the directory cannot end, open or break the exported C's comments and literals") {
  TempDir tmp;
  Entry entry(tmp.path());
  // Every string export copies from the directory, with what would break C:
  // comment ends and starts, a newline, quotes, backslashes, a trigraph,
  // control characters and non-ASCII bytes.
  const std::string evil = "x */ int broken; /* \"q\" \\ ?\?/\nnext line\r\x01\x7f caf\xc3\xa9 //";
  entry.dir = tmp.path() / "entry ?\?/ */\n*"; // three directories, "*/" in the path
  entry.launch["device"] = "device " + evil;
  entry.launch["key"] = "key " + evil;
  entry.launch["measured"] = "measured " + evil;
  entry.launch["program"] = "program " + evil;
  entry.launch["sizes"] = "N=40,M=56,x */ y /*=3";
  entry.launch["strategy"] = "strategy " + evil;
  entry.write();
  fs::path out = tmp.path() / "out";
  test::LiftcRun run = liftc({"export", entry.dir.string(), "--out", out.string(), "--name", "evil"});
  REQUIRE_MESSAGE(run.status == 0, run.output);
  std::string header = readFile(out / "evil_opencl.h");
  CHECK(header.find(
            "Tuned on device x *\\/ int broken; /\\* \"q\" \\\\ ?\\?/\\nnext line\\015\\001\\177 caf\\303\\251 //") !=
        std::string::npos);
  CHECK(header.find("int broken; /*") == std::string::npos);
  if (test::cCompiler().empty()) return;
  test::ShellRun compiled =
      test::runShell(shellQuote(test::cCompiler()) + " " + test::strictCFlags() + " -c -o /dev/null -I" +
                     shellQuote(out.string()) + " " + shellQuote((out / "evil_opencl.c").string()));
  CHECK_MESSAGE(compiled.status == 0, compiled.output);
}

TEST_CASE("export/limits: iterate counts and work-groups beyond liftc's limits are refused in every verb") {
  TempDir tmp;
  // iterate 2^40 times: eval always refused it; compile and export now do
  // with the same line, before generating anything.
  fs::path program = tmp.path() / "iterate.json";
  writeFile(program, R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
  "userFuns": {"avg": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}, {"name": "c", "type": "float"}],
                       "returns": "float", "body": "return (a + b + c) / 3.0f;"}},
  "inputs": [{"name": "A", "type": "[float]N"}],
  "body": {"op": "iterate", "n": 1099511627776, "f": {"lambda": ["x"], "body": {"op": "mapGlb", "dim": 0, "f": {"lambda": ["w"], "body":
    {"apply": {"userFun": "avg"}, "args": [{"op": "at", "index": 0, "in": {"param": "w"}},
      {"op": "at", "index": 1, "in": {"param": "w"}}, {"op": "at", "index": 2, "in": {"param": "w"}}]}},
    "in": {"op": "slide", "size": 3, "step": 1, "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp", "in": {"param": "x"}}}}},
    "in": {"param": "A"}}})");
  fs::path out = tmp.path() / "out";
  test::LiftcRun eval = liftc({"eval", program.string(), "--size", "N=16"});
  CHECK(eval.status == 2);
  CHECK_MESSAGE(eval.output.find("iterate repeats more than 65536 times") != std::string::npos, eval.output);
  for (const std::vector<std::string> &args :
       std::vector<std::vector<std::string>>{{"compile", program.string()},
                                             {"compile", program.string(), "--size", "N=16"},
                                             {"export", program.string(), "--size", "N=16", "--out", out.string()}}) {
    CAPTURE(quoteArgs(args));
    test::LiftcRun run = liftc(args);
    CHECK(run.status == 2);
    CHECK(run.output == eval.output);
    CHECK_FALSE(fs::exists(out));
  }
  // A work-group product beyond kMaxWorkGroupItems, from --local.
  std::string jacobi = (test::sourceDir() / "examples/json/jacobi2d_5pt.json").string();
  expectRefused({"compile", jacobi, "--size", "N=64,M=64", "--opt", "local", "--local", "4096,4096"}, 2,
                {"--local 4096,4096: the work-group 4096x4096x1 has more than 8192 work-items"});

  // The same limits on a best-kernel entry, however well its hashes match:
  // 2^32 work-items (an unsigned int product of 0 in exported CUDA code), an
  // iteration count of 2^40.
  Entry entry(tmp.path());
  struct Case {
    std::function<void(json &)> edit;
    std::string expected;
  };
  const std::string launchJson = (entry.dir / "launch.json").string();
  for (const Case &c : std::vector<Case>{
           {[](json &l) {
              l["configuration"]["local"] = {65536, 65536, 1};
            },
            launchJson + ": /configuration/local: the work-group 65536x65536x1 has more than 8192 work-items"},
           {[](json &l) {
              l["configuration"]["local"] = {0, 0, 0};
              l["kernel"]["localSize"] = {4294967296, 1};
            },
            launchJson + ": /kernel/localSize: the work-group 4294967296x1x1 has more than 8192 work-items"},
           {[](json &l) {
              l["kernel"]["iterate"] = {{"count", "1099511627776"}, {"input", "A"}};
            },
            launchJson + ": /kernel/iterate/count: iterate repeats more than 65536 times"},
       }) {
    Entry edited = entry;
    c.edit(edited.launch);
    edited.write();
    expectRefused({"export", edited.dir.string(), "--out", out.string()}, 1, {c.expected}, out);
    expectRefused({"best", edited.results.string()}, 1, {c.expected});
  }
}

} // namespace liftcc
