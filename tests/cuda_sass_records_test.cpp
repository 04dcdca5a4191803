// SASS figures with every CUDA record (issue #33 items 4 and 5): the record
// and launch.json round trip and validation, the occupancy arithmetic that
// drops variants, `liftc best` printing them, and `liftc explore --target
// cuda --prepare-only`, which prepares variants without a GPU and writes
// nothing.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/best_kernels.h"
#include "explore/sass_check.h"
#include "explore/variant_evaluation.h"
#include "search/result_store.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/shell_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/cuda/sass_figures.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::shellQuote;

tuner::SassSummary figures() {
  tuner::SassSummary s;
  s.arch = "sm_90";
  s.registers = 40;
  s.spillStoreBytes = 0;
  s.spillLoadBytes = 0;
  s.sharedBytes = 4096;
  s.barriers = 1;
  s.stackBytes = 8;
  return s;
}

search::Record cudaRecord() {
  search::Record r;
  r.key = "plain";
  r.configuration = nlohmann::json::object();
  r.outcome = search::Outcome::Runtime;
  r.error = "no GPU";
  r.sass = figures();
  return r;
}

} // namespace

TEST_CASE("records: SASS figures round-trip, are validated, and old records have none") {
  search::Record r = cudaRecord();
  nlohmann::json j = r.toJson();
  CHECK(j["sass"]["registers"] == 40);
  // Through text, as a store reads it.
  search::Record back = search::Record::fromJson(nlohmann::json::parse(j.dump()));
  REQUIRE(back.sass);
  CHECK(*back.sass == figures());
  CHECK(search::Record::fromJson(j).sass == figures());

  j.erase("sass"); // written before the figures existed
  CHECK(!search::Record::fromJson(j).sass);

  auto refused = [&](const std::string &field, const nlohmann::json &value) {
    nlohmann::json bad = r.toJson();
    bad["sass"][field] = value;
    return bad;
  };
  CHECK_THROWS_WITH(search::Record::fromJson(refused("registers", -1)),
                    "sass.registers must be a non-negative integer, found -1");
  CHECK_THROWS_WITH(search::Record::fromJson(refused("spillStoreBytes", 1.5)),
                    doctest::Contains("sass.spillStoreBytes must be a non-negative integer"));
  CHECK_THROWS_WITH(search::Record::fromJson(refused("barriers", "2")),
                    doctest::Contains("sass.barriers must be a non-negative integer"));
  CHECK_THROWS_WITH(search::Record::fromJson(refused("arch", "")), doctest::Contains("sass.arch must be"));
  nlohmann::json missing = r.toJson();
  missing["sass"].erase("stackBytes");
  CHECK_THROWS_WITH(search::Record::fromJson(missing), "sass.stackBytes is missing");
  nlohmann::json notObject = r.toJson();
  notObject["sass"] = 3;
  CHECK_THROWS_WITH(search::Record::fromJson(notObject), doctest::Contains("sass must be an object"));
}

TEST_CASE(
    "records: a kernel's figures are the largest over its entry functions (the stages of a multi-kernel program)") {
  const char *report = "ptxas info    : Compiling entry function 'stage0' for 'sm_90'\n"
                       "ptxas info    : Function properties for stage0\n"
                       "    8 bytes stack frame, 4 bytes spill stores, 0 bytes spill loads\n"
                       "ptxas info    : Used 40 registers, used 0 barriers, 8 bytes cumulative stack size\n"
                       "ptxas info    : Compiling entry function 'stage1' for 'sm_90'\n"
                       "ptxas info    : Function properties for stage1\n"
                       "    0 bytes stack frame, 0 bytes spill stores, 12 bytes spill loads\n"
                       "ptxas info    : Used 24 registers, used 1 barriers, 2048 bytes smem\n";
  std::optional<tuner::SassSummary> s = cuda::summarize(cuda::parsePtxasReport(report));
  REQUIRE(s);
  CHECK(s->arch == "sm_90");
  CHECK(s->registers == 40);
  CHECK(s->spillStoreBytes == 4);
  CHECK(s->spillLoadBytes == 12);
  CHECK(s->sharedBytes == 2048);
  CHECK(s->barriers == 1);
  CHECK(s->stackBytes == 8);
  CHECK(!cuda::summarize({}));
}

TEST_CASE("sass check: work-groups per SM by threads, registers and shared memory, and the reasons given") {
  tuner::SassSummary s;
  s.arch = "sm_90";
  s.registers = 32;
  CHECK(explore::residentGroups(s, 256) == 8);  // 2048 threads
  CHECK(explore::residentGroups(s, 1024) == 2); // 2048 threads
  CHECK(explore::residentGroups(s, 32) == 32);  // 32 groups at most
  s.registers = 64;
  CHECK(explore::residentGroups(s, 256) == 4); // 65536 / (64 x 256)
  s.registers = 33;                            // allocated as 40 per thread (256 per warp)
  CHECK(explore::residentGroups(s, 512) == 3);
  s.registers = 255;
  CHECK(explore::residentGroups(s, 1024) == 0); // cannot be launched
  s.registers = 16;
  s.sharedBytes = 100 * 1024; // plus 1 KB reserved: 2 fit in 228 KB
  CHECK(explore::residentGroups(s, 128) == 2);
  s.arch = "sm_80"; // 164 KB
  CHECK(explore::residentGroups(s, 128) == 1);
  s.arch = "sm_100"; // not in the table: sm_90's SM
  CHECK(explore::residentGroups(s, 128) == 2);

  explore::SassRequirements requirements;
  s = figures();
  CHECK(!explore::sassRejection(s, 256, requirements));
  s.spillStoreBytes = 24;
  s.spillLoadBytes = 16;
  CHECK(explore::sassRejection(s, 256, requirements) ==
        "spills 24 bytes (sm_90: 24 B spill stores, 16 B spill loads per thread)");
  requirements.dropSpills = false;
  CHECK(!explore::sassRejection(s, 256, requirements));
  s.registers = 128;
  CHECK(explore::sassRejection(s, 512, requirements) ==
        "1 work-group of 512 threads fits per SM, fewer than 2 (sm_90: 128 registers, 4096 B shared per group)");
  requirements.minGroupsPerSm = 0;
  CHECK(!explore::sassRejection(s, 512, requirements));
}

TEST_CASE("best kernels: launch.json carries the record's SASS figures, liftc best prints them, bad ones are refused") {
  test::TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  std::map<std::string, int64_t> sizes{{"N", 32}, {"M", 32}};
  explore::Variant variant =
      explore::makeVariant(typeCheck(program, sizes), explore::Configuration{}, codegen::Target::CUDA);
  search::Record record = explore::recordIdentity(program, variant, sizes);
  record.outcome = search::Outcome::Ok;
  record.medianNs = 1000;
  record.samplesNs = {1000};
  record.sass = figures();
  std::string entry = explore::writeBestKernel(dir.path().string(), "cuda test gpu", "jacobi2d_5pt", "N=32,M=32",
                                               variant, record, 1024);
  explore::BestKernel best = explore::readBestKernel(entry);
  CHECK(best.kernelFile == "kernel.cu");
  CHECK(tuner::SassSummary::fromJson(best.launch.at("sass")) == figures());

  test::ShellRun schema = test::runShell(
      "python3 " + shellQuote((test::sourceDir() / "tests/validate_json.py").string()) + " " +
      shellQuote((test::sourceDir() / "docs/launch.schema.json").string()) + " " + shellQuote(entry + "/launch.json"));
  CHECK_MESSAGE(schema.status == 0, schema.output);

  test::LiftcRun shown = test::runLiftc("best " + shellQuote(dir.path().string()));
  CAPTURE(shown.output);
  CHECK(shown.status == 0);
  CHECK(shown.output.find("// SASS sm_90: 40 registers, no spills, 4096 B shared, 1 barriers, 8 B stack\n") !=
        std::string::npos);

  // A doctored entry is one line naming the file and the field.
  nlohmann::json doctored = best.launch;
  doctored["sass"]["registers"] = -3;
  std::ofstream(entry + "/launch.json") << doctored.dump(2);
  CHECK_THROWS_WITH(explore::readBestKernel(entry),
                    doctest::Contains("launch.json: /sass: sass.registers must be a non-negative integer, found -3"));
}

TEST_CASE("liftc explore --target cuda --prepare-only: prepares without a GPU, reports the rate and figures, writes "
          "nothing") {
  if (!cuda::nvrtcAvailable()) return;
  test::TempDir dir;
  fs::path out = dir.path() / "results";
  std::string program = shellQuote((test::sourceDir() / "examples/json/jacobi2d_5pt.json").string());
  test::LiftcRun run = test::runLiftc("explore " + program +
                                      " --size N=64,M=64 --target cuda --prepare-only --evals 4 --prepare-threads 2 "
                                      "--fast-math none --out " +
                                      shellQuote(out.string()));
  CAPTURE(run.output);
  REQUIRE(run.status == 0);
  CHECK(run.output.find("on compile-only CUDA device sm_90; nothing is run or written") != std::string::npos);
  CHECK(run.output.find("prepared: 4 variants in ") != std::string::npos);
  CHECK(run.output.find("on 2 worker threads") != std::string::npos);
  CHECK(run.output.find("SASS (sm_90) of ") != std::string::npos);
  CHECK(run.output.find("dropped by their SASS figures: ") != std::string::npos);
  CHECK(run.output.find(" per second per worker thread, ") != std::string::npos);
  CHECK(run.output.find("an 8-minute GPU run on 16 cores") != std::string::npos);
  CHECK(!fs::exists(out)); // no store, no best kernel

  test::LiftcRun opencl = test::runLiftc("explore " + program + " --size N=64,M=64 --prepare-only");
  CHECK(opencl.status == 2);
  CHECK(opencl.output.find("--prepare-only needs --target cuda") != std::string::npos);
  test::LiftcRun t4 =
      test::runLiftc("explore " + program + " --size N=64,M=64 --target cuda --prepare-only --t4 x.json");
  CHECK(t4.status == 2);
  CHECK(t4.output.find("--t4 does not apply") != std::string::npos);
}

} // namespace liftcc
