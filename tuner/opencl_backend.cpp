#include "tuner/opencl_backend.h"

#include "tuner/kernel_runner.h"

namespace liftcc::tuner {

namespace {

class OpenCLCompiledKernel final : public CompiledKernel {
public:
  OpenCLCompiledKernel(ocl::Context &context, const codegen::Kernel &kernel) try : runner_(context, kernel) {
  } catch (const ocl::BuildError &e) {
    throw KernelBuildError(e.what());
  } catch (const ocl::OpenCLError &e) {
    throw KernelLaunchError(e.what());
  }

  RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs,
                  const LaunchConfig &config) override {
    try {
      return runner_.runBytes(sizes, inputs, config);
    } catch (const ocl::OpenCLError &e) {
      throw KernelLaunchError(e.what());
    }
  }

private:
  OpenCLKernelRunner runner_;
};

} // namespace

OpenCLDevice::OpenCLDevice(const ocl::DeviceInfo &device) : context_(device) {}

DeviceLimits OpenCLDevice::limits() const { return limitsOf(context_.device()); }

std::unique_ptr<CompiledKernel> OpenCLDevice::compile(const codegen::Kernel &kernel) {
  return std::make_unique<OpenCLCompiledKernel>(context_, kernel);
}

DeviceLimits limitsOf(const ocl::DeviceInfo &device) {
  DeviceLimits limits;
  limits.localMemoryBytes = static_cast<int64_t>(device.localMemBytes);
  limits.maxWorkGroupSize = static_cast<int64_t>(device.maxWorkGroupSize);
  for (size_t d = 0; d < 3 && d < device.maxWorkItemSizes.size(); ++d)
    limits.maxWorkItemSizes[d] = static_cast<int64_t>(device.maxWorkItemSizes[d]);
  return limits;
}

} // namespace liftcc::tuner
