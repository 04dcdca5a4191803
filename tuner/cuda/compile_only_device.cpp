#include "tuner/cuda/compile_only_device.h"

#include "tuner/cuda/sass_figures.h"

#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace liftcc::tuner {

namespace {

/// A compiled kernel that carries its SASS figures and refuses to run.
class NotRunKernel final : public CompiledKernel {
public:
  explicit NotRunKernel(std::optional<SassSummary> sass) : sass_(std::move(sass)) {}
  RawRun runViews(const std::map<std::string, int64_t> &, const InputViews &, const LaunchConfig &) override {
    throw KernelNotRunError();
  }
  std::optional<SassSummary> sass() const override { return sass_; }

private:
  std::optional<SassSummary> sass_;
};

} // namespace

CompileOnlyCudaDevice::CompileOnlyCudaDevice(Options options) : options_(std::move(options)) {
  if (options_.arch.rfind("sm_", 0) != 0)
    throw std::invalid_argument("a compile-only CUDA device needs a real architecture (sm_XY), found '" +
                                options_.arch + "'");
  if (!cuda::nvrtcAvailable())
    throw cuda::NvrtcError("a compile-only CUDA device needs NVRTC: liftcc was built without it", {});
}

std::unique_ptr<CompiledKernel> CompileOnlyCudaDevice::compile(const codegen::Kernel &kernel) {
  ++compiled_;
  if (kernel.target != codegen::Target::CUDA) throw KernelBuildError("an OpenCL kernel reached a CUDA device");
  // The options CudaDevice compiles with, for options_.arch.
  cuda::NvrtcOptions nvrtc;
  nvrtc.arch = options_.arch;
  nvrtc.warningsAsErrors = options_.warningsAsErrors;
  std::istringstream words(kernel.buildOptions);
  for (std::string word; words >> word;) nvrtc.extraOptions.push_back(word);
  nvrtc.extraOptions.insert(nvrtc.extraOptions.end(), options_.extraOptions.begin(), options_.extraOptions.end());
  nvrtc.extraOptions.push_back(cuda::kPtxasReportOption);
  try {
    cuda::PtxResult compiled = cuda::compileToPtx(kernel.source, nvrtc, kernel.name + ".cu");
    return std::make_unique<NotRunKernel>(cuda::summarize(cuda::parsePtxasReport(compiled.log)));
  } catch (const cuda::NvrtcError &e) {
    throw KernelBuildError(e.what());
  }
}

CopyBandwidth CompileOnlyCudaDevice::measureCopyBandwidth(const CopyProbe &) { throw KernelNotRunError(); }

} // namespace liftcc::tuner
