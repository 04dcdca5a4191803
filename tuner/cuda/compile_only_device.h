#pragma once
// A CUDA device without a GPU (issue #33 item 5): compile() does everything a
// GPU host does before a kernel runs - NVRTC for a real architecture (sm_90
// by default, an H100's), with ptxas's report, so every kernel carries its
// SASS figures - but no kernel ever runs: running one throws
// KernelNotRunError, which the explorer records as a runtime failure. Needs
// NVRTC, not the CUDA driver. `liftc explore --target cuda --prepare-only`
// prepares a space's variants on it (explore/prepare_only.h), and the tests
// explore CUDA spaces on it.

#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/device.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// What a compile-only device's kernels throw when asked to run.
class KernelNotRunError : public KernelLaunchError {
public:
  KernelNotRunError() : KernelLaunchError(kMessage) {}
  static constexpr const char *kMessage = "compile-only CUDA device: kernels are compiled, never run (no GPU)";
};

class CompileOnlyCudaDevice final : public Device {
public:
  struct Options {
    std::string arch = "sm_90"; ///< a real architecture (ptxas runs for it)
    /// An H100's limits (CUDA's, shared memory without opt-in), which
    /// shape the explored space as the GPU would.
    DeviceLimits limits{48 * 1024, 1024, {1024, 1024, 64}};
    /// NVRTC warnings fail the build (the tests' strictness); the GPU's
    /// device (tuner/cuda/cuda_backend.h) accepts them.
    bool warningsAsErrors = false;
    /// Passed to NVRTC after the kernel's own options (tests force spills
    /// with "--maxrregcount=N").
    std::vector<std::string> extraOptions;
  };
  /// Throws std::invalid_argument for a virtual architecture (compute_XY: no
  /// SASS), and cuda::NvrtcError when liftcc was built without NVRTC.
  explicit CompileOnlyCudaDevice(Options options);
  CompileOnlyCudaDevice() : CompileOnlyCudaDevice(Options{}) {}

  codegen::Target target() const override { return codegen::Target::CUDA; }
  std::string name() const override { return "compile-only CUDA device " + options_.arch; }
  std::string resultsName() const override { return "cuda " + name(); }
  DeviceLimits limits() const override { return options_.limits; }
  /// NVRTC with ptxas's report; throws KernelBuildError with NVRTC's log.
  /// Thread-safe (NVRTC is).
  std::unique_ptr<CompiledKernel> compile(const codegen::Kernel &kernel) override;
  /// Throws KernelNotRunError: there is nothing to copy on.
  CopyBandwidth measureCopyBandwidth(const CopyProbe &probe) override;

  /// Kernels compiled so far (compile() runs on the explorer's worker threads).
  size_t compiled() const { return compiled_; }

private:
  Options options_;
  std::atomic<size_t> compiled_{0};
};

} // namespace liftcc::tuner
