#pragma once
// Peers: stencil implementations from other systems, run next to the OpenCL
// contenders. Today: Halide, for jacobi2d_5pt, gaussian and heat, when
// liftcc was built with Halide (CMake finds it; see bench/CMakeLists.txt):
// pipelines compiled ahead of time by tools/halide_gen, once for the host CPU
// (parallel rows, vectorised columns) and once per tile shape for Halide's
// OpenCL target (GPU tiles), which runs on the benchmarked OpenCL device with
// the tile shape tuned (the fastest at the benchmark size). Without Halide
// peersFor() is always empty and the benchmark simply has no peer rows.
//
// A peer is checked like every contender: its output at the small
// verification size must agree with the interpreter, or it is reported
// WRONG and not timed.

#include "bench/grids.h"
#include "examples/example.h"
#include "tuner/opencl/opencl_device.h"
#include "tuner/opencl/opencl_timing.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

struct PeerRun {
  Grid output; ///< row-major, as the OpenCL kernels write it
  /// Median wall time of one pipeline run, without host-device copies (the
  /// OpenCL target's data stays on the device between runs).
  double medianNs = 0;
  /// For a peer that tunes itself (Kernel Tuner): the wall time of its
  /// search, and the configuration it chose.
  std::optional<double> tuningSeconds;
  std::string detail;
};

struct Peer {
  std::string variant; ///< e.g. "halide cpu", "halide opencl"
  /// Runs the peer on row-major input grids (the example's inputs in order)
  /// at `sizes`: timing.warmupRuns untimed runs, then timing.timedRuns timed.
  std::function<PeerRun(const std::vector<Grid> &inputs, const Sizes &sizes, const ocl::TimingOptions &timing)> run;
  /// Each call tunes from scratch in a process of its own (Kernel Tuner:
  /// tens of seconds): timed in the first of the bench's rounds only.
  bool timedOnce = false;
  /// Why the peer cannot run at the small verification size (Halide's
  /// autoschedules split loops by factors fitted to the paper sizes and
  /// refuse smaller grids), or "". Such a peer is checked only in the first
  /// timing round, against the baseline row (itself verified against the
  /// interpreter) at the benchmark size, as every row is there.
  std::string checkedAtBenchSizeOnly;
};

/// The peers of an example (none without Halide or for other examples);
/// those with an OpenCL target run on `device`.
std::vector<Peer> peersFor(const examples::Example &example, const ocl::DeviceInfo &device);

/// "Halide 14" or "none": what this build can compare against.
std::string peersDescription();

} // namespace liftcc::bench
