#pragma once
// Runs a generated OpenCL kernel on concrete inputs: builds it, uploads the
// inputs, binds the size arguments, launches with the kernel's NDRange and
// downloads the result. Used by `liftc run`, the tests and the tuner.

#include "codegen/kernel.h"
#include "tuner/launch.h"
#include "core/interp/value.h"
#include "tuner/opencl_runtime.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// A generated kernel built for one OpenCL context.
class OpenCLKernelRunner {
public:
  /// Throws ocl::BuildError with the build log when the source does not compile.
  OpenCLKernelRunner(ocl::Context &context, codegen::Kernel kernel);

  /// `inputs` in the order of the kernel's input arguments; `resultType` is
  /// the program's result type (to shape the downloaded output).
  KernelRun run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs, const Type &resultType,
                const LaunchConfig &config = {});
  /// The same on raw input bytes; the output is downloaded only if
  /// config.downloadOutput.
  RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs, const LaunchConfig &config = {});

  const codegen::Kernel &kernel() const { return kernel_; }

private:
  ocl::Context &context_;
  codegen::Kernel kernel_;
  ocl::Program program_;
  ocl::Kernel clKernel_;
};

} // namespace liftcc::tuner
