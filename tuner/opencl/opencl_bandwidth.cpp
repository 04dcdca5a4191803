#include "tuner/opencl/opencl_bandwidth.h"

#include "tuner/backend_error.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::ocl {

namespace {

// restrict tells the compiler in and out do not alias, so it may vectorise
// the copy; the guard lets the global size be rounded up to the work-group
// size.
constexpr const char *copySource = R"CLC(
__kernel void liftcc_copy(__global const float *restrict in,
                          __global float *restrict out,
                          const uint n) {
  const size_t i = get_global_id(0);
  if (i < n)
    out[i] = in[i];
}
)CLC";

// Non-zero everywhere, so that an untouched zero-initialised output fails
// verification, and exact in float: below 2^23, i + 0.5 needs at most 24
// significant bits. Repeats with period 2^23, so verification catches
// elements that were not written or were written from far away, not
// permutations within a period.
float pattern(std::size_t i) {
  return static_cast<float>(i % (std::size_t{1} << 23)) + 0.5f;
}

} // namespace

BandwidthResult measureCopyBandwidth(Context &context,
                                     const BandwidthOptions &options) {
  const auto &device = context.device();
  std::size_t n = options.elements;
  // Both buffers must fit: at most one allocation each, and together at most
  // half the device memory so that the driver's own allocations fit too.
  if (device.maxAllocBytes > 0)
    n = std::min<std::size_t>(n, device.maxAllocBytes / sizeof(float));
  if (device.globalMemBytes > 0)
    n = std::min<std::size_t>(n, device.globalMemBytes / 4 / sizeof(float));
  // The kernel takes n as uint.
  n = std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max());
  if (n == 0)
    throw std::invalid_argument("measureCopyBandwidth: no elements");
  const std::size_t bytes = n * sizeof(float);

  Program program(context, copySource);
  Kernel kernel(program, "liftcc_copy");
  Buffer in(context, bytes, CL_MEM_READ_ONLY);
  Buffer out(context, bytes, CL_MEM_WRITE_ONLY);
  {
    std::vector<float> host(n);
    for (std::size_t i = 0; i < n; ++i)
      host[i] = pattern(i);
    in.upload(host);
  }
  kernel.setArgs(in, out, static_cast<std::uint32_t>(n));

  std::optional<NDRange> local;
  NDRange global(n);
  if (options.local) {
    local = NDRange(*options.local);
    global = roundUp(global, *local);
  }

  BandwidthResult result;
  result.elements = n;
  result.bytesPerRun = 2 * static_cast<std::uint64_t>(bytes);
  result.timing = timeKernel(context, kernel, global, local, options.timing);
  if (result.timing.medianNs <= 0)
    throw tuner::BackendError("measureCopyBandwidth: the device reported a "
                                "kernel time of 0 ns");
  result.bytesPerSecond =
      static_cast<double>(result.bytesPerRun) / (result.timing.medianNs * 1e-9);

  if (options.verify) {
    const auto copied = out.download<float>();
    for (std::size_t i = 0; i < n; ++i)
      if (copied[i] != pattern(i))
        throw tuner::BackendError("measureCopyBandwidth: element " +
                                    std::to_string(i) + " was not copied");
  }
  return result;
}

} // namespace liftcc::ocl
