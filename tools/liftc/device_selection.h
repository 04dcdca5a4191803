#pragma once
// --target and --device to a tuner::Device, shared by run, explore and tune.

#include "codegen/dialect.h"
#include "tools/liftc/command_line.h"
#include "tuner/device.h"

#include <memory>

namespace liftcc::cli {

/// OpenCL: --device is an index, "platform:device" or a name substring
/// (default: the first device). CUDA: --device is the device index (default
/// 0); the driver is loaded at run time, and without one this throws
/// cuda::CudaUnavailable saying why.
std::unique_ptr<tuner::Device> openDevice(const CommandLine &cl, codegen::Target target);

} // namespace liftcc::cli
