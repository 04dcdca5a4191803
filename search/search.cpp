#include "search/search.h"

#include "search/search_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <span>

namespace liftcc::search {

std::string strategyName(SearchStrategy strategy) {
  switch (strategy) {
  case SearchStrategy::Exhaustive: return "exhaustive";
  case SearchStrategy::Random: return "random";
  case SearchStrategy::Annealing: return "annealing";
  case SearchStrategy::Model: return "model";
  }
  return "?";
}

std::optional<SearchStrategy> parseStrategy(const std::string &name) {
  for (SearchStrategy s :
       {SearchStrategy::Exhaustive, SearchStrategy::Random, SearchStrategy::Annealing, SearchStrategy::Model})
    if (strategyName(s) == name) return s;
  return std::nullopt;
}

namespace {

/// Bookkeeping shared by all strategies: budget, memoisation, best so far.
class Evaluator {
public:
  Evaluator(const CostFunction &cost, const SearchBudget &budget)
      : cost_(cost), budget_(budget), start_(std::chrono::steady_clock::now()) {}

  bool exhausted() const {
    // With free evaluations the count is checked per index in evaluate().
    return refused_ || (!budget_.free && charged_ >= budget_.maxEvaluations) ||
           std::chrono::steady_clock::now() - start_ >= budget_.maxTime || (budget_.stop && budget_.stop());
  }
  bool seen(size_t i) const { return costs_.count(i) != 0; }
  /// The time budget or `stop` ended the search (the evaluation count aside).
  bool outOfTime() const {
    return refused_ || std::chrono::steady_clock::now() - start_ >= budget_.maxTime || (budget_.stop && budget_.stop());
  }
  /// SearchSpace::first: evaluated uncharged and unpruned.
  std::optional<double> evaluateFirst(size_t i) {
    if (auto it = costs_.find(i); it != costs_.end()) return it->second;
    return record(i, cost_(i));
  }

  std::optional<double> evaluate(size_t i) {
    if (auto it = costs_.find(i); it != costs_.end()) return it->second;
    bool free = budget_.free && budget_.free(i);
    if (!free && pruned(i)) {
      // Seen from now on (no strategy picks it again), as a failure; a free
      // one (a stored record) is read anyway, it costs nothing.
      costs_.emplace(i, std::nullopt);
      ++result_.pruned;
      return std::nullopt;
    }
    if (!free && charged_ >= budget_.maxEvaluations) {
      refused_ = true; // the budget is spent: this one is not evaluated, and the search ends
      return std::nullopt;
    }
    if (!free) ++charged_;
    std::optional<double> c = cost_(i);
    if (!free && budget_.uncharged && budget_.uncharged(i)) --charged_;
    return record(i, c);
  }

  SearchResult result() const { return result_; }
  /// Every evaluation so far with its cost (nullopt: failed), in evaluation order.
  std::vector<std::pair<size_t, std::optional<double>>> observations() const {
    std::vector<std::pair<size_t, std::optional<double>>> out;
    for (size_t i : result_.evaluated) out.emplace_back(i, costs_.at(i));
    return out;
  }

  /// Passes `pick` and the first `space.lookahead` unseen of `candidates` to space.upcoming.
  void hint(const SearchSpace &space, size_t pick, std::span<const size_t> candidates) const {
    if (!space.upcoming || space.lookahead == 0) return;
    std::vector<size_t> next{pick};
    for (size_t i : candidates) {
      if (next.size() > space.lookahead) break;
      if (!seen(i) && i != pick) next.push_back(i);
    }
    space.upcoming(next);
  }
  /// The same with the configurations after position `from` of a fixed order.
  void hintInOrder(const SearchSpace &space, size_t pick, const std::vector<size_t> &order, size_t from) const {
    hint(space, pick, std::span<const size_t>(order).subspan(std::min(from, order.size())));
  }

private:
  struct Group {
    size_t evaluated = 0;
    std::optional<double> best;
  };

  std::optional<double> record(size_t i, std::optional<double> c) {
    costs_.emplace(i, c);
    result_.evaluated.push_back(i);
    if (budget_.pruning.active()) {
      Group &g = groups_[budget_.pruning.group(i)];
      ++g.evaluated;
      if (c && (!g.best || *c < *g.best)) g.best = *c;
    }
    if (c && (!result_.best || *c < result_.bestCost)) {
      result_.best = i;
      result_.bestCost = *c;
      result_.evaluationsToBest = result_.evaluated.size();
    }
    return c;
  }

  bool pruned(size_t i) const {
    const Pruning &p = budget_.pruning;
    if (!p.active() || !result_.best) return false;
    auto it = groups_.find(p.group(i));
    if (it == groups_.end() || it->second.evaluated < p.after) return false;
    return !it->second.best || *it->second.best > p.slowerThan * result_.bestCost;
  }

  const CostFunction &cost_;
  SearchBudget budget_;
  std::chrono::steady_clock::time_point start_;
  std::map<size_t, std::optional<double>> costs_;
  size_t charged_ = 0;
  bool refused_ = false;
  std::map<size_t, Group> groups_;
  SearchResult result_;
};

void annealing(const SearchSpace &space, Evaluator &eval, std::mt19937_64 &rng) {
  std::vector<size_t> order(space.size);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  size_t nextFresh = 0;
  auto freshStart = [&]() -> std::optional<size_t> {
    while (nextFresh < order.size() && eval.seen(order[nextFresh])) ++nextFresh;
    if (nextFresh == order.size()) return std::nullopt;
    return order[nextFresh];
  };

  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::optional<size_t> current;
  double currentCost = 0;
  double temperature = 1.0; // relative: accept a move x% worse with probability exp(-x/T)
  while (!eval.exhausted()) {
    if (!current) {
      auto start = freshStart();
      if (!start) return;
      eval.hintInOrder(space, *start, order, nextFresh + 1);
      auto c = eval.evaluate(*start);
      if (c) current = *start, currentCost = *c;
      continue;
    }
    std::vector<size_t> candidates;
    for (size_t n : space.neighbours(*current))
      if (!eval.seen(n)) candidates.push_back(n);
    if (candidates.empty()) {
      current.reset(); // a local optimum fully explored: restart elsewhere
      continue;
    }
    size_t next = candidates[rng() % candidates.size()];
    // Likely next: another neighbour of the current configuration (this one
    // is rejected more often than not as the temperature falls).
    std::vector<size_t> others;
    for (size_t n : candidates)
      if (n != next) others.push_back(n);
    eval.hint(space, next, others);
    auto c = eval.evaluate(next);
    if (!c) continue;
    double worse = (*c - currentCost) / std::max(currentCost, 1e-12);
    if (worse <= 0 || unit(rng) < std::exp(-worse / temperature)) current = next, currentCost = *c;
    temperature = std::max(0.01, temperature * 0.9);
  }
}

} // namespace

SearchResult runSearch(SearchStrategy strategy, const SearchSpace &space, const CostFunction &cost,
                       const SearchBudget &budget, uint64_t seed) {
  Evaluator eval(cost, budget);
  std::mt19937_64 rng(seed);
  for (size_t k = 0; k < space.first.size() && !eval.outOfTime(); ++k) {
    if (space.first[k] >= space.size) continue;
    eval.hintInOrder(space, space.first[k], space.first, k + 1);
    eval.evaluateFirst(space.first[k]);
  }
  switch (strategy) {
  case SearchStrategy::Exhaustive: {
    std::vector<size_t> order(space.size);
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = 0; i < space.size && !eval.exhausted(); ++i) {
      if (eval.seen(i)) continue; // a baseline (SearchSpace::first)
      eval.hintInOrder(space, i, order, i + 1);
      eval.evaluate(i);
    }
    break;
  }
  case SearchStrategy::Random: {
    std::vector<size_t> order(space.size);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k = 0; k < order.size(); ++k) {
      if (eval.exhausted()) break;
      if (eval.seen(order[k])) continue; // a baseline (SearchSpace::first)
      eval.hintInOrder(space, order[k], order, k + 1);
      eval.evaluate(order[k]);
    }
    break;
  }
  case SearchStrategy::Annealing: annealing(space, eval, rng); break;
  case SearchStrategy::Model:
    modelSearch(
        space, [&] { return eval.exhausted(); }, [&](size_t i) { return eval.seen(i); },
        [&](size_t i) { return eval.evaluate(i); },
        [&](size_t pick, const std::vector<size_t> &next) { eval.hint(space, pick, next); }, rng, eval.observations());
    break;
  }
  return eval.result();
}

} // namespace liftcc::search
