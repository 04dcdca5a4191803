#include "tuner/opencl/opencl_bandwidth.h"

#include "tuner/backend_error.h"
#include "tuner/copy_roofline.h"
#include "tuner/median.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::ocl {

namespace {

// restrict tells the compiler in and out do not alias, so it may vectorise
// the copies. Only the guarded kernel tolerates a global size rounded up to
// the work-group size; the others need an exact multiple, which is what
// lets a compiler that vectorises across work-items (PoCL) use unmasked
// loads and stores.
constexpr const char *kCopySource = R"CLC(
__kernel void liftcc_copy_guarded(__global const float *restrict in, __global float *restrict out, const uint n) {
  const size_t i = get_global_id(0);
  if (i < n)
    out[i] = in[i];
}
__kernel void liftcc_copy_guard_free(__global const float *restrict in, __global float *restrict out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
__kernel void liftcc_copy_float4(__global const float4 *restrict in, __global float4 *restrict out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
__kernel void liftcc_copy_float8(__global const float8 *restrict in, __global float8 *restrict out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}
)CLC";

constexpr CopyKernel kAllKernels[] = {CopyKernel::Guarded, CopyKernel::GuardFree, CopyKernel::Float4,
                                      CopyKernel::Float8};

std::string entryPoint(CopyKernel kernel) {
  switch (kernel) {
  case CopyKernel::Guarded: return "liftcc_copy_guarded";
  case CopyKernel::GuardFree: return "liftcc_copy_guard_free";
  case CopyKernel::Float4: return "liftcc_copy_float4";
  case CopyKernel::Float8: return "liftcc_copy_float8";
  }
  return "";
}

/// Floats per buffer after the device's limits: both buffers must fit in one
/// allocation each and together in half the device memory, so that the
/// driver's own allocations fit too; the guarded kernel takes n as uint.
std::size_t clampedElements(const DeviceInfo &device, std::size_t n) {
  if (device.maxAllocBytes > 0) n = std::min<std::size_t>(n, device.maxAllocBytes / sizeof(float));
  if (device.globalMemBytes > 0) n = std::min<std::size_t>(n, device.globalMemBytes / 4 / sizeof(float));
  n = std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max());
  if (n == 0) throw std::invalid_argument("measureCopyBandwidth: no elements");
  return n;
}

/// The program, the two buffers and the source data, shared by every candidate.
class CopyBench {
public:
  CopyBench(Context &context, std::size_t n)
      : context_(context), n_(n), program_(context, kCopySource), in_(context, n * sizeof(float), CL_MEM_READ_ONLY),
        out_(context, n * sizeof(float), CL_MEM_WRITE_ONLY) {
    std::vector<float> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = tuner::copyPattern(i);
    in_.upload(host);
  }

  std::size_t elements() const { return n_; }

  /// Times one copy kernel; throws std::invalid_argument when the
  /// work-group cannot cover the elements without a guard.
  KernelTiming time(CopyKernel which, std::optional<std::size_t> local, const TimingOptions &timing) {
    const std::size_t width = copyKernelWidth(which);
    if (n_ % width != 0)
      throw std::invalid_argument(std::to_string(n_) + " floats are not a multiple of " + std::to_string(width));
    const std::size_t items = n_ / width;
    NDRange global(items);
    if (local) {
      if (which == CopyKernel::Guarded)
        global = roundUp(global, NDRange(*local));
      else if (items % *local != 0)
        throw std::invalid_argument("work-group " + std::to_string(*local) + " does not divide " +
                                    std::to_string(items) + " work-items");
    }
    Kernel kernel(program_, entryPoint(which));
    kernel.setArg(0, in_);
    kernel.setArg(1, out_);
    if (which == CopyKernel::Guarded) kernel.setArg(2, static_cast<std::uint32_t>(n_));
    clearOutput();
    std::optional<NDRange> localRange;
    if (local) localRange = NDRange(*local);
    return timeKernel(context_, kernel, global, localRange, timing);
  }

  /// clEnqueueCopyBuffer, timed by its profiling event like a kernel.
  KernelTiming timeDeviceCopy(const TimingOptions &timing) {
    clearOutput();
    KernelTiming result;
    for (unsigned r = 0; r < timing.warmupRuns + timing.timedRuns; ++r) {
      cl_event raw = nullptr;
      check(clEnqueueCopyBuffer(context_.queue(), in_.get(), out_.get(), 0, 0, n_ * sizeof(float), 0, nullptr, &raw),
            "clEnqueueCopyBuffer");
      detail::OwnedEvent event(raw);
      check(clWaitForEvents(1, &raw), "clWaitForEvents");
      cl_ulong start = 0, end = 0;
      check(clGetEventProfilingInfo(raw, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
            "clGetEventProfilingInfo");
      check(clGetEventProfilingInfo(raw, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
            "clGetEventProfilingInfo");
      if (r >= timing.warmupRuns) result.samplesNs.push_back(end > start ? end - start : 0);
    }
    result.medianNs = tuner::median(result.samplesNs);
    return result;
  }

  /// Throws tuner::BackendError naming the first element the last copy got wrong.
  void verify(const std::string &what) const {
    if (auto mismatch = tuner::copyMismatch(out_.download<float>()))
      throw tuner::BackendError("measureCopyBandwidth: " + what + ": " + *mismatch);
  }

private:
  /// Zeroes the output, so that a candidate that writes nothing fails
  /// verification instead of passing on what the previous one copied.
  void clearOutput() {
    if (zeros_.size() != n_) zeros_.assign(n_, 0.0f);
    out_.upload(zeros_);
  }

  Context &context_;
  std::size_t n_;
  Program program_;
  Buffer in_, out_;
  std::vector<float> zeros_;
};

double bytesPerSecond(std::size_t elements, const KernelTiming &timing) {
  if (timing.medianNs <= 0) throw tuner::BackendError("measureCopyBandwidth: the device reported a copy time of 0 ns");
  return 2.0 * static_cast<double>(elements * sizeof(float)) / (timing.medianNs * 1e-9);
}

} // namespace

std::string copyKernelName(CopyKernel kernel) {
  switch (kernel) {
  case CopyKernel::Guarded: return "guarded";
  case CopyKernel::GuardFree: return "guard-free";
  case CopyKernel::Float4: return "float4";
  case CopyKernel::Float8: return "float8";
  }
  return "?";
}

std::size_t copyKernelWidth(CopyKernel kernel) {
  return kernel == CopyKernel::Float4 ? 4 : kernel == CopyKernel::Float8 ? 8 : 1;
}

const char *copyKernelSource() { return kCopySource; }

BandwidthResult measureCopyBandwidth(Context &context, const BandwidthOptions &options) {
  CopyBench bench(context, clampedElements(context.device(), options.elements));
  BandwidthResult result;
  result.elements = bench.elements();
  result.bytesPerRun = 2 * static_cast<std::uint64_t>(bench.elements() * sizeof(float));
  result.timing = bench.time(options.kernel, options.local, options.timing);
  result.bytesPerSecond = bytesPerSecond(bench.elements(), result.timing);
  if (options.verify) bench.verify(copyKernelName(options.kernel));
  return result;
}

tuner::CopyBandwidth measureCopyRoofline(Context &context, const BandwidthOptions &options, bool hostMemcpy,
                                         const std::string &onlyCandidate) {
  std::size_t n = clampedElements(context.device(), options.elements);
  // A multiple of 8 floats x 1024 work-items, so that every candidate applies.
  constexpr std::size_t kGranule = 8 * 1024;
  if (n >= kGranule) n = n / kGranule * kGranule;
  CopyBench bench(context, n);
  tuner::CopyBandwidth result;
  result.bufferBytes = n * sizeof(float);
  result.runs = options.timing.timedRuns;
  auto measure = [&](tuner::CopyCandidate candidate, auto &&time) {
    if (!onlyCandidate.empty() && candidate.label() != onlyCandidate) return;
    try {
      KernelTiming timing = time();
      candidate.bytesPerSecond = bytesPerSecond(n, timing);
      bench.verify(candidate.label());
    } catch (const std::exception &e) {
      candidate.bytesPerSecond = 0;
      candidate.error = e.what();
    }
    result.candidates.push_back(std::move(candidate));
  };
  for (CopyKernel kernel : kAllKernels)
    for (std::size_t group : tuner::copyWorkGroups()) {
      if (context.device().maxWorkGroupSize > 0 && group > context.device().maxWorkGroupSize) continue;
      std::optional<std::size_t> local;
      if (group > 0) local = group;
      measure(tuner::CopyCandidate{copyKernelName(kernel), group, 0, ""},
              [&] { return bench.time(kernel, local, options.timing); });
    }
  measure(tuner::CopyCandidate{"device copy", 0, 0, ""}, [&] { return bench.timeDeviceCopy(options.timing); });
  result.roof = tuner::fastestCopy(result.candidates);
  result.bytesPerSecond = result.candidates[result.roof].bytesPerSecond;
  if (hostMemcpy && onlyCandidate.empty())
    result.hostMemcpyBytesPerSecond =
        tuner::measureHostMemcpy(result.bufferBytes, static_cast<int>(std::max(1u, options.timing.timedRuns)));
  return result;
}

} // namespace liftcc::ocl
