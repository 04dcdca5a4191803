#pragma once
// The OpenCL device behind tuner::Device: kernels built by the ICD's OpenCL C
// compiler and run through the launch plan (tuner/run_plan.h), timed with
// profiling events.

#include "tuner/device.h"
#include "tuner/opencl/opencl_runtime.h"
#include "tuner/run_plan.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace liftcc::tuner {

/// A kernel built for one OpenCL context: `liftc run`, the tests and the
/// tuner run generated kernels through it.
class OpenCLKernelRunner final : public CompiledKernel {
public:
  /// Throws KernelBuildError with the build log when the source does not compile.
  OpenCLKernelRunner(ocl::Context &context, codegen::Kernel kernel);

  /// planLaunch (the runtime chooses the work-group size unless the config or
  /// the kernel does) and runPlan. Throws KernelLaunchError,
  /// KernelTimeoutError or std::invalid_argument.
  RawRun runViews(const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                  const LaunchConfig &config) override;

  const codegen::Kernel &kernel() const { return kernel_; }

private:
  ocl::Context &context_;
  codegen::Kernel kernel_;
  ocl::Program program_;
  ocl::Kernel clKernel_;
  /// The kernels of a multi-kernel program's stages, in launch order (codegen::Kernel::stages).
  std::vector<ocl::Kernel> stageKernels_;
};

class OpenCLDevice final : public Device {
public:
  /// Throws like ocl::Context (no profiling, no context).
  explicit OpenCLDevice(const ocl::DeviceInfo &device);
  ~OpenCLDevice() override;
  OpenCLDevice(const OpenCLDevice &) = delete;
  OpenCLDevice &operator=(const OpenCLDevice &) = delete;

  codegen::Target target() const override { return codegen::Target::OpenCL; }
  std::string name() const override { return context_->device().name; }
  std::string resultsName() const override { return context_->device().name; }
  std::string driverVersion() const override {
    return context_->device().version + " (driver " + context_->device().driverVersion + ")";
  }
  DeviceLimits limits() const override;
  std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) override;
  void rebuild() override;
  bool abandonedKernelRunning() const override;
  CopyBandwidth measureCopyBandwidth(const CopyProbe &probe) override;

  ocl::Context &context() { return *context_; }
  bool runsOnHostCores() const override { return context_->device().type == ocl::DeviceType::Cpu; }

private:
  /// compile() may run on worker threads while rebuild() replaces the
  /// context: it reads context_ under this lock (contexts are never
  /// destroyed before the device, see abandoned_).
  std::mutex contextMutex_;
  std::unique_ptr<ocl::Context> context_;
  /// Contexts a timed-out kernel may still run in: kept, not used again.
  /// Releasing one waits for its kernel (clReleaseCommandQueue finishes the
  /// queue), which the destructor does; and a process must not exit while
  /// PoCL runs a kernel (its exit-time teardown races the worker threads).
  std::vector<std::unique_ptr<ocl::Context>> abandoned_;
};

/// The limits an OpenCL device reports.
DeviceLimits limitsOf(const ocl::DeviceInfo &device);

} // namespace liftcc::tuner
