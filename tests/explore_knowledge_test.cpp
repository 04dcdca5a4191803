// A results directory as a knowledge base (explore/knowledge.h, issue #36
// items 3 and 4): what other stores teach an exploration (known strategies,
// the model search's prior), the provenance every record carries, and that a
// record of another device is knowledge, never a timing. The stores are
// written by hand where no measurement is needed; the explorations on the
// OpenCL device are tiny (a handful of variants at 16x16 to 48x48).

#include "examples/example.h"
#include "explore/explorer.h"
#include "explore/knowledge.h"
#include "liftcc/version.h"
#include "search/search.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using explore::ExploreOptions;
using explore::ExploreResult;
using explore::KnowledgeSource;
using test::TempDir;
using Sizes = std::map<std::string, int64_t>;

search::Record okRecord(const explore::Configuration &c, double ns, const std::string &strategy,
                        const std::string &shape = "", const std::string &device = "") {
  search::Record r;
  r.key = c.key();
  r.configuration = c.toJson();
  r.medianNs = ns;
  r.samplesNs = {uint64_t(ns)};
  r.strategy = strategy;
  r.shape = shape;
  r.device = device;
  return r;
}

explore::Configuration plainWith(std::array<int64_t, 3> local) {
  explore::Configuration c;
  c.local = local;
  return c;
}

explore::Configuration coarsenedBy(int64_t k) {
  explore::Configuration c;
  c.recipe = rewrite::Recipe::Coarsened;
  c.coarsen = {k, 1, 1};
  return c;
}

/// A store file with these records, under resultsDir/device/program/name.
fs::path writeStore(const fs::path &resultsDir, const std::string &device, const std::string &program,
                    const std::string &name, const std::vector<search::Record> &records) {
  fs::path path = resultsDir / explore::deviceSlug(device) / program / name;
  search::ResultStore store(path.string());
  for (const search::Record &r : records) store.append(r);
  return path;
}

} // namespace

TEST_CASE("knowledge/provenance: device, driver, liftcc version and shape are written and read back; old records "
          "without them stay readable") {
  search::Record r = okRecord(plainWith({16, 1, 1}), 1000, "mapGlb(x,y) ; wg(16,1)", "in=[2]float", "dev A");
  r.driver = "OpenCL 3.0 PoCL 6.0 (driver 6.0)";
  r.liftccVersion = LIFTCC_VERSION_STRING;
  search::Record back = search::Record::fromJson(r.toJson());
  CHECK(back.device == "dev A");
  CHECK(back.driver == r.driver);
  CHECK(back.liftccVersion == LIFTCC_VERSION_STRING);
  CHECK(back.shape == "in=[2]float");
  nlohmann::json old = r.toJson();
  for (const char *field : {"device", "driver", "liftccVersion", "shape"}) old.erase(field);
  search::Record oldBack = search::Record::fromJson(old);
  CHECK(oldBack.device.empty());
  CHECK(oldBack.liftccVersion.empty());
  nlohmann::json wrong = r.toJson();
  wrong["device"] = 3;
  CHECK_THROWS_WITH_AS(search::Record::fromJson(wrong), doctest::Contains("\"device\" must be a string"),
                       std::invalid_argument);

  // The device is part of the identity: the same kernel measured on two
  // devices is two records of one store, and a lookup for a device finds its
  // own record or one that names none, never the other device's.
  TempDir dir;
  search::ResultStore store((dir.path() / "s.jsonl").string());
  search::Record other = r;
  other.device = "dev B";
  other.medianNs = 5000;
  store.append(r);
  store.append(other);
  CHECK(store.findMeasuredOn(r.key, "", "", "dev A")->medianNs == 1000);
  CHECK(store.findMeasuredOn(r.key, "", "", "dev B")->medianNs == 5000);
  CHECK(store.findMeasuredOn(r.key, "", "", "dev C") == nullptr);
  search::Record unnamed = r;
  unnamed.device.clear();
  unnamed.medianNs = 2000;
  store.append(unnamed);
  CHECK(store.findMeasuredOn(r.key, "", "", "dev C")->medianNs == 2000);
  CHECK(store.findMeasuredOn(r.key, "", "", "dev A")->medianNs == 1000);
}

TEST_CASE("knowledge/shape: stencils of one structure share a shape, others do not") {
  const std::string jacobi = explore::programShape(examples::findExample("jacobi2d_5pt").build());
  const std::string heat = explore::programShape(examples::findExample("heat").build());
  CAPTURE(jacobi);
  CAPTURE(heat);
  CHECK(jacobi.find("in=[2]float") == 0);
  CHECK(jacobi.find("pad=") != std::string::npos);
  CHECK(jacobi.find("slide=") != std::string::npos);
  CHECK(heat.find("in=[3]float") == 0);
  CHECK(jacobi != heat);
  CHECK(explore::programShape(examples::findExample("jacobi2d_5pt").build()) == jacobi);
}

TEST_CASE("knowledge: other sizes, other devices and programs of the same shape are read; the rest is left out") {
  TempDir dir;
  const fs::path results = dir.path();
  const std::string shape = "in=[2]float pad=1:1:clamp slide=3:1";
  // Other size, this device: plain 16x1 wins, coarsened 2x slower.
  fs::path otherSize = writeStore(results, "Dev A", "jac", "N=32,M=32.jsonl",
                                  {okRecord(plainWith({16, 1, 1}), 100, "mapGlb(x,y) ; wg(16,1,1)", shape),
                                   okRecord(plainWith({8, 1, 1}), 150, "mapGlb(x,y) ; wg(8,1,1)", shape),
                                   okRecord(coarsenedBy(2), 200, "coarsen(x=2) ; privateWindow ; mapGlb(x,y)", shape)});
  // The same program on another device: coarsened wins there.
  writeStore(results, "Dev B", "jac", "N=64,M=64.jsonl",
             {okRecord(coarsenedBy(4), 10, "coarsen(x=4) ; privateWindow ; mapGlb(x,y)", shape),
              okRecord(plainWith({8, 1, 1}), 30, "mapGlb(x,y) ; wg(8,1,1)", shape)});
  // Another program of the same shape, and one of another shape.
  writeStore(results, "Dev A", "box", "N=64,M=64.jsonl",
             {okRecord(plainWith({32, 1, 1}), 50, "mapGlb(x,y) ; wg(32,1,1)", shape)});
  writeStore(results, "Dev A", "heat", "N=8.jsonl",
             {okRecord(plainWith({4, 4, 4}), 50, "mapGlb(x,y,z) ; wg(4,4,4)", "in=[3]float")});
  // Another program stored under this name (another shape), and an unreadable store.
  writeStore(results, "Dev A", "jac", "N=8,M=8.jsonl",
             {okRecord(plainWith({2, 1, 1}), 1, "mapGlb(x,y) ; wg(2,1,1)", "in=[1]float")});
  {
    std::ofstream broken(results / "dev-a" / "jac" / "N=9,M=9.jsonl");
    broken << "{not json\n{\"key\":\"x\"}\n";
  }
  // This exploration's own store is never knowledge.
  fs::path own = writeStore(results, "Dev A", "jac", "N=48,M=48.jsonl",
                            {okRecord(plainWith({64, 1, 1}), 1, "mapGlb(x,y) ; wg(64,1,1)", shape)});

  explore::Knowledge k = explore::gatherKnowledge({results.string(), "jac", shape, "Dev A", own.string()});
  CHECK(k.storesRead.size() == 3);
  REQUIRE(k.strategies.size() >= 4);
  // Each store's best first (relative 1), the closest source first among equals.
  CHECK(k.strategies[0].relativeTime == 1);
  CHECK(k.strategies[0].source == KnowledgeSource::OtherSize);
  CHECK(k.strategies[0].strategy == "mapGlb(x,y) ; wg(16,1,1)");
  CHECK(k.strategies[0].store == otherSize.string());
  CHECK(k.strategies[1].source == KnowledgeSource::OtherDevice);
  CHECK(k.strategies[1].family == "coarsened");
  CHECK(k.strategies[2].source == KnowledgeSource::SameShape);
  for (size_t i = 1; i < k.strategies.size(); ++i)
    CHECK(k.strategies[i - 1].relativeTime <= k.strategies[i].relativeTime);
  for (const explore::KnownStrategy &s : k.strategies) {
    CHECK(s.strategy != "mapGlb(x,y,z) ; wg(4,4,4)"); // another shape
    CHECK(s.strategy != "mapGlb(x,y) ; wg(2,1,1)");   // another program under this name
    CHECK(s.strategy != "mapGlb(x,y) ; wg(64,1,1)");  // the own store
  }
  // One family best per store: plain 8x1 is not plain's best in the other-size store.
  size_t plainFromOtherSize = 0;
  for (const explore::KnownStrategy &s : k.strategies)
    plainFromOtherSize += s.source == KnowledgeSource::OtherSize && s.family == "plain";
  CHECK(plainFromOtherSize == 1);
  // Every Ok record of the stores read is a prior observation, relative to its store's best.
  CHECK(k.prior.size() == 6);
  size_t atOneAndAHalf = 0; // plain 8x1 at 150 ns where the best took 100
  for (const search::PriorObservation &o : k.prior) atOneAndAHalf += std::abs(o.relativeCost - 1.5) < 1e-9;
  CHECK(atOneAndAHalf == 1);
  bool brokenNoted = false, otherProgramNoted = false;
  for (const std::string &note : k.notes) {
    brokenNoted |= note.find("N=9,M=9.jsonl") != std::string::npos;
    otherProgramNoted |=
        note.find("N=8,M=8.jsonl") != std::string::npos && note.find("another program") != std::string::npos;
  }
  CHECK(brokenNoted);
  CHECK(otherProgramNoted);
}

namespace {

/// The model tests' space: 20 x 20 configurations, features a=i/20, b=i%20.
search::SearchSpace gridSpace() {
  search::SearchSpace space;
  space.size = 400;
  space.features = [](size_t i) {
    return std::vector<std::string>{"a=" + std::to_string(i / 20), "b=" + std::to_string(i % 20)};
  };
  return space;
}

/// A bowl over the grid with its minimum at (a, b).
double bowl(size_t i, double a, double b) {
  return 1.0 + std::pow(double(i / 20) - a, 2) + std::pow(double(i % 20) - b, 2);
}

/// The cost of the model tests' landscape: minimal at (13, 7).
double gridCost(size_t i) { return bowl(i, 13, 7); }

/// Evaluations the model search of `space` takes to measure the optimum (13, 7).
size_t evaluationsToOptimum(const search::SearchSpace &space, uint64_t seed) {
  size_t count = 0, found = 0;
  search::SearchBudget budget;
  budget.stop = [&] { return found != 0; };
  search::runSearch(
      search::SearchStrategy::Model, space,
      [&](size_t i) -> std::optional<double> {
        ++count;
        if (i == 13 * 20 + 7) found = count;
        return gridCost(i);
      },
      budget, seed);
  return found;
}

} // namespace

TEST_CASE("knowledge/model: a prior pointing at the optimum finds it sooner than a cold start") {
  // 20 x 20 configurations, cost minimal at (13, 7); the prior is the same
  // landscape measured elsewhere (scaled: only relative costs matter).
  search::SearchSpace space = gridSpace();
  search::SearchSpace warm = space;
  for (size_t i = 0; i < 400; i += 3) warm.prior.push_back({space.features(i), gridCost(i)});
  size_t coldTotal = 0, warmTotal = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    coldTotal += evaluationsToOptimum(space, seed);
    size_t w = evaluationsToOptimum(warm, seed);
    CHECK(w > 0);
    CHECK(w <= 12);
    warmTotal += w;
  }
  CHECK(warmTotal < coldTotal);
}

TEST_CASE("knowledge/model: a prior that the measurements contradict stops steering the search") {
  // The same 20 x 20 space, cost minimal at (13, 7); the prior is a landscape
  // measured elsewhere whose minimum lies at the opposite corner (another
  // size, where other values win). Trusted as it was fitted, it would keep
  // the search near (6, 12); judged against the first measurements, it fades
  // (search_model.cpp, priorTrust), and the search finds the optimum
  // about as soon as a cold one.
  search::SearchSpace space = gridSpace();
  search::SearchSpace warm = space;
  for (size_t i = 0; i < 400; i += 3) warm.prior.push_back({space.features(i), bowl(i, 6, 12)});
  size_t coldTotal = 0, warmTotal = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    coldTotal += evaluationsToOptimum(space, seed);
    warmTotal += evaluationsToOptimum(warm, seed);
  }
  MESSAGE("to the optimum over 10 seeds: cold " << coldTotal << ", misled warm " << warmTotal);
  CHECK(10 * warmTotal <= 13 * coldTotal); // (trusted as fitted: 974 vs 540)
}

TEST_CASE("knowledge/explore: an exploration learns from a store of another size, and records its provenance") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir.path());
  options.budget.maxEvaluations = 3;
  ExploreResult small = explore::explore(program, {{"N", 32}, {"M", 32}}, backend, options);
  test::checkNoBugs(small);
  REQUIRE(small.best);
  CHECK(small.knownStrategies.empty()); // nothing else in the directory yet
  CHECK(small.knowledgeStores.empty());
  size_t ok = 0;
  const search::ResultStore smallStore(small.storePath, search::ResultStore::Access::Read);
  for (const search::Record &r : smallStore.records()) {
    CHECK(r.device == backend.resultsName());
    CHECK(!r.driver.empty());
    CHECK(r.liftccVersion == LIFTCC_VERSION_STRING);
    CHECK(r.shape == explore::programShape(program));
    ok += r.outcome == search::Outcome::Ok;
  }

  options.strategy = search::SearchStrategy::Model;
  options.budget.maxEvaluations = 2;
  ExploreResult larger = explore::explore(program, {{"N", 48}, {"M", 48}}, backend, options);
  test::checkNoBugs(larger);
  CHECK(test::fromStoreCount(larger) == 0); // knowledge, never a timing
  REQUIRE(larger.knowledgeStores.size() == 1);
  CHECK(larger.knowledgeStores[0] == small.storePath);
  REQUIRE(!larger.knownStrategies.empty());
  CHECK(larger.knownStrategies[0].strategy == small.evaluations[*small.best].record.strategy);
  CHECK(larger.knownStrategies[0].source == KnowledgeSource::OtherSize);
  CHECK(larger.prior.size() == ok);
  CHECK(larger.priorObservationsUsed == ok);

  // Off: cold.
  options.useKnowledge = false;
  ExploreResult cold = explore::explore(program, {{"N", 40}, {"M", 40}}, backend, options);
  CHECK(cold.knownStrategies.empty());
  CHECK(cold.priorObservationsUsed == 0);
}

TEST_CASE("knowledge/explore: a record of another device in the store is never reused as a timing") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  const Sizes sizes{{"N", 16}, {"M", 16}};
  ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir.path());
  options.budget.maxEvaluations = 2;
  options.finalists = 0; // one record per evaluation: the counts below are exact
  ExploreResult first = explore::explore(program, sizes, backend, options);
  const size_t n = first.evaluations.size(); // the baselines (uncharged) and two more
  REQUIRE(n == first.baselinesEvaluated + 2);

  // The same records as if measured on another device (a store copied from
  // another machine), and as if written before records named their device.
  std::vector<search::Record> records =
      search::ResultStore(first.storePath, search::ResultStore::Access::Read).records();
  auto rewrite = [&](const std::string &deviceName) {
    fs::remove(first.storePath);
    search::ResultStore store(first.storePath);
    for (search::Record r : records) {
      r.device = deviceName;
      store.append(r);
    }
  };
  rewrite("another machine's GPU");
  ExploreResult foreign = explore::explore(program, sizes, backend, options);
  test::checkNoBugs(foreign);
  REQUIRE(foreign.evaluations.size() == n);
  CHECK(test::fromStoreCount(foreign) == 0);
  for (size_t i = 0; i < n; ++i) {
    CHECK(foreign.evaluations[i].record.key == first.evaluations[i].record.key);
    CHECK(foreign.evaluations[i].record.device == backend.resultsName());
  }
  CHECK(search::ResultStore(first.storePath, search::ResultStore::Access::Read).records().size() == 2 * n);

  rewrite("");
  ExploreResult old = explore::explore(program, sizes, backend, options);
  CHECK(test::fromStoreCount(old) == n); // records without a device lie in this device's directory: reused
}

TEST_CASE("knowledge/cli: liftc explore reports the knowledge it used; --no-knowledge starts cold") {
  if (!ocl::test::testDevice()) return;
  TempDir dir;
  auto explore = [&](const std::string &size, const std::string &extra) {
    return test::runLiftc("explore " +
                          test::shellQuote((test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string()) +
                          " --size " + size + " --out " + test::shellQuote(dir.path().string()) +
                          " --runs 1 --evals 1 --quiet --no-roofline --search model --families plain " + extra);
  };
  test::LiftcRun first = explore("N=16,M=16", "");
  REQUIRE_MESSAGE(first.status == 0, first.output);
  CHECK(first.output.find("knowledge:") == std::string::npos);
  test::LiftcRun second = explore("N=24,M=24", "");
  REQUIRE_MESSAGE(second.status == 0, second.output);
  CHECK_MESSAGE(second.output.find("knowledge: 1 other store(s)") != std::string::npos, second.output);
  CHECK_MESSAGE(second.output.find("prior observations for the model search") != std::string::npos, second.output);
  test::LiftcRun cold = explore("N=20,M=20", "--no-knowledge");
  REQUIRE_MESSAGE(cold.status == 0, cold.output);
  CHECK_MESSAGE(cold.output.find("knowledge:") == std::string::npos, cold.output);
}

} // namespace liftcc
