#pragma once
// A device the tuner compiles for, runs and times on: an OpenCL device or a
// CUDA GPU. The exploration driver, `liftc tune` and `liftc explore` see only
// this interface, so one driver serves both backends. Each backend reports its
// failures as the exception types below, which the tuner records as outcomes
// (compile / runtime / timeout) without knowing the backend's own errors.

#include "codegen/kernel.h"
#include "core/error.h"
#include "tuner/launch.h"
#include "tuner/run_plan.h"
#include "tuner/sass_summary.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// What a kernel may use on the device; variants beyond it are not explored.
struct DeviceLimits {
  int64_t localMemoryBytes = 32 * 1024;
  int64_t maxWorkGroupSize = 256;
  std::array<int64_t, 3> maxWorkItemSizes{1024, 1024, 64};
};

/// The backend's compiler rejected the kernel; what() carries its log.
class KernelBuildError : public Error {
public:
  using Error::Error;
};

/// The backend's runtime failed to allocate, launch or complete a kernel.
class KernelLaunchError : public Error {
public:
  using Error::Error;
};

/// A launch did not complete before its deadline (LaunchConfig). The kernel
/// may still be running: call Device::rebuild() before using the device again.
class KernelTimeoutError : public KernelLaunchError {
public:
  using KernelLaunchError::KernelLaunchError;
};

/// One way of copying a buffer on the device (a copy kernel with a
/// work-group size, or the runtime's own device-to-device copy) and what it
/// reached.
struct CopyCandidate {
  std::string name;          ///< "guarded", "guard-free", "float4", "float8", "device copy"
  size_t workGroup = 0;      ///< work-items per group; 0: the runtime's choice (or not a kernel)
  double bytesPerSecond = 0; ///< bytes read plus bytes written per second; 0 when not measured
  std::string error;         ///< why it was not measured (does not apply, failed); empty when measured
  /// "guarded wg=256", "float8 wg=runtime", "device copy".
  std::string label() const;
};

/// What Device::measureCopyBandwidth times.
struct CopyProbe {
  int warmups = 1;
  int runs = 3; ///< each candidate's median is taken over this many timed runs
  /// About this many bytes per buffer (clamped to the device); the default
  /// is beyond any cache.
  size_t bufferBytes = size_t{128} << 20;
  /// Only the candidate of this label (CopyCandidate::label(), e.g. "float4
  /// wg=256"); empty: every candidate. A roof timed again in each round of a
  /// comparison needs the one kernel that won the first probe, not all of
  /// them: on NVIDIA's OpenCL the 17 candidates, each verified through a
  /// 64 MiB upload and read-back, took seconds per round.
  std::string onlyCandidate;
};

/// The memory roof of a roofline bound: the best of several STREAM-like
/// copies (tuner/copy_roofline.h), each verified after timing.
struct CopyBandwidth {
  double bytesPerSecond = 0; ///< the roof: the fastest candidate, read plus write bytes per second
  size_t bufferBytes = 0;    ///< size of one of the two buffers
  size_t runs = 0;           ///< timed runs each candidate's median is taken over
  std::vector<CopyCandidate> candidates;
  size_t roof = 0; ///< index of the fastest candidate
  /// The host's memcpy of the same bytes (median), a cross-check on CPU
  /// devices, whose global memory is the host's; absent on other devices.
  std::optional<double> hostMemcpyBytesPerSecond;
};

/// A kernel compiled for one device, ready to run many times.
class CompiledKernel {
public:
  virtual ~CompiledKernel() = default;
  /// Runs on inputs given as raw bytes, in the order of the kernel's input
  /// arguments: planLaunch and runPlan (tuner/run_plan.h) on the backend.
  /// Throws KernelLaunchError (KernelTimeoutError past a deadline of
  /// `config`), or std::invalid_argument for a launch the kernel cannot take
  /// (e.g. a work-group larger than it allows, an input of the wrong byte count).
  virtual RawRun runViews(const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                          const LaunchConfig &config) = 0;
  RawRun runBytes(const std::map<std::string, int64_t> &sizes, const InputBytes &inputs, const LaunchConfig &config) {
    return runViews(sizes, inputViews(inputs), config);
  }
  /// The same on values; `resultType` is the program's result type (to shape
  /// the downloaded output).
  KernelRun run(const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs, const Type &resultType,
                const LaunchConfig &config = {}) {
    return runOnValues(*this, sizes, inputs, resultType, config);
  }
  /// The SASS figures of this kernel's own compilation (CUDA devices, from
  /// ptxas's report), which the explorer records and checks before timing
  /// (explore/sass_check.h); nullopt where the backend gives none (OpenCL).
  virtual std::optional<SassSummary> sass() const { return std::nullopt; }
};

class Device {
public:
  virtual ~Device() = default;
  /// The dialect kernels for this device are generated in.
  virtual codegen::Target target() const = 0;
  /// The device's own name, e.g. "NVIDIA H100 80GB HBM3".
  virtual std::string name() const = 0;
  /// The name results are filed under: the same GPU seen through OpenCL and
  /// through CUDA gets two entries ("cuda " is prefixed for CUDA).
  virtual std::string resultsName() const = 0;
  virtual DeviceLimits limits() const = 0;
  /// The driver or platform version the device runs under (OpenCL:
  /// CL_DEVICE_VERSION and CL_DRIVER_VERSION, which name e.g. PoCL's release;
  /// CUDA: the driver's CUDA version), for a record's provenance; empty when unknown.
  virtual std::string driverVersion() const { return {}; }
  /// Throws KernelBuildError with the compiler's log. Safe to call from
  /// several threads at once, and while another thread runs kernels or calls
  /// rebuild() (the explorer compiles ahead on worker threads).
  virtual std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) = 0;
  /// Whether the device computes on the host's own cores (an OpenCL CPU
  /// device): work on other host threads then slows the kernels it times.
  virtual bool runsOnHostCores() const { return false; }
  /// After a KernelTimeoutError: abandons the context the kernel may still
  /// run in (without waiting for it) and starts a fresh one, which later
  /// compile() calls use. Kernels compiled before stay usable but keep
  /// running in the abandoned context.
  virtual void rebuild() {}
  /// Whether a kernel abandoned by rebuild() is still running. Destroying the
  /// device waits for it; a program that must end now (e.g. at the end of a
  /// time budget) may exit without destroying it instead (std::_Exit).
  virtual bool abandonedKernelRunning() const { return false; }
  /// Measures the copy roofline (tuner/copy_roofline.h) on two buffers of
  /// about `probe.bufferBytes` each: every candidate's (or the one named's)
  /// median of `runs` after `warmups`. Throws BackendError when no
  /// candidate could be measured (the one named included).
  virtual CopyBandwidth measureCopyBandwidth(const CopyProbe &probe) = 0;
  static constexpr size_t kCopyBufferBytes = CopyProbe{}.bufferBytes;
};

} // namespace liftcc::tuner
