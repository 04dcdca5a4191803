#include "bench/peers.h"

#ifdef LIFTCC_HAVE_HALIDE

// The pipelines compiled at build time by tools/halide_gen (see there for
// the definitions and the schedule).
#include "halide_gaussian.h"
#include "halide_heat.h"
#include "halide_jacobi2d_5pt.h"

#include <HalideBuffer.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace liftcc::bench {

namespace {

using HalideBuffer = Halide::Runtime::Buffer<float>;
using Pipeline = int (*)(halide_buffer_t *in, halide_buffer_t *out);

PeerRun runPipeline(Pipeline pipeline, const examples::Example &example, const std::vector<Grid> &inputs,
                    const Sizes &sizes, const ocl::TimingOptions &timing) {
  if (inputs.size() != 1) throw std::invalid_argument("halide: expected one input grid");
  // Halide's dimension 0 is the innermost: M (, N (, O)).
  std::vector<int> extents;
  for (auto it = example.sizeNames.rbegin(); it != example.sizeNames.rend(); ++it)
    extents.push_back(static_cast<int>(sizes.at(*it)));
  HalideBuffer in(extents), out(extents);
  if (in.number_of_elements() != inputs[0].size()) throw std::invalid_argument("halide: input size mismatch");
  std::memcpy(in.data(), inputs[0].data(), inputs[0].size() * sizeof(float));
  auto runOnce = [&] {
    if (int error = pipeline(in.raw_buffer(), out.raw_buffer()))
      throw std::runtime_error("halide: pipeline failed with error " + std::to_string(error));
  };
  for (unsigned r = 0; r < timing.warmupRuns; ++r) runOnce();
  std::vector<double> times;
  for (unsigned r = 0; r < std::max(1u, timing.timedRuns); ++r) {
    auto start = std::chrono::steady_clock::now();
    runOnce();
    times.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return {Grid(out.data(), out.data() + out.number_of_elements()), median};
}

} // namespace

std::vector<Peer> peersFor(const examples::Example &example) {
  Pipeline pipeline = nullptr;
  if (example.name == "jacobi2d_5pt") pipeline = halide_jacobi2d_5pt;
  else if (example.name == "gaussian") pipeline = halide_gaussian;
  else if (example.name == "heat") pipeline = halide_heat;
  if (!pipeline) return {};
  Peer peer;
  peer.variant = "halide";
  peer.run = [pipeline, example](const std::vector<Grid> &inputs, const Sizes &sizes, const ocl::TimingOptions &timing) {
    return runPipeline(pipeline, example, inputs, sizes, timing);
  };
  return {peer};
}

std::string peersDescription() { return "Halide " LIFTCC_HALIDE_VERSION " (ahead-of-time, host CPU)"; }

} // namespace liftcc::bench

#else

namespace liftcc::bench {

std::vector<Peer> peersFor(const examples::Example &) { return {}; }

std::string peersDescription() { return "none"; }

} // namespace liftcc::bench

#endif
