#pragma once
// The exploration driver: describes a program's space of low-level variants
// (explore/space.h, describeSpace; no kernel generated yet), then builds,
// compiles, verifies (against the interpreter, at a small size), times them
// and checks the timed kernel's output at sampled points of the full size, on a device (OpenCL or CUDA, through
// tuner::Device) in the order a search strategy chooses, within a budget. Every evaluation goes to the result store
// first, so an interrupted run resumes where it stopped. Worker threads compile and prepare the variants the search
// names next (explore/variant_evaluation.h, explore/prefetch_pool.h); only the calling thread runs kernels.

#include "explore/full_size_check.h"
#include "explore/knowledge.h"
#include "explore/sass_check.h"
#include "explore/space.h"
#include "explore/win_explanation.h"
#include "search/result_store.h"
#include "search/search.h"
#include "tuner/device.h"
#include "tuner/run_plan.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace liftcc::explore {

struct Progress {
  size_t done = 0, total = 0;
  std::optional<double> bestNs;
  std::string bestKey;
  double elapsedSeconds = 0;
};

struct ExploreOptions {
  std::string programName = "program";
  std::string storeDir = "results";
  search::SearchStrategy strategy = search::SearchStrategy::Exhaustive;
  search::SearchBudget budget;
  uint64_t seed = 1;
  size_t shardIndex = 0, shardCount = 1; ///< evaluate candidates i with i % count == index
  int warmups = 1, timedRuns = 5;
  /// A variant whose first timed run is this many times slower than the
  /// best variant measured so far is timed once, not timedRuns times
  /// (tuner::LaunchConfig::stopAboveNs); 0: always timedRuns.
  double timeOnceWhenSlowerThan = 10;
  /// A kernel launch that runs longer is abandoned and recorded as `timeout`
  /// (the device's context is rebuilt), with this timeout: a later run with
  /// a longer one measures the variant again. The time budget also bounds every
  /// launch, and the interpreter's references: an evaluation cut short by it is not recorded.
  std::chrono::duration<double> kernelTimeout{search::kDefaultKernelTimeoutSeconds};
  SpaceOptions space;
  std::function<void(const Progress &)> onProgress;
  /// Measure the device's copy roof (a few seconds), so that the best
  /// kernel's explanation (explore/win_explanation.h) gives its fraction of
  /// it: in every round of the finalists' re-timing, or once after the
  /// search when there is none. Off, the explanation has traffic and bandwidth only.
  bool measureRoof = false;
  /// Strategy texts of best variants known from other result stores: each
  /// family's first one that is a candidate of this space is its baseline
  /// (explore/baselines.h) instead of the family's fixed default.
  std::vector<std::string> knownStrategies;
  /// At the end of the search the `finalists` fastest successful variants
  /// (and the plain default baseline) are timed again in `finalistRounds`
  /// interleaved rounds (explore/finalists.h); the winner is the best median
  /// of its rounds, stored with them (search::Record::roundsNs). 0: no re-timing.
  size_t finalists = 5;
  unsigned finalistRounds = 5;
  /// Worker threads that compile variants and prepare their verification
  /// (explore/variant_evaluation.h) ahead of the one thread that measures:
  /// 0 prepares each variant just before measuring it. nullopt chooses
  /// (preparationThreads): none on a device that computes on the host's
  /// cores, else the host's hardware threads less one, at most kMaxPreparationThreads.
  std::optional<size_t> prepareThreads;
  /// What a CUDA variant's SASS figures must meet to be timed (explore/sass_check.h).
  SassRequirements sass;
  /// Learn from the other stores of storeDir (explore/knowledge.h): other
  /// sizes of this program, this program on other devices, programs of the
  /// same shape. Their winning strategies are listed in
  /// ExploreResult::knownStrategies and the model search's surrogate starts
  /// from a prior fitted on their records. Off: every exploration starts cold
  /// (`liftc explore --no-knowledge`).
  bool useKnowledge = true;
};

constexpr size_t kMaxPreparationThreads = 8;
/// Variants queued, being prepared or ready per worker thread.
constexpr size_t kPreparedAheadPerThread = 2;
/// The worker threads an exploration with these options uses on `device`.
size_t preparationThreads(const ExploreOptions &options, const tuner::Device &device);

struct Evaluation {
  Configuration configuration;
  search::Record record;
  /// Read from the result store, not measured by this run: only measured
  /// evaluations count against budget.maxEvaluations, so a resumed run gets further.
  bool fromStore = false;
};

struct ExploreResult {
  /// spaceSize: the configurations of the space's description (describeSpace),
  /// before the checks that need their kernels; candidates: this shard's.
  size_t spaceSize = 0, distinctPrograms = 0, dropped = 0, candidates = 0;
  /// Of `dropped`, the low-level programs the code generator refused (the
  /// rest do not fit the device).
  size_t refused = 0;
  /// Candidates the search picked that were no variant of their own, neither
  /// measured nor charged: `duplicates` generated a kernel and launch already
  /// evaluated under another configuration, `skipped` none of their own
  /// (buildCandidate: a specialisation that changes nothing, ...).
  size_t duplicates = 0, skipped = 0;
  /// Candidates whose kernels this run generated (the rest of the space never was).
  size_t kernelsBuilt = 0;
  /// Seconds from the start to the space's description, to the search's
  /// first candidate (building its kernel), and to the start of the first
  /// measurement (its variant compiled and prepared, running it on the
  /// device to verify it; unset when none was measured).
  double describeSeconds = 0;
  std::optional<double> firstCandidateSeconds, firstMeasurementSeconds;
  /// Baselines (explore/baselines.h) of this shard, evaluated before the
  /// search: how many there are, were evaluated, and of those came from the store.
  size_t baselines = 0, baselinesEvaluated = 0, baselinesFromStore = 0;
  /// Finalists re-timed in `finalistRounds` completed rounds (0 when none
  /// were); `retimingSkipped` says why they were not, or not all of them
  /// (the budget ended, a launch failed), empty otherwise.
  size_t finalistsRetimed = 0;
  unsigned finalistRounds = 0;
  std::string retimingSkipped;
  size_t pruned = 0;             ///< variants skipped by budget.pruning (search::Pruning)
  size_t preparationThreads = 0; ///< worker threads that prepared variants ahead (ExploreOptions::prepareThreads)
  size_t preparedAhead = 0;      ///< measured variants whose preparation a worker had done
  /// Seconds the measuring thread spent obtaining prepared variants (preparing
  /// them itself, or waiting for a worker), and measuring them.
  double preparationWaitSeconds = 0, measureSeconds = 0;
  /// In evaluation order, the baselines first; a re-timed finalist's record
  /// is the one with its rounds (search::Record::roundsNs).
  std::vector<Evaluation> evaluations;
  /// Index into evaluations: the finalist with the best median of rounds, or
  /// without re-timing the fastest successful evaluation.
  std::optional<size_t> best;
  std::string storePath;
  std::string bestKernelDir; ///< where the best kernel was written (if any)
  int64_t outputElements = 0;
  /// Why the best won (set with `best`); also in the best kernel's launch.json.
  std::optional<WinExplanation> why;
  /// What the exploration was doing when its time budget ended before the
  /// search was done (e.g. "enumerating the variants"); empty otherwise.
  /// With no evaluation at all, the budget could not measure one variant.
  std::string budgetEndedWhile;
  /// Knowledge from the other stores of the results directory (with
  /// ExploreOptions::useKnowledge): the winning strategies there, ranked
  /// (explore/knowledge.h), the stores read, and what was skipped.
  std::vector<KnownStrategy> knownStrategies;
  std::vector<std::string> knowledgeStores, knowledgeNotes;
  /// Their records as prior observations, and how many the search used (the
  /// model strategy only; 0 for the others).
  std::vector<search::PriorObservation> prior;
  size_t priorObservationsUsed = 0;
};

/// A file-name-safe rendering of a device name ("pthread-skylake-avx512-AMD EPYC" ->
/// "pthread-skylake-avx512-amd-epyc").
std::string deviceSlug(const std::string &deviceName);
/// Why `name` cannot be a program name in a results directory (it becomes a
/// directory name: letters, digits, '-', '_' and '.', at most 100 characters,
/// not starting with '.'), or nullopt when it can.
std::optional<std::string> invalidProgramName(const std::string &name);
/// A valid program name made from a file name's stem ("...json" -> "program").
std::string programNameFromStem(const std::string &stem);
/// "N=64,M=32" in declaration order.
std::string sizesKey(const Program &program, const std::map<std::string, int64_t> &sizes);

/// Verifies one variant against the interpreter at a small size, then times
/// it at `sizes` and checks the timed kernel's full-size output at sampled
/// points (explore/full_size_check.h): a disagreement is Correctness. Failures are outcomes of the record, never
/// exceptions: liftcc's own failures (InternalError, or any unexpected exception) are recorded as Outcome::Bug. The one
/// exception: a launch that does not complete by `deadline` (the end of a budget) throws tuner::KernelTimeoutError
/// after rebuilding the device, since that is no property of the variant.
search::Record evaluateVariant(const Program &program, const Variant &variant,
                               const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                               const ExploreOptions &options);
/// The same with the full-size inputs given (randomInputBytes of the typed
/// program at `sizes`), so that an exploration generates them once.
/// `reference` is fullSizeReference of those inputs (computed here when null).
search::Record evaluateVariant(const Program &program, const Variant &variant,
                               const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                               const ExploreOptions &options, const tuner::InputBytes &fullSizeInputs,
                               std::optional<tuner::Deadline> deadline = std::nullopt,
                               const FullSizeReference *reference = nullptr);

/// Path of the result store of (program, sizes, device) under a results
/// directory; `deviceName` is the device's resultsName().
std::string storePathFor(const std::string &resultsDir, const std::string &deviceName, const std::string &programName,
                         const Program &program, const std::map<std::string, int64_t> &sizes);

/// `program` is the untyped high-level program; `sizes` binds all its sizes.
/// The space is generated in the device's dialect and filtered by its limits.
ExploreResult explore(const Program &program, const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                      const ExploreOptions &options);

} // namespace liftcc::explore
