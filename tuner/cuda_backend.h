#pragma once
// The CUDA GPU behind tuner::Device: kernels compiled by NVRTC for the
// device's architecture and loaded through the dlopen'ed driver API, timed
// with CUDA events (CudaKernelRunner).

#include "tuner/cuda/cuda_runtime.h"
#include "tuner/device.h"

namespace liftcc::tuner {

class CudaDevice final : public Device {
public:
  /// Throws cuda::CudaError for an invalid device index.
  CudaDevice(cuda::DriverApi api, int deviceIndex);

  codegen::Target target() const override { return codegen::Target::CUDA; }
  std::string name() const override { return context_.device().name; }
  std::string resultsName() const override { return "cuda " + context_.device().name; }
  DeviceLimits limits() const override;
  std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) override;

private:
  cuda::Context context_;
};

/// The limits a CUDA device reports (shared memory without opt-in).
DeviceLimits limitsOf(const cuda::DeviceInfo &device);

} // namespace liftcc::tuner
