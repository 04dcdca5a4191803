#pragma once
// Runs a generated CUDA kernel: compiles it with NVRTC for the device's
// architecture, loads the PTX through the driver API, uploads the inputs,
// launches (grid = global / block, rounded up) and downloads the result.
// The CUDA counterpart of OpenCLKernelRunner; needs a CUDA driver and GPU.

#include "codegen/kernel.h"
#include "core/interp/value.h"
#include "tuner/cuda/cuda_runtime.h"
#include "tuner/kernel_runner.h"

namespace liftcc::tuner {

class CudaKernelRunner {
public:
  /// Throws cuda::NvrtcError with the log when the source does not compile.
  CudaKernelRunner(cuda::Context &context, codegen::Kernel kernel);

  KernelRun run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs, const Type &resultType,
                const LaunchConfig &config = {});
  /// The same on raw input bytes; the output is downloaded only if
  /// config.downloadOutput.
  RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs, const LaunchConfig &config = {});

private:
  cuda::Context &context_;
  codegen::Kernel kernel_;
  cuda::Module module_;
  cuda::Function function_;
};

} // namespace liftcc::tuner
