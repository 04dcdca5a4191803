// Search strategies on synthetic cost tables: no device, no compiler, so the
// properties (budget, no repeated evaluation, optimum found) are checked
// exactly and fast.

#include "search/search.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <thread>

namespace liftcc {
namespace {

using search::CostFunction;
using search::SearchBudget;
using search::SearchResult;
using search::SearchSpace;
using search::SearchStrategy;

/// A grid of width x height configurations; like explore::areNeighbours, two
/// points are neighbours when they differ in exactly one parameter.
struct Grid {
  size_t width, height;
  std::vector<std::optional<double>> costs;

  SearchSpace space() const {
    SearchSpace space;
    space.size = costs.size();
    space.neighbours = [w = width, h = height](size_t i) {
      std::vector<size_t> out;
      size_t x = i % w, y = i / w;
      for (size_t x2 = 0; x2 < w; ++x2)
        if (x2 != x) out.push_back(y * w + x2);
      for (size_t y2 = 0; y2 < h; ++y2)
        if (y2 != y) out.push_back(y2 * w + x);
      return out;
    };
    return space;
  }
  size_t optimum() const {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < costs.size(); ++i)
      if (costs[i] && (best == SIZE_MAX || *costs[i] < *costs[best])) best = i;
    return best;
  }
};

/// A smooth bowl with its minimum at (bx, by); every `invalidEvery`-th point
/// is invalid (a variant that fails to compile or run), never the minimum.
Grid bowl(size_t width, size_t height, size_t bx, size_t by, size_t invalidEvery = 0) {
  Grid g{width, height, {}};
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      size_t i = y * width + x;
      double dx = double(x) - double(bx), dy = double(y) - double(by);
      bool invalid = invalidEvery && i % invalidEvery == 0 && !(x == bx && y == by);
      g.costs.push_back(invalid ? std::nullopt : std::optional<double>(1000 + 1000 * (dx * dx + dy * dy)));
    }
  return g;
}

/// Counts how often each index is evaluated.
struct CountingCost {
  const Grid &grid;
  std::map<size_t, int> calls;
  CostFunction function() {
    return [this](size_t i) {
      ++calls[i];
      return grid.costs[i];
    };
  }
  bool noneTwice() const {
    return std::all_of(calls.begin(), calls.end(), [](const auto &c) { return c.second == 1; });
  }
};

void checkConsistent(const SearchResult &result, const Grid &grid) {
  std::set<size_t> distinct(result.evaluated.begin(), result.evaluated.end());
  CHECK(distinct.size() == result.evaluated.size());
  if (!result.best) return;
  CHECK(grid.costs[*result.best]);
  CHECK(result.bestCost == *grid.costs[*result.best]);
  // evaluationsToBest: the best is the evaluation at that position, and
  // everything before it was worse (or invalid).
  REQUIRE(result.evaluationsToBest >= 1);
  REQUIRE(result.evaluationsToBest <= result.evaluated.size());
  CHECK(result.evaluated[result.evaluationsToBest - 1] == *result.best);
  for (size_t k = 0; k + 1 < result.evaluationsToBest; ++k) {
    const auto &c = grid.costs[result.evaluated[k]];
    CHECK((!c || *c > result.bestCost));
  }
}

} // namespace

TEST_CASE("search: strategy names") {
  for (SearchStrategy s :
       {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing, SearchStrategy::Model})
    CHECK(search::parseStrategy(search::strategyName(s)) == s);
  CHECK(!search::parseStrategy("genetic"));
}

TEST_CASE("search: exhaustive evaluates every point in order and finds the optimum") {
  Grid grid = bowl(7, 5, 4, 2, 3);
  CountingCost counting{grid, {}};
  SearchResult result = search::runSearch(SearchStrategy::Exhaustive, grid.space(), counting.function(), {});
  REQUIRE(result.evaluated.size() == grid.costs.size());
  for (size_t i = 0; i < result.evaluated.size(); ++i) CHECK(result.evaluated[i] == i);
  CHECK(counting.noneTwice());
  REQUIRE(result.best);
  CHECK(*result.best == grid.optimum());
  CHECK(result.evaluationsToBest == grid.optimum() + 1);
  checkConsistent(result, grid);

  SearchBudget three;
  three.maxEvaluations = 3;
  CHECK(search::runSearch(SearchStrategy::Exhaustive, grid.space(), counting.function(), three).evaluated.size() == 3);
}

TEST_CASE("search: free evaluations (a result store's) do not count against the evaluation budget") {
  Grid grid = bowl(6, 4, 2, 1, 3);
  for (SearchStrategy s : {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing}) {
    CAPTURE(search::strategyName(s));
    CountingCost counting{grid, {}};
    SearchBudget budget;
    budget.maxEvaluations = 4;
    budget.free = [](size_t i) { return i % 2 == 0; }; // every even point is already known
    SearchResult result = search::runSearch(s, grid.space(), counting.function(), budget, 5);
    size_t charged = 0;
    for (size_t i : result.evaluated) charged += i % 2 == 1;
    CHECK(charged == 4);
    CHECK(result.evaluated.size() > 4);
    CHECK(counting.noneTwice());
    checkConsistent(result, grid);
  }
  // A budget of no new evaluations replays what is free and stops at the first that is not.
  SearchBudget none;
  none.maxEvaluations = 0;
  none.free = [](size_t i) { return i < 3; };
  CHECK(search::runSearch(
            SearchStrategy::Exhaustive, grid.space(), [&](size_t i) { return grid.costs[i]; }, none)
            .evaluated == std::vector<size_t>{0, 1, 2});
}

TEST_CASE("search: a space of only invalid points has no best") {
  Grid grid{4, 4, std::vector<std::optional<double>>(16)};
  for (SearchStrategy s : {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing}) {
    CAPTURE(search::strategyName(s));
    CountingCost counting{grid, {}};
    SearchResult result = search::runSearch(s, grid.space(), counting.function(), {});
    CHECK(!result.best);
    CHECK(result.evaluated.size() == 16); // it keeps looking, and then stops
    CHECK(counting.noneTwice());
  }
  SearchResult empty = search::runSearch(SearchStrategy::Annealing, SearchSpace{}, [](size_t) { return 1.0; }, {});
  CHECK(empty.evaluated.empty());
  CHECK(!empty.best);
}

TEST_CASE("search: random respects the evaluation budget and never evaluates twice") {
  Grid grid = bowl(8, 8, 3, 6, 5);
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    CountingCost counting{grid, {}};
    SearchBudget budget;
    budget.maxEvaluations = 10;
    SearchResult result = search::runSearch(SearchStrategy::Random, grid.space(), counting.function(), budget, seed);
    CHECK(result.evaluated.size() == 10);
    CHECK(counting.calls.size() == 10);
    CHECK(counting.noneTwice());
    checkConsistent(result, grid);
  }
  // Different seeds visit different points; the same seed the same ones.
  SearchBudget budget;
  budget.maxEvaluations = 10;
  auto cost = [&](size_t i) { return grid.costs[i]; };
  auto a = search::runSearch(SearchStrategy::Random, grid.space(), cost, budget, 7).evaluated;
  CHECK(a == search::runSearch(SearchStrategy::Random, grid.space(), cost, budget, 7).evaluated);
  CHECK(a != search::runSearch(SearchStrategy::Random, grid.space(), cost, budget, 8).evaluated);

  // A budget beyond the space: every point once, then it stops.
  CountingCost all{grid, {}};
  SearchResult full = search::runSearch(SearchStrategy::Random, grid.space(), all.function(), {}, 1);
  CHECK(full.evaluated.size() == grid.costs.size());
  CHECK(all.noneTwice());
  REQUIRE(full.best);
  CHECK(*full.best == grid.optimum());
}

TEST_CASE("search: the time budget stops a search between evaluations") {
  Grid grid = bowl(10, 10, 5, 5);
  for (SearchStrategy s : {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing}) {
    CAPTURE(search::strategyName(s));
    SearchBudget budget;
    budget.maxTime = std::chrono::milliseconds(40);
    auto slow = [&](size_t i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return grid.costs[i];
    };
    auto start = std::chrono::steady_clock::now();
    SearchResult result = search::runSearch(s, grid.space(), slow, budget, 3);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(result.evaluated.size() >= 1);
    CHECK(result.evaluated.size() < grid.costs.size());
    // At most one evaluation beyond the budget (generous for a loaded machine).
    CHECK(seconds < 0.040 + 0.5);
  }
}

TEST_CASE("search: annealing finds the optimum of a smooth space well within the budget") {
  // 16 x 16 = 256 points with a few invalid ones; the bowl's minimum is unique.
  Grid grid = bowl(16, 16, 11, 5, 7);
  size_t optimum = grid.optimum();
  size_t totalToBest = 0;
  const uint64_t seeds = 20;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    CountingCost counting{grid, {}};
    SearchBudget budget;
    budget.maxEvaluations = grid.costs.size() / 2;
    SearchResult result = search::runSearch(SearchStrategy::Annealing, grid.space(), counting.function(), budget, seed);
    CHECK(counting.noneTwice());
    CHECK(result.evaluated.size() <= budget.maxEvaluations);
    checkConsistent(result, grid);
    REQUIRE(result.best);
    CHECK(*result.best == optimum);
    totalToBest += result.evaluationsToBest;
  }
  // Moving along one parameter at a time, the bowl is solved in a few dozen
  // evaluations on average; exhaustive search would need 256, random ~128.
  double mean = double(totalToBest) / double(seeds);
  MESSAGE("annealing: mean evaluations to the optimum of 256: " << mean);
  CHECK(mean < 64);
}

TEST_CASE("search: annealing visits the whole space when the budget allows, once each") {
  // Local optima everywhere (a sawtooth): annealing must restart rather than
  // stop, and must still never repeat an evaluation.
  Grid grid{6, 6, {}};
  for (size_t i = 0; i < 36; ++i)
    grid.costs.push_back(i % 5 == 0 ? std::nullopt : std::optional<double>(double((i * 7) % 11)));
  CountingCost counting{grid, {}};
  SearchResult result = search::runSearch(SearchStrategy::Annealing, grid.space(), counting.function(), {}, 5);
  CHECK(result.evaluated.size() == 36);
  CHECK(counting.noneTwice());
  REQUIRE(result.best);
  CHECK(result.bestCost == 0);
  checkConsistent(result, grid);
}

/// A space of three categorical parameters (8 x 8 x 8 = 512 points) whose
/// log time is additive in them, as the model assumes, with a few invalid
/// points; the features name each parameter value, as explore's do.
struct Categorical {
  std::vector<std::optional<double>> costs;
  SearchSpace space() const {
    SearchSpace s;
    s.size = costs.size();
    s.neighbours = [](size_t) { return std::vector<size_t>{}; };
    s.features = [](size_t i) {
      return std::vector<std::string>{"a=" + std::to_string(i % 8), "b=" + std::to_string(i / 8 % 8),
                                      "c=" + std::to_string(i / 64)};
    };
    return s;
  }
};

Categorical additiveSpace(uint64_t shuffle) {
  Categorical space;
  // Effects in a scrambled order, so neighbouring values say nothing.
  auto effect = [&](size_t value, size_t parameter) {
    return double((value * 5 + parameter * 3 + shuffle) % 8) * (0.15 + 0.1 * double(parameter));
  };
  for (size_t i = 0; i < 512; ++i) {
    bool invalid = i % 37 == 5;
    space.costs.push_back(
        invalid ? std::nullopt
                : std::optional<double>(1e6 * std::exp(effect(i % 8, 0) + effect(i / 8 % 8, 1) + effect(i / 64, 2))));
  }
  return space;
}

TEST_CASE("search: model search finds the optimum of an additive space in a fraction of random search's "
          "evaluations") {
  double modelTotal = 0, randomTotal = 0;
  const uint64_t seeds = 10;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    Categorical space = additiveSpace(seed);
    Grid asGrid{512, 1, space.costs};
    for (SearchStrategy strategy : {SearchStrategy::Model, SearchStrategy::Random}) {
      CountingCost counting{asGrid, {}};
      SearchBudget budget;
      budget.maxEvaluations = 256;
      SearchResult result = search::runSearch(strategy, space.space(), counting.function(), budget, seed);
      CHECK(counting.noneTwice());
      CHECK(result.evaluated.size() <= budget.maxEvaluations);
      checkConsistent(result, asGrid);
      REQUIRE(result.best);
      bool found = *result.best == asGrid.optimum();
      (strategy == SearchStrategy::Model ? modelTotal : randomTotal) +=
          double(found ? result.evaluationsToBest : budget.maxEvaluations + 1);
    }
  }
  MESSAGE("evaluations to the optimum of 512: model " << modelTotal / seeds << ", random " << randomTotal / seeds);
  CHECK(modelTotal / seeds < 64);
  CHECK(modelTotal < randomTotal / 2);
}

TEST_CASE("search: model search without features, or with every point invalid, still visits each point once") {
  Grid grid = bowl(6, 6, 2, 3, 4); // its space has no features: the model strategy searches at random
  CountingCost counting{grid, {}};
  SearchResult result = search::runSearch(SearchStrategy::Model, grid.space(), counting.function(), {}, 3);
  CHECK(result.evaluated.size() == 36);
  CHECK(counting.noneTwice());
  REQUIRE(result.best);
  CHECK(*result.best == grid.optimum());

  Categorical invalid = additiveSpace(1);
  std::fill(invalid.costs.begin(), invalid.costs.end(), std::nullopt);
  Grid none{512, 1, invalid.costs};
  CountingCost noneCounting{none, {}};
  SearchResult nothing = search::runSearch(SearchStrategy::Model, invalid.space(), noneCounting.function(), {}, 3);
  CHECK(nothing.evaluated.size() == 512);
  CHECK(noneCounting.noneTwice());
  CHECK(!nothing.best);
}

namespace {

/// Two groups of ten (search::Pruning::group = index / 10): the first fast,
/// the second ten times slower; `costs` may be changed per entry.
struct TwoGroups {
  std::vector<std::optional<double>> costs;
  TwoGroups() {
    for (size_t i = 0; i < 20; ++i) costs.push_back(i < 10 ? 100.0 + double(i) : 1000.0 + double(i));
  }
  SearchSpace space() const {
    SearchSpace space;
    space.size = costs.size();
    space.neighbours = [](size_t) { return std::vector<size_t>{}; };
    return space;
  }
  static search::Pruning pruning(double slowerThan) {
    search::Pruning p;
    p.group = [](size_t i) { return i / 10; };
    p.slowerThan = slowerThan;
    return p;
  }
};

} // namespace

TEST_CASE("search/pruning: a group slower than the best is skipped once two of its variants ran") {
  TwoGroups g;
  std::vector<size_t> measured;
  CostFunction cost = [&](size_t i) {
    measured.push_back(i);
    return g.costs[i];
  };
  SearchBudget budget;
  budget.pruning = TwoGroups::pruning(3);
  SearchResult r = search::runSearch(SearchStrategy::Exhaustive, g.space(), cost, budget);
  // The fast group, then two of the slow one: 1010 > 3 x 100, the other 8 skipped.
  CHECK(measured.size() == 12);
  CHECK(r.evaluated.size() == 12);
  CHECK(r.pruned == 8);
  CHECK(r.best == size_t(0));

  // Within the factor nothing is skipped; off by default.
  measured.clear();
  budget.pruning = TwoGroups::pruning(20);
  CHECK(search::runSearch(SearchStrategy::Exhaustive, g.space(), cost, budget).pruned == 0);
  CHECK(measured.size() == 20);
  measured.clear();
  CHECK(search::runSearch(SearchStrategy::Exhaustive, g.space(), cost, {}).pruned == 0);
  CHECK(measured.size() == 20);
}

TEST_CASE("search/pruning: a group that only fails is skipped; stored results are read anyway") {
  TwoGroups g;
  for (size_t i = 10; i < 20; ++i) g.costs[i] = std::nullopt;
  size_t calls = 0;
  CostFunction cost = [&](size_t i) {
    ++calls;
    return g.costs[i];
  };
  SearchBudget budget;
  budget.pruning = TwoGroups::pruning(3);
  budget.free = [](size_t i) { return i == 19; }; // in the store: costs nothing, so not skipped
  SearchResult r = search::runSearch(SearchStrategy::Exhaustive, g.space(), cost, budget);
  CHECK(calls == 13);
  CHECK(r.pruned == 7);
  CHECK(std::count(r.evaluated.begin(), r.evaluated.end(), size_t(19)) == 1);
}

TEST_CASE("search/pruning: every strategy still finds the optimum and never measures a variant twice") {
  TwoGroups g;
  for (SearchStrategy strategy :
       {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing, SearchStrategy::Model})
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      CAPTURE(search::strategyName(strategy));
      CAPTURE(seed);
      std::map<size_t, int> measured;
      CostFunction cost = [&](size_t i) {
        ++measured[i];
        return g.costs[i];
      };
      SearchBudget budget;
      budget.pruning = TwoGroups::pruning(3);
      SearchResult r = search::runSearch(strategy, g.space(), cost, budget, seed);
      CHECK(r.best == size_t(0));
      for (const auto &[index, times] : measured) CHECK(times == 1);
      CHECK(measured.size() + r.pruned <= 20);
    }
}

} // namespace liftcc
