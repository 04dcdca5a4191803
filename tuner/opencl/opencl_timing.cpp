#include "tuner/opencl/opencl_timing.h"

#include "tuner/median.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc::ocl {

KernelTiming timeKernel(Context &context, const Kernel &kernel, const NDRange &global,
                        const std::optional<NDRange> &local, const TimingOptions &options) {
  if (options.timedRuns == 0) throw std::invalid_argument("timeKernel: timedRuns must be at least 1");
  for (unsigned i = 0; i < options.warmupRuns; ++i) context.launch(kernel, global, local);
  KernelTiming timing;
  timing.samplesNs.reserve(options.timedRuns);
  for (unsigned i = 0; i < options.timedRuns; ++i) timing.samplesNs.push_back(context.launch(kernel, global, local));
  timing.medianNs = tuner::median(timing.samplesNs);
  return timing;
}

} // namespace liftcc::ocl
