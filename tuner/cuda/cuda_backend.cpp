#include "tuner/cuda/cuda_backend.h"

#include "tuner/cuda/cuda_copy_roofline.h"
#include "tuner/cuda/cuda_timing.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/cuda/sass_figures.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace liftcc::tuner {

namespace {

/// What runPlan needs from CUDA: device buffers, arguments marshalled before
/// the launch, and a pair of events around the launch only.
class CudaPlanBackend final : public PlanBackend {
public:
  CudaPlanBackend(cuda::Context &context, const cuda::Function &function, size_t params,
                  const std::vector<cuda::Function> &stages, const LaunchPlan &plan)
      : context_(context), function_(function), args_(params, cuda::KernelArg(0)), stages_(stages) {
    for (const LaunchPlan::Stage &s : plan.stages) stageArgs_.emplace_back(s.params.size(), cuda::KernelArg(0));
  }

  void allocate(const std::vector<PlanBuffer> &buffers) override {
    buffers_.clear();
    buffers_.reserve(buffers.size());
    for (const PlanBuffer &b : buffers) buffers_.push_back(context_.allocate(std::max<size_t>(b.bytes, 1)));
  }
  void release() override { buffers_.clear(); }
  void upload(size_t buffer, std::span<const std::byte> bytes) override {
    buffers_.at(buffer).upload(bytes.data(), bytes.size());
  }
  void download(size_t buffer, std::span<std::byte> bytes) override {
    buffers_.at(buffer).download(bytes.data(), bytes.size());
  }
  void bind(size_t index, const PlanParam &param) override {
    if (const auto *b = std::get_if<BufferParam>(&param))
      args_.at(index) = cuda::KernelArg(buffers_.at(b->buffer));
    else
      args_.at(index) = cuda::KernelArg(std::get<IntParam>(param).value);
  }
  uint64_t launch(const LaunchPlan &plan, std::optional<Deadline> deadline) override {
    return launchFunction(function_, args_, plan.kernelName, plan.dims, plan.global, plan.local, deadline);
  }
  void bindStage(size_t stage, size_t index, const PlanParam &param) override {
    if (const auto *b = std::get_if<BufferParam>(&param))
      stageArgs_.at(stage).at(index) = cuda::KernelArg(buffers_.at(b->buffer));
    else
      stageArgs_.at(stage).at(index) = cuda::KernelArg(std::get<IntParam>(param).value);
  }
  uint64_t launchStage(const LaunchPlan &plan, size_t stage, std::optional<Deadline> deadline) override {
    const LaunchPlan::Stage &s = plan.stages.at(stage);
    return launchFunction(stages_.at(stage), stageArgs_.at(stage), s.kernelName, s.dims, s.global, s.local, deadline);
  }

private:
  uint64_t launchFunction(const cuda::Function &function, const std::vector<cuda::KernelArg> &args,
                          const std::string &name, int dims, const std::array<size_t, 3> &global,
                          const std::optional<std::array<size_t, 3>> &local, std::optional<Deadline> deadline) {
    const std::array<size_t, 3> block = local.value_or(defaultCudaBlock(dims));
    cuda::LaunchConfig config;
    config.block = {unsigned(block[0]), unsigned(block[1]), unsigned(block[2])};
    config.grid = {unsigned(global[0] / block[0]), unsigned(global[1] / block[1]), unsigned(global[2] / block[2])};
    // Validated and marshalled before the start event: the events bracket
    // the kernel only.
    const cuda::PreparedLaunch prepared(function, config, args);
    context_.makeCurrent();
    cuda::Event start(context_.api()), stop(context_.api());
    start.record();
    prepared.enqueue();
    stop.record();
    if (deadline) {
      if (!stop.synchronizeUntil(*deadline)) throw KernelTimeoutError("kernel " + name + " did not complete in time");
    } else {
      stop.synchronize();
    }
    // Kernel faults are reported at synchronisation, not by the event calls.
    context_.synchronize();
    return static_cast<uint64_t>(stop.since(start) * 1e6);
  }

  cuda::Context &context_;
  const cuda::Function &function_;
  std::vector<cuda::KernelArg> args_;
  const std::vector<cuda::Function> &stages_;
  std::vector<std::vector<cuda::KernelArg>> stageArgs_;
  std::vector<cuda::Buffer> buffers_;
};

/// Also sets `sass` from ptxas's report of this very compilation (NVRTC runs
/// ptxas for the device's real architecture anyway).
cuda::Module compile(cuda::Context &context, const codegen::Kernel &kernel, std::optional<SassSummary> &sass) {
  if (kernel.target != codegen::Target::CUDA) throw std::invalid_argument("not a CUDA kernel");
  try {
    cuda::NvrtcOptions options;
    options.arch = context.device().arch();
    // The kernel's own options (fast math), one word each.
    std::istringstream words(kernel.buildOptions);
    for (std::string word; words >> word;) options.extraOptions.push_back(word);
    options.extraOptions.push_back(cuda::kPtxasReportOption);
    cuda::PtxResult compiled = cuda::compileToPtx(kernel.source, options, kernel.name + ".cu");
    sass = cuda::summarize(cuda::parsePtxasReport(compiled.log));
    return context.loadModule(compiled.ptx);
  } catch (const cuda::NvrtcError &e) {
    throw KernelBuildError(e.what());
  } catch (const cuda::CudaError &e) {
    // Loading the PTX (the driver's JIT) is part of building the kernel.
    throw KernelBuildError(e.what());
  }
}

cuda::Function entryPoint(const cuda::Module &module, const std::string &name) try {
  return module.function(name);
} catch (const cuda::CudaError &e) {
  throw KernelBuildError(e.what());
}

} // namespace

CudaKernelRunner::CudaKernelRunner(cuda::Context &context, codegen::Kernel kernel)
    : context_(context), kernel_(std::move(kernel)), module_(compile(context, kernel_, sass_)),
      function_(entryPoint(module_, kernel_.name)) {
  for (const codegen::Kernel &stage : kernel_.stages) stageFunctions_.push_back(entryPoint(module_, stage.name));
}

RawRun CudaKernelRunner::runViews(const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                                  const LaunchConfig &config) {
  LaunchPlan plan = planLaunch(kernel_, sizes, config.localSize, defaultCudaBlock(kernel_.dims));
  try {
    CudaPlanBackend backend(context_, function_, plan.params.size(), stageFunctions_, plan);
    return runPlan(backend, plan, inputs, config);
  } catch (const cuda::CudaError &e) {
    throw KernelLaunchError(e.what());
  }
}

CudaDevice::CudaDevice(cuda::DriverApi api, int deviceIndex) : context_(std::move(api), deviceIndex) {}

std::string CudaDevice::driverVersion() const {
  int version = currentContext().api().driverVersion(); // e.g. 13000 for CUDA 13.0
  return version > 0 ? "CUDA driver " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10)
                     : std::string();
}

void CudaDevice::rebuild() {
  cuda::Context fresh(context_.api(), context_.device().index);
  std::lock_guard lock(contextMutex_);
  context_ = std::move(fresh);
}

cuda::Context CudaDevice::currentContext() const {
  std::lock_guard lock(contextMutex_);
  return context_;
}

DeviceLimits CudaDevice::limits() const { return limitsOf(context_.device()); }

std::unique_ptr<CompiledKernel> CudaDevice::compile(const codegen::Kernel &kernel) {
  // NVRTC is thread-safe, and loading a module makes the context current on
  // the calling thread first (cuda::Context::loadModule).
  cuda::Context context = currentContext();
  return std::make_unique<CudaKernelRunner>(context, kernel);
}

CopyBandwidth CudaDevice::measureCopyBandwidth(const CopyProbe &probe) {
  cuda::TimingOptions options;
  options.warmupRuns = std::max(0, probe.warmups);
  options.timedRuns = std::max(1, probe.runs);
  // Every candidate is timed (tuner/copy_roofline.h): at most 10 runs each.
  options.timedRuns = std::min(options.timedRuns, 10);
  try {
    return cuda::measureCopyRoofline(context_, probe.bufferBytes, options, probe.onlyCandidate);
  } catch (const cuda::NvrtcError &e) {
    throw KernelBuildError(e.what());
  }
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
