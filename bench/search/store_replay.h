#pragma once
// Replaying search strategies against a recorded exhaustive exploration (a
// result store holding the time of every variant of a space): the cost
// function looks the time up instead of measuring it, so a strategy's
// evaluations-to-target can be averaged over many seeds in seconds. Used by
// the search_replay tool and by the tests that hold the search to the
// figures docs/exploration.md reports.

#include "search/search.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

struct StoreReplay {
  std::vector<std::optional<double>> costs; ///< median ns, nullopt for failed variants
  std::vector<size_t> programGroups;        ///< each variant's low-level program (explore::programGroupIds)
  std::vector<std::string> keys;            ///< each variant's configuration key
  double optimum = 0;                       ///< the fastest median ns
  /// The neighbourhoods and features liftc explore gives its search over
  /// the same configurations.
  search::SearchSpace space;
};

/// The store at `path` (every record one variant, e.g. an exhaustive
/// `liftc explore`). Throws liftcc::Error when it has no successful record.
StoreReplay loadStoreReplay(const std::string &path);

/// `replay` warm-started from another store (issue #36 item 3): its space's
/// prior (search::SearchSpace::prior) is the other store's Ok records, as
/// explore() gathers them from a results directory (explore/knowledge.h),
/// and `knownFirst` the indices of this space whose configuration keys are
/// the other store's known winning strategies (its best and each family's
/// best there), ranked; keys the space lacks are left out.
struct WarmStart {
  StoreReplay replay;
  std::vector<size_t> knownFirst;
  size_t priorObservations = 0, knownStrategies = 0;
};
WarmStart warmStartFrom(const StoreReplay &replay, const std::string &otherStore);

/// Evaluations (1-based) of one replayed search; 0 means never.
struct ReplayRun {
  size_t toWithin = 0;  ///< until a variant within the target was measured
  size_t toOptimum = 0; ///< until the optimum was measured
  size_t pruned = 0;    ///< variants skipped by pruning before the run stopped
};

/// Replays `strategy` with `seed` until it has measured a variant of cost
/// <= `target` and the optimum (or, with pruning by `pruneSlowerThan` > 0,
/// only the target, since the optimum may be pruned), at worst the whole
/// space.
ReplayRun replaySearch(search::SearchStrategy strategy, const StoreReplay &replay, double target, uint64_t seed,
                       double pruneSlowerThan = 0);

} // namespace liftcc::bench
