#pragma once
// What every backend's kernel runner takes and returns: the launch settings
// (work-group size, warm-ups, timed repetitions) and the downloaded output
// with one kernel time per repetition.

#include "core/interp/value.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace liftcc::tuner {

struct LaunchConfig {
  /// Work-group size; nullopt uses the kernel's own (mapWrg kernels), or for
  /// mapGlb kernels the OpenCL runtime's choice / a fixed CUDA block shape.
  std::optional<std::array<size_t, 3>> localSize;
  int warmups = 0;
  int repetitions = 1;
};

struct KernelRun {
  Value output;
  std::vector<uint64_t> timesNs; ///< one per timed repetition
};

} // namespace liftcc::tuner
