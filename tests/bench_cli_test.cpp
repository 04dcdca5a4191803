// liftc bench, run as a process: every example has a hand-written reference
// kernel that agrees with the interpreter (the benchmark's own check), and the
// CSV names each of them ok; examples without a recorded best kernel are
// explored on the spot.

#include "bench/sizes.h"
#include "examples/example.h"
#include "explore/explorer.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_device.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace liftcc {
namespace {

using test::shellQuote;

/// The fields of one CSV line (quoted fields may hold commas).
std::vector<std::string> csvFields(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

/// The CSV rows of a bench run, split into fields.
std::vector<std::vector<std::string>> readCsv(const std::filesystem::path &path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(csvFields(line));
  return rows;
}

/// The status of every explored row of a bench CSV, in order.
std::vector<std::string> exploredStatuses(const std::filesystem::path &csv) {
  std::vector<std::string> statuses;
  for (const std::vector<std::string> &f : readCsv(csv)) // device,example,sizes,variant,status,...
    if (f.size() > 4 && f[3].starts_with("explored ")) statuses.push_back(f[4]);
  return statuses;
}

} // namespace

TEST_CASE("liftc bench: every example's hand-written kernel is verified and timed") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path csv = dir.path() / "bench.csv";
  test::LiftcRun run =
      test::runLiftc("bench --copy-mib 4 --sizes default --size-scale 0.02 --runs 1 --warmups 0 --explore 0 "
                     "--kernel-tuner off --quiet --csv " +
                     shellQuote(csv.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  std::set<std::string> handWrittenOk;
  for (const std::vector<std::string> &f : readCsv(csv)) // device,example,sizes,variant,status,...
    if (f.size() > 4 && f[3] == "hand-written" && f[4] == "ok") handWrittenOk.insert(f[1]);
  const std::string &output = run.output;
  for (const char *name :
       {"jacobi1d_3pt", "jacobi2d_5pt", "jacobi2d_9pt", "stencil2d", "gaussian", "gradient", "jacobi3d_7pt",
        "jacobi3d_13pt", "poisson", "heat", "hotspot2d", "hotspot3d", "srad1", "srad2", "acoustic"})
    CHECK_MESSAGE(handWrittenOk.count(name) == 1, name << " has no verified hand-written row:\n" << output);
}

TEST_CASE("liftc bench: an example without a recorded best is explored on the spot, then the store is reused") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path csv = dir.path() / "bench.csv";
  std::string command =
      "bench --copy-mib 4 --examples jacobi2d_5pt --sizes default --size-scale 0.02 --runs 1 --warmups 0 --explore 3 "
      "--kernel-tuner off --results " +
      shellQuote((dir.path() / "results").string()) + " --csv " + shellQuote(csv.string());
  for (int pass = 0; pass < 2; ++pass) {
    CAPTURE(pass);
    test::LiftcRun run = test::runLiftc(command);
    REQUIRE_MESSAGE(run.status == 0, run.output);
    // The first run explores; the second finds the best kernel it stored.
    CHECK((run.output.find("jacobi2d_5pt: exploring 3 variants (random)") != std::string::npos) == (pass == 0));
    CHECK((run.output.find("explored on the spot: 1 example(s) in ") != std::string::npos) == (pass == 0));
    CHECK(exploredStatuses(csv) == std::vector<std::string>{"ok"});
  }
}

TEST_CASE("liftc bench: --explore-budget bounds each on-the-spot exploration in time, with the chosen strategy") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  auto bench = [&](const std::string &examples, const std::string &exploration, const std::filesystem::path &csv) {
    return test::runLiftc("bench --copy-mib 4 --examples " + examples +
                          " --sizes default --size-scale 0.02 --runs 1 --warmups 0 " + exploration +
                          " --explore-search model --kernel-tuner off --results " +
                          shellQuote((dir.path() / csv.stem()).string()) + " --csv " + shellQuote(csv.string()));
  };
  // The budget alone: as many variants as fit (under the sanitizers and a
  // loaded machine maybe none, so only the log is asserted here).
  std::filesystem::path timed = dir.path() / "timed.csv";
  test::LiftcRun budgetOnly = bench("jacobi1d_3pt", "--explore-budget 1s", timed);
  REQUIRE_MESSAGE(budgetOnly.status == 0, budgetOnly.output);
  CHECK_MESSAGE(budgetOnly.output.find("jacobi1d_3pt: exploring variants (model) for at most 1 s") != std::string::npos,
                budgetOnly.output);
  // "jacobi1d_3pt: N evaluated", N a count.
  const std::string &log = budgetOnly.output;
  size_t at = log.find(" evaluated");
  REQUIRE(at != std::string::npos);
  size_t count = log.find_last_not_of("0123456789", at - 1) + 1;
  CHECK(count < at);
  CHECK(log.substr(0, count).ends_with("jacobi1d_3pt: "));
  // With --explore too, whichever ends first; a budget that the two
  // variants fit in, so each example has its explored row.
  std::filesystem::path csv = dir.path() / "bench.csv";
  test::LiftcRun run = bench("jacobi1d_3pt,jacobi2d_5pt", "--explore 2 --explore-budget 10m", csv);
  REQUIRE_MESSAGE(run.status == 0, run.output);
  for (const char *name : {"jacobi1d_3pt", "jacobi2d_5pt"}) {
    CAPTURE(name);
    CHECK_MESSAGE(run.output.find(std::string(name) + ": exploring 2 variants (model) for at most 600 s") !=
                      std::string::npos,
                  run.output);
    // --explore 2 counts the search's evaluations; the baselines come first, on top.
    CHECK_MESSAGE(run.output.find(std::string(name) + ": 2 evaluated after ") != std::string::npos, run.output);
  }
  CHECK(run.output.find("explored on the spot: 2 example(s) in ") != std::string::npos);
  CHECK(exploredStatuses(csv) == std::vector<std::string>{"ok", "ok"});
}

TEST_CASE("liftc bench: the on-the-spot exploration's options are checked before any measuring") {
  for (const char *options :
       {"--explore 0 --explore-budget 3m", "--explore 0 --explore-search model", "--explore 0 --explore-strategy model",
        "--explore-search sideways", "--explore-strategy sideways", "--explore-search model --explore-strategy model",
        "--explore-budget soon", "--explore-budget 0s"}) {
    CAPTURE(options);
    test::LiftcRun run = test::runLiftc(std::string("bench --examples jacobi1d_3pt ") + options);
    CHECK(run.status == 2);
    CHECK(run.output.find("--explore") != std::string::npos);
    CHECK(run.output.find("measuring") == std::string::npos);
  }
}

TEST_CASE("liftc bench: --min-time takes a duration or 0, checked before any measuring") {
  for (const char *options : {"--min-time soon", "--min-time -1", "--min-time 2h"}) {
    CAPTURE(options);
    test::LiftcRun run = test::runLiftc(std::string("bench --examples jacobi1d_3pt ") + options);
    CHECK(run.status == 2);
    CHECK(run.output.find("--min-time") != std::string::npos);
    CHECK(run.output.find("measuring") == std::string::npos);
  }
}

TEST_CASE("liftc bench: --rounds times every row in turn, each row's time the median of its round medians") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path json = dir.path() / "bench.json";
  test::LiftcRun run =
      test::runLiftc("bench --copy-mib 4 --examples jacobi1d_3pt --sizes default --size-scale 0.02 --runs 2 "
                     "--warmups 0 --explore 0 --kernel-tuner off --rounds 3 --json " +
                     shellQuote(json.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  // Interleaved: the last row of round 1 is timed before the first of round 2.
  const std::string &log = run.output;
  size_t roundOneEnds = log.rfind("(round 1 of 3)"), roundTwoStarts = log.find("(round 2 of 3)");
  REQUIRE(roundOneEnds != std::string::npos);
  REQUIRE(roundTwoStarts != std::string::npos);
  CHECK(roundOneEnds < roundTwoStarts);
  CHECK(log.find("(round 3 of 3)") != std::string::npos);

  std::ifstream in(json);
  nlohmann::json report = nlohmann::json::parse(in);
  CHECK(report["rounds"] == 3);
  size_t okRows = 0;
  for (const nlohmann::json &row : report["examples"][0]["rows"]) {
    if (row["status"] != "ok") continue;
    ++okRows;
    CAPTURE(row["variant"]);
    std::vector<double> rounds = row["roundMediansNs"].get<std::vector<double>>();
    REQUIRE(rounds.size() == 3);
    std::sort(rounds.begin(), rounds.end());
    CHECK(row["medianNs"].get<double>() == doctest::Approx(rounds[1]));
    // The roof is timed in every round with the rows; the fraction is the
    // median of the rounds' fractions, and never reported above 1.0.
    std::vector<double> fractions = row["vsRooflineRounds"].get<std::vector<double>>();
    CHECK(fractions.size() == 3);
    if (row.contains("vsRoofline")) {
      std::sort(fractions.begin(), fractions.end());
      CHECK(row["vsRoofline"].get<double>() == doctest::Approx(fractions[1]));
      CHECK(row["vsRoofline"].get<double>() <= 1.0);
    } else {
      CHECK(row.contains("roofProblem"));
    }
  }
  CHECK(okRows >= 3); // the recipes and the hand-written kernel at least
  CHECK(report["examples"][0]["roundRoofBytesPerSecond"].size() == 3);
  CHECK(log.find("timing the copy roof (round 3 of 3)") != std::string::npos);
}

TEST_CASE("liftc bench: --rounds is checked before any measuring") {
  for (const char *options : {"--rounds 0", "--rounds 101", "--rounds some"}) {
    CAPTURE(options);
    test::LiftcRun run = test::runLiftc(std::string("bench --examples jacobi1d_3pt ") + options);
    CHECK(run.status == 2);
    CHECK(run.output.find("--rounds") != std::string::npos);
    CHECK(run.output.find("measuring") == std::string::npos);
  }
}

TEST_CASE("liftc bench: a CUDA best of the same GPU does not stand in for the OpenCL one") {
  if (!ocl::test::testDevice()) return;
  // liftc's default device, whichever LIFTCC_OCL_DEVICE names.
  std::vector<ocl::DeviceInfo> devices = ocl::listDevices();
  // What `liftc explore --target cuda` files for a GPU whose OpenCL name is
  // the default device's: a kernel.cu entry under "cuda <name>".
  test::TempDir dir;
  const examples::Example &example = examples::findExample("jacobi2d_5pt");
  bench::Sizes sizes = bench::benchSizes(example, bench::SizePreset::Default, 0.02);
  std::string sizesKey = explore::sizesKey(example.build(), sizes);
  std::filesystem::path entry =
      dir.path() / "results" / "best" / explore::deviceSlug("cuda " + devices.front().name) / example.name / sizesKey;
  std::filesystem::create_directories(entry);
  std::ofstream(entry / "kernel.cu") << "extern \"C\" __global__ void liftcc_kernel() {}\n";
  std::ofstream(entry / "launch.json") << R"({"program": "jacobi2d_5pt", "sizes": ")" << sizesKey
                                       << R"(", "kernelFile": "kernel.cu"})";

  test::LiftcRun run =
      test::runLiftc("bench --copy-mib 4 --device 0 --examples jacobi2d_5pt --sizes default --size-scale 0.02 --runs 1 "
                     "--warmups 0 --explore 2 --kernel-tuner off --results " +
                     shellQuote((dir.path() / "results").string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK_MESSAGE(run.output.find("jacobi2d_5pt: exploring 2 variants (random)") != std::string::npos, run.output);
}

} // namespace liftcc
