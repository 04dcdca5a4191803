#pragma once
// A device the tuner compiles for, runs and times on: an OpenCL device or a
// CUDA GPU. The exploration driver, `liftc tune` and `liftc explore` see only
// this interface, so one driver serves both backends. Each backend reports its
// failures as the two exception types below, which the tuner records as
// outcomes (compile / runtime) without knowing the backend's own errors.

#include "codegen/kernel.h"
#include "tuner/launch.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// What a kernel may use on the device; variants beyond it are not explored.
struct DeviceLimits {
  int64_t localMemoryBytes = 32 * 1024;
  int64_t maxWorkGroupSize = 256;
  std::array<int64_t, 3> maxWorkItemSizes{1024, 1024, 64};
};

/// The backend's compiler rejected the kernel; what() carries its log.
class KernelBuildError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The backend's runtime failed to allocate, launch or complete a kernel.
class KernelLaunchError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A kernel compiled for one device, ready to run many times.
class CompiledKernel {
public:
  virtual ~CompiledKernel() = default;
  /// Runs on inputs given as raw bytes, in the order of the kernel's input
  /// arguments. Throws KernelLaunchError, or std::invalid_argument for a
  /// launch the kernel cannot take (e.g. a work-group larger than it allows,
  /// an input of the wrong byte count).
  virtual RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs,
                          const LaunchConfig &config) = 0;
  /// The same on values; `resultType` is the program's result type (to shape
  /// the downloaded output).
  KernelRun run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs, const Type &resultType,
                const LaunchConfig &config) {
    return runOnValues(*this, sizes, inputs, resultType, config);
  }
};

class Device {
public:
  virtual ~Device() = default;
  /// The dialect kernels for this device are generated in.
  virtual codegen::Target target() const = 0;
  /// The device's own name, e.g. "NVIDIA H100 80GB HBM3".
  virtual std::string name() const = 0;
  /// The name results are filed under: the same GPU seen through OpenCL and
  /// through CUDA gets two entries ("cuda " is prefixed for CUDA).
  virtual std::string resultsName() const = 0;
  virtual DeviceLimits limits() const = 0;
  /// Throws KernelBuildError with the compiler's log.
  virtual std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) = 0;
};

} // namespace liftcc::tuner
