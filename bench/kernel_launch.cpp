#include "bench/kernel_launch.h"

#include <limits>
#include <stdexcept>

namespace liftcc::bench {

namespace {

// A quiet NaN never equals an expected value, so an output element the
// kernel does not write is reported as a mismatch rather than passing with a
// stale or zero value.
constexpr float kUnwritten = std::numeric_limits<float>::quiet_NaN();

ocl::NDRange toRange(int dims, const std::array<size_t, 3> &s) {
  switch (dims) {
  case 1: return ocl::NDRange(s[0]);
  case 2: return ocl::NDRange(s[0], s[1]);
  default: return ocl::NDRange(s[0], s[1], s[2]);
  }
}

int32_t intArgument(const std::string &name, int64_t value) {
  if (value < 0 || value > std::numeric_limits<int32_t>::max())
    throw std::invalid_argument("size " + name + " does not fit an int kernel argument");
  return static_cast<int32_t>(value);
}

} // namespace

LaunchResult runLaunch(ocl::Context &context, const KernelLaunch &launch, const std::vector<Grid> &inputs,
                       size_t outputElements, const ocl::TimingOptions &timing) {
  ocl::Program program(context, launch.source, launch.buildOptions);
  ocl::Kernel kernel(program, launch.kernelName);
  if (kernel.numArgs() != launch.args.size())
    throw std::invalid_argument("kernel " + launch.kernelName + " takes " + std::to_string(kernel.numArgs()) +
                                " arguments, the launch binds " + std::to_string(launch.args.size()));

  // Buffers must outlive the launches (OpenCL does not retain them).
  std::vector<ocl::Buffer> buffers;
  buffers.reserve(launch.args.size());
  std::optional<size_t> output;
  for (size_t i = 0; i < launch.args.size(); ++i) {
    auto index = static_cast<cl_uint>(i);
    const LaunchArg &arg = launch.args[i];
    if (const auto *in = std::get_if<InputArg>(&arg)) {
      if (in->index >= inputs.size()) throw std::invalid_argument("launch reads input " + std::to_string(in->index) + " of " + std::to_string(inputs.size()));
      const Grid &grid = inputs[in->index];
      buffers.emplace_back(context, std::max<size_t>(grid.size(), 1) * sizeof(float), CL_MEM_READ_ONLY);
      buffers.back().upload(grid);
      kernel.setArg(index, buffers.back());
    } else if (std::holds_alternative<OutputArg>(arg)) {
      buffers.emplace_back(context, std::max<size_t>(outputElements, 1) * sizeof(float), CL_MEM_WRITE_ONLY);
      buffers.back().upload(Grid(std::max<size_t>(outputElements, 1), kUnwritten));
      output = buffers.size() - 1;
      kernel.setArg(index, buffers.back());
    } else {
      kernel.setArg(index, std::get<IntArg>(arg).value);
    }
  }
  if (!output) throw std::invalid_argument("kernel " + launch.kernelName + " has no output argument");

  LaunchResult result;
  result.timing = ocl::timeKernel(context, kernel, launch.global, launch.local, timing);
  result.output.resize(outputElements);
  buffers[*output].download(result.output);
  return result;
}

KernelLaunch generatedLaunch(const codegen::Kernel &kernel, const Sizes &sizes,
                             const std::optional<std::array<size_t, 3>> &local) {
  if (kernel.target != codegen::Target::OpenCL) throw std::invalid_argument("not an OpenCL kernel");
  KernelLaunch launch;
  launch.source = kernel.source;
  launch.kernelName = kernel.name;
  size_t inputs = 0;
  for (const codegen::KernelArg &arg : kernel.args) {
    switch (arg.role) {
    case codegen::KernelArg::Role::Input: launch.args.push_back(InputArg{inputs++}); break;
    case codegen::KernelArg::Role::Output: launch.args.push_back(OutputArg{}); break;
    case codegen::KernelArg::Role::Size: {
      auto it = sizes.find(arg.name);
      if (it == sizes.end()) throw std::invalid_argument("no value for size " + arg.name);
      launch.args.push_back(IntArg{intArgument(arg.name, it->second)});
      break;
    }
    }
  }
  // The same choice as tuner::OpenCLKernelRunner::run.
  std::optional<std::array<size_t, 3>> groups = local;
  if (!groups && kernel.localSize)
    groups = std::array<size_t, 3>{static_cast<size_t>((*kernel.localSize)[0]), static_cast<size_t>((*kernel.localSize)[1]),
                                   static_cast<size_t>((*kernel.localSize)[2])};
  launch.global = toRange(kernel.dims, kernel.concreteGlobalSize(sizes, groups.value_or(std::array<size_t, 3>{1, 1, 1})));
  if (groups) launch.local = toRange(kernel.dims, *groups);
  return launch;
}

} // namespace liftcc::bench
