#include "tuner/opencl_timing.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc::ocl {

double median(std::span<const std::uint64_t> samples) {
  if (samples.empty())
    throw std::invalid_argument("median of no samples");
  std::vector<std::uint64_t> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  if (sorted.size() % 2 == 1)
    return static_cast<double>(sorted[mid]);
  return (static_cast<double>(sorted[mid - 1]) +
          static_cast<double>(sorted[mid])) /
         2.0;
}

KernelTiming timeKernel(Context &context, const Kernel &kernel,
                        const NDRange &global,
                        const std::optional<NDRange> &local,
                        const TimingOptions &options) {
  if (options.timedRuns == 0)
    throw std::invalid_argument("timeKernel: timedRuns must be at least 1");
  for (unsigned i = 0; i < options.warmupRuns; ++i)
    context.launch(kernel, global, local);
  KernelTiming timing;
  timing.samplesNs.reserve(options.timedRuns);
  for (unsigned i = 0; i < options.timedRuns; ++i)
    timing.samplesNs.push_back(context.launch(kernel, global, local));
  timing.medianNs = median(timing.samplesNs);
  return timing;
}

} // namespace liftcc::ocl
