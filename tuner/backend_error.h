#pragma once
// The base of what a device backend reports about its environment: a failed
// OpenCL or CUDA driver call, NVRTC missing or rejecting a kernel, no device
// matching a selection. The backends translate them into KernelBuildError /
// KernelLaunchError (tuner/device.h) where a variant's compile or launch is at
// fault; one that escapes an exploration's wrappers is recorded as a `bug`
// (explore/explorer.cpp), as before they shared liftcc::Error.

#include "core/error.h"

namespace liftcc::tuner {

class BackendError : public Error {
public:
  using Error::Error;
};

} // namespace liftcc::tuner
