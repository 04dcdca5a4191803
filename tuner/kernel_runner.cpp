#include "tuner/kernel_runner.h"

#include <stdexcept>

namespace liftcc::tuner {

OpenCLKernelRunner::OpenCLKernelRunner(ocl::Context &context, codegen::Kernel kernel)
    : context_(context), kernel_(std::move(kernel)), program_(context, kernel_.source, "-cl-std=CL1.2"),
      clKernel_(program_, kernel_.name) {
  if (kernel_.target != codegen::Target::OpenCL) throw std::invalid_argument("not an OpenCL kernel");
}

KernelRun OpenCLKernelRunner::run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs,
                                  const Type &resultType, const LaunchConfig &config) {
  return runOnValues(*this, sizes, inputs, resultType, config);
}

RawRun OpenCLKernelRunner::runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs,
                                    const LaunchConfig &config) {
  std::vector<ocl::Buffer> buffers;
  buffers.reserve(kernel_.args.size());
  size_t nextInput = 0;
  std::optional<size_t> outputBuffer;
  for (size_t i = 0; i < kernel_.args.size(); ++i) {
    const codegen::KernelArg &arg = kernel_.args[i];
    auto index = static_cast<cl_uint>(i);
    switch (arg.role) {
    case codegen::KernelArg::Role::Input: {
      const std::vector<std::byte> &bytes = takeInput(kernel_, arg, inputs, nextInput, sizes);
      buffers.emplace_back(context_, std::max<size_t>(bytes.size(), 1), kernel_.iteration ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY);
      if (!bytes.empty()) buffers.back().upload(std::span<const std::byte>(bytes));
      clKernel_.setArg(index, buffers.back());
      break;
    }
    case codegen::KernelArg::Role::Output: {
      size_t bytes = bufferBytes(arg, sizes);
      buffers.emplace_back(context_, std::max<size_t>(bytes, 1), kernel_.iteration ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY);
      outputBuffer = buffers.size() - 1;
      clKernel_.setArg(index, buffers.back());
      break;
    }
    case codegen::KernelArg::Role::Size: {
      clKernel_.setArg(index, sizeArgument(arg, sizes));
      break;
    }
    }
  }
  if (!outputBuffer) throw std::logic_error("kernel " + kernel_.name + " has no output");

  std::array<size_t, 3> local{1, 1, 1};
  bool explicitLocal = config.localSize.has_value() || kernel_.localSize.has_value();
  if (config.localSize) local = *config.localSize;
  else if (kernel_.localSize)
    for (int d = 0; d < 3; ++d) local[d] = static_cast<size_t>((*kernel_.localSize)[d]);
  std::array<size_t, 3> global = kernel_.concreteGlobalSize(sizes, explicitLocal ? local : std::array<size_t, 3>{1, 1, 1});
  auto range = [&](const std::array<size_t, 3> &s) {
    switch (kernel_.dims) {
    case 1: return ocl::NDRange(s[0]);
    case 2: return ocl::NDRange(s[0], s[1]);
    default: return ocl::NDRange(s[0], s[1], s[2]);
    }
  };
  std::optional<ocl::NDRange> localRange;
  if (explicitLocal) localRange = range(local);

  // An iterated kernel runs `count` times, swapping its input and output
  // buffers in between; a repetition is the whole sequence.
  int64_t launches = 1;
  std::optional<size_t> iteratedBuffer;
  if (kernel_.iteration) {
    launches = arith::evaluate(kernel_.iteration->count, sizes);
    iteratedBuffer = kernel_.iteration->inputArg; // inputs come first, so arg index == buffer index
  }
  auto launchAll = [&]() -> std::pair<uint64_t, size_t> {
    uint64_t total = 0;
    size_t in = iteratedBuffer.value_or(0), out = *outputBuffer;
    for (int64_t k = 0; k < launches; ++k) {
      if (iteratedBuffer) {
        clKernel_.setArg(static_cast<cl_uint>(*iteratedBuffer), buffers[in]);
        clKernel_.setArg(static_cast<cl_uint>(*outputBuffer), buffers[out]);
      }
      total += context_.launch(clKernel_, range(global), localRange);
      std::swap(in, out);
    }
    // After the last swap `in` holds the latest result (or the input itself for zero launches).
    return {total, iteratedBuffer ? in : *outputBuffer};
  };
  std::vector<std::byte> initialInput;
  if (iteratedBuffer) {
    initialInput.resize(buffers[*iteratedBuffer].size());
    buffers[*iteratedBuffer].download(std::span<std::byte>(initialInput));
  }
  auto restoreInput = [&] {
    // Every repetition starts from the original input.
    if (iteratedBuffer) buffers[*iteratedBuffer].upload(std::span<const std::byte>(initialInput));
  };

  RawRun result;
  size_t resultBuffer = *outputBuffer;
  for (int i = 0; i < config.warmups; ++i) {
    restoreInput();
    launchAll();
  }
  for (int i = 0; i < std::max(1, config.repetitions); ++i) {
    restoreInput();
    auto [ns, where] = launchAll();
    result.timesNs.push_back(ns);
    resultBuffer = where;
  }

  if (config.downloadOutput) {
    const ocl::Buffer &out = buffers[resultBuffer];
    result.output.resize(out.size());
    out.download(std::span<std::byte>(result.output));
  }
  return result;
}

} // namespace liftcc::tuner
