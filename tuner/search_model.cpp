#include "tuner/search_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace liftcc::tuner {

namespace {

/// Tuning of the strategy (chosen on the replayed stores, bench/search/).
constexpr double kRidge = 1.0;       ///< shrinks rarely measured feature effects towards 0
constexpr double kExploration = 2.0; ///< log-time bonus of a never measured feature value
constexpr double kRandomPick = 0.1;  ///< share of uniformly random picks
/// Share of the model's picks taken among the unmeasured neighbours of the
/// fastest configuration so far (SearchSpace::neighbours). An additive model
/// ranks whole feature values well but misses the interactions that make one
/// combination of them the optimum (Jacobi2D 4096^2's store: one variant
/// within 5%); refining around the incumbent finds those. Replayed on the
/// stores of bench/search/data with 100 seeds, 0, 0.3, 0.5 and 0.7: 0.3 took
/// that store from 18% to 9.6% of the space, the others within +-0.5 points.
constexpr double kNeighbourPick = 0.3;
constexpr double kFailurePenalty = 1.0; ///< failures fit at log(slowest success) + this
constexpr int kSweeps = 4;              ///< backfitting sweeps per refit (warm-started)

/// The space's features as dense ids: features[i] lists configuration i's.
struct FeatureTable {
  std::vector<std::vector<size_t>> features;
  size_t count = 0;
};

FeatureTable featureTable(const SearchSpace &space) {
  FeatureTable table;
  std::map<std::string, size_t> ids;
  table.features.resize(space.size);
  for (size_t i = 0; i < space.size; ++i) {
    std::vector<std::string> names = space.features(i);
    // Each value alone, and paired with the first (the strategy family).
    std::vector<std::string> all = names;
    for (size_t k = 1; k < names.size(); ++k) all.push_back(names[0] + "|" + names[k]);
    for (const std::string &name : all) {
      auto [it, inserted] = ids.emplace(name, ids.size());
      table.features[i].push_back(it->second);
    }
  }
  table.count = ids.size();
  return table;
}

/// The additive model: log time = intercept + sum of the features' effects.
class AdditiveModel {
public:
  explicit AdditiveModel(size_t features) : effect_(features, 0.0), measured_(features, 0) {}

  /// Ridge least squares by coordinate descent (exact per effect, so every
  /// step lowers the penalised error: it converges, unlike a simultaneous
  /// update with correlated features), warm-started from the last fit.
  void fit(const FeatureTable &table, const std::vector<size_t> &points, const std::vector<double> &targets) {
    std::vector<std::vector<size_t>> pointsWith(effect_.size());
    for (size_t k = 0; k < points.size(); ++k)
      for (size_t f : table.features[points[k]]) pointsWith[f].push_back(k);
    for (size_t f = 0; f < effect_.size(); ++f) measured_[f] = pointsWith[f].size();
    intercept_ = std::accumulate(targets.begin(), targets.end(), 0.0) / double(targets.size());
    std::vector<double> residual(points.size());
    for (size_t k = 0; k < points.size(); ++k) residual[k] = targets[k] - predict(table, points[k]);
    for (int sweep = 0; sweep < kSweeps; ++sweep)
      for (size_t f = 0; f < effect_.size(); ++f) {
        if (pointsWith[f].empty()) continue;
        double sum = 0;
        for (size_t k : pointsWith[f]) sum += residual[k] + effect_[f];
        double updated = sum / (double(pointsWith[f].size()) + kRidge);
        for (size_t k : pointsWith[f]) residual[k] -= updated - effect_[f];
        effect_[f] = updated;
      }
  }

  double predict(const FeatureTable &table, size_t point) const {
    double y = intercept_;
    for (size_t f : table.features[point]) y += effect_[f];
    return y;
  }

  /// Lower confidence bound: the prediction less a bonus for features measured rarely.
  double optimistic(const FeatureTable &table, size_t point) const {
    double bonus = 0;
    for (size_t f : table.features[point]) bonus += 1.0 / std::sqrt(1.0 + double(measured_[f]));
    return predict(table, point) - kExploration * bonus / double(std::max<size_t>(1, table.features[point].size()));
  }

private:
  double intercept_ = 0;
  std::vector<double> effect_;
  std::vector<size_t> measured_;
};

} // namespace

void modelSearch(const SearchSpace &space, const std::function<bool()> &exhausted,
                 const std::function<bool(size_t)> &seen, const std::function<std::optional<double>(size_t)> &evaluate,
                 const std::function<void(size_t pick, const std::vector<size_t> &next)> &hint, std::mt19937_64 &rng,
                 const std::vector<std::pair<size_t, std::optional<double>>> &observed) {
  // The next unseen configurations of a random order, for the hint.
  auto unseenAfter = [&](const std::vector<size_t> &order, size_t from) {
    std::vector<size_t> next;
    for (size_t k = from; k < order.size() && next.size() < space.lookahead; ++k)
      if (!seen(order[k])) next.push_back(order[k]);
    return next;
  };
  std::vector<size_t> order(space.size);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  if (!space.features) {
    for (size_t k = 0; k < order.size() && !exhausted(); ++k) {
      hint(order[k], unseenAfter(order, k + 1));
      evaluate(order[k]);
    }
    return;
  }
  FeatureTable table = featureTable(space);
  AdditiveModel model(table.count);
  std::vector<size_t> okPoints, failedPoints;
  std::vector<double> okLogs;
  auto observe = [&](size_t i, std::optional<double> cost) {
    if (cost && *cost > 0) {
      okPoints.push_back(i);
      okLogs.push_back(std::log(*cost));
    } else if (!space.notAPoint || !space.notAPoint(i)) {
      failedPoints.push_back(i);
    }
  };
  auto measure = [&](size_t i) { observe(i, evaluate(i)); };
  for (const auto &[i, cost] : observed) observe(i, cost);
  // A random start: about 2% of the space, 8 to 32 configurations.
  const size_t initial = std::clamp<size_t>(space.size / 50, 8, 32);
  size_t next = 0; ///< into `order`, for random picks
  auto randomUnseen = [&]() -> std::optional<size_t> {
    while (next < order.size() && seen(order[next])) ++next;
    if (next == order.size()) return std::nullopt;
    return order[next];
  };
  for (size_t k = 0; k < initial && !exhausted(); ++k) {
    auto i = randomUnseen();
    if (!i) return;
    hint(*i, unseenAfter(order, next + 1));
    measure(*i);
  }
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  while (!exhausted()) {
    std::optional<size_t> pick;
    std::vector<size_t> upcoming; ///< what the model would pick after `pick`
    if (okPoints.empty() || unit(rng) < kRandomPick) {
      pick = randomUnseen();
      if (pick) upcoming = unseenAfter(order, next + 1);
    } else {
      std::vector<size_t> points = okPoints;
      std::vector<double> targets = okLogs;
      double slowest = *std::max_element(okLogs.begin(), okLogs.end());
      for (size_t f : failedPoints) {
        points.push_back(f);
        targets.push_back(slowest + kFailurePenalty);
      }
      model.fit(table, points, targets);
      double bestScore = std::numeric_limits<double>::infinity();
      std::vector<std::pair<double, size_t>> runnersUp; ///< the best scores after the pick's, when hinted
      auto consider = [&](size_t i, double score) {
        if (space.lookahead > 0) runnersUp.emplace_back(score, i);
        if (score < bestScore) bestScore = score, pick = i;
      };
      // Near the incumbent: the neighbour the model predicts fastest.
      if (space.neighbours && unit(rng) < kNeighbourPick) {
        size_t incumbent = okPoints[size_t(std::min_element(okLogs.begin(), okLogs.end()) - okLogs.begin())];
        for (size_t i : space.neighbours(incumbent))
          if (!seen(i)) consider(i, model.predict(table, i));
      }
      // Anywhere (also when every neighbour was measured): the lowest bound.
      if (!pick)
        for (size_t i = 0; i < space.size; ++i)
          if (!seen(i)) consider(i, model.optimistic(table, i));
      size_t keep = std::min(runnersUp.size(), space.lookahead + 1);
      std::partial_sort(runnersUp.begin(), runnersUp.begin() + ptrdiff_t(keep), runnersUp.end());
      for (size_t k = 0; k < keep; ++k)
        if (runnersUp[k].second != pick) upcoming.push_back(runnersUp[k].second);
    }
    if (!pick) pick = randomUnseen(); // (no finite score)
    if (!pick) return;                // every configuration measured
    if (upcoming.size() > space.lookahead) upcoming.resize(space.lookahead);
    hint(*pick, upcoming);
    measure(*pick);
  }
}

} // namespace liftcc::tuner
