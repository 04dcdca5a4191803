#include "explore/explorer.h"

#include "core/error.h"

#include "core/interp/deadline.h"
#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "explore/best_kernels.h"
#include "explore/prefetch_pool.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "explore/variant_evaluation.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
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
  Program typed = typeCheck(program, sizes);
  SpaceOptions spaceOptions = options.space;
  spaceOptions.target = device.target();
  spaceOptions.deadline = deadline;
  ExploreResult result;
  Space space;
  try {
    space = enumerateSpace(typed, device.limits(), spaceOptions);
  } catch (const DeadlineReached &) {
    result.budgetEndedWhile = "enumerating the variants";
    return result;
  }

  result.spaceSize = space.variants.size();
  result.distinctPrograms = space.distinctPrograms;
  result.dropped = space.dropped;
  result.outputElements = scalarCount(typed.body().typeOrThrow(), sizes);

  // This shard's candidates, and their neighbourhoods restricted to them.
  std::vector<size_t> mine;
  for (size_t i = 0; i < space.variants.size(); ++i)
    if (i % options.shardCount == options.shardIndex) mine.push_back(i);
  result.candidates = mine.size();
  std::vector<std::vector<size_t>> allNeighbours = neighbourLists(space);
  std::map<size_t, size_t> local;
  for (size_t k = 0; k < mine.size(); ++k) local[mine[k]] = k;

  result.storePath = storePathFor(options.storeDir, device.resultsName(), options.programName, program, sizes);
  tuner::ResultStore store(result.storePath, tuner::ResultStore::Access::Append, options.storeDir);

  // Each candidate's identity in the store: a record is reused only when it
  // measured this program at these sizes with this very kernel.
  const std::string programKey = programHash(program, sizes);
  std::vector<std::string> identities(space.variants.size());
  for (size_t i : mine)
    identities[i] = tuner::Record::identityOf(space.variants[i].configuration.key(), programKey,
                                              kernelHash(space.variants[i].kernel, space.variants[i].configuration));
  // A stored record answers for a candidate unless it is a timeout under a
  // shorter timeout than this run's: that variant is measured again.
  auto storedRecord = [&](size_t variantIndex) -> const tuner::Record * {
    const tuner::Record *known = store.find(identities[variantIndex]);
    return known && known->answersTimeout(options.kernelTimeout.count()) ? known : nullptr;
  };
  std::optional<tuner::InputBytes> fullSizeInputs;
  std::optional<FullSizeReference> fullReference; ///< of fullSizeInputs, computed with them
  std::vector<size_t> evaluatedVariants;          ///< the variant of each of result.evaluations
  Progress progress;
  size_t stored = 0;
  for (size_t i : mine) stored += storedRecord(i) != nullptr;
  progress.total = std::min(
      mine.size(), options.budget.maxEvaluations == SIZE_MAX ? SIZE_MAX : stored + options.budget.maxEvaluations);
  bool cutByBudget = false;
  auto cutBy = [&](const char *what) {
    cutByBudget = true;
    if (result.budgetEndedWhile.empty()) result.budgetEndedWhile = what;
  };
  // Worker threads compile and prepare the verification of the variants the
  // search will measure next, while this thread measures (the device never
  // runs two of them at once).
  const size_t workers = preparationThreads(options, device);
  result.preparationThreads = workers;
  PrefetchPool<PreparedVariant> preparation(workers, kPreparedAheadPerThread * workers + 1, [&](size_t k) {
    return prepareVariant(program, space.variants[mine[k]], sizes, device, deadline);
  });
  tuner::CostFunction cost = [&](size_t k) -> std::optional<double> {
    const Variant &variant = space.variants[mine[k]];
    Evaluation evaluation{variant.configuration, {}, false};
    if (const tuner::Record *known = storedRecord(mine[k])) {
      evaluation.record = *known;
      evaluation.fromStore = true;
      // Records stored before strategies existed: the same configuration's.
      if (evaluation.record.strategy.empty()) evaluation.record.strategy = strategyText(variant);
    } else {
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
        auto waitStart = std::chrono::steady_clock::now();
        PreparedVariant prepared = preparation.take(k);
        result.preparationWaitSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart).count();
        auto measureStart = std::chrono::steady_clock::now();
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
    result.evaluations.push_back(evaluation);
    evaluatedVariants.push_back(mine[k]);
    bool ok = evaluation.record.outcome == tuner::Outcome::Ok;
    if (ok && (!progress.bestNs || evaluation.record.medianNs < *progress.bestNs)) {
      progress.bestNs = evaluation.record.medianNs;
      progress.bestKey = evaluation.record.key;
      result.best = result.evaluations.size() - 1;
    }
    ++progress.done;
    progress.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.onProgress) options.onProgress(progress);
    if (!ok) return std::nullopt;
    return evaluation.record.medianNs;
  };
  tuner::SearchSpace searchSpace;
  searchSpace.size = mine.size();
  searchSpace.neighbours = [&](size_t k) {
    std::vector<size_t> out;
    for (size_t n : allNeighbours[mine[k]])
      if (auto it = local.find(n); it != local.end()) out.push_back(it->second);
    return out;
  };
  searchSpace.features = [&](size_t k) { return searchFeatures(space.variants[mine[k]].configuration); };
  if (workers > 0) {
    searchSpace.lookahead = kPreparedAheadPerThread * workers;
    searchSpace.upcoming = [&](const std::vector<size_t> &next) {
      std::vector<size_t> toMeasure; // stored records are read, not measured
      for (size_t k : next)
        if (!storedRecord(mine[k])) toMeasure.push_back(k);
      preparation.upcoming(toMeasure);
    };
  }
  tuner::SearchBudget budget = options.budget;
  // Pruning judges each low-level program by its variants measured so far.
  std::vector<size_t> programGroups;
  if (budget.pruning.slowerThan > 0) {
    std::vector<Configuration> configurations;
    for (size_t index : mine) configurations.push_back(space.variants[index].configuration);
    programGroups = programGroupIds(configurations);
    budget.pruning.group = [&](size_t k) { return programGroups[k]; };
  }
  // Records from the store cost nothing: --evals counts new measurements.
  budget.free = [&](size_t k) { return storedRecord(mine[k]) != nullptr; };
  budget.stop = [&] { return cutByBudget || (options.budget.stop && options.budget.stop()); };
  result.pruned = tuner::runSearch(options.strategy, searchSpace, cost, budget, options.seed).pruned;
  result.preparedAhead = preparation.takenFromWorkers();
  if (result.evaluations.empty() && pastDeadline() && result.budgetEndedWhile.empty())
    result.budgetEndedWhile = "preparing the first variant";

  if (result.best) {
    // The kernel that record measured (its kernel hash is this variant's).
    const Evaluation &best = result.evaluations[*result.best];
    double bytesPerOutput = compulsoryBytesPerOutput(typed, sizes);
    int64_t outputScalars = scalarCount(typed.body().typeOrThrow(), sizes);
    result.why = explainWin(result.evaluations, *result.best, bytesPerOutput, result.outputElements, [&](size_t i) {
      return modelledBytesPerOutput(space.variants[evaluatedVariants[i]].kernel, bytesPerOutput, sizes, outputScalars);
    });
    // The roof is measured while the budget lasts (a few seconds of copies).
    if (options.measureRoof && !pastDeadline())
      result.why->roof = measureRoof(device, bytesPerOutput, result.outputElements);
    result.bestKernelDir = writeBestKernel(options.storeDir, device.resultsName(), options.programName,
                                           sizesKey(program, sizes), space.variants[evaluatedVariants[*result.best]],
                                           best.record, result.outputElements, &*result.why);
  }
  return result;
}

} // namespace liftcc::explore
