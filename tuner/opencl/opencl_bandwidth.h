#pragma once
// Achievable device memory bandwidth, measured with a STREAM-like copy kernel
// (out[i] = in[i] on floats). The tuner uses it as the memory roof of a
// roofline bound: a stencil cannot run faster than its compulsory traffic
// divided by this number.

#include "tuner/opencl/opencl_runtime.h"
#include "tuner/opencl/opencl_timing.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace liftcc::ocl {

struct BandwidthOptions {
  /// Floats per buffer. The default (128 MiB per buffer) is far beyond the
  /// last-level caches of current CPUs and GPUs, so the copy streams from
  /// DRAM/HBM. Clamped to what the device can allocate in one buffer and to
  /// a quarter of its global memory.
  std::size_t elements = std::size_t{1} << 25;
  TimingOptions timing{.warmupRuns = 2, .timedRuns = 10};
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

/// Builds the copy kernel on `context`'s device and measures it. Throws
/// std::runtime_error if verification finds a wrong element.
BandwidthResult measureCopyBandwidth(Context &context,
                                     const BandwidthOptions &options = {});

} // namespace liftcc::ocl
