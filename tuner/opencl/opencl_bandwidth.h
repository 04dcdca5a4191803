#pragma once
// Achievable device memory bandwidth, measured with STREAM-like copies
// (out[i] = in[i] on floats). The tuner uses the fastest as the memory roof
// of a roofline bound: a stencil cannot run faster than its compulsory
// traffic divided by this number.
//
// The candidates (tuner/copy_roofline.h says why there are several): four
// copy kernels, each with the runtime's work-group size and 64, 256 and
// 1024 work-items per group,
//   guarded     out[i] = in[i] under `if (i < n)` (the global size rounded up),
//   guard-free  no guard, the global size an exact multiple of the work-group,
//   float4, float8  guard-free on vectors,
// and clEnqueueCopyBuffer. Each is verified after timing.

#include "tuner/device.h"
#include "tuner/opencl/opencl_runtime.h"
#include "tuner/opencl/opencl_timing.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace liftcc::ocl {

enum class CopyKernel { Guarded, GuardFree, Float4, Float8 };

/// "guarded", "guard-free", "float4", "float8".
std::string copyKernelName(CopyKernel kernel);

/// Floats per work-item of a copy kernel.
std::size_t copyKernelWidth(CopyKernel kernel);

/// The OpenCL C source of every copy kernel (one program).
const char *copyKernelSource();

struct BandwidthOptions {
  /// Floats per buffer. The default (128 MiB per buffer) is far beyond the
  /// last-level caches of current CPUs and GPUs, so the copy streams from
  /// DRAM/HBM. Clamped to what the device can allocate in one buffer and to
  /// a quarter of its global memory.
  std::size_t elements = std::size_t{1} << 25;
  TimingOptions timing{.warmupRuns = 2, .timedRuns = 10};
  CopyKernel kernel = CopyKernel::Guarded;
  /// Work-group size; nullopt lets the runtime choose.
  std::optional<std::size_t> local;
  /// Check the copied data once after timing, so that a miscompiled or
  /// silently failing kernel cannot report a bandwidth.
  bool verify = true;
};

struct BandwidthResult {
  /// bytesPerRun / median kernel time.
  double bytesPerSecond = 0;
  /// 2 * elements * sizeof(float): every element is read once and written
  /// once. As in STREAM, a write-allocate read of the output (CPU caches) is
  /// not counted: the roofline bound compares against kernels whose traffic
  /// is counted the same way.
  std::uint64_t bytesPerRun = 0;
  /// Floats per buffer actually used (after clamping).
  std::size_t elements = 0;
  KernelTiming timing;
};

/// Builds one copy kernel on `context`'s device and measures it. Throws
/// std::runtime_error if verification finds a wrong element, and
/// std::invalid_argument when the kernel cannot cover the elements (a
/// guard-free or vector copy whose work-group does not divide them).
BandwidthResult measureCopyBandwidth(Context &context, const BandwidthOptions &options = {});

/// Every candidate (see the file comment; work-groups beyond the device's
/// limit are left out) on buffers of `options.elements` floats (clamped, and
/// rounded down to a multiple of 8192 so that every candidate applies), with
/// options.timing each; options.kernel and options.local are ignored. The
/// roof is the fastest verified one; a candidate that fails is listed with
/// its error. With `hostMemcpy` (CPU devices), also the host's memcpy of
/// the same bytes. With `onlyCandidate` (a CopyCandidate label), that one
/// candidate alone.
tuner::CopyBandwidth measureCopyRoofline(Context &context, const BandwidthOptions &options, bool hostMemcpy,
                                         const std::string &onlyCandidate = "");

} // namespace liftcc::ocl
