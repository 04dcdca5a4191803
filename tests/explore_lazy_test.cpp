// The lazily built exploration space (issue #35 item 7): describeSpace lowers
// the programs without generating their variants' kernels, buildCandidate
// generates one when a search picks it, and the explorer measures the first
// variant without building the rest. Tiny sizes and spaces.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/explorer.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <set>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;

explore::SpaceOptions smallSpace() {
  explore::SpaceOptions options;
  options.tileSizes = {4};
  options.groupExtents = {4, 16};
  options.coarsenFactors = {2};
  options.vectorWidths = {4};
  options.mappedRecipes = {rewrite::Recipe::Plain, rewrite::Recipe::Tiled};
  options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Relaxed};
  options.threads = 1;
  return options;
}

TEST_CASE("describeSpace: one kernel per program; its candidates built give enumerateSpace's variants") {
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), Sizes{{"N", 16}, {"M", 32}});
  explore::SpaceOptions options = smallSpace();
  explore::SpaceDescription description = explore::describeSpace(typed, {}, options);
  explore::Space space = explore::enumerateSpace(typed, {}, options);
  REQUIRE(description.programs.size() == space.distinctPrograms);
  CHECK(description.kernelsGenerated == description.programs.size());
  CHECK(description.candidates.size() > space.variants.size()); // twins that change nothing are among them
  CHECK(description.dropped == space.dropped);

  // Every candidate built and deduplicated in description order: the same
  // configurations with the same kernels as the enumeration, and the first
  // configuration of each kernel is the enumeration's.
  std::set<std::string> seen;
  std::set<std::pair<std::string, std::string>> built, enumerated;
  size_t skipped = 0;
  for (size_t i = 0; i < description.candidates.size(); ++i) {
    explore::BuiltCandidate candidate = explore::buildCandidate(description, i);
    if (!candidate.variant) {
      CHECK_FALSE(candidate.skipped.empty());
      ++skipped;
      continue;
    }
    if (seen.insert(explore::kernelIdentity(*candidate.variant)).second)
      built.insert({candidate.variant->configuration.key(), candidate.variant->kernel.source});
  }
  for (const explore::Variant &v : space.variants) enumerated.insert({v.configuration.key(), v.kernel.source});
  CHECK(skipped > 0);
  CHECK(built == enumerated);

  // The families count the same programs; candidates at least their kernels.
  REQUIRE(description.families.size() == space.families.size());
  for (size_t f = 0; f < space.families.size(); ++f) {
    CHECK(description.families[f].name == space.families[f].name);
    CHECK(description.families[f].programs == space.families[f].programs);
    CHECK(description.families[f].variants >= space.families[f].variants);
  }
}

TEST_CASE("NeighbourIndex: the lists neighbourLists gives") {
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), Sizes{{"N", 16}, {"M", 16}});
  explore::SpaceDescription description = explore::describeSpace(typed, {}, smallSpace());
  std::vector<explore::Configuration> configurations;
  for (const explore::Candidate &c : description.candidates) configurations.push_back(c.configuration);
  explore::NeighbourIndex index(configurations);
  std::vector<std::vector<size_t>> lists = explore::neighbourLists(configurations);
  for (size_t i = 0; i < configurations.size(); i += 7) CHECK(index.of(i) == lists[i]);
}

TEST_CASE("explore: the first measurement starts before the space is built; duplicates are skipped, uncharged") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  test::TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  explore::ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir.path());
  options.strategy = search::SearchStrategy::Exhaustive;
  options.budget.maxEvaluations = 3;
  options.timedRuns = 1;
  explore::ExploreResult result = explore::explore(program, Sizes{{"N", 16}, {"M", 16}}, backend, options);
  test::checkNoBugs(result);
  CHECK(result.evaluations.size() == result.baselinesEvaluated + 3); // the baselines come uncharged
  REQUIRE(result.firstCandidateSeconds);
  REQUIRE(result.firstMeasurementSeconds);
  CHECK(*result.firstCandidateSeconds >= result.describeSeconds);
  CHECK(*result.firstMeasurementSeconds >= *result.firstCandidateSeconds);
  // The baselines and three measured, a few skipped on the way (skips are not charged): far
  // fewer kernels than the space's candidates.
  CHECK(result.kernelsBuilt == result.baselinesEvaluated + 3 + result.duplicates + result.skipped);
  CHECK(result.kernelsBuilt < result.spaceSize / 4);
}

TEST_CASE("liftc explore --space describes the space without building it; --space --build builds it") {
  const std::string program =
      test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt.json") + " --size N=16,M=16";
  test::LiftcRun described = test::runLiftc("explore " + program + " --space --families plain,tiled --param wg=16");
  REQUIRE_MESSAGE(described.status == 0, described.output);
  CHECK_MESSAGE(described.output.find("kernels generated, one per low-level program") != std::string::npos,
                described.output);
  CHECK(described.output.find("described in") != std::string::npos);
  test::LiftcRun built = test::runLiftc("explore " + program + " --space --build --families plain,tiled --param wg=16");
  REQUIRE_MESSAGE(built.status == 0, built.output);
  CHECK(built.output.find("distinct kernels (source, build options and launch)") != std::string::npos);
  CHECK(built.output.find("enumerated in") != std::string::npos);
  test::LiftcRun alone = test::runLiftc("explore " + program + " --build");
  CHECK(alone.status == 2);
  CHECK_MESSAGE(alone.output.find("--build goes with --space") != std::string::npos, alone.output);
}

} // namespace
} // namespace liftcc
