#include "explore/explorer.h"

#include "core/error.h"

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/magnitudes.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "explore/best_kernels.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "tuner/backend_error.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <sstream>

namespace liftcc::explore {

namespace {

std::string firstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

/// Build logs beyond this are cut (a kernel with thousands of errors).
constexpr size_t kMaxStoredBuildLog = 16 * 1024;

/// Small sizes for checking a variant against the interpreter: 13 (which no
/// tile, factor or vector width divides, so partial tiles and vectors are
/// verified), at least the declared minimum, wide enough for a specialised
/// kernel's interior, and rounded up to a multiple of `factor` (see
/// verificationSizeFactors).
std::map<std::string, int64_t> verificationSizes(const Program &program, const Configuration &c, int64_t factor) {
  // The interior of a specialised kernel needs a few tiles or work-groups per
  // dimension, but the interpreter checks every point: in 3D, 4 x 32 per
  // dimension is 2 million points (14 s per variant on this project's
  // machine, more on slower host cores). The interior rule stops at this
  // many points; the sampled check of the timed full-size run covers the
  // interior beyond it.
  constexpr double kMaxSpecialisedPoints = 1 << 19;
  const auto interiorCap =
      int64_t(std::pow(kMaxSpecialisedPoints, 1.0 / double(std::max<size_t>(1, program.sizes.size()))));
  std::map<std::string, int64_t> sizes;
  for (const arith::Expr &var : program.sizes) {
    int64_t minimum = var.varRange().lo && var.varRange().lo->isConstant() ? var.varRange().lo->constant() : 1;
    int64_t v = std::max<int64_t>(13, minimum);
    // A specialised kernel is verified where it has an interior (work-groups
    // of up to 32 along a dimension, margins of a few elements) as well as borders.
    if (c.specialise && c.tile > 0) v = std::max(v, std::min(4 * c.tile, interiorCap));
    if (c.specialise && c.tile == 0)
      v = std::max(v, std::min<int64_t>({2 * std::max({c.local[0], c.local[1], c.local[2]}) + 5, 69, interiorCap}));
    // A multiple of `factor` (what the program needs).
    v = (v + factor - 1) / factor * factor;
    sizes[var.varName()] = v;
  }
  return sizes;
}

/// The factors tried, in order, until the program and the variant accept the
/// verification sizes: 1 (no constraint), then the powers of two that divide
/// every exploration size, so a program that needs divisible sizes (e.g.
/// split(4) over N) is verified at sizes divisible like the ones it is explored at.
std::vector<int64_t> verificationSizeFactors(const std::map<std::string, int64_t> &sizes) {
  std::vector<int64_t> factors{1};
  for (int64_t f = 2; f <= 64; f *= 2) {
    bool divides = true;
    for (const auto &[name, value] : sizes) divides = divides && value % f == 0;
    if (divides) factors.push_back(f);
  }
  return factors;
}

/// The variant at small sizes the program and the recipe accept: the typed
/// program (the oracle), its lowered form and the sizes. The last failure is
/// rethrown when no candidate size fits.
struct SmallProblem {
  std::map<std::string, int64_t> sizes;
  Program typed, lowered;
};
SmallProblem smallProblem(const Program &program, const Configuration &c, const std::map<std::string, int64_t> &sizes) {
  std::vector<int64_t> factors = verificationSizeFactors(sizes);
  for (size_t i = 0;; ++i) {
    std::map<std::string, int64_t> small = verificationSizes(program, c, factors[i]);
    try {
      Program typed = typeCheck(program, small);
      Program lowered = rewrite::applyRecipe(typed, c.recipe, c.recipeOptions());
      return {small, typed, lowered};
    } catch (const Error &) {
      if (i + 1 == factors.size()) throw;
    }
  }
}

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
  tuner::Record record;
  record.key = variant.configuration.key();
  record.configuration = variant.configuration.toJson();
  record.programHash = programHash(program, sizes);
  record.kernelHash = kernelHash(variant.kernel, variant.configuration);
  record.strategy = strategyText(variant);
  record.timestamp = tuner::isoTimestamp();
  tuner::LaunchConfig launch;
  launch.launchTimeout = options.kernelTimeout;
  launch.deadline = deadline;
  if (variant.configuration.local != std::array<int64_t, 3>{0, 0, 0})
    launch.localSize =
        std::array<size_t, 3>{size_t(variant.configuration.local[0]), size_t(variant.configuration.local[1]),
                              size_t(variant.configuration.local[2])};
  try {
    // 1. Verify at a small size with the same configuration.
    SmallProblem smallProblemOfVariant = smallProblem(program, variant.configuration, sizes);
    const std::map<std::string, int64_t> &small = smallProblemOfVariant.sizes;
    const Program &typedSmall = smallProblemOfVariant.typed, &loweredSmall = smallProblemOfVariant.lowered;
    codegen::CodegenOptions co;
    if (variant.kernel.localSize || variant.configuration.specialise) co.localSize = variant.configuration.local;
    applySpecialisation(variant.configuration, co);
    applyFastMath(variant.configuration, co);
    std::unique_ptr<tuner::CompiledKernel> checker =
        device.compile(codegen::generateKernel(loweredSmall, device.target(), co));
    std::vector<Value> inputs = randomInputs(typedSmall, small, 17);
    Reference expected = interpretReference(typedSmall, small, inputs);
    tuner::LaunchConfig smallLaunch = launch;
    Value actual = checker->run(small, inputs, typedSmall.body().typeOrThrow(), smallLaunch).output;
    const Tolerance tolerance =
        codegen::fastMathTolerance(variant.configuration.fastMath, variant.configuration.divToMul);
    if (auto mismatch = compareWithReference(expected, actual, tolerance)) {
      record.outcome = tuner::Outcome::Correctness;
      record.error = "at sizes " + sizesKey(program, small) + ": " + *mismatch;
      return record;
    }
    // 2. Time at the real size. The inputs stay raw bytes; the output of the
    // timed runs is downloaded once after them (not timed) and checked.
    std::unique_ptr<tuner::CompiledKernel> runner = device.compile(variant.kernel);
    launch.warmups = options.warmups;
    launch.repetitions = options.timedRuns;
    launch.downloadOutput = true;
    launch.poisonOutput = true; // elements the kernel never writes are NaN, and fail
    tuner::RawRun run = runner->runBytes(sizes, fullSizeInputs, launch);
    // 3. Check the timed kernel's own output at sampled points of the full size.
    std::optional<FullSizeReference> computed;
    if (!reference) reference = &computed.emplace(fullSizeReference(typeCheck(program, sizes), sizes, fullSizeInputs));
    if (!reference->bug.empty()) throw InternalError(reference->bug);
    record.verified = "all of " + sizesKey(program, small) + "; ";
    if (reference->unavailable.empty()) {
      if (auto mismatch =
              checkFullSizeOutput(*reference, variant.lowered.body().typeOrThrow(), sizes, run.output, tolerance)) {
        record.outcome = tuner::Outcome::Correctness;
        record.error = *mismatch;
        return record;
      }
      record.verified += std::to_string(reference->points.size()) + " points of the timed run";
    } else {
      record.verified += "not the timed run: " + reference->unavailable;
    }
    record.samplesNs = run.timesNs;
    record.medianNs = run.medianNs;
    record.outcome = tuner::Outcome::Ok;
  } catch (const tuner::KernelTimeoutError &e) {
    // The kernel may still be running in the device's context.
    device.rebuild();
    if (deadline && std::chrono::steady_clock::now() >= *deadline) throw;
    record.outcome = tuner::Outcome::Timeout;
    std::ostringstream timeout;
    timeout << options.kernelTimeout.count();
    record.error = firstLine(e.what()) + " (timeout " + timeout.str() + " s)";
  } catch (const tuner::KernelBuildError &e) {
    record.outcome = tuner::Outcome::Compile;
    record.error = firstLine(e.what());
    // The whole log, so a failed build can be understood from the store alone.
    record.buildLog = std::string(e.what()).substr(0, kMaxStoredBuildLog);
  } catch (const tuner::KernelLaunchError &e) {
    record.outcome = tuner::Outcome::Runtime;
    record.error = firstLine(e.what());
  } catch (const rewrite::RewriteError &e) {
    record.outcome = tuner::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const codegen::CodegenError &e) {
    record.outcome = tuner::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const InternalError &e) {
    record.outcome = tuner::Outcome::Bug;
    record.error = firstLine(e.what());
  } catch (const tuner::BackendError &e) {
    // A backend failure the device's compile/launch wrappers did not turn into
    // a build or launch error: unexpected, as before BackendError was an Error.
    record.outcome = tuner::Outcome::Bug;
    record.error = firstLine(std::string("unexpected exception: ") + e.what());
  } catch (const Error &e) {
    // The program's own limits at the verification sizes (a type error, a
    // user function failing in the interpreter): not the variant's fault.
    record.outcome = tuner::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const std::invalid_argument &e) {
    // e.g. a work-group size the device rejects for this kernel
    record.outcome = tuner::Outcome::Runtime;
    record.error = firstLine(e.what());
  } catch (const std::exception &e) {
    // Nothing else is expected here: liftcc failed, recorded so that the
    // exploration goes on and the failure is seen.
    record.outcome = tuner::Outcome::Bug;
    record.error = firstLine(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    // Not even a std::exception: still one candidate's failure, never the run's.
    record.outcome = tuner::Outcome::Bug;
    record.error = "unexpected exception of unknown type";
  }
  return record;
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
  Program typed = typeCheck(program, sizes);
  SpaceOptions spaceOptions = options.space;
  spaceOptions.target = device.target();
  Space space = enumerateSpace(typed, device.limits(), spaceOptions);

  ExploreResult result;
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
  std::optional<tuner::InputBytes> fullSizeInputs;
  std::optional<FullSizeReference> fullReference; ///< of fullSizeInputs, computed with them
  std::vector<size_t> evaluatedVariants;          ///< the variant of each of result.evaluations
  Progress progress;
  size_t stored = 0;
  for (size_t i : mine) stored += store.find(identities[i]) != nullptr;
  progress.total = std::min(
      mine.size(), options.budget.maxEvaluations == SIZE_MAX ? SIZE_MAX : stored + options.budget.maxEvaluations);
  // The time budget bounds every launch too, so that one slow kernel cannot
  // overrun it by more than a launch's reaction time.
  std::optional<tuner::Deadline> deadline;
  if (options.budget.maxTime < std::chrono::hours(24 * 365))
    deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(options.budget.maxTime);
  bool cutByBudget = false;
  tuner::CostFunction cost = [&](size_t k) -> std::optional<double> {
    const Variant &variant = space.variants[mine[k]];
    Evaluation evaluation{variant.configuration, {}, false};
    if (const tuner::Record *known = store.find(identities[mine[k]])) {
      evaluation.record = *known;
      evaluation.fromStore = true;
      // Records stored before strategies existed: the same configuration's.
      if (evaluation.record.strategy.empty()) evaluation.record.strategy = strategyText(variant);
    } else {
      // Generated on the first measurement only: a resumed run that finds
      // everything in the store never pays for them.
      if (!fullSizeInputs) {
        fullSizeInputs = randomInputBytes(typed, sizes, 1);
        fullReference = fullSizeReference(typed, sizes, *fullSizeInputs);
      }
      try {
        evaluation.record =
            evaluateVariant(program, variant, sizes, device, options, *fullSizeInputs, deadline, &*fullReference);
      } catch (const tuner::KernelTimeoutError &) {
        // Cut by the budget: unfinished, so not recorded (a later run measures it).
        cutByBudget = true;
        return std::nullopt;
      }
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
  tuner::SearchSpace searchSpace{mine.size(),
                                 [&](size_t k) {
                                   std::vector<size_t> out;
                                   for (size_t n : allNeighbours[mine[k]])
                                     if (auto it = local.find(n); it != local.end()) out.push_back(it->second);
                                   return out;
                                 },
                                 [&](size_t k) { return searchFeatures(space.variants[mine[k]].configuration); }};
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
  budget.free = [&](size_t k) { return store.find(identities[mine[k]]) != nullptr; };
  budget.stop = [&] { return cutByBudget || (options.budget.stop && options.budget.stop()); };
  result.pruned = tuner::runSearch(options.strategy, searchSpace, cost, budget, options.seed).pruned;

  if (result.best) {
    // The kernel that record measured (its kernel hash is this variant's).
    const Evaluation &best = result.evaluations[*result.best];
    double bytesPerOutput = compulsoryBytesPerOutput(typed, sizes);
    int64_t outputScalars = scalarCount(typed.body().typeOrThrow(), sizes);
    result.why = explainWin(result.evaluations, *result.best, bytesPerOutput, result.outputElements, [&](size_t i) {
      return modelledBytesPerOutput(space.variants[evaluatedVariants[i]].kernel, bytesPerOutput, sizes, outputScalars);
    });
    if (options.measureRoof) result.why->roof = measureRoof(device, bytesPerOutput, result.outputElements);
    result.bestKernelDir = writeBestKernel(options.storeDir, device.resultsName(), options.programName,
                                           sizesKey(program, sizes), space.variants[evaluatedVariants[*result.best]],
                                           best.record, result.outputElements, &*result.why);
  }
  return result;
}

} // namespace liftcc::explore
