#pragma once
// One variant's evaluation in two halves, so that the first can run on a
// worker thread while the device times another variant (explore/prefetch_pool.h):
//
//   prepareVariant          (any thread; never runs a kernel)
//     lowers the variant at a small size the program accepts, computes the
//     interpreter's reference there, generates the small kernel and compiles
//     it and the full-size kernel for the device;
//   measurePreparedVariant  (the one thread that uses the device)
//     runs the small kernel and compares it with the reference, times the
//     full-size kernel and checks the timed run's output at sampled points.
//
// Failures are outcomes of the record, never exceptions (see evaluateVariant
// in explore/explorer.h); a failure while preparing is carried to the
// measurement, which records it without touching the device.

#include "core/interp/magnitudes.h"
#include "core/interp/value_compare.h"
#include "core/ir/expr.h"
#include "explore/full_size_check.h"
#include "explore/sass_check.h"
#include "explore/space.h"
#include "search/result_store.h"
#include "tuner/device.h"

#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::explore {

struct ExploreOptions;

/// What measuring a variant needs that does not touch the device.
struct PreparedVariant {
  /// Set when preparing failed: the record (outcome and error) is final.
  std::optional<search::Record> failure;
  /// Set when the deadline passed while preparing (the small reference is
  /// the interpreter's, which can take long): no outcome, nothing to record.
  bool pastDeadline = false;
  /// The small problem the variant is verified at.
  std::map<std::string, int64_t> smallSizes;
  std::optional<Type> smallResultType;
  std::vector<Value> smallInputs;
  std::optional<Reference> smallReference;
  Tolerance tolerance;
  /// The small kernel (checked against smallReference) and the full-size one (timed).
  std::unique_ptr<tuner::CompiledKernel> checker, runner;
  /// The full-size kernel's SASS figures (CUDA: from its own compilation).
  std::optional<tuner::SassSummary> sass;
};

/// Why the prepared variant is not worth timing by its SASS figures
/// (explore/sass_check.h) with the work-groups it is launched with at
/// `sizes`, or nullopt (also without figures).
std::optional<std::string> sassRejection(const PreparedVariant &prepared, const Variant &variant,
                                         const std::map<std::string, int64_t> &sizes,
                                         const SassRequirements &requirements);

/// The record's identity fields (key, configuration, hashes, strategy) of `variant`.
search::Record recordIdentity(const Program &program, const Variant &variant,
                              const std::map<std::string, int64_t> &sizes);

/// CUDA kernels beyond this many bytes of source are not compiled: NVRTC's
/// time grows faster than the text (a 55 KB kernel 1 s, 115 KB 14 s, a 3D
/// time tile of 2 steps coarsened 16x8x8, 353 KB, 98 s), one variant could
/// hold a GPU host's preparation for minutes past its budget, and kernels
/// unrolled that far spill (the SASS check would drop them after the
/// compile). A 3D radius-4 box's plain kernel is 128 KB.
inline constexpr size_t kMaxCudaKernelSourceBytes = size_t{256} << 10;

/// Why a CUDA kernel is not compiled (its source beyond
/// kMaxCudaKernelSourceBytes), or nullopt.
std::optional<std::string> oversizedCudaKernel(const codegen::Kernel &kernel);

/// The first half. Thread-safe as long as `device.compile` is (tuner/device.h).
/// The interpreter gives up once past `deadline` (pastDeadline). A CUDA
/// kernel oversizedCudaKernel refuses is a Constraints failure, compiled never.
PreparedVariant prepareVariant(const Program &program, const Variant &variant,
                               const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                               std::optional<InterpretDeadline> deadline = std::nullopt) noexcept;

/// The second half; a variant sassRejection refuses (options.sass) is
/// recorded as Constraints without running anything. `reference` is fullSizeReference of `fullSizeInputs` (computed
/// here when null). `bestNs`, the fastest median of the search so far: a variant whose first timed run is
/// options.timeOnceWhenSlowerThan times slower is timed once. Throws only tuner::KernelTimeoutError, for a launch cut
/// by `deadline` (after rebuilding the device), and DeadlineReached when the interpreter's work for it (preparing, the
/// full-size reference) passed `deadline`. `keptRunner`, when given, receives the compiled full-size kernel of an Ok
/// record (the kernel that was verified and timed), for timing it again
/// (timeVariantAgain: the explorer's finalists).
search::Record measurePreparedVariant(PreparedVariant prepared, const Program &program, const Variant &variant,
                                      const std::map<std::string, int64_t> &sizes, tuner::Device &device,
                                      const ExploreOptions &options, const tuner::InputBytes &fullSizeInputs,
                                      std::optional<tuner::Deadline> deadline, const FullSizeReference *reference,
                                      std::optional<double> bestNs = std::nullopt,
                                      std::unique_ptr<tuner::CompiledKernel> *keptRunner = nullptr);

/// Times `runner`, the compiled full-size kernel of `variant`, again as
/// measurePreparedVariant timed it (its launch, options.timedRuns runs) after
/// `warmups` warm-up runs, without downloading the output; returns the median.
/// Throws what the launch throws (tuner::KernelTimeoutError past `deadline` or
/// the kernel timeout, tuner::KernelLaunchError).
double timeVariantAgain(tuner::CompiledKernel &runner, const Variant &variant,
                        const std::map<std::string, int64_t> &sizes, const ExploreOptions &options,
                        const tuner::InputBytes &fullSizeInputs, std::optional<tuner::Deadline> deadline, int warmups);

/// Fills the record's outcome and error from an exception a variant's
/// evaluation threw: compile, runtime, constraints (the program's or the
/// recipe's limits) or bug (liftcc's own failures, and anything unexpected).
void recordFailure(search::Record &record, const std::exception_ptr &error);

} // namespace liftcc::explore
