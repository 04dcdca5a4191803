// The liftc driver, run as a separate process the way users and scripts run it.

#include "core/interp/value_io.h"
#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

namespace liftcc {
namespace {

using Run = test::LiftcRun;
using test::runLiftc;
std::string quote(const std::string &s) { return test::shellQuote(s); }
Run liftc(const std::string &args) { return runLiftc(args); }

std::filesystem::path tempFile(const std::string &name, const std::string &contents) {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("liftcc_cli_test_" + name);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

const char *kJacobi1d = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 1}],
  "userFuns": {"add3": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"},
                                   {"name": "c", "type": "float"}], "returns": "float", "body": "return a + b + c;"}},
  "inputs": [{"name": "A", "type": "[float]N"}],
  "body": {"op": "map", "f": {"lambda": ["w"], "body": {"apply": {"userFun": "add3"}, "args": [
             {"op": "at", "index": 0, "in": {"param": "w"}}, {"op": "at", "index": 1, "in": {"param": "w"}},
             {"op": "at", "index": 2, "in": {"param": "w"}}]}},
           "in": {"op": "slide", "size": 3, "step": 1,
                  "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp", "in": {"param": "A"}}}}})";

bool isOneErrorLine(const std::string &output) {
  return output.rfind("liftc: error: ", 0) == 0 && output.find('\n') == output.size() - 1;
}

} // namespace

TEST_CASE("liftc: help") {
  Run overview = liftc("--help");
  CHECK(overview.status == 0);
  CHECK(overview.output.find("check") != std::string::npos);
  CHECK(overview.output.find("eval") != std::string::npos);
  Run verbHelp = liftc("eval --help");
  CHECK(verbHelp.status == 0);
  CHECK(verbHelp.output.find("--input") != std::string::npos);
  CHECK(liftc("help check").output.find("usage: liftc check") != std::string::npos);
  CHECK(liftc("").status == 2);
}

TEST_CASE("liftc: check prints the typed program") {
  auto prog = tempFile("jacobi1d.json", kJacobi1d);
  Run run = liftc("check " + quote(prog.string()));
  CHECK(run.status == 0);
  CHECK_MESSAGE(run.output.find("-> [float]N") != std::string::npos, run.output);
  CHECK(run.output.find("slide(3, 1") != std::string::npos);
}

TEST_CASE("liftc: eval computes the stencil and writes raw binary") {
  auto prog = tempFile("jacobi1d.json", kJacobi1d);
  std::vector<float> a = {1, 2, 4, 8, 16};
  std::string bytes(reinterpret_cast<const char *>(a.data()), a.size() * sizeof(float));
  auto in = tempFile("a.bin", bytes);
  auto out = std::filesystem::temp_directory_path() / "liftcc_cli_test_out.bin";
  Run run = liftc("eval " + quote(prog.string()) + " --size N=5 --input A=" + quote(in.string()) + " --output " +
                  quote(out.string()) + " --print");
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("[4, 7, 14, 28, 40]") != std::string::npos);
  Value result = readBinaryValue(out.string(), array(f32(), arith::Expr::size("N")), {{"N", 5}});
  CHECK(result[4].scalar().asFloat() == 40.0f); // clamp: 8 + 16 + 16
}

TEST_CASE("liftc: bad input gives one error line and a non-zero exit") {
  auto prog = tempFile("jacobi1d.json", kJacobi1d);
  auto p = quote(prog.string());
  struct Case {
    std::string args;
    int status;
    std::string message;
  };
  std::vector<Case> cases = {
      {"frobnicate", 2, "unknown verb"},
      {"check", 2, "missing program file"},
      {"check /nonexistent/prog.json", 1, "cannot open"},
      {"check " + quote(tempFile("bad.json", "{\"liftcc\": 1,").string()), 1, "malformed JSON"},
      {"check " + quote(tempFile("badop.json", R"({"liftcc":1,"inputs":[],"body":{"op":"mop"}})").string()), 1,
       "/body/op: unknown primitive"},
      {"eval " + p, 2, "missing --size for N"},
      {"eval " + p + " --size N=0", 2, "size N expects an integer from 1 to"},
      {"eval " + p + " --size N=5,K=3", 2, "no size K"},
      {"eval " + p + " --size N=5 --input B=random", 2, "no input named B"},
      {"eval " + p + " --size N=5 --input A=" + quote(tempFile("short.bin", "abc").string()), 1, "has 3 bytes"},
      {"eval " + p + " --size N=5 --sizes N=5", 2, "unknown option '--sizes'"},
      {"eval " + p + " --size N=1000000000", 2, "reference interpreter accepts at most"},
  };
  for (const Case &c : cases) {
    CAPTURE(c.args);
    Run run = liftc(c.args);
    CHECK(run.status == c.status);
    CHECK_MESSAGE(isOneErrorLine(run.output), run.output);
    CHECK_MESSAGE(run.output.find(c.message) != std::string::npos, run.output);
  }
}

TEST_CASE("liftc: check and eval work on every example program") {
  for (const auto &path : test::exampleJsonFiles()) {
    CAPTURE(path);
    Run check = liftc("check " + quote(path.string()));
    CHECK_MESSAGE(check.status == 0, check.output);
    // Small sizes just above each declared minimum.
    std::string sizes;
    // Keep the document alive: a range-for over a subobject of a temporary dangles.
    nlohmann::json document = nlohmann::json::parse(test::readFile(path));
    for (const auto &s : document["sizes"]) {
      std::string name = s.is_string() ? s.get<std::string>() : s["name"].get<std::string>();
      int64_t minimum = s.is_object() && s.contains("min") ? s["min"].get<int64_t>() : 1;
      sizes += (sizes.empty() ? "" : ",") + name + "=" + std::to_string(minimum + 4);
    }
    Run eval = liftc("eval " + quote(path.string()) + " --size " + sizes);
    CHECK_MESSAGE(eval.status == 0, eval.output);
    CHECK(eval.output.rfind("result: ", 0) == 0);
  }
}

} // namespace liftcc

#include "tuner/cuda/driver_api.h"

namespace liftcc {

TEST_CASE("liftc: run --target cuda without a CUDA driver is a clear one-line error") {
  if (cuda::DriverApi::load().available()) {
    MESSAGE("a CUDA driver is present; the no-driver error path is not exercised here");
    return;
  }
  auto prog = tempFile("jacobi1d.json", kJacobi1d);
  Run run = liftc("run " + quote(prog.string()) + " --size N=16 --opt plain --target cuda");
  CHECK(run.status == 1);
  CHECK_MESSAGE(isOneErrorLine(run.output), run.output);
  CHECK(run.output.find("libcuda.so.1") != std::string::npos);
}

} // namespace liftcc
