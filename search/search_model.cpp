#include "search/search_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace liftcc::search {

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
/// The prior (SearchSpace::prior, issue #36 item 3): the additive model is
/// first fitted on the other explorations' observations alone (log of their
/// time relative to their own store's best; kPriorSweeps sweeps, once), and
/// the search's own fit then shrinks each feature effect towards that prior
/// effect instead of towards 0, with the weight of kPriorRidge measurements:
/// a feature value measured n times here is fitted n / (n + kPriorRidge) on
/// its own measurements, so the prior weighs less than own measurements
/// from the first few on and fades as they arrive. A value not yet measured
/// here keeps its prior effect where the prior finds it fast, 0 where slow:
/// the prior says what to try first, not what never to try (on the replayed
/// Heat stores, a family 6-10x slower at 128^3 holds the optimum at 64^3;
/// not demoting it before measuring it took the search from about 42% to
/// 31% of the space there, and from 3.6% to 1.5% on Jacobi2D 1024^2
/// warm-started from 4096^2). Prior observations of a feature value count kPriorSupport
/// of a measurement each in the exploration bonus, and the random start
/// shrinks to kPriorInitial picks (the prior ranks from the first pick).
/// Chosen on the replayed stores (bench/search/README.md): ridges 1, 2 and
/// 3, supports 0, 0.1 and 0.25, starts of 4, 8 and 16 picks.
constexpr double kPriorRidge = 3.0;
constexpr int kPriorSweeps = 20;
constexpr double kPriorSupport = 0.25;
constexpr size_t kPriorInitial = 4;
constexpr size_t kTrustSample = 8; ///< measurements before priorTrust judges the prior

/// The space's features as dense ids: features[i] lists configuration i's.
struct FeatureTable {
  std::vector<std::vector<size_t>> features;
  size_t count = 0;
};

/// Ids of feature names, shared by the space's table and the prior's.
class FeatureIds {
public:
  /// Each value alone, and paired with the first (the strategy family).
  std::vector<size_t> of(const std::vector<std::string> &names) {
    std::vector<std::string> all = names;
    for (size_t k = 1; k < names.size(); ++k) all.push_back(names[0] + "|" + names[k]);
    std::vector<size_t> out;
    for (const std::string &name : all) out.push_back(ids_.emplace(name, ids_.size()).first->second);
    return out;
  }
  size_t count() const { return ids_.size(); }

private:
  std::map<std::string, size_t> ids_;
};

FeatureTable featureTable(const SearchSpace &space, FeatureIds &ids) {
  FeatureTable table;
  table.features.resize(space.size);
  for (size_t i = 0; i < space.size; ++i) table.features[i] = ids.of(space.features(i));
  return table;
}

/// The additive model: log time = intercept + sum of the features' effects.
class AdditiveModel {
public:
  explicit AdditiveModel(size_t features) : effect_(features, 0.0), centre_(features, 0.0), measured_(features, 0) {}

  /// Shrinks every effect towards `prior`'s instead of 0, with weight `ridge`
  /// (kPriorRidge); until measured here, an effect is the prior's where that
  /// is fast and 0 where slow. Prior observations count `support`
  /// measurements each in the exploration bonus.
  void centreOn(const AdditiveModel &prior, double ridge, const std::vector<size_t> &priorCounts, double support) {
    priorEffect_ = prior.effect_;
    centre_ = prior.effect_;
    effect_ = prior.effect_;
    for (double &e : effect_) e = std::min(e, 0.0); // until measured here (kPriorRidge)
    intercept_ = prior.intercept_;
    ridge_ = ridge;
    centred_ = true;
    support_.assign(priorCounts.begin(), priorCounts.end());
    for (double &s : support_) s *= support;
  }

  /// Scales the prior's effects by `trust` (0: a cold model's centre, 1: the
  /// prior as fitted); see priorTrust.
  void trustPrior(double trust) {
    if (!centred_) return;
    for (size_t f = 0; f < centre_.size(); ++f) centre_[f] = trust * priorEffect_[f];
  }

  /// Ridge least squares by coordinate descent (exact per effect, so every
  /// step lowers the penalised error: it converges, unlike a simultaneous
  /// update with correlated features), warm-started from the last fit.
  void fit(const FeatureTable &table, const std::vector<size_t> &points, const std::vector<double> &targets,
           int sweeps = kSweeps) {
    if (points.empty()) return; // a centred model keeps its prior
    std::vector<std::vector<size_t>> pointsWith(effect_.size());
    for (size_t k = 0; k < points.size(); ++k)
      for (size_t f : table.features[points[k]]) pointsWith[f].push_back(k);
    for (size_t f = 0; f < effect_.size(); ++f) {
      measured_[f] = pointsWith[f].size();
      if (centred_ && pointsWith[f].empty()) effect_[f] = std::min(centre_[f], 0.0); // (centreOn)
    }
    auto meanOf = [](const std::vector<double> &v) {
      return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    };
    std::vector<double> residual(points.size());
    if (centred_) {
      // The intercept is fitted with the effects: the prior's effects already
      // place the points measured here (good ones, mostly) below the average.
      for (size_t k = 0; k < points.size(); ++k) residual[k] = targets[k] - predict(table, points[k]);
      intercept_ += meanOf(residual);
    } else {
      intercept_ = meanOf(targets);
    }
    for (size_t k = 0; k < points.size(); ++k) residual[k] = targets[k] - predict(table, points[k]);
    for (int sweep = 0; sweep < sweeps; ++sweep) {
      for (size_t f = 0; f < effect_.size(); ++f) {
        if (pointsWith[f].empty()) continue;
        double sum = 0;
        for (size_t k : pointsWith[f]) sum += residual[k] + effect_[f];
        double updated = (sum + ridge_ * centre_[f]) / (double(pointsWith[f].size()) + ridge_);
        for (size_t k : pointsWith[f]) residual[k] -= updated - effect_[f];
        effect_[f] = updated;
      }
      if (centred_) {
        double shift = meanOf(residual);
        intercept_ += shift;
        for (double &r : residual) r -= shift;
      }
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
    for (size_t f : table.features[point])
      bonus += 1.0 / std::sqrt(1.0 + double(measured_[f]) + (support_.empty() ? 0.0 : support_[f]));
    return predict(table, point) - kExploration * bonus / double(std::max<size_t>(1, table.features[point].size()));
  }

private:
  double intercept_ = 0;
  std::vector<double> effect_, centre_, priorEffect_;
  std::vector<size_t> measured_;
  std::vector<double> support_; ///< prior observations per feature, as measurements
  double ridge_ = kRidge;
  bool centred_ = false;
};

/// The prior observations as rows of feature ids (ids of features only the
/// prior has are added to `ids`) and their targets, log relative cost;
/// observations without features or a positive finite cost are left out.
struct PriorFit {
  FeatureTable table; ///< rows: the prior observations
  std::vector<double> targets;
};

PriorFit priorRows(const std::vector<PriorObservation> &prior, FeatureIds &ids) {
  PriorFit fit;
  for (const PriorObservation &o : prior) {
    if (!(o.relativeCost > 0) || !std::isfinite(o.relativeCost) || o.features.empty()) continue;
    fit.table.features.push_back(ids.of(o.features));
    fit.targets.push_back(std::log(o.relativeCost));
  }
  return fit;
}

/// The model before any measurement, fitted to the prior's observations and
/// centred on that fit (a warm start), or a blank one without a prior; with
/// the prior's own fit, against which the search checks its measurements.
struct StartingModel {
  AdditiveModel model;
  std::optional<AdditiveModel> prior;
};

StartingModel startingModel(const PriorFit &prior, size_t featureCount) {
  StartingModel start{AdditiveModel(featureCount), std::nullopt};
  if (prior.targets.empty()) return start;
  AdditiveModel priorModel(featureCount);
  std::vector<size_t> rows(prior.targets.size());
  std::iota(rows.begin(), rows.end(), 0);
  priorModel.fit(prior.table, rows, prior.targets, kPriorSweeps);
  std::vector<size_t> counts(featureCount, 0);
  for (const std::vector<size_t> &row : prior.table.features)
    for (size_t f : row) ++counts[f];
  start.model.centreOn(priorModel, kPriorRidge, counts, kPriorSupport);
  start.prior = std::move(priorModel);
  return start;
}

/// What the search measured so far: the configurations that ran, with their
/// log costs, and those that failed.
struct Observations {
  std::vector<size_t> okPoints, failedPoints;
  std::vector<double> okLogs;
};

/// Ranks of `values` (0 = smallest; ties share the mean rank).
std::vector<double> ranks(const std::vector<double> &values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(values.size());
  for (size_t k = 0; k < order.size();) {
    size_t end = k;
    while (end + 1 < order.size() && values[order[end + 1]] == values[order[k]]) ++end;
    for (size_t j = k; j <= end; ++j) rank[order[j]] = 0.5 * double(k + end);
    k = end + 1;
  }
  return rank;
}

/// How far the search's measurements bear the prior out: the rank
/// correlation of the prior's predictions with the measured log times,
/// clamped to [0, 1], once kTrustSample configurations ran (1 before). The
/// search's centre is the prior scaled by it, so a prior from a size or
/// device where other values win (Heat 128^3 for 64^3, bench/search) stops
/// steering the search once its first measurements contradict it.
double priorTrust(const AdditiveModel &prior, const FeatureTable &table, const Observations &seenSoFar) {
  const std::vector<size_t> &points = seenSoFar.okPoints;
  if (points.size() < kTrustSample) return 1.0;
  std::vector<double> predicted;
  for (size_t p : points) predicted.push_back(prior.predict(table, p));
  std::vector<double> a = ranks(predicted), b = ranks(seenSoFar.okLogs);
  double meanRank = 0.5 * double(points.size() - 1), ab = 0, aa = 0, bb = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    ab += (a[k] - meanRank) * (b[k] - meanRank);
    aa += (a[k] - meanRank) * (a[k] - meanRank);
    bb += (b[k] - meanRank) * (b[k] - meanRank);
  }
  if (aa <= 0 || bb <= 0) return 1.0;
  return std::clamp(2.0 * ab / std::sqrt(aa * bb), 0.0, 1.0);
}

/// A pick of the model and what it would pick after it (for the hint).
struct ModelPick {
  std::optional<size_t> pick;
  std::vector<size_t> upcoming;
};

/// Fits `model` to what was measured (a failure costs the slowest success
/// times a penalty) and picks the unseen configuration it predicts fastest:
/// near the incumbent with probability kNeighbourPick, else anywhere by the
/// optimistic bound.
ModelPick pickByModel(const SearchSpace &space, const FeatureTable &table, AdditiveModel &model,
                      const std::optional<AdditiveModel> &prior, const Observations &seenSoFar,
                      const std::function<bool(size_t)> &seen, std::mt19937_64 &rng,
                      std::uniform_real_distribution<double> &unit) {
  const std::vector<size_t> &okPoints = seenSoFar.okPoints;
  const std::vector<double> &okLogs = seenSoFar.okLogs;
  std::vector<size_t> points = okPoints;
  std::vector<double> targets = okLogs;
  double slowest = okLogs.empty() ? 0.0 : *std::max_element(okLogs.begin(), okLogs.end());
  for (size_t f : seenSoFar.failedPoints) {
    if (okLogs.empty()) break; // (warm, nothing succeeded yet: no scale for a failure)
    points.push_back(f);
    targets.push_back(slowest + kFailurePenalty);
  }
  if (prior) model.trustPrior(priorTrust(*prior, table, seenSoFar));
  model.fit(table, points, targets);
  ModelPick result;
  double bestScore = std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, size_t>> runnersUp; ///< the best scores after the pick's, when hinted
  auto consider = [&](size_t i, double score) {
    if (space.lookahead > 0) runnersUp.emplace_back(score, i);
    if (score < bestScore) bestScore = score, result.pick = i;
  };
  // Near the incumbent: the neighbour the model predicts fastest.
  if (space.neighbours && !okPoints.empty() && unit(rng) < kNeighbourPick) {
    size_t incumbent = okPoints[size_t(std::min_element(okLogs.begin(), okLogs.end()) - okLogs.begin())];
    for (size_t i : space.neighbours(incumbent))
      if (!seen(i)) consider(i, model.predict(table, i));
  }
  // Anywhere (also when every neighbour was measured): the lowest bound.
  if (!result.pick)
    for (size_t i = 0; i < space.size; ++i)
      if (!seen(i)) consider(i, model.optimistic(table, i));
  size_t keep = std::min(runnersUp.size(), space.lookahead + 1);
  std::partial_sort(runnersUp.begin(), runnersUp.begin() + ptrdiff_t(keep), runnersUp.end());
  for (size_t k = 0; k < keep; ++k)
    if (runnersUp[k].second != result.pick) result.upcoming.push_back(runnersUp[k].second);
  return result;
}

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
  FeatureIds ids;
  FeatureTable table = featureTable(space, ids);
  PriorFit prior = priorRows(space.prior, ids);
  table.count = prior.table.count = ids.count();
  auto [model, priorModel] = startingModel(prior, table.count);
  const bool warm = priorModel.has_value();
  Observations observations;
  auto observe = [&](size_t i, std::optional<double> cost) {
    if (cost && *cost > 0) {
      observations.okPoints.push_back(i);
      observations.okLogs.push_back(std::log(*cost));
    } else if (!space.notAPoint || !space.notAPoint(i)) {
      observations.failedPoints.push_back(i);
    }
  };
  auto measure = [&](size_t i) { observe(i, evaluate(i)); };
  for (const auto &[i, cost] : observed) observe(i, cost);
  // A random start: about 2% of the space, 8 to 32 configurations.
  // With a prior, a few picks only: the prior ranks the space already.
  const size_t initial =
      warm ? std::min<size_t>(kPriorInitial, space.size) : std::clamp<size_t>(space.size / 50, 8, 32);
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
    ModelPick chosen;
    if ((observations.okPoints.empty() && !warm) || unit(rng) < kRandomPick) {
      chosen.pick = randomUnseen();
      if (chosen.pick) chosen.upcoming = unseenAfter(order, next + 1);
    } else {
      chosen = pickByModel(space, table, model, priorModel, observations, seen, rng, unit);
    }
    if (!chosen.pick) chosen.pick = randomUnseen(); // (no finite score)
    if (!chosen.pick) return;                       // every configuration measured
    if (chosen.upcoming.size() > space.lookahead) chosen.upcoming.resize(space.lookahead);
    hint(*chosen.pick, chosen.upcoming);
    measure(*chosen.pick);
  }
}

} // namespace liftcc::search
