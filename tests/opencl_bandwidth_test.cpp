#include "opencl_test_support.h"
#include "tuner/opencl/opencl_bandwidth.h"

#include <doctest/doctest.h>

using namespace liftcc::ocl;

TEST_CASE("copy bandwidth is positive and counts read + write traffic") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  // Small enough for a quick test; the default size is for real measurements.
  BandwidthOptions options;
  options.elements = std::size_t{1} << 22;
  options.timing = {.warmupRuns = 1, .timedRuns = 5};
  const auto r = measureCopyBandwidth(ctx, options);
  CHECK(r.elements == options.elements);
  CHECK(r.bytesPerRun == 2 * options.elements * sizeof(float));
  CHECK(r.timing.samplesNs.size() == 5);
  CHECK(r.bytesPerSecond > 0);
  MESSAGE("copy bandwidth on " << device->name << ": " << r.bytesPerSecond / 1e9 << " GB/s (" << r.elements
                               << " floats, median " << r.timing.medianNs / 1e6 << " ms)");

  // A size no work-group divides, with an explicit work-group size: the
  // kernel's guard must keep the padded work-items from writing past n.
  options.elements = (std::size_t{1} << 16) + 3;
  options.local = 64;
  options.timing = {.warmupRuns = 0, .timedRuns = 1};
  const auto padded = measureCopyBandwidth(ctx, options);
  CHECK(padded.elements == options.elements);
  CHECK(padded.bytesPerSecond > 0);
}
