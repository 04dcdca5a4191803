#include "tuner/cuda/cuda_timing.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "tuner/cuda/driver_api.h"
#include "tuner/median.h"

namespace liftcc::cuda {

Event::Event(const DriverApi &api) : api_(api) {
  api_.check(api_.cuEventCreate(&event_, drv::CU_EVENT_DEFAULT), "cuEventCreate");
}
Event::~Event() { (void)api_.cuEventDestroy_v2(event_); }
void Event::record() { api_.check(api_.cuEventRecord(event_, nullptr), "cuEventRecord"); }
void Event::synchronize() { api_.check(api_.cuEventSynchronize(event_), "cuEventSynchronize"); }
bool Event::synchronizeUntil(std::chrono::steady_clock::time_point deadline) {
  // The driver has no wait with a timeout: poll, sleeping between queries so
  // that the host thread does not compete with anything else.
  for (auto pause = std::chrono::microseconds(50);; pause = std::min(pause * 2, std::chrono::microseconds(5000))) {
    drv::CUresult status = api_.cuEventQuery(event_);
    if (status != drv::CUDA_ERROR_NOT_READY) {
      api_.check(status, "cuEventQuery");
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(pause);
  }
}

double Event::since(const Event &start) const {
  float ms = 0;
  api_.check(api_.cuEventElapsedTime(&ms, start.event_, event_), "cuEventElapsedTime");
  return ms;
}

TimingResult timeWork(const Context &ctx, const std::function<void()> &work, const TimingOptions &options) {
  if (options.timedRuns < 1) throw std::invalid_argument("timeWork: timedRuns must be >= 1");
  ctx.makeCurrent();
  for (int i = 0; i < options.warmupRuns; ++i) work();
  // Warm-up work must be finished (and its errors surfaced) before timing.
  ctx.synchronize();

  const DriverApi &api = ctx.api();
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
  result.medianMs = tuner::median(result.runsMs);
  const auto [lo, hi] = std::minmax_element(result.runsMs.begin(), result.runsMs.end());
  result.minMs = *lo;
  result.maxMs = *hi;
  return result;
}

TimingResult timeKernel(const Function &fn, const LaunchConfig &config, const std::vector<KernelArg> &args,
                        const TimingOptions &options) {
  // Validate and marshal once, so that each timed run only calls
  // cuLaunchKernel between its events.
  const PreparedLaunch prepared(fn, config, args);
  return timeWork(
      fn.context(), [&] { prepared.enqueue(); }, options);
}

CopyBandwidth measureCopyBandwidth(const Context &ctx, std::size_t bytes, const TimingOptions &options) {
  if (bytes == 0) throw std::invalid_argument("measureCopyBandwidth: bytes must be > 0");
  Buffer src = ctx.allocate(bytes);
  Buffer dst = ctx.allocate(bytes);
  // Touch the source once so the copy reads initialised, resident memory.
  dst.copyFrom(src);
  TimingResult t = timeWork(
      ctx, [&] { dst.copyFrom(src); }, options);
  CopyBandwidth bw;
  bw.bytes = bytes;
  bw.medianMs = t.medianMs;
  bw.bytesPerSecond = t.medianMs > 0 ? 2.0 * static_cast<double>(bytes) / (t.medianMs * 1e-3) : 0;
  return bw;
}

} // namespace liftcc::cuda
