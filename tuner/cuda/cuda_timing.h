#pragma once
// Kernel timing with CUDA events, and a device-to-device copy bandwidth probe.
//
// Each timed run is bracketed by its own pair of events on the default stream,
// so a run's time is GPU time for that run only (no host launch overhead
// between runs). Warm-up runs come first and are discarded: they absorb the
// one-off costs (module JIT finalisation, first-touch of memory, clock ramp-up)
// that would otherwise skew the first sample. The median (tuner/median.h) is
// reported because it is robust against the occasional run delayed by another
// process. Kernels of liftcc are timed by runPlan (tuner/run_plan.h), with
// one pair of these events around each launch; timeWork serves the copy
// bandwidth probe and the driver tests.
//
// Limitation: the start event is recorded just before the work is enqueued, so
// when the GPU is idle a run also includes the host's enqueue latency (a few
// microseconds for cuLaunchKernel). That is noise for stencils over large
// grids; for tiny kernels compare medians, not absolute times.

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "tuner/cuda/cuda_runtime.h"

namespace liftcc::cuda {

// A CUDA event of the current context; destroyed with the object.
class Event {
public:
  explicit Event(const DriverApi &api);
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  // Records the event on the default stream.
  void record();
  void synchronize();
  // Waits for the event until `deadline`: false if it passed first (the work
  // before the event may still be running).
  bool synchronizeUntil(std::chrono::steady_clock::time_point deadline);
  // Milliseconds from `start` to this event; both must have completed.
  double since(const Event &start) const;

private:
  const DriverApi &api_;
  drv::CUevent event_ = nullptr;
};

struct TimingOptions {
  int warmupRuns = 2;
  int timedRuns = 10; // at least 1
};

struct TimingResult {
  std::vector<double> runsMs; // in execution order
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
  double medianNs() const { return medianMs * 1e6; }
};

// Times `work` (which must enqueue GPU work on the context's default stream).
TimingResult timeWork(const Context &ctx, const std::function<void()> &work, const TimingOptions &options = {});

// Times launches of `fn`. Every run uses the same arguments, so a kernel that
// updates its input in place is timed on changing data. Throws like launch().
TimingResult timeKernel(const Function &fn, const LaunchConfig &config, const std::vector<KernelArg> &args,
                        const TimingOptions &options = {});

struct CopyBandwidth {
  std::size_t bytes = 0; // size of one copy
  double medianMs = 0;   // median time of one copy
  // Bytes read plus bytes written per second (2 * bytes / time), the STREAM
  // "copy" convention and what a memory-bound stencil's traffic compares to.
  double bytesPerSecond = 0;
};

// Measures cuMemcpyDtoD between two fresh buffers of `bytes` each. The default
// (256 MiB) is far larger than any current L2 cache, so DRAM is measured.
CopyBandwidth measureCopyBandwidth(const Context &ctx, std::size_t bytes = std::size_t{256} << 20,
                                   const TimingOptions &options = {});

} // namespace liftcc::cuda
