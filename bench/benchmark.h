#pragma once
// The benchmark: for each example, in one run on one device (OpenCL or CUDA,
// through tuner::Device), the generated kernels next to a hand-written kernel
// of the same stencil and the roofline bound from a STREAM-like copy kernel.
//
// Every contender is first run on the same random inputs at a small size and
// compared with the reference interpreter; one that disagrees is WRONG and is
// not timed. At the benchmark size each timed output is also compared with
// the first verified contender's (normally the plain kernel), which catches
// size-dependent bugs such as index overflow. The metric is output elements
// per second at the median kernel time (profiling events, after warm-up).

#include "bench/contenders.h"
#include "bench/kernel_tuner_peer.h"
#include "bench/sizes.h"
#include "search/roof_rounds.h"
#include "tuner/device.h"
#include "tuner/opencl/opencl_timing.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

struct BenchOptions {
  std::vector<std::string> examples{"jacobi2d_5pt", "gaussian", "heat"};
  SizePreset sizes = SizePreset::Paper;
  double sizeScale = 1.0;
  ContenderOptions contenders;
  /// Warm-ups and timed runs of every kernel, of the copy kernel and (at
  /// least 20 runs) of the peers.
  ocl::TimingOptions timing{.warmupRuns = 2, .timedRuns = 20};
  /// Every generated and hand-written kernel is timed for at least
  /// `timing.timedRuns` runs and at least this many seconds of kernel time
  /// (tuner::LaunchConfig::minTimedSeconds), so that sub-millisecond kernels
  /// get a median of hundreds of runs.
  double minTimedSeconds = 0.2;
  /// Every verified kernel and peer of an example is timed this many times,
  /// in rounds that take each in turn; a row's time is the median of its
  /// round medians (see BenchRow::roundMediansNs). Same-run ratios then
  /// survive a slow phase of a shared machine that lasts less than a round.
  unsigned rounds = 3;
  uint64_t seed = 1;
  /// Bytes of each of the two buffers of the copy roofline. Absent: each
  /// example's roof is the copy of buffers as large as half its compulsory
  /// traffic (explore::roofBufferBytes, as liftc explore measures it: 1 to
  /// 128 MiB), so the copy sees the caches the stencil sees; a grid that
  /// fits a cache is no longer compared with a copy that does not.
  std::optional<size_t> copyBytes;
  /// The Kernel Tuner peer (bench/kernel_tuner_peer.h); absent: no such rows.
  std::optional<KernelTunerSetup> kernelTuner;
  /// Wall time of exploring each example on the spot in this run (by name),
  /// shown as the explored row's tuning time next to Kernel Tuner's.
  std::map<std::string, double> exploreSeconds;
  /// Progress lines (one per step), e.g. to stderr; may be empty.
  std::function<void(const std::string &)> log;
};

enum class Status {
  Ok,
  Wrong,  ///< disagrees with the interpreter (or, at the benchmark size, with the baseline)
  Failed, ///< does not apply at these sizes, does not build, or fails to launch
};

struct BenchRow {
  std::string variant;
  ContenderKind kind;
  Status status = Status::Failed;
  std::string message; ///< why a row is Wrong or Failed
  double medianNs = 0; ///< the median of roundMediansNs
  /// The median time of each round (BenchOptions::rounds), in timing order.
  std::vector<double> roundMediansNs;
  double elementsPerSecond = 0;
  std::optional<double> vsReference; ///< elementsPerSecond / the hand-written kernel's
  /// The median over rounds of (this row vs that round's copy roof), with
  /// its spread (search/roof_rounds.h); vsRoofline is its median, 0 when the
  /// median is above 1.0 (roofFraction.aboveRoof: a measurement problem,
  /// shown as such and never as a figure).
  search::RoofFraction roofFraction;
  double vsRoofline = 0;
  /// Wall time of the search that produced this row in this run (Kernel
  /// Tuner's tuning, liftc's exploration on the spot), and what it chose.
  std::optional<double> tuningSeconds;
  std::string detail;
};

struct ExampleReport {
  std::string example;
  std::string sizes;      ///< "N=2048,M=2048"
  std::string verifiedAt; ///< the small sizes of the verification
  int64_t outputElements = 0;
  double bytesPerElement = 0; ///< compulsory traffic: each grid read or written once
  size_t roof = 0;            ///< its copy roof before the rounds: index into BenchReport::bandwidths
  double rooflineElementsPerSecond = 0;
  /// The copy roof (read + write bytes per second) timed in each round, with
  /// the rows, at the same buffer size; 0 where that round's copy failed.
  std::vector<double> roundRoofBytesPerSecond;
  std::vector<BenchRow> rows;
};

struct BenchReport {
  std::string device;
  /// The copy roofs measured, one per buffer size, in the order the
  /// examples first needed them.
  std::vector<tuner::CopyBandwidth> bandwidths;
  std::vector<ExampleReport> examples;
  unsigned rounds = 1; ///< BenchOptions::rounds
  double seconds = 0;  ///< wall time of the measurements (runBench)
  /// Wall time spent exploring examples without a recorded best before the
  /// measurements (`liftc bench --explore`), and how many were explored.
  double exploreSeconds = 0;
  size_t explored = 0;
};

/// Throws std::invalid_argument for an unknown example name; every failure of
/// a single contender is a row status instead. The Halide peers run on
/// OpenCL devices only.
BenchReport runBench(tuner::Device &device, const BenchOptions &options);

std::string statusName(Status status);

} // namespace liftcc::bench
