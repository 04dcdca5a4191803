#include "tuner/cuda_kernel_runner.h"

#include "tuner/cuda/cuda_timing.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <stdexcept>

namespace liftcc::tuner {

namespace {

cuda::Module compile(cuda::Context &context, const codegen::Kernel &kernel) {
  if (kernel.target != codegen::Target::CUDA) throw std::invalid_argument("not a CUDA kernel");
  cuda::NvrtcOptions options;
  options.arch = context.device().arch();
  return context.loadModule(cuda::compileToPtx(kernel.source, options, kernel.name + ".cu").ptx);
}

} // namespace

CudaKernelRunner::CudaKernelRunner(cuda::Context &context, codegen::Kernel kernel)
    : context_(context), kernel_(std::move(kernel)), module_(compile(context, kernel_)),
      function_(module_.function(kernel_.name)) {}

KernelRun CudaKernelRunner::run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs,
                                const Type &resultType, const LaunchConfig &config) {
  return runOnValues(*this, sizes, inputs, resultType, config);
}

RawRun CudaKernelRunner::runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs,
                                  const LaunchConfig &config) {
  std::vector<cuda::Buffer> buffers;
  std::vector<std::optional<size_t>> bufferOfArg(kernel_.args.size());
  std::vector<int32_t> sizeArgs(kernel_.args.size(), 0);
  std::optional<size_t> outputBuffer;
  size_t nextInput = 0;
  for (size_t i = 0; i < kernel_.args.size(); ++i) {
    const codegen::KernelArg &arg = kernel_.args[i];
    switch (arg.role) {
    case codegen::KernelArg::Role::Input: {
      const std::vector<std::byte> &bytes = takeInput(kernel_, arg, inputs, nextInput, sizes);
      buffers.push_back(context_.allocate(std::max<size_t>(bytes.size(), 1)));
      if (!bytes.empty()) buffers.back().upload(bytes.data(), bytes.size());
      bufferOfArg[i] = buffers.size() - 1;
      break;
    }
    case codegen::KernelArg::Role::Output: {
      size_t bytes = bufferBytes(arg, sizes);
      buffers.push_back(context_.allocate(std::max<size_t>(bytes, 1)));
      bufferOfArg[i] = outputBuffer = buffers.size() - 1;
      break;
    }
    case codegen::KernelArg::Role::Size: {
      sizeArgs[i] = sizeArgument(arg, sizes);
      break;
    }
    }
  }
  if (!outputBuffer) throw std::logic_error("kernel " + kernel_.name + " has no output");

  // Blocks: the requested or the kernel's work-group size; a common default otherwise.
  std::array<size_t, 3> block{kernel_.dims == 1 ? 256u : 32u, kernel_.dims >= 2 ? 8u : 1u, 1};
  if (config.localSize) block = *config.localSize;
  else if (kernel_.localSize)
    for (int d = 0; d < 3; ++d) block[d] = static_cast<size_t>((*kernel_.localSize)[d]);
  std::array<size_t, 3> global = kernel_.concreteGlobalSize(sizes, block);
  cuda::LaunchConfig launch;
  launch.block = {unsigned(block[0]), unsigned(block[1]), unsigned(block[2])};
  launch.grid = {unsigned(global[0] / block[0]), unsigned(global[1] / block[1]), unsigned(global[2] / block[2])};

  int64_t launches = kernel_.iteration ? arith::evaluate(kernel_.iteration->count, sizes) : 1;
  std::optional<size_t> iterated;
  if (kernel_.iteration) iterated = bufferOfArg[kernel_.iteration->inputArg];
  std::vector<std::byte> initialInput;
  if (iterated) {
    initialInput.resize(buffers[*iterated].size());
    buffers[*iterated].download(initialInput.data(), initialInput.size());
  }
  size_t resultBuffer = *outputBuffer;
  auto work = [&] {
    if (iterated) buffers[*iterated].upload(initialInput.data(), initialInput.size());
    size_t in = iterated.value_or(0), out = *outputBuffer;
    for (int64_t k = 0; k < launches; ++k) {
      std::vector<cuda::KernelArg> args;
      for (size_t i = 0; i < kernel_.args.size(); ++i) {
        if (!bufferOfArg[i]) {
          args.emplace_back(sizeArgs[i]);
          continue;
        }
        size_t b = *bufferOfArg[i];
        if (iterated && b == *iterated) b = in;
        else if (iterated && b == *outputBuffer) b = out;
        args.emplace_back(buffers[b]);
      }
      cuda::launch(function_, launch, args);
      if (iterated) std::swap(in, out);
    }
    resultBuffer = iterated ? in : *outputBuffer;
  };
  cuda::TimingOptions timing;
  timing.warmupRuns = config.warmups;
  timing.timedRuns = std::max(1, config.repetitions);
  cuda::TimingResult times = cuda::timeWork(context_, work, timing);

  RawRun result;
  for (double ms : times.runsMs) result.timesNs.push_back(static_cast<uint64_t>(ms * 1e6));
  if (config.downloadOutput) {
    result.output.resize(buffers[resultBuffer].size());
    buffers[resultBuffer].download(result.output.data(), result.output.size());
  }
  return result;
}

} // namespace liftcc::tuner
