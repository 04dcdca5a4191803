#pragma once
// Preparing a space's variants without measuring any (issue #33 item 5):
// what a GPU host must do ahead of its device - generate each variant's
// kernel, compile it (NVRTC with ptxas's report, for CUDA), compute its
// small-size reference with the interpreter and check its SASS figures -
// on every core, timed, so that "how many variants can a GPU run of T
// minutes on C cores evaluate" is measured on a machine without a GPU
// (`liftc explore --target cuda --prepare-only`, on
// tuner/cuda/compile_only_device.h). Nothing is written: no result store,
// no best kernel.

#include "explore/sass_check.h"
#include "explore/space.h"
#include "tuner/device.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::explore {

struct PrepareOnlyOptions {
  /// Worker threads that prepare (0: one per hardware thread).
  size_t threads = 0;
  /// Preparation stops starting variants after this long (the space's
  /// description not counted) or after maxVariants prepared.
  std::chrono::duration<double> budget{60};
  size_t maxVariants = SIZE_MAX;
  /// The candidates are visited in a random order of this seed (a sample of
  /// every family, like a random search), each once.
  uint64_t seed = 1;
  SpaceOptions space;
  SassRequirements sass;
};

struct PrepareOnlyResult {
  size_t spaceSize = 0;  ///< candidates of the space's description
  size_t threads = 0;    ///< worker threads used
  size_t visited = 0;    ///< candidates taken, in the random order
  size_t duplicates = 0; ///< a kernel and launch already prepared under another configuration
  size_t skipped = 0;    ///< no variant of their own (buildCandidate)
  /// Variants whose preparation finished (what a GPU host would hand to its
  /// device), split by what the device would do with them: time them
  /// (`toTime`), nothing since they failed (`failed`, by outcome name:
  /// compile, constraints, ...) or were dropped by their SASS figures
  /// (`droppedSpills`, `droppedOccupancy`).
  size_t prepared = 0, toTime = 0, droppedSpills = 0, droppedOccupancy = 0;
  std::map<std::string, size_t> failed;
  std::vector<std::string> rejections; ///< the first few SASS rejections, "key: reason"
  /// The SASS figures of every prepared variant that has them.
  std::vector<tuner::SassSummary> sass;
  double describeSeconds = 0;
  /// Wall seconds from the first preparation started to the last one taken.
  double prepareSeconds = 0;
  /// Thread CPU seconds the preparations took, summed over the workers
  /// (unaffected by other processes sharing the cores).
  double cpuSeconds = 0;
  bool cutByBudget = false;

  double preparedPerSecond() const { return prepareSeconds > 0 ? double(prepared) / prepareSeconds : 0; }
  double preparedPerSecondPerThread() const { return threads ? preparedPerSecond() / double(threads) : 0; }
  double preparedPerCpuSecond() const { return cpuSeconds > 0 ? double(prepared) / cpuSeconds : 0; }
};

/// `typed` is the program type-checked at `sizes`, `program` the untyped one.
PrepareOnlyResult prepareOnly(const Program &program, const Program &typed, const std::map<std::string, int64_t> &sizes,
                              tuner::Device &device, const PrepareOnlyOptions &options);

} // namespace liftcc::explore
