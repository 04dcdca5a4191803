#include "tuner/opencl/opencl_backend.h"

#include "tuner/opencl/opencl_bandwidth.h"

#include <algorithm>

namespace liftcc::tuner {

namespace {

ocl::NDRange toRange(int dims, const std::array<size_t, 3> &s) {
  switch (dims) {
  case 1: return ocl::NDRange(s[0]);
  case 2: return ocl::NDRange(s[0], s[1]);
  default: return ocl::NDRange(s[0], s[1], s[2]);
  }
}

cl_mem_flags flagsOf(const PlanBuffer &buffer) {
  if (buffer.readOnly) return CL_MEM_READ_ONLY;
  if (buffer.writeOnly) return CL_MEM_WRITE_ONLY;
  return CL_MEM_READ_WRITE;
}

/// What runPlan needs from OpenCL: buffers of the context, arguments of the
/// built kernel, launches timed by profiling events.
class OpenCLPlanBackend final : public PlanBackend {
public:
  OpenCLPlanBackend(ocl::Context &context, ocl::Kernel &kernel, std::vector<ocl::Kernel> &stages)
      : context_(context), kernel_(kernel), stages_(stages) {}

  void allocate(const std::vector<PlanBuffer> &buffers) override {
    buffers_.clear();
    buffers_.reserve(buffers.size());
    for (const PlanBuffer &b : buffers) buffers_.emplace_back(context_, std::max<size_t>(b.bytes, 1), flagsOf(b));
  }
  void release() override { buffers_.clear(); }
  void upload(size_t buffer, std::span<const std::byte> bytes) override { buffers_.at(buffer).upload(bytes); }
  void download(size_t buffer, std::span<std::byte> bytes) override { buffers_.at(buffer).download(bytes); }
  void bind(size_t index, const PlanParam &param) override {
    auto i = static_cast<cl_uint>(index);
    if (const auto *b = std::get_if<BufferParam>(&param))
      kernel_.setArg(i, buffers_.at(b->buffer));
    else
      kernel_.setArg(i, std::get<IntParam>(param).value);
  }
  uint64_t launch(const LaunchPlan &plan, std::optional<Deadline> deadline) override {
    std::optional<ocl::NDRange> local;
    if (plan.local) local = toRange(plan.dims, *plan.local);
    return context_.launch(kernel_, toRange(plan.dims, plan.global), local, deadline);
  }

  void bindStage(size_t stage, size_t index, const PlanParam &param) override {
    auto i = static_cast<cl_uint>(index);
    if (const auto *b = std::get_if<BufferParam>(&param))
      stages_.at(stage).setArg(i, buffers_.at(b->buffer));
    else
      stages_.at(stage).setArg(i, std::get<IntParam>(param).value);
  }
  uint64_t launchStage(const LaunchPlan &plan, size_t stage, std::optional<Deadline> deadline) override {
    const LaunchPlan::Stage &s = plan.stages.at(stage);
    std::optional<ocl::NDRange> local;
    if (s.local) local = toRange(s.dims, *s.local);
    return context_.launch(stages_.at(stage), toRange(s.dims, s.global), local, deadline);
  }

private:
  ocl::Context &context_;
  ocl::Kernel &kernel_;
  std::vector<ocl::Kernel> &stages_;
  // OpenCL does not retain buffers set as arguments: they live here until release().
  std::vector<ocl::Buffer> buffers_;
};

ocl::Program build(ocl::Context &context, const codegen::Kernel &kernel) try {
  if (kernel.target != codegen::Target::OpenCL) throw std::invalid_argument("not an OpenCL kernel");
  // The kernel's own options (fast math) after the language version.
  return ocl::Program(context, kernel.source,
                      kernel.buildOptions.empty() ? "-cl-std=CL1.2" : "-cl-std=CL1.2 " + kernel.buildOptions);
} catch (const ocl::BuildError &e) {
  throw KernelBuildError(e.what());
}

} // namespace

OpenCLKernelRunner::OpenCLKernelRunner(ocl::Context &context, codegen::Kernel kernel)
    : context_(context), kernel_(std::move(kernel)), program_(build(context, kernel_)),
      clKernel_(program_, kernel_.name) {
  for (const codegen::Kernel &stage : kernel_.stages) stageKernels_.emplace_back(program_, stage.name);
}

RawRun OpenCLKernelRunner::runViews(const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                                    const LaunchConfig &config) {
  // nullopt: the OpenCL runtime chooses the work-group size of mapGlb kernels.
  LaunchPlan plan = planLaunch(kernel_, sizes, config.localSize, std::nullopt);
  try {
    OpenCLPlanBackend backend(context_, clKernel_, stageKernels_);
    return runPlan(backend, plan, inputs, config);
  } catch (const ocl::LaunchTimeout &e) {
    throw KernelTimeoutError(e.what());
  } catch (const ocl::OpenCLError &e) {
    throw KernelLaunchError(e.what());
  }
}

OpenCLDevice::OpenCLDevice(const ocl::DeviceInfo &device) : context_(std::make_unique<ocl::Context>(device)) {}

OpenCLDevice::~OpenCLDevice() {
  // Wait for the abandoned kernels explicitly: a context must not go while
  // its kernel runs.
  for (const std::unique_ptr<ocl::Context> &context : abandoned_) {
    try {
      context->finish();
    } catch (const ocl::OpenCLError &) {
      // The kernel failed after it was abandoned: nothing to wait for.
    }
  }
}

void OpenCLDevice::rebuild() {
  auto fresh = std::make_unique<ocl::Context>(context_->device());
  std::lock_guard lock(contextMutex_);
  abandoned_.push_back(std::move(context_));
  context_ = std::move(fresh);
}

bool OpenCLDevice::abandonedKernelRunning() const {
  return std::any_of(abandoned_.begin(), abandoned_.end(),
                     [](const std::unique_ptr<ocl::Context> &c) { return c->timedOutKernelRunning(); });
}

DeviceLimits OpenCLDevice::limits() const { return limitsOf(context_->device()); }

std::unique_ptr<CompiledKernel> OpenCLDevice::compile(const codegen::Kernel &kernel) {
  // OpenCL's API is thread-safe apart from setting the arguments of one
  // kernel object, which each runner owns.
  ocl::Context *context = nullptr;
  {
    std::lock_guard lock(contextMutex_);
    context = context_.get();
  }
  try {
    return std::make_unique<OpenCLKernelRunner>(*context, kernel);
  } catch (const ocl::OpenCLError &e) {
    throw KernelLaunchError(e.what());
  }
}

CopyBandwidth OpenCLDevice::measureCopyBandwidth(const CopyProbe &probe) {
  ocl::BandwidthOptions options;
  options.elements = std::max<size_t>(1, probe.bufferBytes / sizeof(float));
  options.timing.warmupRuns = static_cast<unsigned>(std::max(0, probe.warmups));
  options.timing.timedRuns = static_cast<unsigned>(std::max(1, probe.runs));
  // Every candidate is timed (tuner/copy_roofline.h): at most 10 runs each
  // keeps the probe within a few seconds; the median of 10 is stable enough
  // for a roof.
  options.timing.timedRuns = std::min(options.timing.timedRuns, 10u);
  // On a CPU device the buffers are the host's memory: memcpy cross-checks the roof.
  return ocl::measureCopyRoofline(*context_, options, context_->device().type == ocl::DeviceType::Cpu,
                                  probe.onlyCandidate);
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
