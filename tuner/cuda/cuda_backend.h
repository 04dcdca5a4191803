#pragma once
// The CUDA GPU behind tuner::Device: kernels compiled by NVRTC for the
// device's architecture, loaded through the dlopen'ed driver API and run
// through the launch plan (tuner/run_plan.h), timed with a pair of CUDA events
// around each launch.

#include "tuner/cuda/cuda_runtime.h"
#include "tuner/device.h"
#include "tuner/run_plan.h"

#include <cstdint>
#include <mutex>
#include <optional>

namespace liftcc::tuner {

/// A kernel compiled for one CUDA context.
class CudaKernelRunner final : public CompiledKernel {
public:
  /// Throws KernelBuildError with NVRTC's or the driver JIT's log.
  CudaKernelRunner(cuda::Context &context, codegen::Kernel kernel);

  /// planLaunch (a fixed block shape unless the config or the kernel chooses
  /// one) and runPlan. Throws KernelLaunchError, KernelTimeoutError or
  /// std::invalid_argument.
  RawRun runViews(const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                  const LaunchConfig &config) override;
  std::optional<SassSummary> sass() const override { return sass_; }

private:
  cuda::Context context_; ///< a handle sharing the device's context of the time
  codegen::Kernel kernel_;
  std::optional<SassSummary> sass_; ///< set while module_ is compiled (declared before it)
  cuda::Module module_;
  cuda::Function function_;
  /// The entry points of a multi-kernel program's stages, in launch order (codegen::Kernel::stages).
  std::vector<cuda::Function> stageFunctions_;
};

class CudaDevice final : public Device {
public:
  /// Throws cuda::CudaError for an invalid device index.
  CudaDevice(cuda::DriverApi api, int deviceIndex);

  codegen::Target target() const override { return codegen::Target::CUDA; }
  std::string name() const override { return context_.device().name; }
  std::string resultsName() const override { return "cuda " + context_.device().name; }
  std::string driverVersion() const override;
  DeviceLimits limits() const override;
  std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) override;
  /// A fresh context for later kernels; the old one goes with its last user.
  void rebuild() override;
  CopyBandwidth measureCopyBandwidth(const CopyProbe &probe) override;

private:
  /// The context of the kernels compiled from now on: copied under the lock,
  /// since compile() may run on worker threads while rebuild() replaces it.
  cuda::Context currentContext() const;
  mutable std::mutex contextMutex_;
  cuda::Context context_;
};

/// The limits a CUDA device reports (shared memory without opt-in).
DeviceLimits limitsOf(const cuda::DeviceInfo &device);

} // namespace liftcc::tuner
