#pragma once
// The static SASS figures of a compiled CUDA kernel as the tuner keeps them
// (issue #33 item 4): with each CUDA record of a result store and in a best
// kernel's launch.json ("sass"). Read from ptxas's verbose report of the
// kernel's own NVRTC compilation (tuner/cuda/sass_figures.h), so no GPU is
// needed. Backend-neutral: OpenCL kernels have none.

#include "core/io/json.h"

#include <cstdint>
#include <string>

namespace liftcc::tuner {

struct SassSummary {
  std::string arch;            ///< the real architecture compiled for, e.g. "sm_90"
  int64_t registers = 0;       ///< per thread
  int64_t spillStoreBytes = 0; ///< per thread, to local memory
  int64_t spillLoadBytes = 0;
  int64_t sharedBytes = 0; ///< static shared memory per work-group
  int64_t barriers = 0;    ///< named barriers used
  int64_t stackBytes = 0;  ///< stack frame per thread

  bool spills() const { return spillStoreBytes > 0 || spillLoadBytes > 0; }
  /// "sm_90: 32 registers, no spills, 0 B shared, 0 barriers, 0 B stack".
  std::string text() const;

  nlohmann::json toJson() const;
  /// Validates as it reads: an object with a non-empty string "arch" and
  /// every count a non-negative integer; std::invalid_argument naming the
  /// field otherwise ("sass.registers must be a non-negative integer, found -1").
  static SassSummary fromJson(const nlohmann::json &j);

  bool operator==(const SassSummary &) const = default;
};

} // namespace liftcc::tuner
