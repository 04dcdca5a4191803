// search_replay: how quickly do the search strategies of `liftc explore`
// find a good variant? Measuring that on the device would take one full
// exploration per strategy and seed, so this replays them against a recorded
// exhaustive exploration instead: the result store holds the time of every
// point of the space, and the cost function just looks it up.
//
//   search_replay STORE.jsonl [--seeds N] [--within 0.05] [--prune 2,3,5] [--warm-from OTHER.jsonl]
//                 [--reproduce 0.05,0.1]
//
// For random search and simulated annealing (and exhaustive search in the
// store's order, as the baseline) it reports, over N seeds, how many
// evaluations it takes to reach a variant within 5% of the exhaustive optimum
// and to reach the optimum itself, and how often a budget of a fixed fraction
// of the space suffices. --prune F,... adds rows with each strategy pruned
// (search::Pruning: a low-level program is skipped once 2 of its variants ran
// and its best is more than F times the best so far): the evaluations it
// saves, the variants it skipped, and how often it lost the 5% target.
// --warm-from OTHER adds rows with the model search warm-started from another
// store (another size of the program, issue #36 item 3): "model warm" with the
// prior explore() would fit on OTHER's records (explore/knowledge.h), and
// "known+warm" measuring OTHER's known winning strategies first (those whose
// configuration key this space has, ranked), then the warm model search; the
// latter counts a known strategy the search picks again twice, so it is an
// upper bound of what measuring them first and then searching costs.
// --reproduce F,... (issue #36 item 4, on replay): for each budget of a share
// F of the space, two model searches with seeds s and s+1 crown their best;
// the row gives the share of the N pairs whose two crowned times are within
// 5% of each other, and their median and worst ratio. Replayed times are
// exact, so this is the search's own spread, not the machine's noise.
//
// The store must hold the whole space (an exhaustive `liftc explore` without
// --evals/--budget/--shard); search strategies see exactly the points and
// neighbourhoods `liftc explore` would give them.

#include "bench/search/store_replay.h"
#include "tuner/median.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace liftcc;

/// Never (0) counts as the whole space: a search that misses pays for all of it.
std::vector<size_t> neverAsAll(std::vector<size_t> v, size_t all) {
  for (size_t &x : v)
    if (x == 0) x = all;
  return v;
}

double mean(const std::vector<size_t> &v) {
  return double(std::accumulate(v.begin(), v.end(), size_t(0))) / double(v.size());
}

double fractionWithin(const std::vector<size_t> &v, size_t budget) {
  return double(std::count_if(v.begin(), v.end(), [&](size_t n) { return n <= budget; })) / double(v.size());
}

const char *const kUsage = "usage: search_replay STORE.jsonl [--seeds N] [--within 0.05] [--prune F,...] "
                           "[--warm-from OTHER.jsonl] [--reproduce F,...]";

struct Options {
  std::string path;
  uint64_t seeds = 1000;
  double within = 0.05;
  std::vector<double> prunings;
  std::string warmFrom;
  std::vector<double> reproduceBudgets;
};

/// "0.05,0.1" as numbers.
std::vector<double> numberList(const std::string &list) {
  std::vector<double> values;
  for (size_t start = 0; start <= list.size();) {
    size_t comma = std::min(list.find(',', start), list.size());
    values.push_back(std::stod(list.substr(start, comma - start)));
    start = comma + 1;
  }
  return values;
}

Options parseOptions(const std::vector<std::string> &args) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seeds" && i + 1 < args.size())
      o.seeds = std::stoull(args[++i]);
    else if (args[i] == "--prune" && i + 1 < args.size()) {
      std::vector<double> values = numberList(args[++i]);
      o.prunings.insert(o.prunings.end(), values.begin(), values.end());
    } else if (args[i] == "--reproduce" && i + 1 < args.size()) {
      std::vector<double> values = numberList(args[++i]);
      o.reproduceBudgets.insert(o.reproduceBudgets.end(), values.begin(), values.end());
    } else if (args[i] == "--warm-from" && i + 1 < args.size())
      o.warmFrom = args[++i];
    else if (args[i] == "--within" && i + 1 < args.size())
      o.within = std::stod(args[++i]);
    else if (o.path.empty() && args[i].rfind("--", 0) != 0)
      o.path = args[i];
    else
      throw std::invalid_argument(kUsage);
  }
  if (o.path.empty() || o.seeds == 0) throw std::invalid_argument(kUsage);
  return o;
}

/// One row of the table: evaluations until within the target (0: never),
/// until the optimum, and the variants pruned (empty: not pruned) per seed,
/// in a space of `n` variants.
void printRow(const std::string &name, const std::vector<size_t> &reached, const std::vector<size_t> &toOptimum,
              const std::vector<size_t> &pruned, size_t n) {
  const std::vector<size_t> toWithin = neverAsAll(reached, n);
  const double lost = double(std::count(reached.begin(), reached.end(), size_t(0))) / double(reached.size());
  std::cout << std::left << std::setw(12) << name << std::right << std::setprecision(1) << std::setw(12)
            << mean(toWithin) << std::setw(12) << tuner::median(toWithin) << std::setw(11)
            << 100 * mean(toWithin) / double(n) << "%" << std::setw(14);
  if (pruned.empty())
    std::cout << mean(neverAsAll(toOptimum, n));
  else
    std::cout << "-";
  std::cout << std::setprecision(0) << std::setw(11) << 100 * fractionWithin(toWithin, std::max<size_t>(1, n / 10))
            << "%" << std::setw(11) << 100 * fractionWithin(toWithin, std::max<size_t>(1, n / 4)) << "%" << std::setw(9)
            << 100 * lost << "%" << std::setw(10) << std::setprecision(1) << (pruned.empty() ? 0.0 : mean(pruned))
            << "\n";
}

/// The store's figures and the table's header.
void printHeader(const Options &o, const bench::StoreReplay &replay, double target) {
  size_t valid = size_t(std::count_if(replay.costs.begin(), replay.costs.end(), [](auto &c) { return c.has_value(); }));
  size_t good =
      size_t(std::count_if(replay.costs.begin(), replay.costs.end(), [&](auto &c) { return c && *c <= target; }));
  std::cout << "store: " << o.path << "\n"
            << "space: " << replay.costs.size() << " variants, " << valid << " valid, optimum " << std::fixed
            << std::setprecision(3) << replay.optimum / 1e6 << " ms, " << good << " within " << std::setprecision(0)
            << o.within * 100 << "% of it\n"
            << "seeds: " << o.seeds << "\n\n";
  std::cout << std::left << std::setw(12) << "strategy" << std::right << std::setw(12) << "mean to 5%" << std::setw(12)
            << "median" << std::setw(12) << "% of space" << std::setw(14) << "mean to opt" << std::setw(12) << "ok@10%"
            << std::setw(12) << "ok@25%" << std::setw(10) << "lost" << std::setw(10) << "skipped"
            << "\n";
}

/// The rows of exhaustive search and of each strategy over the seeds, unpruned and at each pruning level.
void printStrategyRows(const Options &o, const bench::StoreReplay &replay, double target) {
  size_t n = replay.costs.size();
  // Exhaustive search is deterministic: the store's order is the order it ran in.
  bench::ReplayRun exhaustive = bench::replaySearch(search::SearchStrategy::Exhaustive, replay, target, 1);
  printRow("exhaustive", {exhaustive.toWithin}, {exhaustive.toOptimum}, {}, n);
  std::vector<double> pruneLevels{0};
  pruneLevels.insert(pruneLevels.end(), o.prunings.begin(), o.prunings.end());
  for (double prune : pruneLevels)
    for (search::SearchStrategy strategy :
         {search::SearchStrategy::Random, search::SearchStrategy::Annealing, search::SearchStrategy::Model}) {
      std::vector<size_t> toWithin, toOptimum, pruned;
      for (uint64_t seed = 1; seed <= o.seeds; ++seed) {
        bench::ReplayRun s = bench::replaySearch(strategy, replay, target, seed, prune);
        toWithin.push_back(s.toWithin);
        toOptimum.push_back(s.toOptimum);
        if (prune > 0) pruned.push_back(s.pruned);
      }
      std::ostringstream name;
      name << search::strategyName(strategy);
      if (prune > 0) name << " p" << prune;
      printRow(name.str(), toWithin, toOptimum, pruned, n);
    }
}

/// The rows of the model search warm-started from another store (--warm-from).
void printWarmRows(const Options &o, const bench::StoreReplay &replay, double target) {
  size_t n = replay.costs.size();
  bench::WarmStart warm = bench::warmStartFrom(replay, o.warmFrom);
  std::vector<size_t> toWithin, toOptimum, knownThenWarm;
  // Measuring the known strategies first: evaluations until one is within the target, if one is.
  size_t knownReach = 0;
  for (size_t k = 0; k < warm.knownFirst.size() && !knownReach; ++k) {
    const std::optional<double> &c = replay.costs[warm.knownFirst[k]];
    if (c && *c <= target) knownReach = k + 1;
  }
  for (uint64_t seed = 1; seed <= o.seeds; ++seed) {
    bench::ReplayRun s = bench::replaySearch(search::SearchStrategy::Model, warm.replay, target, seed);
    toWithin.push_back(s.toWithin);
    toOptimum.push_back(s.toOptimum);
    size_t afterKnown = s.toWithin == 0 ? 0 : warm.knownFirst.size() + s.toWithin;
    knownThenWarm.push_back(knownReach ? knownReach : std::min(afterKnown, n));
  }
  printRow("model warm", toWithin, toOptimum, {}, n);
  printRow("known+warm", knownThenWarm, {}, std::vector<size_t>(knownThenWarm.size(), 0), n);
  std::cout << "\nwarm start from " << o.warmFrom << ": " << warm.priorObservations << " prior observations, "
            << warm.knownStrategies << " known strategies, " << warm.knownFirst.size()
            << " of them in this space (the first within " << std::setprecision(0) << o.within * 100
            << "%: " << (knownReach ? "#" + std::to_string(knownReach) : std::string("none")) << ")\n";
}

/// The reproducibility line of one budget, a share of the space (--reproduce).
void printReproducibility(const Options &o, const bench::StoreReplay &replay, double share) {
  const size_t budget = std::max<size_t>(1, size_t(share * double(replay.costs.size())));
  auto crowned = [&](uint64_t seed) {
    search::SearchBudget b;
    b.maxEvaluations = budget;
    search::SearchResult r = search::runSearch(
        search::SearchStrategy::Model, replay.space, [&](size_t i) { return replay.costs[i]; }, b, seed);
    return r.best ? r.bestCost : std::numeric_limits<double>::infinity();
  };
  std::vector<double> ratios;
  for (uint64_t seed = 1; seed <= o.seeds; ++seed) {
    double a = crowned(2 * seed - 1), b = crowned(2 * seed);
    ratios.push_back(std::max(a, b) / std::min(a, b));
  }
  std::sort(ratios.begin(), ratios.end());
  const double close = double(std::count_if(ratios.begin(), ratios.end(), [](double r) { return r <= 1.05; }));
  std::cout << "\nreproducibility, model, budget " << budget << " evaluations (" << std::setprecision(0) << share * 100
            << "% of the space), " << o.seeds << " seed pairs: " << 100 * close / double(o.seeds)
            << "% crown kernels within 5% of each other; ratio median " << std::setprecision(3)
            << ratios[ratios.size() / 2] << ", worst " << ratios.back() << "\n";
}

int run(int argc, char **argv) {
  Options o = parseOptions(std::vector<std::string>(argv + 1, argv + argc));
  bench::StoreReplay replay = bench::loadStoreReplay(o.path);
  double target = replay.optimum * (1 + o.within);
  printHeader(o, replay, target);
  printStrategyRows(o, replay, target);
  if (!o.warmFrom.empty()) printWarmRows(o, replay, target);
  for (double share : o.reproduceBudgets) printReproducibility(o, replay, share);
  std::cout << "\n'mean to 5%'/'median': evaluations until a variant within " << std::setprecision(0) << o.within * 100
            << "% of the optimum was measured (never: the whole space);\n'ok@10%'/'ok@25%': share of seeds that got "
               "there within a budget of 10%/25% of the space;\n'lost': seeds that never got there; 'skipped': "
               "variants pruned (rows 'pN': a program is skipped once 2 of its\nvariants ran and its best is more than "
               "N times the best so far).\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "search_replay: " << e.what() << "\n";
    return 1;
  }
}
