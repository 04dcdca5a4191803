#pragma once
// Repeated timing of a kernel whose arguments are set, for the copy-bandwidth
// probe and the runtime tests (liftcc's kernels go through runPlan,
// tuner/run_plan.h). Kernel times vary run to run (caches, clocks,
// first-touch page faults on CPU devices), so the median (tuner/median.h) of
// several profiled runs is reported, after warm-up runs that are thrown away.

#include "tuner/opencl/opencl_runtime.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace liftcc::ocl {

struct TimingOptions {
  /// Runs executed first and not measured.
  unsigned warmupRuns = 1;
  /// Measured runs; must be at least 1.
  unsigned timedRuns = 5;
};

struct KernelTiming {
  /// One profiled time per timed run, in launch order, nanoseconds.
  std::vector<std::uint64_t> samplesNs;
  /// Median of samplesNs (mean of the two middle ones for an even count).
  double medianNs = 0;
};

/// Launches `kernel` (arguments already set) warmupRuns + timedRuns times and
/// returns the profiled times of the timed runs.
KernelTiming timeKernel(Context &context, const Kernel &kernel, const NDRange &global,
                        const std::optional<NDRange> &local = std::nullopt, const TimingOptions &options = {});

} // namespace liftcc::ocl
