#pragma once
// One OpenCL kernel launch as the benchmark sees it: source, argument
// bindings and NDRange. Generated and hand-written kernels (and, later,
// third-party ones such as Halide's) are all reduced to a KernelLaunch and run
// by runLaunch on identical buffers, so they are built, checked and timed the
// same way.

#include "bench/grids.h"
#include "codegen/kernel.h"
#include "tuner/opencl_runtime.h"
#include "tuner/opencl_timing.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace liftcc::bench {

/// The i-th input grid (a read-only buffer).
struct InputArg {
  size_t index;
};
/// The output grid (write-only buffer).
struct OutputArg {};
/// An int scalar (problem sizes).
struct IntArg {
  int32_t value;
};
using LaunchArg = std::variant<InputArg, OutputArg, IntArg>;

struct KernelLaunch {
  std::string source;     ///< OpenCL C
  std::string kernelName;
  /// What OpenCLKernelRunner builds generated kernels with: every kernel is
  /// compiled with the same options.
  std::string buildOptions = "-cl-std=CL1.2";
  std::vector<LaunchArg> args; ///< in parameter order
  ocl::NDRange global{1};
  std::optional<ocl::NDRange> local; ///< nullopt: the runtime chooses
};

struct LaunchResult {
  Grid output;
  ocl::KernelTiming timing;
};

/// Builds the kernel, uploads `inputs`, launches it timing.warmupRuns +
/// timing.timedRuns times (kernel time from profiling events) and downloads
/// the output of `outputElements` floats. The output buffer starts as NaN, so
/// elements a kernel never writes fail verification. Throws ocl::BuildError,
/// ocl::OpenCLError or std::invalid_argument (malformed launch).
LaunchResult runLaunch(ocl::Context &context, const KernelLaunch &launch, const std::vector<Grid> &inputs,
                       size_t outputElements, const ocl::TimingOptions &timing);

/// The launch of a generated kernel at concrete sizes, with the NDRange
/// OpenCLKernelRunner uses: `local` if given, else the kernel's own
/// work-group size (mapWrg kernels), else the runtime's choice.
KernelLaunch generatedLaunch(const codegen::Kernel &kernel, const Sizes &sizes,
                             const std::optional<std::array<size_t, 3>> &local = std::nullopt);

} // namespace liftcc::bench
