#pragma once
// runPlan: the one place that runs a LaunchPlan and times it, for every
// backend. A backend implements PlanBackend (allocate / upload / download /
// bind / launch-with-events); runPlan owns the order of those calls, the
// warm-ups, the timed repetitions, restoring the inputs an iterated kernel
// overwrites, the deadline of every launch and the median. A kernel time is
// the sum of the device's event times of the kernel launches of one
// repetition: no transfers, no argument marshalling, no host loop.

#include "tuner/launch.h"
#include "tuner/launch_plan.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace liftcc::tuner {

using Deadline = std::chrono::steady_clock::time_point;

/// What a backend does with a compiled kernel. Buffer indices are those of
/// LaunchPlan::buffers; parameters are bound by position.
class PlanBackend {
public:
  virtual ~PlanBackend() = default;
  /// Allocates the plan's buffers (each at least 1 byte), replacing earlier ones.
  virtual void allocate(const std::vector<PlanBuffer> &buffers) = 0;
  /// Frees the buffers of allocate().
  virtual void release() = 0;
  virtual void upload(size_t buffer, std::span<const std::byte> bytes) = 0;
  virtual void download(size_t buffer, std::span<std::byte> bytes) = 0;
  /// Binds parameter `index` to a buffer or an int.
  virtual void bind(size_t index, const PlanParam &param) = 0;
  /// Launches the kernel over plan.global / plan.local with the bound
  /// parameters and waits for it until `deadline` (none: for ever). Returns
  /// the device's event time of the kernel in nanoseconds. Throws
  /// KernelTimeoutError past the deadline (the kernel may still be running:
  /// the device must be rebuilt, see Device::rebuild) and KernelLaunchError
  /// or std::invalid_argument when the launch fails.
  virtual uint64_t launch(const LaunchPlan &plan, std::optional<Deadline> deadline) = 0;
  /// Multi-kernel programs (LaunchPlan::stages): bind and launch as above, on
  /// the kernel of stage `stage` with its NDRange. Backends that run single
  /// kernels only keep these defaults, which throw InternalError.
  virtual void bindStage(size_t stage, size_t index, const PlanParam &param);
  virtual uint64_t launchStage(const LaunchPlan &plan, size_t stage, std::optional<Deadline> deadline);
};

/// The inputs as views (no copies of benchmark-sized grids).
using InputViews = std::vector<std::span<const std::byte>>;
InputViews inputViews(const InputBytes &inputs);

/// Runs `plan`: config.warmups untimed repetitions, then max(1,
/// config.repetitions) timed ones, and more while their times add up to less
/// than config.minTimedSeconds (LaunchConfig::kMaxRepetitions at most), or
/// only one when it took longer than config.stopAboveNs; RawRun::medianNs is
/// their median. Every
/// launch must end before config.launchTimeout from its start and before
/// config.deadline, else KernelTimeoutError. Throws std::invalid_argument when
/// an input is missing or its byte count is not the buffer's.
RawRun runPlan(PlanBackend &backend, const LaunchPlan &plan, const InputViews &inputs, const LaunchConfig &config);

} // namespace liftcc::tuner
