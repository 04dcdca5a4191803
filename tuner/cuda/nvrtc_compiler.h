#pragma once
// CUDA C -> PTX with NVRTC.
//
// The API is the same whether or not liftcc was built with NVRTC
// (LIFTCC_HAVE_NVRTC); without it nvrtcAvailable() is false and compileToPtx
// throws NvrtcError("NVRTC not available: ..."), so callers need no #ifs.

#include "tuner/backend_error.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace liftcc::cuda {

struct NvrtcOptions {
  // --gpu-architecture: "sm_XY" or "compute_XY". Either yields PTX with
  // `.target sm_XY`; the driver JIT-compiles it for the actual device.
  std::string arch = "sm_90";
  std::string cppStandard = "c++17";
  // -default-device: functions without execution-space annotations are device
  // functions, so generated helpers need no __device__.
  bool defaultDevice = true;
  // --restrict: assert that all kernel pointer parameters are __restrict__.
  // Off by default because it changes semantics when buffers alias.
  bool restrictPointers = false;
  bool fastMath = false; // --use_fast_math
  bool lineInfo = false; // -lineinfo, for profilers
  // Treat any warning in NVRTC's log as a failure (NVRTC has no -Werror).
  bool warningsAsErrors = false;
  std::vector<std::string> extraOptions; // passed through verbatim, last
};

struct PtxResult {
  std::string ptx;
  std::string log;                   // NVRTC's full log; empty if it had nothing to say
  std::vector<std::string> warnings; // the log lines that report a warning
  std::vector<std::string> options;  // the command line NVRTC was given
};

// Compilation failed, or NVRTC is not available. what() contains the full
// NVRTC log, so printing the exception is enough to diagnose generated code.
class NvrtcError : public tuner::BackendError {
public:
  NvrtcError(const std::string &message, std::string log) : tuner::BackendError(message), log_(std::move(log)) {}
  const std::string &log() const noexcept { return log_; }

private:
  std::string log_;
};

// True when liftcc was built with NVRTC (the library is linked, so this is a
// build-time property).
bool nvrtcAvailable() noexcept;
// "13.0"-style NVRTC version, or "built without NVRTC".
std::string nvrtcVersion();
// Architectures NVRTC can target, e.g. {"sm_75", "sm_80", ..., "sm_90", ...};
// empty without NVRTC.
std::vector<std::string> nvrtcSupportedArchs();

// The command-line options compileToPtx passes for `options`.
std::vector<std::string> nvrtcCommandLine(const NvrtcOptions &options);

// Compiles `source` (one translation unit; #include finds only NVRTC's
// built-in headers unless extraOptions adds -I paths) to PTX.
// `programName` appears in diagnostics as the file name.
// Throws NvrtcError on failure, on an unsupported arch, and, with
// warningsAsErrors, when the log reports warnings.
PtxResult compileToPtx(std::string_view source, const NvrtcOptions &options = {},
                       std::string_view programName = "liftcc_kernel.cu");

// Shorthand for the common case: default options except the architecture,
// plus `extraOptions` (e.g. {"--use_fast_math"}). `programName` is the file
// name in diagnostics; with extern "C" kernels it does not affect the PTX.
PtxResult compileToPtx(std::string_view source, std::string_view programName, std::string arch = "sm_90",
                       std::vector<std::string> extraOptions = {});

} // namespace liftcc::cuda
