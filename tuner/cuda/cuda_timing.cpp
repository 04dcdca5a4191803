#include "tuner/cuda/cuda_timing.h"

#include <algorithm>
#include <stdexcept>

#include "tuner/cuda/driver_api.h"

namespace liftcc::cuda {
namespace {

// A CUDA event of the current context; destroyed with the object.
class Event {
 public:
  explicit Event(const DriverApi& api) : api_(api) {
    api_.check(api_.cuEventCreate(&event_, drv::CU_EVENT_DEFAULT), "cuEventCreate");
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { (void)api_.cuEventDestroy_v2(event_); }

  void record() { api_.check(api_.cuEventRecord(event_, nullptr), "cuEventRecord"); }
  void synchronize() { api_.check(api_.cuEventSynchronize(event_), "cuEventSynchronize"); }
  // Milliseconds from `start` to this event; both must have completed.
  double since(const Event& start) const {
    float ms = 0;
    api_.check(api_.cuEventElapsedTime(&ms, start.event_, event_), "cuEventElapsedTime");
    return ms;
  }

 private:
  const DriverApi& api_;
  drv::CUevent event_ = nullptr;
};

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

TimingResult timeWork(const Context& ctx, const std::function<void()>& work,
                      const TimingOptions& options) {
  if (options.timedRuns < 1) throw std::invalid_argument("timeWork: timedRuns must be >= 1");
  ctx.makeCurrent();
  for (int i = 0; i < options.warmupRuns; ++i) work();
  // Warm-up work must be finished (and its errors surfaced) before timing.
  ctx.synchronize();

  const DriverApi& api = ctx.api();
  Event start(api), stop(api);
  TimingResult result;
  result.runsMs.reserve(static_cast<std::size_t>(options.timedRuns));
  for (int i = 0; i < options.timedRuns; ++i) {
    start.record();
    work();
    stop.record();
    stop.synchronize();
    result.runsMs.push_back(stop.since(start));
  }
  // Kernel faults are reported at synchronisation, not by the event calls.
  ctx.synchronize();
  result.medianMs = median(result.runsMs);
  const auto [lo, hi] = std::minmax_element(result.runsMs.begin(), result.runsMs.end());
  result.minMs = *lo;
  result.maxMs = *hi;
  return result;
}

TimingResult timeKernel(const Function& fn, const LaunchConfig& config,
                        const std::vector<KernelArg>& args, const TimingOptions& options) {
  // Validate and marshal once, so that each timed run only calls
  // cuLaunchKernel between its events.
  const PreparedLaunch prepared(fn, config, args);
  return timeWork(fn.context(), [&] { prepared.enqueue(); }, options);
}

CopyBandwidth measureCopyBandwidth(const Context& ctx, std::size_t bytes,
                                   const TimingOptions& options) {
  if (bytes == 0) throw std::invalid_argument("measureCopyBandwidth: bytes must be > 0");
  Buffer src = ctx.allocate(bytes);
  Buffer dst = ctx.allocate(bytes);
  // Touch the source once so the copy reads initialised, resident memory.
  dst.copyFrom(src);
  TimingResult t = timeWork(ctx, [&] { dst.copyFrom(src); }, options);
  CopyBandwidth bw;
  bw.bytes = bytes;
  bw.medianMs = t.medianMs;
  bw.bytesPerSecond = t.medianMs > 0 ? 2.0 * static_cast<double>(bytes) / (t.medianMs * 1e-3) : 0;
  return bw;
}

}  // namespace liftcc::cuda
