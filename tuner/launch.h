#pragma once
// What every backend's kernel runner takes and returns: the launch settings
// (work-group size, warm-ups, timed repetitions), the inputs as raw bytes and
// the output with one kernel time per repetition.

#include "codegen/kernel.h"
#include "core/interp/value.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::tuner {

struct LaunchConfig {
  /// Work-group size; nullopt uses the kernel's own (mapWrg kernels), or for
  /// mapGlb kernels the OpenCL runtime's choice / a fixed CUDA block shape.
  std::optional<std::array<size_t, 3>> localSize;
  int warmups = 0;
  int repetitions = 1;
  /// Timed repetitions go on past `repetitions` until their kernel times add
  /// up to this many seconds, at most kMaxRepetitions in all: a median of
  /// twenty 0.2 ms launches on a shared machine can land in a slow phase of
  /// a few milliseconds (liftc bench: srad1's explored kernel timed 0.275 ms
  /// in one run, 0.134-0.164 ms with 50 runs in three more).
  double minTimedSeconds = 0;
  static constexpr int kMaxRepetitions = 1000;
  /// When the first timed repetition takes longer than this, no more are
  /// run: a search times a variant far slower than its best so far once,
  /// which ranks it, instead of `repetitions` times (3D explorations spent
  /// most of their budget on such variants: acoustic at 404x512x512 measured
  /// 10 variants in 3 minutes, kernels of 0.5 to 3 s timed 6 times each).
  std::optional<double> stopAboveNs;
  /// False for timing-only runs: the output stays on the device.
  bool downloadOutput = true;
  /// Fill the output buffer with NaN before the runs (float outputs), so that
  /// elements a kernel never writes fail verification.
  bool poisonOutput = false;
  /// A launch that runs longer is abandoned (KernelTimeoutError).
  std::optional<std::chrono::duration<double>> launchTimeout;
  /// No launch may end later (e.g. the end of an exploration's budget).
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// Kernel inputs in the order of the kernel's input arguments, each as the
/// row-major bytes toBytes() gives (see core/interp/value_io.h).
using InputBytes = std::vector<std::vector<std::byte>>;

/// A run on raw bytes: what the backends implement.
struct RawRun {
  std::vector<std::byte> output; ///< the output buffer (empty unless downloaded)
  std::vector<uint64_t> timesNs; ///< one per timed repetition
  double medianNs = 0;           ///< median of timesNs
};

struct KernelRun {
  Value output;
  std::vector<uint64_t> timesNs; ///< one per timed repetition
  double medianNs = 0;           ///< median of timesNs
};

InputBytes toInputBytes(const std::vector<Value> &inputs);

// How a launch plan (tuner/launch_plan.h) binds a kernel's arguments at concrete sizes.
/// Bytes of a buffer argument (Input or Output).
size_t bufferBytes(const codegen::KernelArg &arg, const std::map<std::string, int64_t> &sizes);
/// The value of a Size argument. Throws std::invalid_argument when `sizes`
/// lacks it or it does not fit the kernel's int parameters.
int32_t sizeArgument(const codegen::KernelArg &arg, const std::map<std::string, int64_t> &sizes);
/// Shapes a downloaded output as a value of `resultType` (the buffer may be
/// larger than the result; the excess is ignored).
KernelRun toKernelRun(RawRun raw, const Type &resultType, const std::map<std::string, int64_t> &sizes);

/// A run on values through anything with runBytes(sizes, InputBytes,
/// LaunchConfig) (the backends' runners and compiled kernels): the values
/// become bytes, the output is downloaded and shaped as `resultType`.
template <typename BytesRunner>
KernelRun runOnValues(BytesRunner &runner, const std::map<std::string, int64_t> &sizes,
                      const std::vector<Value> &inputs, const Type &resultType, LaunchConfig config) {
  config.downloadOutput = true;
  return toKernelRun(runner.runBytes(sizes, toInputBytes(inputs), config), resultType, sizes);
}

} // namespace liftcc::tuner
