#pragma once
// Model-based search: an additive surrogate of log(time) over the
// configurations' categorical features (each parameter value, and each value
// paired with the strategy family, since a work-group shape that suits one
// family need not suit another), fitted by ridge-regularised backfitting to
// every measurement so far. The next configuration is the unmeasured one
// with the lowest predicted log time minus an exploration bonus for rarely
// measured feature values (a lower confidence bound), or, for about a third
// of the picks, the unmeasured neighbour of the fastest configuration so far
// that the model predicts fastest (local refinement, where an additive model
// misses interactions); one pick in ten is uniformly random, so a wrong
// model cannot trap the search. Failed
// configurations are fitted as slower than the slowest success, steering the
// search away from their features. Starts from a random sample. With a prior
// (SearchSpace::prior: what other explorations measured) the surrogate starts
// from a fit on it, shrinks towards that fit rather than towards zero as its
// own measurements arrive, and the random start is only a few picks
// (search_model.cpp, kPriorRidge); once a few configurations ran, the prior
// counts as far as it ranked them right (priorTrust).
//
// Measured on recorded exhaustive explorations (bench/search/search_replay).

#include "search/search.h"

#include <functional>
#include <optional>
#include <random>

namespace liftcc::search {

/// `exhausted`, `seen` and `evaluate` are the search's bookkeeping
/// (budget, memoisation); `evaluate` returns nullopt for a failed configuration.
/// `hint` is told, before each evaluation, the configuration picked and those
/// the model would pick after it (SearchSpace::upcoming): the next best
/// scores, or the next of the random order while the search samples at random.
/// `observed`: evaluations made before the search (SearchSpace::first), with
/// their costs (nullopt: failed), fitted like the search's own.
void modelSearch(const SearchSpace &space, const std::function<bool()> &exhausted,
                 const std::function<bool(size_t)> &seen, const std::function<std::optional<double>(size_t)> &evaluate,
                 const std::function<void(size_t pick, const std::vector<size_t> &next)> &hint, std::mt19937_64 &rng,
                 const std::vector<std::pair<size_t, std::optional<double>>> &observed = {});

} // namespace liftcc::search
