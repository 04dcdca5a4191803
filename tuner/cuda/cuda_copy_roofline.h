#pragma once
// The copy roofline on a CUDA GPU (tuner/copy_roofline.h says why there are
// several copies): three copy kernels compiled with NVRTC for the device,
// each with 64, 256 and 1024 threads per block,
//   guarded     out[i] = in[i] under `if (i < n)` (the grid rounded up),
//   guard-free  no guard, the element count an exact multiple of the block,
//   float4      guard-free on float4,
// and cuMemcpyDtoD. Each is timed with CUDA events and verified after timing.

#include "tuner/cuda/cuda_timing.h"
#include "tuner/device.h"

#include <cstddef>
#include <string>

namespace liftcc::cuda {

// The CUDA C source of the copy kernels (extern "C": liftcc_copy_guarded,
// liftcc_copy_guard_free, liftcc_copy_float4).
const char *copyKernelSource();

// Every candidate on two buffers of `bytes` (rounded down to a multiple of
// 4 floats x 1024 threads), with `options` each. Throws like the driver and
// NVRTC when the kernels cannot be built; a candidate that fails to launch
// or verify is listed with its error. With `onlyCandidate` (a CopyCandidate
// label), that one candidate alone.
tuner::CopyBandwidth measureCopyRoofline(const Context &ctx, std::size_t bytes, const TimingOptions &options = {},
                                         const std::string &onlyCandidate = "");

} // namespace liftcc::cuda
