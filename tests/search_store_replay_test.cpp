// The search strategies replayed on the recorded exhaustive explorations of
// bench/search/data (times measured on PoCL, read from the stores, so these
// are exact and need no device): holds the model search to the figure the
// docs/exploration.md reports and issue #15 asks for, within 5% of the optimum in at most
// 10% of the evaluations.

#include "bench/search/store_replay.h"

#include <doctest/doctest.h>

#include <string>
#include <tuple>

namespace liftcc {
namespace {

/// Mean evaluations to within 5% of the optimum over `seeds` seeds, a miss
/// counting as the whole space.
double meanToWithin5(search::SearchStrategy strategy, const bench::StoreReplay &replay, uint64_t seeds) {
  double total = 0;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    bench::ReplayRun run = bench::replaySearch(strategy, replay, replay.optimum * 1.05, seed);
    total += double(run.toWithin ? run.toWithin : replay.costs.size());
  }
  return total / double(seeds);
}

} // namespace

TEST_CASE("search/replay: model search reaches within 5% of the optimum in at most 10% of every recorded space of "
          "299 variants or more") {
  const std::string data = std::string(LIFTCC_SOURCE_DIR) + "/bench/search/data/";
  for (const char *store : {"jacobi2d_5pt_N4096_M4096_pocl.jsonl", "jacobi2d_5pt_N1024_M1024_full_pocl.jsonl",
                            "heat_O128_N128_M128_nomapping_pocl.jsonl", "heat_O64_N64_M64_pocl.jsonl"}) {
    CAPTURE(store);
    bench::StoreReplay replay = bench::loadStoreReplay(data + store);
    REQUIRE(replay.costs.size() >= 299);
    // The seeds of docs/exploration.md (search_replay --seeds 200); random needs fewer
    // to show that it is far behind.
    double model = meanToWithin5(search::SearchStrategy::Model, replay, 200);
    double random = meanToWithin5(search::SearchStrategy::Random, replay, 40);
    double share = model / double(replay.costs.size());
    MESSAGE(store << ": model " << model << " evaluations (" << 100 * share << "% of " << replay.costs.size()
                  << "), random " << random);
    CHECK(share <= 0.10);
    CHECK(model < random / 2);
  }
}

TEST_CASE("search/replay: a warm start from another size's store (the model's prior) reaches within 5% sooner where "
          "the fast parameter values carry over") {
  // bench/search/README.md, "Warm start from another size": 200 seeds give
  // 1.5% (Jacobi2D 1024² from 4096²) and 3.3% (Heat 128³ from 64³) against
  // 5.7% cold; 20 seeds here.
  const std::string data = std::string(LIFTCC_SOURCE_DIR) + "/bench/search/data/";
  for (auto [store, other, warmShare] :
       {std::tuple{"jacobi2d_5pt_N1024_M1024_full_pocl.jsonl", "jacobi2d_5pt_N4096_M4096_pocl.jsonl", 0.03},
        std::tuple{"heat_O128_N128_M128_nomapping_pocl.jsonl", "heat_O64_N64_M64_pocl.jsonl", 0.05}}) {
    CAPTURE(store);
    bench::StoreReplay replay = bench::loadStoreReplay(data + store);
    bench::WarmStart warm = bench::warmStartFrom(replay, data + other);
    REQUIRE(warm.priorObservations > 0);
    double cold = meanToWithin5(search::SearchStrategy::Model, replay, 20);
    double warmed = meanToWithin5(search::SearchStrategy::Model, warm.replay, 20);
    MESSAGE(std::string(store) << ": cold " << cold << ", warm " << warmed << " evaluations of "
                               << replay.costs.size());
    CHECK(warmed / double(replay.costs.size()) <= warmShare);
    CHECK(warmed < cold);
  }
}

} // namespace liftcc
