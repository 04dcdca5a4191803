#include "explore/variant_evaluation.h"

#include "codegen/generate.h"
#include "core/error.h"
#include "core/interp/interpreter.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "driver/pipeline.h"
#include "explore/explorer.h"
#include "explore/knowledge.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "liftcc/version.h"
#include "tuner/backend_error.h"
#include "tuner/launch_plan.h"

#include <algorithm>
#include <cmath>
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
  // An iterate interprets every point once per step: the cap is on points
  // times steps (a specialised row stream of 128, 4 x 128 = 512 per
  // dimension, took minutes for 64 steps of Jacobi 2D).
  constexpr double kMaxSpecialisedPoints = 1 << 19;
  int64_t steps = 1;
  containsNode(program.body(), [&steps](const Expr &e) {
    if (e.isPrim(Op::Iterate) && iterateCount(e).isConstant()) steps = std::max(steps, iterateCount(e).constant());
    return false;
  });
  const auto interiorCap =
      int64_t(std::pow(kMaxSpecialisedPoints / double(steps), 1.0 / double(std::max<size_t>(1, program.sizes.size()))));
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
      Program lowered = driver::lower(typed, c);
      return {small, typed, lowered};
    } catch (const Error &) {
      if (i + 1 == factors.size()) throw;
    }
  }
}

tuner::LaunchConfig launchOf(const Variant &variant, const ExploreOptions &options,
                             std::optional<tuner::Deadline> deadline) {
  tuner::LaunchConfig launch;
  launch.launchTimeout = options.kernelTimeout;
  launch.deadline = deadline;
  launch.localSize = driver::launchLocalSize(variant.configuration);
  return launch;
}

} // namespace

search::Record recordIdentity(const Program &program, const Variant &variant,
                              const std::map<std::string, int64_t> &sizes) {
  search::Record record;
  record.key = variant.configuration.key();
  record.configuration = variant.configuration.toJson();
  record.programHash = programHash(program, sizes);
  record.kernelHash = kernelHash(variant.kernel, variant.configuration);
  record.strategy = strategyText(variant);
  record.shape = programShape(program);
  return record;
}

std::optional<std::string> oversizedCudaKernel(const codegen::Kernel &kernel) {
  if (kernel.target != codegen::Target::CUDA || kernel.source.size() <= kMaxCudaKernelSourceBytes) return std::nullopt;
  return "its CUDA C is " + std::to_string(kernel.source.size() >> 10) + " KiB, more than the " +
         std::to_string(kMaxCudaKernelSourceBytes >> 10) +
         " KiB liftc compiles with NVRTC (minutes per variant; such unrolled kernels spill)";
}

PreparedVariant prepareVariant(const Program &program, const Variant &variant,
                               const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                               std::optional<InterpretDeadline> deadline) noexcept {
  PreparedVariant prepared;
  if (std::optional<std::string> oversized = oversizedCudaKernel(variant.kernel)) {
    search::Record failure;
    failure.outcome = search::Outcome::Constraints;
    failure.error = *oversized;
    prepared.failure = std::move(failure);
    return prepared;
  }
  try {
    SmallProblem small = smallProblem(program, variant.configuration, sizes);
    prepared.checker = device.compile(driver::generate(small.lowered, variant.configuration, device.target()));
    prepared.smallInputs = randomInputs(small.typed, small.sizes, 17);
    prepared.smallReference = interpretReference(small.typed, small.sizes, prepared.smallInputs, deadline);
    prepared.smallResultType = small.typed.body().typeOrThrow();
    prepared.smallSizes = std::move(small.sizes);
    prepared.tolerance = codegen::fastMathTolerance(variant.configuration.fastMath, variant.configuration.divToMul);
    prepared.runner = device.compile(variant.kernel);
    prepared.sass = prepared.runner->sass();
  } catch (const DeadlineReached &) {
    prepared.pastDeadline = true;
    prepared.checker.reset();
  } catch (...) {
    search::Record failure;
    recordFailure(failure, std::current_exception());
    prepared.failure = std::move(failure);
    prepared.checker.reset();
    prepared.runner.reset();
  }
  return prepared;
}

std::optional<std::string> sassRejection(const PreparedVariant &prepared, const Variant &variant,
                                         const std::map<std::string, int64_t> &sizes,
                                         const SassRequirements &requirements) {
  if (!prepared.sass) return std::nullopt;
  // The largest work-group the kernel (each stage of it) is launched with,
  // as the device plans the launch; a launch that cannot be planned fails
  // when it runs, with its own message.
  int64_t groupSize = 1;
  try {
    std::optional<std::array<size_t, 3>> requested = driver::launchLocalSize(variant.configuration);
    tuner::LaunchPlan plan =
        tuner::planLaunch(variant.kernel, sizes, requested, tuner::defaultCudaBlock(variant.kernel.dims));
    auto threads = [](const std::optional<std::array<size_t, 3>> &local) {
      return local ? int64_t((*local)[0] * (*local)[1] * (*local)[2]) : int64_t(1);
    };
    groupSize = threads(plan.local);
    for (const tuner::LaunchPlan::Stage &stage : plan.stages) groupSize = std::max(groupSize, threads(stage.local));
  } catch (const std::exception &) {
    return std::nullopt;
  }
  return explore::sassRejection(*prepared.sass, groupSize, requirements);
}

search::Record measurePreparedVariant(PreparedVariant prepared, const Program &program, const Variant &variant,
                                      const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                                      const ExploreOptions &options, const tuner::InputBytes &fullSizeInputs,
                                      std::optional<tuner::Deadline> deadline, const FullSizeReference *reference,
                                      std::optional<double> bestNs,
                                      std::unique_ptr<tuner::CompiledKernel> *keptRunner) {
  search::Record record = recordIdentity(program, variant, sizes);
  record.timestamp = search::isoTimestamp();
  // Provenance: this record is a timing on this device only (issue #36 item 4).
  record.device = device.resultsName();
  record.driver = device.driverVersion();
  record.liftccVersion = LIFTCC_VERSION_STRING;
  if (prepared.pastDeadline) throw DeadlineReached("the deadline passed while preparing " + record.key);
  record.sass = prepared.sass;
  if (prepared.failure) {
    record.outcome = prepared.failure->outcome;
    record.error = prepared.failure->error;
    record.buildLog = prepared.failure->buildLog;
    return record;
  }
  // Never timed: a variant that spills or cannot keep the SM busy (its figures tell without a GPU).
  if (std::optional<std::string> rejection = sassRejection(prepared, variant, sizes, options.sass)) {
    record.outcome = search::Outcome::Constraints;
    record.error = *rejection;
    return record;
  }
  tuner::LaunchConfig launch = launchOf(variant, options, deadline);
  try {
    // 1. Verify at a small size with the same configuration.
    Value actual =
        prepared.checker->run(prepared.smallSizes, prepared.smallInputs, *prepared.smallResultType, launch).output;
    if (auto mismatch = compareWithReference(*prepared.smallReference, actual, prepared.tolerance)) {
      record.outcome = search::Outcome::Correctness;
      record.error = "at sizes " + sizesKey(program, prepared.smallSizes) + ": " + *mismatch;
      return record;
    }
    // 2. Time at the real size. The inputs stay raw bytes; the output of the
    // timed runs is downloaded once after them (not timed) and checked.
    launch.warmups = options.warmups;
    launch.repetitions = options.timedRuns;
    if (bestNs && options.timeOnceWhenSlowerThan > 0) launch.stopAboveNs = *bestNs * options.timeOnceWhenSlowerThan;
    launch.downloadOutput = true;
    launch.poisonOutput = true; // elements the kernel never writes are NaN, and fail
    tuner::RawRun run = prepared.runner->runBytes(sizes, fullSizeInputs, launch);
    // 3. Check the timed kernel's own output at sampled points of the full size.
    std::optional<FullSizeReference> computed;
    if (!reference)
      reference = &computed.emplace(fullSizeReference(typeCheck(program, sizes), sizes, fullSizeInputs, deadline));
    if (!reference->bug.empty()) throw InternalError(reference->bug);
    record.verified = "all of " + sizesKey(program, prepared.smallSizes) + "; ";
    if (reference->unavailable.empty()) {
      if (auto mismatch = checkFullSizeOutput(*reference, variant.lowered.body().typeOrThrow(), sizes, run.output,
                                              prepared.tolerance)) {
        record.outcome = search::Outcome::Correctness;
        record.error = *mismatch;
        return record;
      }
      record.verified += std::to_string(reference->points.size()) + " points of the timed run";
    } else {
      record.verified += "not the timed run: " + reference->unavailable;
    }
    record.samplesNs = run.timesNs;
    // A successful time is > 0 (Record::fromJson, explainWin): a kernel
    // faster than the timer's resolution counts as 1 ns.
    record.medianNs = std::max(run.medianNs, 1.0);
    record.outcome = search::Outcome::Ok;
    if (keptRunner) *keptRunner = std::move(prepared.runner);
  } catch (const DeadlineReached &) {
    throw; // unfinished: nothing to record
  } catch (const tuner::KernelTimeoutError &e) {
    // The kernel may still be running in the device's context.
    device.rebuild();
    if (deadline && std::chrono::steady_clock::now() >= *deadline) throw;
    record.outcome = search::Outcome::Timeout;
    record.timeoutSeconds = options.kernelTimeout.count(); // not replayed under a longer one
    std::ostringstream timeout;
    timeout << options.kernelTimeout.count();
    record.error = firstLine(e.what()) + " (timeout " + timeout.str() + " s)";
  } catch (...) {
    recordFailure(record, std::current_exception());
  }
  return record;
}

double timeVariantAgain(tuner::CompiledKernel &runner, const Variant &variant,
                        const std::map<std::string, int64_t> &sizes, const ExploreOptions &options,
                        const tuner::InputBytes &fullSizeInputs, std::optional<tuner::Deadline> deadline, int warmups) {
  tuner::LaunchConfig launch = launchOf(variant, options, deadline);
  launch.warmups = warmups;
  launch.repetitions = options.timedRuns;
  // As a successful record: a kernel faster than the timer counts as 1 ns.
  return std::max(runner.runBytes(sizes, fullSizeInputs, launch).medianNs, 1.0);
}

void recordFailure(search::Record &record, const std::exception_ptr &error) {
  try {
    std::rethrow_exception(error);
  } catch (const tuner::KernelBuildError &e) {
    record.outcome = search::Outcome::Compile;
    record.error = firstLine(e.what());
    // The whole log, so a failed build can be understood from the store alone.
    record.buildLog = std::string(e.what()).substr(0, kMaxStoredBuildLog);
  } catch (const tuner::KernelLaunchError &e) {
    record.outcome = search::Outcome::Runtime;
    record.error = firstLine(e.what());
  } catch (const rewrite::RewriteError &e) {
    record.outcome = search::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const codegen::CodegenError &e) {
    record.outcome = search::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const InternalError &e) {
    record.outcome = search::Outcome::Bug;
    record.error = firstLine(e.what());
  } catch (const tuner::BackendError &e) {
    // A backend failure the device's compile/launch wrappers did not turn into
    // a build or launch error: unexpected, as before BackendError was an Error.
    record.outcome = search::Outcome::Bug;
    record.error = firstLine(std::string("unexpected exception: ") + e.what());
  } catch (const Error &e) {
    // The program's own limits at the verification sizes (a type error, a
    // user function failing in the interpreter): not the variant's fault.
    record.outcome = search::Outcome::Constraints;
    record.error = firstLine(e.what());
  } catch (const std::invalid_argument &e) {
    // e.g. a work-group size the device rejects for this kernel
    record.outcome = search::Outcome::Runtime;
    record.error = firstLine(e.what());
  } catch (const std::exception &e) {
    // Nothing else is expected here: liftcc failed, recorded so that the
    // exploration goes on and the failure is seen.
    record.outcome = search::Outcome::Bug;
    record.error = firstLine(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    // Not even a std::exception: still one candidate's failure, never the run's.
    record.outcome = search::Outcome::Bug;
    record.error = "unexpected exception of unknown type";
  }
}

} // namespace liftcc::explore
