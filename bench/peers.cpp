#include "bench/peers.h"

#include "core/error.h"

#ifdef LIFTCC_HAVE_HALIDE

// The pipelines compiled at build time by tools/halide_gen (see there for
// the definitions and the schedules).
#include "halide_gaussian.h"
#include "halide_heat.h"
#include "halide_jacobi2d_5pt.h"
#include "halide_cpu_schedules.h" // kHalideCpuSchedules: one per stencil and Halide autoscheduler
#include "halide_opencl_tiles.h"   // kHalideOpenCLPipelines: one per stencil and tile shape

#include "tuner/median.h"

#include <HalideBuffer.h>
#include <HalideRuntimeOpenCL.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace liftcc::bench {

namespace {

using HalideBuffer = Halide::Runtime::Buffer<float>;
using Pipeline = int (*)(halide_buffer_t *in, halide_buffer_t *out);

// Halide's default error handler aborts the process. The benchmark reports a
// failing peer instead: the handler keeps the message for the failing call,
// which then returns an error code. Halide's handler is process-wide, so the
// message is per thread.
thread_local std::string lastHalideError;

void keepHalideError(void *, const char *message) { lastHalideError = message ? message : "unknown error"; }

void check(int error, const char *what) {
  if (!error) return;
  std::string message = lastHalideError.empty() ? "error " + std::to_string(error) : lastHalideError;
  lastHalideError.clear();
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  throw Error(std::string("halide: ") + what + ": " + message);
}

/// Points Halide's OpenCL runtime at the benchmarked device. Its selection
/// is process-wide (the runtime keeps one context), so it is set before
/// every OpenCL run: a platform-name substring, a device type and the index
/// among that platform's devices of that type (liftc's device index within
/// its platform, exact when a platform's devices share one type).
void selectHalideOpenCLDevice(const ocl::DeviceInfo &device) {
  halide_opencl_set_platform_name(device.platformName.c_str());
  switch (device.type) {
  case ocl::DeviceType::Cpu: halide_opencl_set_device_type("cpu"); break;
  case ocl::DeviceType::Gpu: halide_opencl_set_device_type("gpu"); break;
  case ocl::DeviceType::Accelerator: halide_opencl_set_device_type("acc"); break;
  case ocl::DeviceType::Custom:
  case ocl::DeviceType::Other: halide_opencl_set_device_type(""); break;
  }
  halide_set_gpu_device(static_cast<int>(device.deviceIndex));
}

PeerRun runPipeline(Pipeline pipeline, bool onDevice, const examples::Example &example, const std::vector<Grid> &inputs,
                    const Sizes &sizes, const ocl::TimingOptions &timing) {
  if (inputs.size() != 1) throw std::invalid_argument("halide: expected one input grid");
  halide_set_error_handler(keepHalideError);
  // Halide's dimension 0 is the innermost: M (, N (, O)).
  std::vector<int> extents;
  for (auto it = example.sizeNames.rbegin(); it != example.sizeNames.rend(); ++it)
    extents.push_back(static_cast<int>(sizes.at(*it)));
  HalideBuffer in(extents), out(extents);
  if (in.number_of_elements() != inputs[0].size()) throw std::invalid_argument("halide: input size mismatch");
  std::memcpy(in.data(), inputs[0].data(), inputs[0].size() * sizeof(float));
  in.set_host_dirty();
  // A run ends when its results are complete: OpenCL launches are
  // asynchronous, so the device is synchronised. The input is copied to the
  // device by the first (warm-up) run and stays there.
  auto runOnce = [&] {
    check(pipeline(in.raw_buffer(), out.raw_buffer()), "pipeline");
    if (onDevice) check(out.device_sync(), "device sync");
  };
  for (unsigned r = 0; r < std::max(1u, timing.warmupRuns); ++r) runOnce();
  std::vector<double> times;
  for (unsigned r = 0; r < std::max(1u, timing.timedRuns); ++r) {
    auto start = std::chrono::steady_clock::now();
    runOnce();
    times.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  if (onDevice) check(out.copy_to_host(), "copy to host");
  double median = tuner::median(times);
  Grid output(out.data(), out.data() + out.number_of_elements());
  if (onDevice) {
    // Free the device copies now rather than at exit.
    check(in.device_free(), "device free");
    check(out.device_free(), "device free");
  }
  PeerRun run;
  run.output = std::move(output);
  run.medianNs = median;
  return run;
}

struct OpenCLPipeline {
  int tileX, tileY;
  Pipeline run;
  std::string tile() const { return std::to_string(tileX) + "x" + std::to_string(tileY); }
};

struct Pipelines {
  Pipeline cpu = nullptr;
  std::vector<OpenCLPipeline> opencl; ///< one per tile shape
};

Pipelines pipelinesOf(const std::string &name) {
  Pipelines p;
  if (name == "jacobi2d_5pt")
    p.cpu = halide_jacobi2d_5pt;
  else if (name == "gaussian")
    p.cpu = halide_gaussian;
  else if (name == "heat")
    p.cpu = halide_heat;
  for (const HalideOpenCLPipeline &entry : kHalideOpenCLPipelines)
    if (entry.stencil == name) p.opencl.push_back({entry.tileX, entry.tileY, entry.run});
  return p;
}

/// Whether two outputs agree to 1e-4 relative (1e-5 absolute near zero).
bool agree(const Grid &a, const Grid &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(std::fabs(a[i] - b[i]) <= 1e-5f + 1e-4f * std::fabs(a[i]))) return false;
  return true;
}

/// Halide's OpenCL target with its tile shape tuned like liftc's work-group
/// shapes. The verification call (a single run, at the small size) runs
/// every tile shape that fits the grid and hands back the output of one that
/// disagrees with the first, if any, so that the bench's check against the
/// interpreter covers them all. The timing call times each shape briefly
/// (one warm-up, three runs), then the fastest as usual.
PeerRun runTunedOpenCL(const std::vector<OpenCLPipeline> &pipelines, const examples::Example &example,
                       const ocl::DeviceInfo &device, const std::vector<Grid> &inputs, const Sizes &sizes,
                       const ocl::TimingOptions &timing) {
  selectHalideOpenCLDevice(device);
  const bool verifying = timing.timedRuns <= 1;
  auto start = std::chrono::steady_clock::now();
  std::optional<PeerRun> first;
  const OpenCLPipeline *best = nullptr;
  double bestNs = 0;
  size_t ran = 0;
  std::string lastError;
  for (const OpenCLPipeline &p : pipelines) {
    try {
      PeerRun r = runPipeline(p.run, true, example, inputs, sizes,
                              verifying ? timing : ocl::TimingOptions{.warmupRuns = 1, .timedRuns = 3});
      ++ran;
      if (verifying) {
        if (!first)
          first = std::move(r);
        else if (!agree(first->output, r.output))
          return r;
        continue;
      }
      if (!best || r.medianNs < bestNs) {
        best = &p;
        bestNs = r.medianNs;
      }
    } catch (const std::runtime_error &e) {
      lastError = e.what(); // e.g. a tile wider than the grid
    }
  }
  if (verifying) {
    if (!first) throw Error(lastError.empty() ? "halide: no OpenCL pipeline" : lastError);
    first->detail = std::to_string(ran) + " of " + std::to_string(pipelines.size()) + " tile shapes checked";
    return *first;
  }
  if (!best) throw Error(lastError.empty() ? "halide: no OpenCL pipeline" : lastError);
  double tuning = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PeerRun run = runPipeline(best->run, true, example, inputs, sizes, timing);
  run.tuningSeconds = tuning;
  run.detail = "tile " + best->tile() + ", best of " + std::to_string(ran) + " tile shapes";
  return run;
}

} // namespace

std::vector<Peer> peersFor(const examples::Example &example, const ocl::DeviceInfo &device) {
  Pipelines pipelines = pipelinesOf(example.name);
  if (!pipelines.cpu) return {};
  Peer cpu;
  cpu.variant = "halide cpu";
  cpu.run = [pipeline = pipelines.cpu, example](const std::vector<Grid> &inputs, const Sizes &sizes,
                                                const ocl::TimingOptions &timing) {
    return runPipeline(pipeline, false, example, inputs, sizes, timing);
  };
  std::vector<Peer> peers{cpu};
  // The same pipeline scheduled by each of Halide's autoschedulers (what a
  // Halide user gets without writing a schedule); one that gave no schedule
  // is a failed row with its reason, never timed unscheduled.
  for (const HalideCpuSchedule &schedule : kHalideCpuSchedules) {
    if (!schedule.stencil || schedule.stencil != example.name) continue;
    Peer automatic;
    automatic.variant = std::string("halide cpu ") + schedule.scheduler;
    automatic.checkedAtBenchSizeOnly = "Halide's autoschedule is fitted to the paper sizes";
    automatic.run = [schedule, example](const std::vector<Grid> &inputs, const Sizes &sizes,
                                        const ocl::TimingOptions &timing) {
      if (*schedule.failure)
        throw Error(std::string("halide: the ") + schedule.scheduler + " autoscheduler gave no schedule: " +
                    schedule.failure);
      return runPipeline(schedule.run, false, example, inputs, sizes, timing);
    };
    peers.push_back(std::move(automatic));
  }
  if (!pipelines.opencl.empty()) {
    Peer opencl;
    opencl.variant = "halide opencl";
    opencl.run = [pipelines = pipelines.opencl, example, device](const std::vector<Grid> &inputs, const Sizes &sizes,
                                                                 const ocl::TimingOptions &timing) {
      return runTunedOpenCL(pipelines, example, device, inputs, sizes, timing);
    };
    peers.push_back(std::move(opencl));
  }
  return peers;
}

std::string peersDescription() {
  std::string schedulers;
  for (const HalideCpuSchedule &schedule : kHalideCpuSchedules)
    if (schedule.scheduler && schedulers.find(schedule.scheduler) == std::string::npos)
      schedulers += std::string(schedulers.empty() ? "" : ", ") + schedule.scheduler;
  return "Halide " LIFTCC_HALIDE_VERSION " (ahead-of-time: host CPU with our schedule" +
         (schedulers.empty() ? std::string() : " and with each autoscheduler's (" + schedulers + ")") +
         ", and its OpenCL target on the benchmarked device, tile shape tuned)";
}

} // namespace liftcc::bench

#else

namespace liftcc::bench {

std::vector<Peer> peersFor(const examples::Example &, const ocl::DeviceInfo &) { return {}; }

std::string peersDescription() { return "none"; }

} // namespace liftcc::bench

#endif
