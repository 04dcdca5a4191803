#pragma once
// Peers: stencil implementations from other systems, run on the host CPU
// next to the OpenCL contenders. Today: Halide (JIT-compiled pipelines with
// a parallel-rows + vectorised-columns schedule) for jacobi2d_5pt, gaussian
// and heat, when liftcc was built with Halide (CMake finds it; see
// bench/CMakeLists.txt). Without Halide peersFor() is always empty and the
// benchmark simply has no peer rows.
//
// A peer is checked like every contender: its output at the small
// verification size must agree with the interpreter, or it is reported
// WRONG and not timed.

#include "bench/grids.h"
#include "examples/example.h"
#include "tuner/opencl_timing.h"

#include <functional>
#include <string>
#include <vector>

namespace liftcc::bench {

struct PeerRun {
  Grid output;     ///< row-major, as the OpenCL kernels write it
  double medianNs; ///< median wall time of one pipeline run (no copies)
};

struct Peer {
  std::string variant; ///< e.g. "halide"
  /// Runs the peer on row-major input grids (the example's inputs in order)
  /// at `sizes`: timing.warmupRuns untimed runs, then timing.timedRuns timed.
  std::function<PeerRun(const std::vector<Grid> &inputs, const Sizes &sizes, const ocl::TimingOptions &timing)> run;
};

/// The peers of an example (none without Halide or for other examples).
std::vector<Peer> peersFor(const examples::Example &example);

/// "Halide 14" or "none": what this build can compare against.
std::string peersDescription();

} // namespace liftcc::bench
