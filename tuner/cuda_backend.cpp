#include "tuner/cuda_backend.h"

#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/cuda_kernel_runner.h"

namespace liftcc::tuner {

namespace {

class CudaCompiledKernel final : public CompiledKernel {
public:
  CudaCompiledKernel(cuda::Context &context, const codegen::Kernel &kernel) try : runner_(context, kernel) {
  } catch (const cuda::NvrtcError &e) {
    throw KernelBuildError(e.what());
  } catch (const cuda::CudaError &e) {
    // Loading the PTX (the driver's JIT) is part of building the kernel.
    throw KernelBuildError(e.what());
  }

  RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs,
                  const LaunchConfig &config) override {
    try {
      return runner_.runBytes(sizes, inputs, config);
    } catch (const cuda::CudaError &e) {
      throw KernelLaunchError(e.what());
    }
  }

private:
  CudaKernelRunner runner_;
};

} // namespace

CudaDevice::CudaDevice(cuda::DriverApi api, int deviceIndex) : context_(std::move(api), deviceIndex) {}

DeviceLimits CudaDevice::limits() const { return limitsOf(context_.device()); }

std::unique_ptr<CompiledKernel> CudaDevice::compile(const codegen::Kernel &kernel) {
  return std::make_unique<CudaCompiledKernel>(context_, kernel);
}

DeviceLimits limitsOf(const cuda::DeviceInfo &device) {
  DeviceLimits limits;
  limits.localMemoryBytes = device.sharedMemPerBlock;
  // CUDA's fixed block limits (all current architectures) bound what the device reports.
  limits.maxWorkGroupSize = std::min<int64_t>(device.maxThreadsPerBlock, 1024);
  limits.maxWorkItemSizes = {1024, 1024, 64};
  return limits;
}

} // namespace liftcc::tuner
