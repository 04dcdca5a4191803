// What liftc writes is checked against the schemas shipped in docs/: the T4
// export of `liftc explore --t4` against docs/t4-results.schema.json, the
// best kernel's launch.json against docs/launch.schema.json (with Python's
// jsonschema, tests/validate_json.py); broken copies must fail.

#include "tests/explore_test_support.h"
#include "tests/iterated_program.h"
#include "tests/opencl_test_support.h"
#include "tests/shell_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <fstream>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::shellQuote;

/// validate_json.py SCHEMA DOCUMENT: its output; fails the test when Python
/// or jsonschema is missing (CI installs python3-jsonschema).
test::ShellRun validate(const std::string &schema, const fs::path &document) {
  fs::path script = test::sourceDir() / "tests" / "validate_json.py";
  test::ShellRun run =
      test::runShell("python3 " + shellQuote(script.string()) + " " +
                     shellQuote((test::sourceDir() / "docs" / schema).string()) + " " + shellQuote(document.string()));
  REQUIRE_MESSAGE(run.status != 3, run.output);
  REQUIRE_MESSAGE(run.status != 127, "python3 not found: " << run.output);
  return run;
}

/// The launch.json an exploration wrote under results/best (empty: none).
fs::path bestLaunchJson(const fs::path &results) {
  fs::path launch;
  for (const auto &entry : fs::recursive_directory_iterator(results / "best"))
    if (entry.path().filename() == "launch.json") launch = entry.path();
  return launch;
}

void writeJson(const fs::path &path, const nlohmann::json &json) { std::ofstream(path) << json.dump(2); }

} // namespace

TEST_CASE("schemas: a T4 export and a best-kernel launch.json validate, broken copies do not") {
  if (!ocl::test::testDevice()) return; // liftc explore needs a device to produce what is validated
  test::TempDir dir;
  fs::path results = dir.path() / "results", t4 = dir.path() / "t4.json";
  test::LiftcRun explored = test::runLiftc(test::quoteArgs(
      {"explore", (test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string(), "--size", "N=16,M=16",
       "--out", results.string(), "--evals", "3", "--runs", "1", "--t4", t4.string(), "--quiet"}));
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  fs::path launch = bestLaunchJson(results);
  REQUIRE(!launch.empty());

  test::ShellRun run = validate("t4-results.schema.json", t4);
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("valid: ") == 0);
  run = validate("launch.schema.json", launch);
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("valid: ") == 0);

  // The validator catches what the schemas forbid.
  nlohmann::json doc = nlohmann::json::parse(test::readFile(t4));
  doc["results"][0]["invalidity"] = "fast";
  doc["results"][1].erase("times");
  writeJson(dir.path() / "bad_t4.json", doc);
  run = validate("t4-results.schema.json", dir.path() / "bad_t4.json");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("/results/0/invalidity") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("'times' is a required property") != std::string::npos, run.output);

  doc = nlohmann::json::parse(test::readFile(launch));
  doc["configuration"]["recipe"] = "fastest";
  doc["kernel"]["args"][0].erase("count");
  doc.erase("liftcc");
  writeJson(dir.path() / "bad_launch.json", doc);
  run = validate("launch.schema.json", dir.path() / "bad_launch.json");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("/configuration/recipe") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("'count' is a required property") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("'liftcc' is a required property") != std::string::npos, run.output);
}

TEST_CASE("schemas: the launch.json of a multi-kernel best kernel validates, with the fused and time-tile fields") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  fs::path results = dir.path() / "results";
  // SRAD's two stages, separate kernels only: the best has stages and a temporary.
  test::LiftcRun explored = test::runLiftc(test::quoteArgs(
      {"explore", (test::sourceDir() / "examples" / "json" / "srad_two_stage.json").string(), "--size", "N=16,M=16",
       "--families", "plain", "--out", results.string(), "--evals", "3", "--runs", "1", "--quiet"}));
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  fs::path launch = bestLaunchJson(results);
  REQUIRE(!launch.empty());
  test::ShellRun run = validate("launch.schema.json", launch);
  CHECK_MESSAGE(run.status == 0, run.output);
  nlohmann::json doc = nlohmann::json::parse(test::readFile(launch));
  CHECK(doc["kernel"]["stages"].size() == 2);
  CHECK(doc["kernel"]["temporaries"].size() == 1);

  // What a fused or time-tiled winner adds (Configuration::toJson) validates;
  // a time tile of 1 (never written) and stages without temporaries do not.
  doc["configuration"]["fuse"] = true;
  doc["configuration"]["timeTile"] = 2;
  doc["why"]["modelledBytesPerOutput"] = 12.0;
  writeJson(dir.path() / "fused.json", doc);
  run = validate("launch.schema.json", dir.path() / "fused.json");
  CHECK_MESSAGE(run.status == 0, run.output);
  nlohmann::json bad = doc;
  bad["configuration"]["timeTile"] = 1;
  writeJson(dir.path() / "bad_time_tile.json", bad);
  run = validate("launch.schema.json", dir.path() / "bad_time_tile.json");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("/configuration/timeTile") != std::string::npos, run.output);
  bad = doc;
  bad["kernel"].erase("temporaries");
  writeJson(dir.path() / "bad_stages.json", bad);
  run = validate("launch.schema.json", dir.path() / "bad_stages.json");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("temporaries") != std::string::npos, run.output);
}

} // namespace liftcc

namespace liftcc {

TEST_CASE("schemas: the launch.json of an iterate over a tuple with stages before and after it validates "
          "(carriedFrom, prologueStages, epilogueStages, stateBuffers)") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  // A wave's displacement alone, starting at rest: get(0, iterate(n, (u, v) -> (f(u, v), u), (U, U))),
  // its state copied into buffers of its own before the loop, its second component carried over and its
  // first copied out once after the loop.
  std::string wave = test::waveTupleJson(3);
  wave.replace(wave.rfind(R"({"param": "V"})"), 14, R"({"param": "U"})");
  const std::string body = R"("body": )";
  const size_t at = wave.find(body) + body.size();
  std::ofstream(dir.path() / "wave.json")
      << (wave.substr(0, at) + R"({"op": "get", "index": 0, "in": )" + wave.substr(at, wave.size() - 1 - at) + "}}");
  fs::path results = dir.path() / "results";
  test::LiftcRun explored = test::runLiftc(
      test::quoteArgs({"explore", (dir.path() / "wave.json").string(), "--size", "N=16,M=12", "--families", "plain",
                       "--out", results.string(), "--evals", "2", "--runs", "1", "--quiet"}));
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  fs::path launch = bestLaunchJson(results);
  REQUIRE(!launch.empty());
  test::ShellRun run = validate("launch.schema.json", launch);
  CHECK_MESSAGE(run.status == 0, run.output);
  nlohmann::json doc = nlohmann::json::parse(test::readFile(launch));
  const nlohmann::json &iterate = doc["kernel"]["iterate"];
  CHECK(iterate["epilogueStages"] == 1);
  CHECK(iterate["prologueStages"] == 2);
  CHECK(iterate["inputs"].size() == 2);
  CHECK(iterate["stateBuffers"].size() == 2);
  CHECK(iterate["phases"][0].contains("carriedFrom"));
  // The stage's count without the buffers it reads is refused.
  nlohmann::json bad = doc;
  bad["kernel"]["iterate"].erase("stateBuffers");
  writeJson(dir.path() / "bad_epilogue.json", bad);
  run = validate("launch.schema.json", dir.path() / "bad_epilogue.json");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("stateBuffers") != std::string::npos, run.output);
}

} // namespace liftcc
