#include "tuner/cuda/cuda_copy_roofline.h"

#include "tuner/backend_error.h"
#include "tuner/copy_roofline.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::cuda {

namespace {

constexpr const char *kCopySource = R"CU(
extern "C" __global__ void liftcc_copy_guarded(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
extern "C" __global__ void liftcc_copy_guard_free(const float* __restrict__ in, float* __restrict__ out) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
extern "C" __global__ void liftcc_copy_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
)CU";

struct CopyKernel {
  const char *name;  // the candidate's name
  const char *entry; // the kernel's
  std::size_t width; // floats per thread
  bool guarded;
};
constexpr CopyKernel kKernels[] = {{"guarded", "liftcc_copy_guarded", 1, true},
                                   {"guard-free", "liftcc_copy_guard_free", 1, false},
                                   {"float4", "liftcc_copy_float4", 4, false}};

double bytesPerSecond(std::size_t bytes, const TimingResult &t) {
  if (t.medianMs <= 0) throw tuner::BackendError("the device reported a copy time of 0 ms");
  return 2.0 * static_cast<double>(bytes) / (t.medianMs * 1e-3);
}

} // namespace

const char *copyKernelSource() { return kCopySource; }

tuner::CopyBandwidth measureCopyRoofline(const Context &ctx, std::size_t bytes, const TimingOptions &options,
                                         const std::string &onlyCandidate) {
  constexpr std::size_t kGranule = 4 * 1024 * sizeof(float);
  std::size_t n = (bytes >= kGranule ? bytes / kGranule * kGranule : bytes) / sizeof(float);
  if (n == 0) throw std::invalid_argument("measureCopyRoofline: bytes must be at least 4");
  if (n > 0xffffffffu) throw std::invalid_argument("measureCopyRoofline: at most 2^32 - 1 floats");
  NvrtcOptions nvrtc;
  nvrtc.arch = ctx.device().arch();
  const Module module = ctx.loadModule(compileToPtx(kCopySource, nvrtc, "liftcc_copy.cu").ptx);

  Buffer in = ctx.allocate(n * sizeof(float));
  Buffer out = ctx.allocate(n * sizeof(float));
  {
    std::vector<float> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = tuner::copyPattern(i);
    in.upload(host);
  }
  const std::vector<float> zeros(n, 0.0f);

  tuner::CopyBandwidth result;
  result.bufferBytes = n * sizeof(float);
  result.runs = static_cast<std::size_t>(options.timedRuns);
  auto wanted = [&](const tuner::CopyCandidate &candidate) {
    return onlyCandidate.empty() || candidate.label() == onlyCandidate;
  };
  auto measure = [&](tuner::CopyCandidate candidate, auto &&work) {
    try {
      out.upload(zeros); // a copy that writes nothing must fail verification
      candidate.bytesPerSecond = bytesPerSecond(result.bufferBytes, timeWork(ctx, work, options));
      if (auto mismatch = tuner::copyMismatch(out.download<float>()))
        throw tuner::BackendError(candidate.label() + ": " + *mismatch);
    } catch (const std::exception &e) {
      candidate.bytesPerSecond = 0;
      candidate.error = e.what();
    }
    result.candidates.push_back(std::move(candidate));
  };
  for (const CopyKernel &kernel : kKernels) {
    const Function fn = module.function(kernel.entry);
    for (std::size_t block : tuner::copyWorkGroups()) {
      if (block == 0) continue; // CUDA has no runtime-chosen block size
      if (block > static_cast<std::size_t>(fn.maxThreadsPerBlock())) continue;
      const std::size_t items = n / kernel.width;
      tuner::CopyCandidate candidate{kernel.name, block, 0, ""};
      if (!wanted(candidate)) continue;
      if (n % kernel.width != 0 || (!kernel.guarded && items % block != 0)) {
        candidate.error = "the block does not divide " + std::to_string(n) + " floats";
        result.candidates.push_back(std::move(candidate));
        continue;
      }
      LaunchConfig config;
      config.block = {static_cast<unsigned>(block), 1, 1};
      config.grid = {static_cast<unsigned>((items + block - 1) / block), 1, 1};
      std::vector<KernelArg> args{in, out};
      if (kernel.guarded) args.emplace_back(static_cast<unsigned>(n));
      std::optional<PreparedLaunch> prepared;
      try {
        prepared.emplace(fn, config, args);
      } catch (const std::exception &e) {
        candidate.error = e.what();
        result.candidates.push_back(std::move(candidate));
        continue;
      }
      measure(std::move(candidate), [&] { prepared->enqueue(); });
    }
  }
  if (tuner::CopyCandidate deviceCopy{"device copy", 0, 0, ""}; wanted(deviceCopy))
    measure(std::move(deviceCopy), [&] { out.copyFrom(in); });
  result.roof = tuner::fastestCopy(result.candidates);
  result.bytesPerSecond = result.candidates[result.roof].bytesPerSecond;
  return result;
}

} // namespace liftcc::cuda
