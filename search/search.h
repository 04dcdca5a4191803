#pragma once
// Search strategies over a finite, enumerated space of configurations
// (indices 0..size-1). The cost function measures a configuration (or reads
// it from the result store) and returns nullopt for invalid ones; strategies
// never evaluate an index twice.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::search {

/// model: a surrogate model of the cost over the configurations' features
/// (search/search_model.h), refitted after every measurement, picks the next.
enum class SearchStrategy { Exhaustive, Random, Annealing, Model };
std::string strategyName(SearchStrategy strategy);
std::optional<SearchStrategy> parseStrategy(const std::string &name);

/// What another exploration measured (explore/knowledge.h): a configuration's
/// features (SearchSpace::features' form) and its time relative to the best
/// of its own store (1 = that store's best). Never a timing of this space.
struct PriorObservation {
  std::vector<std::string> features;
  double relativeCost = 1;
};

struct SearchSpace {
  size_t size = 0;
  /// Configurations that differ from `index` in one parameter (annealing moves).
  std::function<std::vector<size_t>(size_t index)> neighbours;
  /// The configuration's parameter values as categorical features, e.g.
  /// {"coarsened", "k=8x1x1", "wg.x=32", "spec"} (model search). May be
  /// empty: the model strategy then searches at random.
  std::function<std::vector<std::string>(size_t index)> features;
  /// Told, before each evaluation, the configuration about to be evaluated
  /// and then at most `lookahead` unevaluated ones the strategy expects to
  /// evaluate after it, most likely first: a hint for a cost function that
  /// prepares work ahead (the explorer compiles them on worker threads).
  /// Strategies whose next choice depends on this evaluation's result guess.
  /// May be empty.
  std::function<void(const std::vector<size_t> &upcoming)> upcoming;
  size_t lookahead = 0;
  /// Asked after an evaluation without a cost: true when the index proved no
  /// configuration of its own (the explorer's candidates skipped as
  /// duplicates or twins that change nothing), which the model search then
  /// does not fit as a failure. May be empty.
  std::function<bool(size_t index)> notAPoint;
  /// Configurations evaluated first, in this order, before any strategy
  /// picks (the explorer's baselines, explore/baselines.h), whatever the
  /// strategy: not charged against SearchBudget::maxEvaluations nor pruned,
  /// but bounded by the time budget and `stop`. Strategies then skip them as
  /// evaluated, and the model search fits them as its first observations.
  std::vector<size_t> first;
  /// Knowledge from other explorations (other sizes, devices, programs of
  /// the same shape): the model search fits its surrogate on these before it
  /// has measurements of its own and shrinks towards that fit as they arrive
  /// (search/search_model.h). The other strategies ignore it. May be empty.
  std::vector<PriorObservation> prior;
};

/// Pruning of slow groups, measured on the replayed stores
/// (bench/search/search_replay --prune): once `after` variants of a group
/// (`group`: e.g. one low-level program, its work-group shapes and build
/// choices being the variants) have been evaluated, the group's remaining
/// variants are skipped (neither measured nor charged) while its best is more
/// than `slowerThan` times the best so far, or it has no success. Off while
/// slowerThan is 0 or group is empty.
struct Pruning {
  std::function<size_t(size_t index)> group;
  double slowerThan = 0;
  size_t after = 2;
  bool active() const { return slowerThan > 0 && bool(group); }
};

struct SearchBudget {
  size_t maxEvaluations = SIZE_MAX;
  std::chrono::duration<double> maxTime = std::chrono::duration<double>::max();
  /// Evaluations of indices for which this returns true (e.g. found in a
  /// result store) cost nothing and do not count against maxEvaluations, so
  /// a resumed search gets further. May be empty.
  std::function<bool(size_t index)> free;
  /// Asked after an evaluation: true refunds it (the cost function found no
  /// variant of its own there, e.g. a kernel already measured under another
  /// configuration), so it does not count against maxEvaluations. May be empty.
  std::function<bool(size_t index)> uncharged;
  /// Checked before every evaluation with the limits above; true ends the
  /// search. May be empty.
  std::function<bool()> stop;
  Pruning pruning;
};

using CostFunction = std::function<std::optional<double>(size_t index)>;

struct SearchResult {
  std::vector<size_t> evaluated; ///< in evaluation order, free ones included
  std::optional<size_t> best;
  double bestCost = 0;
  /// Number of evaluations after which the best was first found.
  size_t evaluationsToBest = 0;
  /// Variants skipped by SearchBudget::pruning (not in `evaluated`).
  size_t pruned = 0;
};

SearchResult runSearch(SearchStrategy strategy, const SearchSpace &space, const CostFunction &cost,
                       const SearchBudget &budget, uint64_t seed = 1);

} // namespace liftcc::search
