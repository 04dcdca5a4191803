#pragma once
// Kernel timing with CUDA events, and a device-to-device copy bandwidth probe.
//
// Each timed run is bracketed by its own pair of events on the default stream,
// so a run's time is GPU time for that run only (no host launch overhead
// between runs). Warm-up runs come first and are discarded: they absorb the
// one-off costs (module JIT finalisation, first-touch of memory, clock ramp-up)
// that would otherwise skew the first sample. The median is reported because
// it is robust against the occasional run delayed by another process.
//
// Limitation: the start event is recorded just before the work is enqueued, so
// when the GPU is idle a run also includes the host's enqueue latency (a few
// microseconds for cuLaunchKernel). That is noise for stencils over large
// grids; for tiny kernels compare medians, not absolute times.

#include <cstddef>
#include <functional>
#include <vector>

#include "tuner/cuda/cuda_runtime.h"

namespace liftcc::cuda {

struct TimingOptions {
  int warmupRuns = 2;
  int timedRuns = 10;  // at least 1
};

struct TimingResult {
  std::vector<double> runsMs;  // in execution order
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
  double medianNs() const { return medianMs * 1e6; }
};

// Median of `values` (mean of the two middle values for an even count);
// throws std::invalid_argument for an empty input.
double median(std::vector<double> values);

// Times `work` (which must enqueue GPU work on the context's default stream).
TimingResult timeWork(const Context& ctx, const std::function<void()>& work,
                      const TimingOptions& options = {});

// Times launches of `fn`. Every run uses the same arguments, so a kernel that
// updates its input in place is timed on changing data. Throws like launch().
TimingResult timeKernel(const Function& fn, const LaunchConfig& config,
                        const std::vector<KernelArg>& args, const TimingOptions& options = {});

struct CopyBandwidth {
  std::size_t bytes = 0;  // size of one copy
  double medianMs = 0;    // median time of one copy
  // Bytes read plus bytes written per second (2 * bytes / time), the STREAM
  // "copy" convention and what a memory-bound stencil's traffic compares to.
  double bytesPerSecond = 0;
};

// Measures cuMemcpyDtoD between two fresh buffers of `bytes` each. The default
// (256 MiB) is far larger than any current L2 cache, so DRAM is measured.
CopyBandwidth measureCopyBandwidth(const Context& ctx, std::size_t bytes = std::size_t{256} << 20,
                                   const TimingOptions& options = {});

}  // namespace liftcc::cuda
