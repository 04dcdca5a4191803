// Tuning that never loses (issue #36 items 1 and 2): the baselines measured
// before any search (search::SearchSpace::first, explore/baselines.h), the
// finalists timed again in interleaved rounds (explore/finalists.h), and the
// result store's records with rounds superseding earlier lines.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/baselines.h"
#include "explore/explorer.h"
#include "explore/finalists.h"
#include "explore/strategy_text.h"
#include "search/search.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <sstream>

#include <array>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using explore::Configuration;
using test::TempDir;
using Sizes = std::map<std::string, int64_t>;

search::Record okRecord(const std::string &key, double medianNs) {
  search::Record r;
  r.key = key;
  r.configuration = nlohmann::json::object();
  r.programHash = "0123456789abcdef";
  r.kernelHash = "fedcba9876543210";
  r.medianNs = medianNs;
  r.samplesNs = {uint64_t(medianNs)};
  r.timestamp = "2026-11-27T18:00:00Z";
  return r;
}

} // namespace

TEST_CASE("search/first: baselines come first, uncharged, and no strategy evaluates them again") {
  for (search::SearchStrategy strategy : {search::SearchStrategy::Exhaustive, search::SearchStrategy::Random,
                                          search::SearchStrategy::Annealing, search::SearchStrategy::Model}) {
    CAPTURE(search::strategyName(strategy));
    search::SearchSpace space;
    space.size = 40;
    space.neighbours = [](size_t i) { return std::vector<size_t>{(i + 1) % 40, (i + 39) % 40}; };
    space.features = [](size_t i) {
      return std::vector<std::string>{"f" + std::to_string(i % 4), "g" + std::to_string(i % 5)};
    };
    space.first = {7, 3, 33};
    std::vector<size_t> calls;
    search::CostFunction cost = [&](size_t i) -> std::optional<double> {
      calls.push_back(i);
      if (i == 3) return std::nullopt; // a failed baseline is still a point of the space
      return 1.0 + double(i);
    };
    search::SearchBudget budget;
    budget.maxEvaluations = 2;
    search::SearchResult result = search::runSearch(strategy, space, cost, budget, 5);
    // The three baselines, then the two charged evaluations.
    REQUIRE(calls.size() == 5);
    CHECK(std::vector<size_t>(calls.begin(), calls.begin() + 3) == space.first);
    CHECK(std::set<size_t>(calls.begin(), calls.end()).size() == calls.size());
    CHECK(result.evaluated == calls);
    REQUIRE(result.best);
    CHECK(result.bestCost <= 8.0); // never worse than the best baseline (index 7)
  }
  // The time budget (here `stop`) bounds them too.
  search::SearchSpace space;
  space.size = 10;
  space.first = {1, 2, 3};
  size_t calls = 0;
  search::SearchBudget budget;
  budget.stop = [&] { return calls >= 2; };
  search::runSearch(
      search::SearchStrategy::Exhaustive, space, [&](size_t) -> std::optional<double> { return double(++calls); },
      budget);
  CHECK(calls == 2);
}

TEST_CASE("explore/baselines: the plain default first, then one default per family; known strategies win") {
  Sizes sizes{{"N", 64}, {"M", 64}};
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), sizes);
  explore::SpaceOptions options;
  options.includeMapping = false;
  options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Relaxed};
  explore::SpaceDescription space = explore::describeSpace(typed, tuner::DeviceLimits{}, options);
  std::vector<size_t> baselines = explore::baselineCandidates(space, {});
  REQUIRE(!baselines.empty());
  CHECK(space.candidates[baselines[0]].configuration == Configuration{});
  CHECK(std::set<size_t>(baselines.begin(), baselines.end()).size() == baselines.size());
  // One per family of the space (plain's is the plain default itself).
  std::set<std::string> families;
  for (size_t i : baselines) {
    const Configuration &c = space.candidates[i].configuration;
    families.insert(explore::familyOf(c));
    CHECK(!c.specialise);
    CHECK(c.fastMath == codegen::FastMath::None);
  }
  CHECK(families.size() == space.families.size());
  CHECK(baselines.size() == space.families.size());
  for (size_t i : baselines) {
    const Configuration &c = space.candidates[i].configuration;
    if (c.recipe == rewrite::Recipe::Coarsened && c.vectorWidth == 0)
      CHECK(c.coarsen == std::array<int64_t, 3>{4, 1, 1});
    if (c.vectorWidth > 0) CHECK(c.vectorWidth == 4);
    if (c.recipe == rewrite::Recipe::Tiled) CHECK(c.tile == 8);
  }
  // A known strategy of a family replaces its default; malformed text and
  // strategies outside the space are no knowledge.
  Configuration knownCoarsened;
  for (const explore::Candidate &c : space.candidates)
    if (c.configuration.recipe == rewrite::Recipe::Coarsened && c.configuration.coarsen[1] == 2 &&
        c.configuration.vectorWidth == 0 && c.configuration.local != std::array<int64_t, 3>{0, 0, 0}) {
      knownCoarsened = c.configuration;
      break;
    }
  REQUIRE(knownCoarsened.recipe == rewrite::Recipe::Coarsened);
  std::vector<size_t> informed =
      explore::baselineCandidates(space, {"not a strategy ((", "coarsen(x=64) ; privateWindow ; mapGlb(x,y) ; wg(3,3)",
                                          explore::strategyText(knownCoarsened, 2)});
  CHECK(informed.size() == baselines.size());
  bool found = false;
  for (size_t i : informed) found = found || space.candidates[i].configuration == knownCoarsened;
  CHECK(found);
}

TEST_CASE("explore/baselines: a family default too large to build quickly gives way to the family's smallest program") {
  Sizes sizes{{"N", 64}, {"M", 64}};
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), sizes);
  explore::SpaceOptions options;
  options.includeMapping = false;
  const explore::SpaceDescription space = explore::describeSpace(typed, tuner::DeviceLimits{}, options);
  auto baselineProgram = [](const explore::SpaceDescription &d, const std::string &family) -> std::optional<size_t> {
    for (size_t i : explore::baselineCandidates(d, {}))
      if (explore::familyOf(d.candidates[i].configuration) == family) return d.candidates[i].program;
    return std::nullopt;
  };
  std::optional<size_t> coarsened = baselineProgram(space, "coarsened");
  REQUIRE(coarsened);
  CHECK(space.programs[*coarsened].configuration.coarsen == std::array<int64_t, 3>{4, 1, 1});
  // Its default kernel made too large: another coarsened program instead.
  explore::SpaceDescription inflated = space;
  inflated.programs[*coarsened].base.source.append(explore::kMaxBaselineSourceBytes, ' ');
  std::optional<size_t> instead = baselineProgram(inflated, "coarsened");
  REQUIRE(instead);
  CHECK(*instead != *coarsened);
  CHECK(inflated.programs[*instead].base.source.size() <= explore::kMaxBaselineSourceBytes);
  // Every coarsened program too large: no coarsened baseline (the search may
  // still pick one); the plain default stays first.
  for (explore::DescribedProgram &p : inflated.programs)
    if (explore::familyOf(p.configuration) == "coarsened") p.base.source.append(explore::kMaxBaselineSourceBytes, ' ');
  CHECK_FALSE(baselineProgram(inflated, "coarsened"));
  std::vector<size_t> baselines = explore::baselineCandidates(inflated, {});
  REQUIRE(!baselines.empty());
  CHECK(inflated.candidates[baselines[0]].configuration == Configuration{});
}

TEST_CASE("result store: roundsNs are validated, and a later line with rounds supersedes the earlier one") {
  search::Record timed = okRecord("plain", 2000);
  search::Record retimed = explore::retimedRecord(timed, {3000, 1000, 2500});
  CHECK(retimed.medianNs == 2500);
  CHECK(search::Record::fromJson(retimed.toJson()).roundsNs == std::vector<double>{3000, 1000, 2500});
  auto refused = [&](nlohmann::json rounds, const char *message) {
    nlohmann::json j = timed.toJson();
    j["roundsNs"] = rounds;
    CHECK_THROWS_WITH_AS(search::Record::fromJson(j), doctest::Contains(message), std::invalid_argument);
  };
  refused(nlohmann::json::array(), "non-empty array");
  refused(42, "non-empty array");
  refused({1000, -5}, "finite positive");
  refused({1000, 0}, "finite positive");
  refused({"1000"}, "finite positive");
  refused({std::numeric_limits<double>::infinity()}, "finite positive");
  nlohmann::json failed = timed.toJson();
  failed["outcome"] = "runtime";
  failed["error"] = "x";
  failed["roundsNs"] = {1000};
  CHECK_THROWS_WITH_AS(search::Record::fromJson(failed), doctest::Contains("not ok"), std::invalid_argument);

  TempDir dir;
  fs::path path = dir.path() / "store.jsonl";
  {
    search::ResultStore store(path.string());
    store.append(timed);
    // The same identity again without rounds is refused; with rounds it supersedes.
    CHECK_THROWS_AS(store.append(okRecord("plain", 1500)), InternalError);
    store.append(retimed);
    REQUIRE(store.records().size() == 1);
    CHECK(store.find(timed.identity())->roundsNs.size() == 3);
    // Rounds of a later run supersede earlier rounds.
    store.append(explore::retimedRecord(timed, {4000}));
    CHECK(store.find(timed.identity())->medianNs == 4000);
  }
  // Append-only: every line is still there, and reading keeps the last with rounds.
  std::ifstream lines(path);
  size_t count = 0;
  for (std::string line; std::getline(lines, line);) ++count;
  CHECK(count == 3);
  {
    // A later line without rounds (e.g. merged in) does not replace one with rounds.
    std::ofstream append(path, std::ios::app);
    append << okRecord("plain", 10).toJson().dump() << "\n";
  }
  search::ResultStore read(path.string(), search::ResultStore::Access::Read);
  REQUIRE(read.records().size() == 1);
  CHECK(read.records()[0].roundsNs == std::vector<double>{4000});
  CHECK(read.records()[0].medianNs == 4000);
}

TEST_CASE("explore/baselines: one evaluation of budget still measures the baselines, and the best is never slower "
          "than the plain default; the finalists are timed again in rounds; a resumed run reuses the baselines") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 64}, {"M", 64}};
  explore::ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir.path());
  options.strategy = search::SearchStrategy::Random;
  options.budget.maxEvaluations = 1;
  options.finalists = 2;
  options.finalistRounds = 3;
  options.measureRoof = true;
  explore::ExploreResult result = explore::explore(program, sizes, backend, options);
  test::checkNoBugs(result);
  CHECK(result.baselines >= 4);
  CHECK(result.baselinesEvaluated == result.baselines);
  CHECK(result.baselinesFromStore == 0);
  size_t measured = 0;
  for (const explore::Evaluation &e : result.evaluations) measured += !e.fromStore;
  CHECK(measured <= result.baselines + 1);
  REQUIRE(result.best);
  CHECK(result.finalistsRetimed >= 2);
  CHECK(result.finalistRounds == 3);
  CHECK(result.retimingSkipped.empty());

  search::ResultStore store(result.storePath, search::ResultStore::Access::Read);
  const search::Record *plain = nullptr;
  for (const search::Record &r : store.records())
    if (r.key == Configuration{}.key()) plain = &r;
  REQUIRE(plain);
  REQUIRE(plain->outcome == search::Outcome::Ok);
  // The plain default is always among the finalists: both were timed in the same rounds.
  CHECK(plain->roundsNs.size() == 3);
  const explore::Evaluation &best = result.evaluations[*result.best];
  const search::Record *stored = store.find(best.record.identity());
  REQUIRE(stored);
  CHECK(stored->roundsNs.size() == 3);
  CHECK(stored->medianNs == best.record.medianNs);
  CHECK(stored->medianNs <= plain->medianNs);
  // The roof was timed in the same rounds.
  REQUIRE(result.why);
  REQUIRE(result.why->roofInRounds);
  CHECK(result.why->roofInRounds->perRound.size() == 3);
  CHECK((result.why->fractionOfRoof().has_value() != result.why->roofProblem().has_value()));
  // The best-kernel directory carries the rounds.
  auto launch = nlohmann::json::parse(test::readFile(fs::path(result.bestKernelDir) / "launch.json"));
  CHECK(launch.at("roundsNs").size() == 3);

  // Resumed: the baselines are read from the store, not measured again.
  explore::ExploreResult resumed = explore::explore(program, sizes, backend, options);
  test::checkNoBugs(resumed);
  CHECK(resumed.baselinesEvaluated == resumed.baselines);
  CHECK(resumed.baselinesFromStore == resumed.baselines);
  size_t measuredAgain = 0;
  for (const explore::Evaluation &e : resumed.evaluations) measuredAgain += !e.fromStore;
  CHECK(measuredAgain <= 1);
}

TEST_CASE("explore/cli: --evals 1 states the baselines, --finalists re-times, liftc best shows the rounds") {
  if (!ocl::test::testDevice()) return;
  TempDir dir;
  fs::path results = dir.path() / "results";
  test::LiftcRun run = test::runLiftc(
      test::shellQuote("explore") + " " +
      test::shellQuote((test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string()) +
      " --size N=32,M=32 --runs 2 --quiet --evals 1 --no-roofline --families plain,coarsened --param wg=8,16"
      " --fast-math none --finalists 2 --finalist-rounds 3 --out " +
      test::shellQuote(results.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK_MESSAGE(run.output.find("baselines: 2 of 2 evaluated before the search") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("timed again in 3 interleaved round(s)") != std::string::npos, run.output);
  CHECK_MESSAGE(run.output.find("(median of 3 rounds, spread ") != std::string::npos, run.output);
  // The table ranks the finalists first: its first row is the winner, timed in 3 rounds.
  size_t header = run.output.find("rank variant");
  REQUIRE_MESSAGE(header != std::string::npos, run.output);
  std::istringstream rows(run.output.substr(header));
  std::string line, first;
  std::getline(rows, line);
  std::getline(rows, first);
  size_t bestAt = run.output.find("\nbest: ");
  REQUIRE(bestAt != std::string::npos);
  std::string bestKey = run.output.substr(bestAt + 7, run.output.find(',', bestAt) - bestAt - 7);
  CHECK_MESSAGE(first.find("1    " + bestKey + " ") == 0, first << "\nbest: " << bestKey);
  std::string trimmed = first.substr(0, first.find_last_not_of(' ') + 1);
  CHECK_MESSAGE((!trimmed.empty() && trimmed.back() == '3'), first); // its rounds column
  test::LiftcRun best = test::runLiftc("best " + test::shellQuote(results.string()));
  REQUIRE_MESSAGE(best.status == 0, best.output);
  CHECK_MESSAGE(best.output.find("// decided by 3 interleaved rounds of the finalists: median of rounds, spread ") !=
                    std::string::npos,
                best.output);
  test::LiftcRun bad = test::runLiftc("explore x.json --size N=4 --finalists many");
  CHECK(bad.status != 0);
  CHECK(bad.output.find("--finalists") != std::string::npos);
}

} // namespace liftcc
