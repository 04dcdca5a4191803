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
#include <exception>
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

search::Record evaluateVariant(const Program &program, const Variant &variant,
                               const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                               const ExploreOptions &options) {
  return evaluateVariant(program, variant, sizes, device, options,
                         randomInputBytes(typeCheck(program, sizes), sizes, 1));
}

search::Record evaluateVariant(const Program &program, const Variant &variant,
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

namespace {

/// A candidate built, and prepared unless it is no variant or a known duplicate.
struct BuiltAndPrepared {
  BuiltCandidate built;
  std::string identity;
  std::optional<PreparedVariant> prepared;
};

/// One exploration: the described space, this shard's candidates, the store
/// and the search's bookkeeping, shared by its phases (explore() runs them in
/// order: describe, look up the store and the knowledge, search, time the
/// finalists again, explain the win).
class Exploration {
public:
  Exploration(const Program &program, const std::map<std::string, int64_t> &sizes, tuner::Device &device,
              const ExploreOptions &options)
      : program_(program), sizes_(sizes), device_(device), options_(options), start_(std::chrono::steady_clock::now()),
        typed_(typeCheck(program, sizes)) {
    // The time budget bounds everything from here: enumerating, the
    // interpreter's references, preparing, and every launch, so that one slow
    // step cannot overrun it by more than its reaction time.
    if (options.budget.maxTime < std::chrono::hours(24 * 365))
      deadline_ = start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(options.budget.maxTime);
  }

  ExploreResult run() {
    if (!describe()) return std::move(result_);
    chooseCandidates();
    readStoreAndKnowledge();
    chooseBaselines();
    search();
    if (result_.best && options_.finalists > 0 && options_.finalistRounds > 0) timeFinalistsAgain();
    if (result_.best) explainBest();
    return std::move(result_);
  }

private:
  bool pastDeadline() const { return deadline_ && std::chrono::steady_clock::now() >= *deadline_; }

  /// The share of the budget left that the full-size reference may take
  /// (none without a budget), at least kMinReferenceSeconds.
  static constexpr double kReferenceShare = 0.25, kMinReferenceSeconds = 2.0;
  static constexpr const char *kReferenceShareText = "a quarter";
  std::optional<InterpretDeadline> referenceDeadline() const {
    if (!deadline_) return std::nullopt;
    const auto now = std::chrono::steady_clock::now();
    const double left = std::chrono::duration<double>(*deadline_ - now).count();
    const double seconds = std::max(kMinReferenceSeconds, kReferenceShare * left);
    return std::min(*deadline_, now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(seconds)));
  }
  double secondsSinceStart() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  /// The space, described, not built: each candidate's kernel is generated
  /// when the search picks it (thousands of kernels took 12-80 s before the
  /// first measurement; docs/exploration.md, Starting at once). False when
  /// the budget ended first.
  bool describe() {
    SpaceOptions spaceOptions = options_.space;
    spaceOptions.target = device_.target();
    spaceOptions.deadline = deadline_;
    try {
      space_ = describeSpace(typed_, device_.limits(), spaceOptions);
    } catch (const DeadlineReached &) {
      result_.budgetEndedWhile = "describing the space of variants";
      return false;
    }
    // Nothing to explore because no configuration lowers or the code
    // generator refused every program (e.g. an iterate over a tuple of
    // arrays): the first refusal, not "no variant".
    if (space_.candidates.empty() && space_.firstRefusal) std::rethrow_exception(space_.firstRefusal);
    result_.describeSeconds = secondsSinceStart();
    result_.spaceSize = space_.candidates.size();
    result_.distinctPrograms = space_.programs.size();
    result_.dropped = space_.dropped;
    result_.refused = space_.refused;
    result_.outputElements = scalarCount(typed_.body().typeOrThrow(), sizes_);
    return true;
  }

  /// This shard's candidates (every n-th configuration of the description).
  void chooseCandidates() {
    for (size_t i = 0; i < space_.candidates.size(); ++i)
      if (i % options_.shardCount == options_.shardIndex) mine_.push_back(i);
    result_.candidates = mine_.size();
    for (size_t i : mine_) myConfigurations_.push_back(space_.candidates[i].configuration);
    neighbourIndex_.emplace(myConfigurations_);
  }

  /// A record is reused only when it measured this program at these sizes
  /// with this very kernel on this device (a record of another device, e.g.
  /// merged into this store, is no timing here); before a candidate is built
  /// its key and the program say whether the store may answer for it (then it
  /// is free), and its kernel hash decides once built. Then what other
  /// explorations in this results directory measured (other sizes, devices,
  /// programs of the same shape): knowledge, never timings here.
  void readStoreAndKnowledge() {
    result_.storePath = storePathFor(options_.storeDir, device_.resultsName(), options_.programName, program_, sizes_);
    store_.emplace(result_.storePath, search::ResultStore::Access::Append, options_.storeDir);
    programKey_ = programHash(program_, sizes_);
    deviceName_ = device_.resultsName();
    for (const search::Record &r : store_->records())
      if (r.programHash == programKey_ && answers(r)) storedKeys_.insert(r.key);
    if (!options_.useKnowledge) return;
    Knowledge knowledge = gatherKnowledge(
        {options_.storeDir, options_.programName, programShape(program_), deviceName_, result_.storePath});
    result_.knownStrategies = std::move(knowledge.strategies);
    result_.knowledgeStores = std::move(knowledge.storesRead);
    result_.knowledgeNotes = std::move(knowledge.notes);
    result_.prior = std::move(knowledge.prior);
  }

  bool answers(const search::Record &r) const {
    return r.answersTimeout(options_.kernelTimeout.count()) && (r.device.empty() || r.device == deviceName_);
  }
  bool mayBeStored(size_t k) const { return storedKeys_.count(myConfigurations_[k].key()) != 0; }
  const search::Record *storedRecord(const Variant &variant) const {
    const search::Record *known = store_->findMeasuredOn(
        variant.configuration.key(), programKey_, kernelHash(variant.kernel, variant.configuration), deviceName_);
    return known && answers(*known) ? known : nullptr;
  }

  /// Each family's baseline: the best-known variant of that family (the
  /// caller's, then this results directory's knowledge), else its default;
  /// this shard's, as positions in mine_ (mine_[k] = shardIndex + k * shardCount).
  void chooseBaselines() {
    std::vector<std::string> knownStrategies = options_.knownStrategies;
    for (const KnownStrategy &known : result_.knownStrategies)
      if (!known.strategy.empty()) knownStrategies.push_back(known.strategy);
    for (size_t i : baselineCandidates(space_, knownStrategies))
      if (i % options_.shardCount == options_.shardIndex) {
        baselines_.push_back(i / options_.shardCount);
        baselineCandidatesSet_.insert(i);
      }
    result_.baselines = baselines_.size();
  }

  bool seenKernel(const std::string &identity) {
    std::lock_guard lock(seenMutex_);
    return seenKernels_.count(identity) != 0;
  }

  /// Keeps the compiled kernel of an evaluation for timing it again: at most
  /// the finalists and the plain default (the slowest other goes).
  void keepRunner(size_t evaluation, std::unique_ptr<tuner::CompiledKernel> runner) {
    if (!runner || options_.finalists == 0) return;
    keptRunners_[evaluation] = std::move(runner);
    if (keptRunners_.size() <= options_.finalists + 1) return;
    auto slowest = keptRunners_.end();
    for (auto it = keptRunners_.begin(); it != keptRunners_.end(); ++it)
      if (it->first != plainEvaluation_ &&
          (slowest == keptRunners_.end() ||
           result_.evaluations[it->first].record.medianNs > result_.evaluations[slowest->first].record.medianNs))
        slowest = it;
    keptRunners_.erase(slowest);
  }

  void cutBy(const char *what) {
    cutByBudget_ = true;
    if (result_.budgetEndedWhile.empty()) result_.budgetEndedWhile = what;
  }

  /// On a worker thread: candidate k built, and prepared unless it is no variant or a known duplicate.
  BuiltAndPrepared buildAndPrepare(size_t k) {
    BuiltAndPrepared out;
    if (pastDeadline()) throw DeadlineReached("the deadline passed before generating a variant's kernel");
    ++kernelsBuilt_;
    out.built = buildCandidate(space_, mine_[k]);
    if (!out.built.variant) return out;
    out.identity = kernelIdentity(*out.built.variant);
    if (!seenKernel(out.identity))
      out.prepared = prepareVariant(program_, *out.built.variant, sizes_, device_, deadline_);
    return out;
  }

  std::optional<double> notAVariant(size_t k, bool duplicate) {
    uncharged_.insert(k);
    ++(duplicate ? result_.duplicates : result_.skipped);
    return std::nullopt;
  }

  /// Whether the store answers for candidate k, exactly (its kernel hash):
  /// built here when its key and program are stored, and kept for `cost`.
  bool answeredByStore(size_t k) {
    if (!mayBeStored(k)) return false;
    auto it = builtForStore_.find(k);
    if (it == builtForStore_.end()) {
      ++kernelsBuilt_;
      it = builtForStore_.emplace(k, buildCandidate(space_, mine_[k])).first;
    }
    const std::optional<Variant> &variant = it->second.variant;
    return variant && !seenKernel(kernelIdentity(*variant)) && storedRecord(*variant) != nullptr;
  }

  /// Candidate k built (by the store check, here, or by a worker), its
  /// evaluation answered by the store where it can be. Throws DeadlineReached.
  BuiltAndPrepared readyCandidate(size_t k, Evaluation &evaluation) {
    std::optional<BuiltAndPrepared> ready;
    if (auto it = builtForStore_.find(k); it != builtForStore_.end()) {
      BuiltAndPrepared built{std::move(it->second), "", std::nullopt};
      builtForStore_.erase(it);
      if (built.built.variant) built.identity = kernelIdentity(*built.built.variant);
      ready = std::move(built);
    } else if (mayBeStored(k)) {
      // Built here to check the stored record's kernel hash (nothing to prepare if it answers).
      if (pastDeadline()) throw DeadlineReached("the deadline passed before generating a variant's kernel");
      ++kernelsBuilt_;
      BuiltAndPrepared built{buildCandidate(space_, mine_[k]), "", std::nullopt};
      if (built.built.variant) built.identity = kernelIdentity(*built.built.variant);
      ready = std::move(built);
    }
    if (ready && ready->built.variant && !seenKernel(ready->identity)) {
      if (const search::Record *known = storedRecord(*ready->built.variant)) {
        evaluation.record = *known;
        evaluation.fromStore = true;
        // Records stored before strategies existed: the same configuration's.
        if (evaluation.record.strategy.empty()) evaluation.record.strategy = strategyText(*ready->built.variant);
      }
    }
    if (!evaluation.fromStore && (!ready || (ready->built.variant && !seenKernel(ready->identity)))) {
      auto waitStart = std::chrono::steady_clock::now();
      ready = preparation_->take(k);
      result_.preparationWaitSeconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart).count();
    }
    return std::move(*ready);
  }

  /// Verifies and times the variant of `ready` (its record in `evaluation`,
  /// appended to the store); false when the budget cut it short.
  bool measure(BuiltAndPrepared &ready, Evaluation &evaluation, std::unique_ptr<tuner::CompiledKernel> &runner) {
    const Variant &variant = *ready.built.variant;
    // Generated on the first measurement only: a resumed run that finds
    // everything in the store never pays for them.
    if (!fullSizeInputs_) {
      // Interpreting sampled points of a heavy program at full size (a
      // radius-4 3D box iterated: minutes) may take a share of the budget,
      // not all of it: past that share the timed runs go unchecked at full
      // size (each variant is still verified at its small size), so that a
      // short exploration of such a program still measures something.
      std::optional<InterpretDeadline> share = referenceDeadline();
      try {
        fullSizeInputs_ = randomInputBytes(typed_, sizes_, 1);
        fullReference_ = fullSizeReference(typed_, sizes_, *fullSizeInputs_, share);
      } catch (const DeadlineReached &) {
        if (pastDeadline()) {
          fullSizeInputs_.reset();
          cutBy("computing the interpreter's reference at sampled points of the full size");
          return false;
        }
        fullReference_.emplace();
        fullReference_->unavailable = "the interpreter's reference at sampled points of the full size took more than " +
                                      std::string(kReferenceShareText) + " of the budget";
      }
    }
    try {
      auto measureStart = std::chrono::steady_clock::now();
      // Prepared unless the kernel was a known duplicate when a worker built it (it is not now).
      PreparedVariant prepared =
          ready.prepared ? std::move(*ready.prepared) : prepareVariant(program_, variant, sizes_, device_, deadline_);
      if (!result_.firstMeasurementSeconds) result_.firstMeasurementSeconds = secondsSinceStart();
      evaluation.record =
          measurePreparedVariant(std::move(prepared), program_, variant, sizes_, device_, options_, *fullSizeInputs_,
                                 deadline_, &*fullReference_, progress_.bestNs, &runner);
      result_.measureSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - measureStart).count();
    } catch (const tuner::KernelTimeoutError &) {
      // Cut by the budget: unfinished, so not recorded (a later run measures it).
      cutBy("verifying and timing a variant");
      return false;
    } catch (const DeadlineReached &) {
      cutBy("computing a variant's interpreter reference at its small verification size");
      return false;
    }
    // A timed-out kernel made the device rebuild its context: kernels
    // compiled ahead in the old one would queue behind it.
    // So would the kernels kept for re-timing.
    if (evaluation.record.outcome == search::Outcome::Timeout) {
      preparation_->discardAll();
      keptRunners_.clear();
    }
    store_->append(evaluation.record);
    return true;
  }

  /// Records an evaluation of candidate k (its kernel now seen) and reports progress.
  void record(size_t k, const std::string &identity, const Variant &variant, const Evaluation &evaluation,
              std::unique_ptr<tuner::CompiledKernel> runner) {
    {
      std::lock_guard lock(seenMutex_);
      seenKernels_.insert(identity);
    }
    evaluatedVariantOf_.emplace(mine_[k], variant);
    result_.evaluations.push_back(evaluation);
    evaluatedVariants_.push_back(mine_[k]);
    if (evaluation.configuration == Configuration{}) plainEvaluation_ = result_.evaluations.size() - 1;
    if (evaluation.record.outcome == search::Outcome::Ok) keepRunner(result_.evaluations.size() - 1, std::move(runner));
    bool ok = evaluation.record.outcome == search::Outcome::Ok;
    if (ok && (!result_.best || search::fasterRecord(evaluation.record, result_.evaluations[*result_.best].record))) {
      progress_.bestNs = evaluation.record.medianNs;
      progress_.bestKey = evaluation.record.key;
      result_.best = result_.evaluations.size() - 1;
    }
    ++progress_.done;
    progress_.elapsedSeconds = secondsSinceStart();
    if (options_.onProgress) options_.onProgress(progress_);
  }

  /// The search's cost of candidate k: its median time, or none (failed, no variant, cut short).
  std::optional<double> cost(size_t k) {
    if (!result_.firstCandidateSeconds) result_.firstCandidateSeconds = secondsSinceStart();
    Evaluation evaluation{myConfigurations_[k], {}, false};
    std::unique_ptr<tuner::CompiledKernel> runner; ///< the measured kernel, compiled
    BuiltAndPrepared ready;
    try {
      ready = readyCandidate(k, evaluation);
    } catch (const DeadlineReached &) {
      cutBy("generating a variant's kernel");
      return std::nullopt;
    }
    if (!ready.built.variant) return notAVariant(k, false);
    if (seenKernel(ready.identity)) return notAVariant(k, true);
    if (!evaluation.fromStore && !measure(ready, evaluation, runner)) return std::nullopt;
    record(k, ready.identity, *ready.built.variant, evaluation, std::move(runner));
    if (evaluation.record.outcome != search::Outcome::Ok) return std::nullopt;
    return evaluation.record.medianNs;
  }

  /// The progress total: the candidates, or those stored plus the baselines
  /// not stored (not charged against maxEvaluations) plus maxEvaluations.
  void countProgressTotal() {
    size_t stored = 0;
    for (size_t k = 0; k < mine_.size(); ++k) stored += mayBeStored(k);
    size_t unstoredBaselines = 0;
    for (size_t k : baselines_) unstoredBaselines += !mayBeStored(k);
    progress_.total = std::min(mine_.size(), options_.budget.maxEvaluations == SIZE_MAX
                                                 ? SIZE_MAX
                                                 : stored + unstoredBaselines + options_.budget.maxEvaluations);
  }

  search::SearchSpace searchSpace(size_t workers) {
    search::SearchSpace searchSpace;
    searchSpace.size = mine_.size();
    searchSpace.neighbours = [this](size_t k) { return neighbourIndex_->of(k); };
    searchSpace.features = [this](size_t k) { return searchFeatures(myConfigurations_[k]); };
    searchSpace.notAPoint = [this](size_t k) { return uncharged_.count(k) != 0; };
    searchSpace.first = baselines_;
    if (options_.strategy == search::SearchStrategy::Model) {
      searchSpace.prior = result_.prior;
      result_.priorObservationsUsed = result_.prior.size();
    }
    if (workers > 0) {
      searchSpace.lookahead = kPreparedAheadPerThread * workers;
      searchSpace.upcoming = [this](const std::vector<size_t> &next) {
        std::vector<size_t> toMeasure; // stored records are read, not measured
        for (size_t k : next)
          if (!mayBeStored(k)) toMeasure.push_back(k);
        preparation_->upcoming(toMeasure);
      };
    }
    return searchSpace;
  }

  search::SearchBudget searchBudget() {
    search::SearchBudget budget = options_.budget;
    // Pruning judges each low-level program by its variants measured so far.
    if (budget.pruning.slowerThan > 0) {
      programGroups_ = programGroupIds(myConfigurations_);
      budget.pruning.group = [this](size_t k) { return programGroups_[k]; };
    }
    // Records from the store cost nothing: --evals counts new measurements;
    // nor do candidates that turn out to be no variant of their own.
    budget.free = [this](size_t k) { return answeredByStore(k); };
    budget.uncharged = [this](size_t k) { return uncharged_.count(k) != 0; };
    // With finalists to time again, the search leaves the last fifth of a time
    // budget to them (and to the copy roof timed in their rounds): a search
    // that ran to the deadline left its winner timed once, on a 30 s budget too.
    searchDeadline_ = deadline_;
    if (deadline_ && options_.finalists > 0)
      searchDeadline_ =
          start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(options_.budget.maxTime.count() * kSearchShareOfTime));
    budget.stop = [this] {
      return cutByBudget_ || (searchDeadline_ && std::chrono::steady_clock::now() >= *searchDeadline_) ||
             (options_.budget.stop && options_.budget.stop());
    };
    return budget;
  }

  /// Worker threads build the candidates the search will measure next and
  /// prepare their verification, while this thread measures (the device
  /// never runs two of them at once).
  void search() {
    countProgressTotal();
    const size_t workers = preparationThreads(options_, device_);
    result_.preparationThreads = workers;
    preparation_.emplace(workers, kPreparedAheadPerThread * workers + 1,
                         [this](size_t k) { return buildAndPrepare(k); });
    search::CostFunction costOf = [this](size_t k) { return cost(k); };
    result_.pruned =
        search::runSearch(options_.strategy, searchSpace(workers), costOf, searchBudget(), options_.seed).pruned;
    result_.preparedAhead = preparation_->takenFromWorkers();
    preparation_->discardAll(); // no compiling beside the finalists' timing
    result_.kernelsBuilt = kernelsBuilt_;
    for (size_t e = 0; e < result_.evaluations.size(); ++e)
      if (baselineCandidatesSet_.count(evaluatedVariants_[e])) {
        ++result_.baselinesEvaluated;
        result_.baselinesFromStore += result_.evaluations[e].fromStore;
      }
    if (result_.evaluations.empty() && pastDeadline() && result_.budgetEndedWhile.empty())
      result_.budgetEndedWhile = "preparing the first variant";
  }

  const Variant &variantOfEvaluation(size_t e) const { return evaluatedVariantOf_.at(evaluatedVariants_[e]); }

  /// The kernel each finalist's record timed: kept from its measurement,
  /// else (read from the store) compiled again: the same kernel hash.
  std::vector<std::unique_ptr<tuner::CompiledKernel>> finalistRunners(const std::vector<size_t> &finalists,
                                                                      std::vector<std::string> &compileErrors) {
    std::vector<std::unique_ptr<tuner::CompiledKernel>> runners;
    for (size_t f = 0; f < finalists.size(); ++f) {
      if (auto it = keptRunners_.find(finalists[f]); it != keptRunners_.end()) {
        runners.push_back(std::move(it->second));
        continue;
      }
      try {
        runners.push_back(device_.compile(variantOfEvaluation(finalists[f]).kernel));
      } catch (const std::exception &e) {
        runners.push_back(nullptr);
        compileErrors[f] = e.what();
      }
    }
    keptRunners_.clear();
    return runners;
  }

  /// The finalists timed again in interleaved rounds, the copy roof with them.
  void timeFinalistsAgain() {
    if (pastDeadline()) {
      result_.retimingSkipped = "the time budget ended before the finalists could be timed again";
      return;
    }
    std::vector<size_t> finalists = chooseFinalists(result_.evaluations, options_.finalists, plainEvaluation_);
    std::vector<std::string> compileErrors(finalists.size());
    std::vector<std::unique_ptr<tuner::CompiledKernel>> runners = finalistRunners(finalists, compileErrors);
    if (!fullSizeInputs_) fullSizeInputs_ = randomInputBytes(typed_, sizes_, 1);
    const size_t roofEntrant = finalists.size();
    const size_t roofBytes = roofBufferBytes(bytesPerOutput(), result_.outputElements);
    bool timedOut = false;
    auto time = [&](size_t entrant, bool warmup) -> double {
      if (entrant == roofEntrant) return timeRoof(roofBytes);
      if (!runners[entrant]) throw std::runtime_error("compiling it again failed: " + compileErrors[entrant]);
      try {
        return timeVariantAgain(*runners[entrant], variantOfEvaluation(finalists[entrant]), sizes_, options_,
                                *fullSizeInputs_, deadline_, warmup ? 1 : 0);
      } catch (const tuner::KernelTimeoutError &) {
        device_.rebuild(); // the kernel may still run in the device's context
        // The budget ended during the launch: the rounds completed before stay.
        if (pastDeadline()) throw RoundCut("the time budget ended");
        timedOut = true;
        throw;
      }
    };
    Rounds rounds = timeInRounds(
        finalists.size() + (options_.measureRoof ? 1 : 0), options_.finalistRounds, time,
        [&] { return timedOut || pastDeadline(); }, deadline_);
    if (timedOut) {
      result_.retimingSkipped = "a finalist's launch ran past the kernel timeout while timing it again: the winner is "
                                "the fastest single timing";
    } else if (rounds.completed == 0) {
      result_.retimingSkipped = "the time budget ended before one round of timing the finalists again";
    } else {
      acceptRounds(finalists, rounds, roofEntrant);
    }
  }

  /// One round's copy roof (0: none this round; search::roofFraction skips it).
  /// The first round probes every copy candidate; later rounds time the
  /// one that won it.
  double timeRoof(size_t roofBytes) {
    try {
      tuner::CopyProbe probe;
      probe.bufferBytes = roofBytes;
      if (roundsRoof_) probe.onlyCandidate = roundsRoof_->copy;
      tuner::CopyBandwidth copy = device_.measureCopyBandwidth(probe);
      if (!roundsRoof_ || copy.bytesPerSecond > roundsRoof_->bytesPerSecond)
        roundsRoof_ = MeasuredRoof{copy.bytesPerSecond, copy.candidates.at(copy.roof).label(), copy.bufferBytes};
      return copy.bytesPerSecond;
    } catch (const std::exception &) {
      return 0;
    }
  }

  /// The finalists' records from their completed rounds; the winner the fastest of them.
  void acceptRounds(const std::vector<size_t> &finalists, const Rounds &rounds, size_t roofEntrant) {
    result_.finalistRounds = rounds.completed;
    std::optional<size_t> winner;
    size_t left = 0;
    std::string firstFailure;
    for (size_t f = 0; f < finalists.size(); ++f) {
      if (rounds.figures[f].size() != rounds.completed) {
        ++left;
        if (firstFailure.empty())
          firstFailure = result_.evaluations[finalists[f]].record.key + ": " + rounds.failures[f];
        continue;
      }
      Evaluation &e = result_.evaluations[finalists[f]];
      e.record = retimedRecord(e.record, rounds.figures[f]);
      store_->append(e.record); // supersedes its single timing (search::ResultStore::append)
      ++result_.finalistsRetimed;
      if (!winner || search::fasterRecord(e.record, result_.evaluations[*winner].record)) winner = finalists[f];
    }
    if (winner) {
      result_.best = *winner;
      progress_.bestNs = result_.evaluations[*winner].record.medianNs;
      progress_.bestKey = result_.evaluations[*winner].record.key;
      if (options_.measureRoof)
        roofInRounds_ = search::roofFraction(result_.evaluations[*winner].record.roundsNs, rounds.figures[roofEntrant],
                                             result_.outputElements, bytesPerOutput());
    }
    if (rounds.completed < options_.finalistRounds)
      result_.retimingSkipped = "the time budget ended after " + std::to_string(rounds.completed) + " of " +
                                std::to_string(options_.finalistRounds) + " rounds";
    if (left > 0)
      result_.retimingSkipped += std::string(result_.retimingSkipped.empty() ? "" : "; ") + std::to_string(left) +
                                 " finalist(s) left the rounds (" + firstFailure + ")";
  }

  double bytesPerOutput() const { return compulsoryBytesPerOutput(typed_, sizes_); }

  /// Why the best won, its roof, and its best-kernel directory.
  void explainBest() {
    // The kernel that record measured (its kernel hash is this variant's).
    const Evaluation &best = result_.evaluations[*result_.best];
    const double perOutput = bytesPerOutput();
    int64_t outputScalars = scalarCount(typed_.body().typeOrThrow(), sizes_);
    result_.why = explainWin(result_.evaluations, *result_.best, perOutput, result_.outputElements, [&](size_t i) {
      return modelledBytesPerOutput(variantOfEvaluation(i).kernel, perOutput, sizes_, outputScalars);
    });
    // The roof is measured while the budget lasts (a few seconds of copies):
    // in the finalists' rounds, else once now.
    if (roofInRounds_ && !roofInRounds_->perRound.empty()) {
      result_.why->roofInRounds = roofInRounds_;
      result_.why->roof = roundsRoof_;
    } else if (options_.measureRoof && !pastDeadline()) {
      result_.why->roof = measureRoof(device_, perOutput, result_.outputElements);
    }
    result_.bestKernelDir =
        writeBestKernel(options_.storeDir, device_.resultsName(), options_.programName, sizesKey(program_, sizes_),
                        variantOfEvaluation(*result_.best), best.record, result_.outputElements, &*result_.why);
  }

  const Program &program_;
  const std::map<std::string, int64_t> &sizes_;
  tuner::Device &device_;
  const ExploreOptions &options_;
  const std::chrono::steady_clock::time_point start_;
  std::optional<tuner::Deadline> deadline_;
  std::optional<tuner::Deadline> searchDeadline_;
  const Program typed_;
  ExploreResult result_;
  SpaceDescription space_;
  std::vector<size_t> mine_; ///< this shard's candidates
  std::vector<Configuration> myConfigurations_;
  std::optional<NeighbourIndex> neighbourIndex_;
  std::optional<search::ResultStore> store_;
  std::string programKey_, deviceName_;
  std::set<std::string> storedKeys_;
  std::vector<size_t> baselines_; ///< positions in mine_
  std::set<size_t> baselineCandidatesSet_;
  std::vector<size_t> programGroups_;
  // Kernels (and launches) evaluated so far, for the deduplication
  // enumerateSpace did up front: the first configuration evaluated keeps a
  // kernel. Workers read it to skip preparing a known duplicate.
  std::mutex seenMutex_;
  std::set<std::string> seenKernels_;
  std::atomic<size_t> kernelsBuilt_{0};
  std::set<size_t> uncharged_;                   ///< candidates found to be no variant of their own
  std::map<size_t, Variant> evaluatedVariantOf_; ///< by candidate: the variants of result.evaluations
  // The compiled full-size kernels of the fastest evaluations measured so
  // far (by index into result.evaluations), for re-timing the finalists
  // without compiling them again; the plain default's is kept too.
  std::map<size_t, std::unique_ptr<tuner::CompiledKernel>> keptRunners_;
  std::optional<size_t> plainEvaluation_; ///< the plain default baseline's index in result.evaluations
  std::optional<tuner::InputBytes> fullSizeInputs_;
  std::optional<FullSizeReference> fullReference_; ///< of fullSizeInputs_, computed with them
  std::vector<size_t> evaluatedVariants_;          ///< the candidate of each of result.evaluations
  Progress progress_;
  bool cutByBudget_ = false;
  std::map<size_t, BuiltCandidate> builtForStore_; ///< built for the store check, kept for `cost`
  std::optional<search::RoofFraction> roofInRounds_;
  std::optional<MeasuredRoof> roundsRoof_;
  /// Last: its workers use the members above until it is destroyed (joined).
  std::optional<PrefetchPool<BuiltAndPrepared>> preparation_;
};

} // namespace

ExploreResult explore(const Program &program, const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                      const ExploreOptions &options) {
  if (options.shardCount == 0 || options.shardIndex >= options.shardCount)
    throw std::invalid_argument("shard index must be below the shard count");
  return Exploration(program, sizes, device, options).run();
}

} // namespace liftcc::explore
