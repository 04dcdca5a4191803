#include "bench/search/store_replay.h"

#include "core/error.h"
#include "explore/configuration.h"
#include "explore/knowledge.h"
#include "explore/space.h"
#include "search/result_store.h"

#include <map>

namespace liftcc::bench {

StoreReplay loadStoreReplay(const std::string &path) {
  search::ResultStore store(path, search::ResultStore::Access::Read);
  StoreReplay replay;
  std::vector<explore::Configuration> configurations;
  for (const search::Record &r : store.records()) {
    configurations.push_back(explore::Configuration::fromJson(r.configuration));
    replay.keys.push_back(r.key);
    replay.costs.push_back(r.outcome == search::Outcome::Ok ? std::optional<double>(r.medianNs) : std::nullopt);
  }
  replay.programGroups = explore::programGroupIds(configurations);
  const search::Record *best = store.best();
  if (!best) throw Error(path + ": no successful record");
  replay.optimum = best->medianNs;
  // The same neighbourhoods and features as explore() gives its search.
  std::vector<std::vector<size_t>> neighbours = explore::neighbourLists(configurations);
  std::vector<std::vector<std::string>> features;
  for (const explore::Configuration &c : configurations) features.push_back(explore::searchFeatures(c));
  replay.space.size = neighbours.size();
  replay.space.neighbours = [neighbours](size_t i) { return neighbours[i]; };
  replay.space.features = [features](size_t i) { return features[i]; };
  return replay;
}

WarmStart warmStartFrom(const StoreReplay &replay, const std::string &otherStore) {
  search::ResultStore other(otherStore, search::ResultStore::Access::Read);
  explore::Knowledge knowledge;
  explore::addStoreKnowledge(other.records(), otherStore, explore::KnowledgeSource::OtherSize, knowledge);
  WarmStart warm{replay, {}, knowledge.prior.size(), knowledge.strategies.size()};
  warm.replay.space.prior = std::move(knowledge.prior);
  std::map<std::string, size_t> indexOf;
  for (size_t i = 0; i < replay.keys.size(); ++i) indexOf.emplace(replay.keys[i], i);
  for (const explore::KnownStrategy &known : knowledge.strategies)
    if (auto it = indexOf.find(known.key); it != indexOf.end()) warm.knownFirst.push_back(it->second);
  return warm;
}

ReplayRun replaySearch(search::SearchStrategy strategy, const StoreReplay &replay, double target, uint64_t seed,
                       double pruneSlowerThan) {
  ReplayRun run;
  size_t evaluations = 0;
  search::CostFunction cost = [&](size_t i) {
    ++evaluations;
    const std::optional<double> &c = replay.costs[i];
    if (c && *c <= target && !run.toWithin) run.toWithin = evaluations;
    if (c && *c <= replay.optimum && !run.toOptimum) run.toOptimum = evaluations;
    return c;
  };
  // No budget: the run goes on until both numbers are found (at worst the
  // whole space); budgets are applied afterwards.
  search::SearchBudget untilFound;
  untilFound.stop = [&] { return run.toWithin && run.toOptimum; };
  if (pruneSlowerThan > 0) {
    // Pruned runs stop at the target: the optimum may have been pruned,
    // and searching the rest of the space for it would only add time.
    untilFound.stop = [&] { return run.toWithin != 0; };
    untilFound.pruning.slowerThan = pruneSlowerThan;
    untilFound.pruning.group = [&](size_t i) { return replay.programGroups[i]; };
  }
  run.pruned = search::runSearch(strategy, replay.space, cost, untilFound, seed).pruned;
  return run;
}

} // namespace liftcc::bench
