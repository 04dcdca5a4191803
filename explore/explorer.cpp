#include "explore/explorer.h"

#include "core/error.h"

#include "core/interp/deadline.h"
#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "explore/baselines.h"
#include "explore/best_kernels.h"
#include "explore/finalists.h"
#include "explore/knowledge.h"
#include "explore/prefetch_pool.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "explore/variant_evaluation.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace liftcc::explore {

namespace {
/// The share of a time budget (ExploreOptions::budget.maxTime) the search
/// may use when finalists are timed again after it (ExploreOptions::finalists):
/// the rest is theirs.
constexpr double kSearchShareOfTime = 0.8;
} // namespace

tuner::Record evaluateVariant(const Program &program, const Variant &variant,
                              const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                              const ExploreOptions &options) {
  return evaluateVariant(program, variant, sizes, device, options,
                         randomInputBytes(typeCheck(program, sizes), sizes, 1));
}

tuner::Record evaluateVariant(const Program &program, const Variant &variant,
                              const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                              const ExploreOptions &options, const tuner::InputBytes &fullSizeInputs,
                              std::optional<tuner::Deadline> deadline, const FullSizeReference *reference) {
  return measurePreparedVariant(prepareVariant(program, variant, sizes, device, deadline), program, variant, sizes,
                                device, options, fullSizeInputs, deadline, reference);
}

size_t preparationThreads(const ExploreOptions &options, const tuner::Device &device) {
  if (options.prepareThreads) return *options.prepareThreads;
  // On a CPU device the host's cores run the kernels: compiling beside a
  // timing would slow the kernel being timed.
  if (device.runsOnHostCores()) return 0;
  size_t hardware = std::thread::hardware_concurrency();
  return std::clamp<size_t>(hardware > 1 ? hardware - 1 : 1, 1, kMaxPreparationThreads);
}

std::optional<std::string> invalidProgramName(const std::string &name) {
  if (name.empty()) return std::string("is empty");
  if (name.size() > 100) return "has " + std::to_string(name.size()) + " characters (at most 100)";
  if (name[0] == '.') return std::string("starts with '.'");
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return std::string("may contain only letters, digits, '-', '_' and '.'");
  return std::nullopt;
}

std::string programNameFromStem(const std::string &stem) {
  std::string name;
  for (char c : stem.substr(0, 100)) {
    bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    if (plain && !(name.empty() && c == '.'))
      name += c;
    else if (!plain && !name.empty() && name.back() != '-')
      name += '-';
  }
  return name.empty() ? "program" : name;
}

std::string storePathFor(const std::string &resultsDir, const std::string &deviceName, const std::string &programName,
                         const Program &program, const std::map<std::string, int64_t> &sizes) {
  // The name becomes a directory: never a path of its own (../../x, /etc).
  if (auto why = invalidProgramName(programName))
    throw std::invalid_argument("program name '" + programName + "' " + *why);
  return (std::filesystem::path(resultsDir) / deviceSlug(deviceName) / programName /
          (sizesKey(program, sizes) + ".jsonl"))
      .string();
}

std::string deviceSlug(const std::string &deviceName) {
  std::string slug;
  for (char c : deviceName) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "device" : slug;
}

std::string sizesKey(const Program &program, const std::map<std::string, int64_t> &sizes) {
  std::string key;
  for (const arith::Expr &var : program.sizes) {
    auto it = sizes.find(var.varName());
    key += (key.empty() ? "" : ",") + var.varName() + "=" + (it == sizes.end() ? "?" : std::to_string(it->second));
  }
  return key.empty() ? "scalar" : key;
}

ExploreResult explore(const Program &program, const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                      const ExploreOptions &options) {
  if (options.shardCount == 0 || options.shardIndex >= options.shardCount)
    throw std::invalid_argument("shard index must be below the shard count");
  auto start = std::chrono::steady_clock::now();
  // The time budget bounds everything from here: enumerating, the
  // interpreter's references, preparing, and every launch, so that one slow
  // step cannot overrun it by more than its reaction time.
  std::optional<tuner::Deadline> deadline;
  if (options.budget.maxTime < std::chrono::hours(24 * 365))
    deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(options.budget.maxTime);
  auto pastDeadline = [&] { return deadline && std::chrono::steady_clock::now() >= *deadline; };
  auto secondsSinceStart = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Program typed = typeCheck(program, sizes);
  SpaceOptions spaceOptions = options.space;
  spaceOptions.target = device.target();
  spaceOptions.deadline = deadline;
  ExploreResult result;
  // The space is described, not built: each candidate's kernel is generated
  // when the search picks it (thousands of kernels took 12-80 s before the
  // first measurement; docs/exploration.md, Starting at once).
  SpaceDescription space;
  try {
    space = describeSpace(typed, device.limits(), spaceOptions);
  } catch (const DeadlineReached &) {
    result.budgetEndedWhile = "describing the space of variants";
    return result;
  }
  result.describeSeconds = secondsSinceStart();

  result.spaceSize = space.candidates.size();
  result.distinctPrograms = space.programs.size();
  result.dropped = space.dropped;
  result.outputElements = scalarCount(typed.body().typeOrThrow(), sizes);

  // This shard's candidates (every n-th configuration of the description).
  std::vector<size_t> mine;
  for (size_t i = 0; i < space.candidates.size(); ++i)
    if (i % options.shardCount == options.shardIndex) mine.push_back(i);
  result.candidates = mine.size();
  std::vector<Configuration> myConfigurations;
  for (size_t i : mine) myConfigurations.push_back(space.candidates[i].configuration);
  const NeighbourIndex neighbourIndex(myConfigurations);

  result.storePath = storePathFor(options.storeDir, device.resultsName(), options.programName, program, sizes);
  tuner::ResultStore store(result.storePath, tuner::ResultStore::Access::Append, options.storeDir);

  // A record is reused only when it measured this program at these sizes
  // with this very kernel on this device (a record of another device, e.g.
  // merged into this store, is no timing here); before a candidate is built its key and the
  // program say whether the store may answer for it (then it is free), and
  // its kernel hash decides once built.
  const std::string programKey = programHash(program, sizes);
  const std::string deviceName = device.resultsName();
  auto answers = [&](const tuner::Record &r) {
    return r.answersTimeout(options.kernelTimeout.count()) && (r.device.empty() || r.device == deviceName);
  };
  std::set<std::string> storedKeys;
  for (const tuner::Record &r : store.records())
    if (r.programHash == programKey && answers(r)) storedKeys.insert(r.key);
  auto mayBeStored = [&](size_t k) { return storedKeys.count(myConfigurations[k].key()) != 0; };
  auto storedRecord = [&](const Variant &variant) -> const tuner::Record * {
    const tuner::Record *known = store.findMeasuredOn(variant.configuration.key(), programKey,
                                                      kernelHash(variant.kernel, variant.configuration), deviceName);
    return known && answers(*known) ? known : nullptr;
  };

  // What other explorations in this results directory measured (other sizes,
  // devices, programs of the same shape): knowledge, never timings here.
  if (options.useKnowledge) {
    Knowledge knowledge = gatherKnowledge(
        {options.storeDir, options.programName, programShape(program), deviceName, result.storePath});
    result.knownStrategies = std::move(knowledge.strategies);
    result.knowledgeStores = std::move(knowledge.storesRead);
    result.knowledgeNotes = std::move(knowledge.notes);
    result.prior = std::move(knowledge.prior);
  }

  // The baselines of this shard, as positions in `mine` (mine[k] = shardIndex + k * shardCount).
  std::vector<size_t> baselines;
  std::set<size_t> baselineCandidatesSet;
  // Each family's baseline: the best-known variant of that family (the
  // caller's, then this results directory's knowledge), else its default.
  std::vector<std::string> knownStrategies = options.knownStrategies;
  for (const KnownStrategy &known : result.knownStrategies)
    if (!known.strategy.empty()) knownStrategies.push_back(known.strategy);
  for (size_t i : baselineCandidates(space, knownStrategies))
    if (i % options.shardCount == options.shardIndex) {
      baselines.push_back(i / options.shardCount);
      baselineCandidatesSet.insert(i);
    }
  result.baselines = baselines.size();

  // Kernels (and launches) evaluated so far, for the deduplication
  // enumerateSpace did up front: the first configuration evaluated keeps a
  // kernel. Workers read it to skip preparing a known duplicate.
  std::mutex seenMutex;
  std::set<std::string> seenKernels;
  auto seenKernel = [&](const std::string &identity) {
    std::lock_guard lock(seenMutex);
    return seenKernels.count(identity) != 0;
  };
  std::atomic<size_t> kernelsBuilt{0};
  std::set<size_t> uncharged; ///< candidates found to be no variant of their own
  std::map<size_t, Variant> evaluatedVariantOf; ///< by candidate: the variants of result.evaluations
  // The compiled full-size kernels of the fastest evaluations measured so
  // far (by index into result.evaluations), for re-timing the finalists
  // without compiling them again; the plain default's is kept too.
  std::map<size_t, std::unique_ptr<tuner::CompiledKernel>> keptRunners;
  std::optional<size_t> plainEvaluation; ///< the plain default baseline's index in result.evaluations
  auto keepRunner = [&](size_t evaluation, std::unique_ptr<tuner::CompiledKernel> runner) {
    if (!runner || options.finalists == 0) return;
    keptRunners[evaluation] = std::move(runner);
    // At most the finalists and the plain default: the slowest other goes.
    if (keptRunners.size() <= options.finalists + 1) return;
    auto slowest = keptRunners.end();
    for (auto it = keptRunners.begin(); it != keptRunners.end(); ++it)
      if (it->first != plainEvaluation &&
          (slowest == keptRunners.end() ||
           result.evaluations[it->first].record.medianNs > result.evaluations[slowest->first].record.medianNs))
        slowest = it;
    keptRunners.erase(slowest);
  };

  std::optional<tuner::InputBytes> fullSizeInputs;
  std::optional<FullSizeReference> fullReference; ///< of fullSizeInputs, computed with them
  std::vector<size_t> evaluatedVariants;          ///< the candidate of each of result.evaluations
  Progress progress;
  size_t stored = 0;
  for (size_t k = 0; k < mine.size(); ++k) stored += mayBeStored(k);
  // Baselines are not charged against maxEvaluations: those not stored come on top.
  size_t unstoredBaselines = 0;
  for (size_t k : baselines) unstoredBaselines += !mayBeStored(k);
  progress.total =
      std::min(mine.size(), options.budget.maxEvaluations == SIZE_MAX
                                ? SIZE_MAX
                                : stored + unstoredBaselines + options.budget.maxEvaluations);
  bool cutByBudget = false;
  auto cutBy = [&](const char *what) {
    cutByBudget = true;
    if (result.budgetEndedWhile.empty()) result.budgetEndedWhile = what;
  };
  // A candidate built, and prepared unless it is no variant or a known duplicate.
  struct BuiltAndPrepared {
    BuiltCandidate built;
    std::string identity;
    std::optional<PreparedVariant> prepared;
  };
  auto buildAndPrepare = [&](size_t k) {
    BuiltAndPrepared out;
    if (deadline && std::chrono::steady_clock::now() >= *deadline)
      throw DeadlineReached("the deadline passed before generating a variant's kernel");
    ++kernelsBuilt;
    out.built = buildCandidate(space, mine[k]);
    if (!out.built.variant) return out;
    out.identity = kernelIdentity(*out.built.variant);
    if (!seenKernel(out.identity))
      out.prepared = prepareVariant(program, *out.built.variant, sizes, device, deadline);
    return out;
  };
  // Worker threads build the candidates the search will measure next and
  // prepare their verification, while this thread measures (the device never
  // runs two of them at once).
  const size_t workers = preparationThreads(options, device);
  result.preparationThreads = workers;
  PrefetchPool<BuiltAndPrepared> preparation(workers, kPreparedAheadPerThread * workers + 1, buildAndPrepare);
  auto notAVariant = [&](size_t k, bool duplicate) -> std::optional<double> {
    uncharged.insert(k);
    ++(duplicate ? result.duplicates : result.skipped);
    return std::nullopt;
  };
  // Whether the store answers for candidate k, exactly (its kernel hash):
  // built here when its key and program are stored, and kept for `cost`.
  std::map<size_t, BuiltCandidate> builtForStore;
  auto answeredByStore = [&](size_t k) {
    if (!mayBeStored(k)) return false;
    auto it = builtForStore.find(k);
    if (it == builtForStore.end()) {
      ++kernelsBuilt;
      it = builtForStore.emplace(k, buildCandidate(space, mine[k])).first;
    }
    const std::optional<Variant> &variant = it->second.variant;
    return variant && !seenKernel(kernelIdentity(*variant)) && storedRecord(*variant) != nullptr;
  };
  tuner::CostFunction cost = [&](size_t k) -> std::optional<double> {
    if (!result.firstCandidateSeconds) result.firstCandidateSeconds = secondsSinceStart();
    Evaluation evaluation{myConfigurations[k], {}, false};
    std::unique_ptr<tuner::CompiledKernel> runner; ///< the measured kernel, compiled
    std::optional<BuiltAndPrepared> ready;
    try {
      if (auto it = builtForStore.find(k); it != builtForStore.end()) {
        BuiltAndPrepared built{std::move(it->second), "", std::nullopt};
        builtForStore.erase(it);
        if (built.built.variant) built.identity = kernelIdentity(*built.built.variant);
        ready = std::move(built);
      } else if (mayBeStored(k)) {
        // Built here to check the stored record's kernel hash (nothing to prepare if it answers).
        if (deadline && std::chrono::steady_clock::now() >= *deadline)
          throw DeadlineReached("the deadline passed before generating a variant's kernel");
        ++kernelsBuilt;
        BuiltAndPrepared built{buildCandidate(space, mine[k]), "", std::nullopt};
        if (built.built.variant) built.identity = kernelIdentity(*built.built.variant);
        ready = std::move(built);
      }
      if (ready && ready->built.variant && !seenKernel(ready->identity)) {
        if (const tuner::Record *known = storedRecord(*ready->built.variant)) {
          evaluation.record = *known;
          evaluation.fromStore = true;
          // Records stored before strategies existed: the same configuration's.
          if (evaluation.record.strategy.empty()) evaluation.record.strategy = strategyText(*ready->built.variant);
        }
      }
      if (!evaluation.fromStore && (!ready || (ready->built.variant && !seenKernel(ready->identity)))) {
        auto waitStart = std::chrono::steady_clock::now();
        ready = preparation.take(k);
        result.preparationWaitSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart).count();
      }
    } catch (const DeadlineReached &) {
      cutBy("generating a variant's kernel");
      return std::nullopt;
    }
    if (!ready->built.variant) return notAVariant(k, false);
    if (seenKernel(ready->identity)) return notAVariant(k, true);
    const Variant &variant = *ready->built.variant;
    if (!evaluation.fromStore) {
      // Generated on the first measurement only: a resumed run that finds
      // everything in the store never pays for them.
      if (!fullSizeInputs) {
        try {
          fullSizeInputs = randomInputBytes(typed, sizes, 1);
          fullReference = fullSizeReference(typed, sizes, *fullSizeInputs, deadline);
        } catch (const DeadlineReached &) {
          fullSizeInputs.reset();
          cutBy("computing the interpreter's reference at sampled points of the full size");
          return std::nullopt;
        }
      }
      try {
        auto measureStart = std::chrono::steady_clock::now();
        // Prepared unless the kernel was a known duplicate when a worker built it (it is not now).
        PreparedVariant prepared = ready->prepared
                                       ? std::move(*ready->prepared)
                                       : prepareVariant(program, variant, sizes, device, deadline);
        if (!result.firstMeasurementSeconds) result.firstMeasurementSeconds = secondsSinceStart();
        evaluation.record = measurePreparedVariant(std::move(prepared), program, variant, sizes, device, options,
                                                   *fullSizeInputs, deadline, &*fullReference, progress.bestNs, &runner);
        result.measureSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - measureStart).count();
      } catch (const tuner::KernelTimeoutError &) {
        // Cut by the budget: unfinished, so not recorded (a later run measures it).
        cutBy("verifying and timing a variant");
        return std::nullopt;
      } catch (const DeadlineReached &) {
        cutBy("computing a variant's interpreter reference at its small verification size");
        return std::nullopt;
      }
      // A timed-out kernel made the device rebuild its context: kernels
      // compiled ahead in the old one would queue behind it.
      // So would the kernels kept for re-timing.
      if (evaluation.record.outcome == tuner::Outcome::Timeout) {
        preparation.discardAll();
        keptRunners.clear();
      }
      store.append(evaluation.record);
    }
    {
      std::lock_guard lock(seenMutex);
      seenKernels.insert(ready->identity);
    }
    evaluatedVariantOf.emplace(mine[k], variant);
    result.evaluations.push_back(evaluation);
    evaluatedVariants.push_back(mine[k]);
    if (evaluation.configuration == Configuration{}) plainEvaluation = result.evaluations.size() - 1;
    if (evaluation.record.outcome == tuner::Outcome::Ok) keepRunner(result.evaluations.size() - 1, std::move(runner));
    bool ok = evaluation.record.outcome == tuner::Outcome::Ok;
    if (ok && (!progress.bestNs || evaluation.record.medianNs < *progress.bestNs)) {
      progress.bestNs = evaluation.record.medianNs;
      progress.bestKey = evaluation.record.key;
      result.best = result.evaluations.size() - 1;
    }
    ++progress.done;
    progress.elapsedSeconds = secondsSinceStart();
    if (options.onProgress) options.onProgress(progress);
    if (!ok) return std::nullopt;
    return evaluation.record.medianNs;
  };
  tuner::SearchSpace searchSpace;
  searchSpace.size = mine.size();
  searchSpace.neighbours = [&](size_t k) { return neighbourIndex.of(k); };
  searchSpace.features = [&](size_t k) { return searchFeatures(myConfigurations[k]); };
  searchSpace.notAPoint = [&](size_t k) { return uncharged.count(k) != 0; };
  searchSpace.first = baselines;
  if (options.strategy == tuner::SearchStrategy::Model) {
    searchSpace.prior = result.prior;
    result.priorObservationsUsed = result.prior.size();
  }
  if (workers > 0) {
    searchSpace.lookahead = kPreparedAheadPerThread * workers;
    searchSpace.upcoming = [&](const std::vector<size_t> &next) {
      std::vector<size_t> toMeasure; // stored records are read, not measured
      for (size_t k : next)
        if (!mayBeStored(k)) toMeasure.push_back(k);
      preparation.upcoming(toMeasure);
    };
  }
  tuner::SearchBudget budget = options.budget;
  // Pruning judges each low-level program by its variants measured so far.
  std::vector<size_t> programGroups;
  if (budget.pruning.slowerThan > 0) {
    programGroups = programGroupIds(myConfigurations);
    budget.pruning.group = [&](size_t k) { return programGroups[k]; };
  }
  // Records from the store cost nothing: --evals counts new measurements;
  // nor do candidates that turn out to be no variant of their own.
  budget.free = answeredByStore;
  budget.uncharged = [&](size_t k) { return uncharged.count(k) != 0; };
  // With finalists to time again, the search leaves the last fifth of a time
  // budget to them (and to the copy roof timed in their rounds): a search
  // that ran to the deadline left its winner timed once, on a 30 s budget too.
  std::optional<tuner::Deadline> searchDeadline = deadline;
  if (deadline && options.finalists > 0)
    searchDeadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(options.budget.maxTime.count() * kSearchShareOfTime));
  budget.stop = [&] {
    return cutByBudget || (searchDeadline && std::chrono::steady_clock::now() >= *searchDeadline) ||
           (options.budget.stop && options.budget.stop());
  };
  result.pruned = tuner::runSearch(options.strategy, searchSpace, cost, budget, options.seed).pruned;
  result.preparedAhead = preparation.takenFromWorkers();
  preparation.discardAll(); // no compiling beside the finalists' timing
  result.kernelsBuilt = kernelsBuilt;
  for (size_t e = 0; e < result.evaluations.size(); ++e)
    if (baselineCandidatesSet.count(evaluatedVariants[e])) {
      ++result.baselinesEvaluated;
      result.baselinesFromStore += result.evaluations[e].fromStore;
    }
  if (result.evaluations.empty() && pastDeadline() && result.budgetEndedWhile.empty())
    result.budgetEndedWhile = "preparing the first variant";

  const double bytesPerOutput = compulsoryBytesPerOutput(typed, sizes);
  // The finalists timed again in interleaved rounds, the copy roof with them.
  std::optional<tuner::RoofFraction> roofInRounds;
  std::optional<MeasuredRoof> roundsRoof;
  if (result.best && options.finalists > 0 && options.finalistRounds > 0) {
    if (pastDeadline()) {
      result.retimingSkipped = "the time budget ended before the finalists could be timed again";
    } else {
      std::vector<size_t> finalists = chooseFinalists(result.evaluations, options.finalists, plainEvaluation);
      auto variantOf = [&](size_t e) -> const Variant & { return evaluatedVariantOf.at(evaluatedVariants[e]); };
      // The kernel each finalist's record timed: kept from its measurement,
      // else (read from the store) compiled again: the same kernel hash.
      std::vector<std::unique_ptr<tuner::CompiledKernel>> runners;
      std::vector<std::string> compileErrors(finalists.size());
      for (size_t f = 0; f < finalists.size(); ++f) {
        if (auto it = keptRunners.find(finalists[f]); it != keptRunners.end()) {
          runners.push_back(std::move(it->second));
          continue;
        }
        try {
          runners.push_back(device.compile(variantOf(finalists[f]).kernel));
        } catch (const std::exception &e) {
          runners.push_back(nullptr);
          compileErrors[f] = e.what();
        }
      }
      keptRunners.clear();
      if (!fullSizeInputs) fullSizeInputs = randomInputBytes(typed, sizes, 1);
      const size_t roofEntrant = finalists.size();
      const size_t roofBytes = roofBufferBytes(bytesPerOutput, result.outputElements);
      bool timedOut = false;
      auto time = [&](size_t entrant, bool warmup) -> double {
        if (entrant == roofEntrant) {
          try {
            tuner::CopyBandwidth copy = device.measureCopyBandwidth(/*warmups=*/1, /*runs=*/3, roofBytes);
            if (!roundsRoof || copy.bytesPerSecond > roundsRoof->bytesPerSecond)
              roundsRoof = MeasuredRoof{copy.bytesPerSecond, copy.candidates.at(copy.roof).label(), copy.bufferBytes};
            return copy.bytesPerSecond;
          } catch (const std::exception &) {
            return 0; // this round has no roof (tuner::roofFraction skips it)
          }
        }
        if (!runners[entrant]) throw std::runtime_error("compiling it again failed: " + compileErrors[entrant]);
        try {
          return timeVariantAgain(*runners[entrant], variantOf(finalists[entrant]), sizes, options, *fullSizeInputs,
                                  deadline, warmup ? 1 : 0);
        } catch (const tuner::KernelTimeoutError &) {
          device.rebuild(); // the kernel may still run in the device's context
          timedOut = true;
          throw;
        }
      };
      Rounds rounds = timeInRounds(finalists.size() + (options.measureRoof ? 1 : 0), options.finalistRounds, time,
                                   [&] { return timedOut || pastDeadline(); });
      if (timedOut) {
        result.retimingSkipped = "a finalist's launch ran past the " +
                                 std::string(pastDeadline() ? "time budget" : "kernel timeout") +
                                 " while timing it again: the winner is the fastest single timing";
      } else if (rounds.completed == 0) {
        result.retimingSkipped = "the time budget ended before one round of timing the finalists again";
      } else {
        result.finalistRounds = rounds.completed;
        std::optional<size_t> winner;
        size_t left = 0;
        std::string firstFailure;
        for (size_t f = 0; f < finalists.size(); ++f) {
          if (rounds.figures[f].size() != rounds.completed) {
            ++left;
            if (firstFailure.empty())
              firstFailure = result.evaluations[finalists[f]].record.key + ": " + rounds.failures[f];
            continue;
          }
          Evaluation &e = result.evaluations[finalists[f]];
          e.record = retimedRecord(e.record, rounds.figures[f]);
          store.append(e.record); // supersedes its single timing (tuner::ResultStore::append)
          ++result.finalistsRetimed;
          if (!winner || e.record.medianNs < result.evaluations[*winner].record.medianNs) winner = finalists[f];
        }
        if (winner) {
          result.best = *winner;
          progress.bestNs = result.evaluations[*winner].record.medianNs;
          progress.bestKey = result.evaluations[*winner].record.key;
          if (options.measureRoof)
            roofInRounds = tuner::roofFraction(result.evaluations[*winner].record.roundsNs, rounds.figures[roofEntrant],
                                               result.outputElements, bytesPerOutput);
        }
        if (rounds.completed < options.finalistRounds)
          result.retimingSkipped = "the time budget ended after " + std::to_string(rounds.completed) + " of " +
                                   std::to_string(options.finalistRounds) + " rounds";
        if (left > 0)
          result.retimingSkipped += std::string(result.retimingSkipped.empty() ? "" : "; ") + std::to_string(left) +
                                    " finalist(s) left the rounds (" + firstFailure + ")";
      }
    }
  }

  if (result.best) {
    // The kernel that record measured (its kernel hash is this variant's).
    const Evaluation &best = result.evaluations[*result.best];
    int64_t outputScalars = scalarCount(typed.body().typeOrThrow(), sizes);
    result.why = explainWin(result.evaluations, *result.best, bytesPerOutput, result.outputElements, [&](size_t i) {
      return modelledBytesPerOutput(evaluatedVariantOf.at(evaluatedVariants[i]).kernel, bytesPerOutput, sizes, outputScalars);
    });
    // The roof is measured while the budget lasts (a few seconds of copies):
    // in the finalists' rounds, else once now.
    if (roofInRounds && !roofInRounds->perRound.empty()) {
      result.why->roofInRounds = roofInRounds;
      result.why->roof = roundsRoof;
    } else if (options.measureRoof && !pastDeadline()) {
      result.why->roof = measureRoof(device, bytesPerOutput, result.outputElements);
    }
    result.bestKernelDir = writeBestKernel(options.storeDir, device.resultsName(), options.programName,
                                           sizesKey(program, sizes), evaluatedVariantOf.at(evaluatedVariants[*result.best]),
                                           best.record, result.outputElements, &*result.why);
  }
  return result;
}

} // namespace liftcc::explore
