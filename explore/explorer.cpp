#include "explore/explorer.h"

#include "core/error.h"

#include "core/interp/deadline.h"
#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "explore/best_kernels.h"
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

  std::optional<tuner::InputBytes> fullSizeInputs;
  std::optional<FullSizeReference> fullReference; ///< of fullSizeInputs, computed with them
  std::vector<size_t> evaluatedVariants;          ///< the candidate of each of result.evaluations
  Progress progress;
  size_t stored = 0;
  for (size_t k = 0; k < mine.size(); ++k) stored += mayBeStored(k);
  progress.total = std::min(
      mine.size(), options.budget.maxEvaluations == SIZE_MAX ? SIZE_MAX : stored + options.budget.maxEvaluations);
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
                                                   *fullSizeInputs, deadline, &*fullReference, progress.bestNs);
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
      if (evaluation.record.outcome == tuner::Outcome::Timeout) preparation.discardAll();
      store.append(evaluation.record);
    }
    {
      std::lock_guard lock(seenMutex);
      seenKernels.insert(ready->identity);
    }
    evaluatedVariantOf.emplace(mine[k], variant);
    result.evaluations.push_back(evaluation);
    evaluatedVariants.push_back(mine[k]);
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
  budget.stop = [&] { return cutByBudget || (options.budget.stop && options.budget.stop()); };
  result.pruned = tuner::runSearch(options.strategy, searchSpace, cost, budget, options.seed).pruned;
  result.preparedAhead = preparation.takenFromWorkers();
  result.kernelsBuilt = kernelsBuilt;
  if (result.evaluations.empty() && pastDeadline() && result.budgetEndedWhile.empty())
    result.budgetEndedWhile = "preparing the first variant";

  if (result.best) {
    // The kernel that record measured (its kernel hash is this variant's).
    const Evaluation &best = result.evaluations[*result.best];
    double bytesPerOutput = compulsoryBytesPerOutput(typed, sizes);
    int64_t outputScalars = scalarCount(typed.body().typeOrThrow(), sizes);
    result.why = explainWin(result.evaluations, *result.best, bytesPerOutput, result.outputElements, [&](size_t i) {
      return modelledBytesPerOutput(evaluatedVariantOf.at(evaluatedVariants[i]).kernel, bytesPerOutput, sizes, outputScalars);
    });
    // The roof is measured while the budget lasts (a few seconds of copies).
    if (options.measureRoof && !pastDeadline())
      result.why->roof = measureRoof(device, bytesPerOutput, result.outputElements);
    result.bestKernelDir = writeBestKernel(options.storeDir, device.resultsName(), options.programName,
                                           sizesKey(program, sizes), evaluatedVariantOf.at(evaluatedVariants[*result.best]),
                                           best.record, result.outputElements, &*result.why);
  }
  return result;
}

} // namespace liftcc::explore
