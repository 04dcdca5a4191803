#pragma once
// Error reporting for the OpenCL runtime layer: every failing cl* call becomes
// an OpenCLError that names both the call and the symbolic error code, so a
// failure in a tuning run can be diagnosed from the message alone.

#include "tuner/backend_error.h"
#include "tuner/opencl/opencl_api.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace liftcc::ocl {

/// Symbolic name of an OpenCL status code ("CL_OUT_OF_RESOURCES"). Covers all
/// OpenCL 1.2 codes plus the ICD loader's CL_PLATFORM_NOT_FOUND_KHR; anything
/// else yields "CL_UNKNOWN_ERROR".
std::string_view errorName(cl_int code);

/// A cl* call returned something other than CL_SUCCESS.
class OpenCLError : public tuner::BackendError {
public:
  /// `call` names the failed function ("clBuildProgram"); `detail`, when not
  /// empty, is appended to the message on its own line (e.g. a build log).
  OpenCLError(cl_int code, std::string call, const std::string &detail = {});

  cl_int code() const noexcept { return code_; }
  std::string_view name() const noexcept { return errorName(code_); }
  const std::string &call() const noexcept { return call_; }

private:
  cl_int code_;
  std::string call_;
};

/// Throws OpenCLError(status, what) unless status is CL_SUCCESS.
void check(cl_int status, const char *what);

} // namespace liftcc::ocl
