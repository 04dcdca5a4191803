#pragma once
// The OpenCL device behind tuner::Device: kernels built by the ICD's OpenCL C
// compiler, timed with profiling events (OpenCLKernelRunner).

#include "tuner/device.h"
#include "tuner/opencl_runtime.h"

namespace liftcc::tuner {

class OpenCLDevice final : public Device {
public:
  /// Throws like ocl::Context (no profiling, no context).
  explicit OpenCLDevice(const ocl::DeviceInfo &device);

  codegen::Target target() const override { return codegen::Target::OpenCL; }
  std::string name() const override { return context_.device().name; }
  std::string resultsName() const override { return context_.device().name; }
  DeviceLimits limits() const override;
  std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) override;

  ocl::Context &context() { return context_; }

private:
  ocl::Context context_;
};

/// The limits an OpenCL device reports.
DeviceLimits limitsOf(const ocl::DeviceInfo &device);

} // namespace liftcc::tuner
