#pragma once
// The parts of the copy roofline that do not depend on the backend: the
// candidates' work-group sizes, the data pattern every copy is verified
// with, choosing the roof, and the host memcpy cross-check. The backends
// (tuner/opencl/opencl_bandwidth.h, tuner/cuda/cuda_timing.h) time their own
// copy kernels with these.
//
// Why several copies: a single guarded copy kernel (`if (i < n)`) is what
// PoCL compiles to masked loads and stores, 2-3x slower than a guard-free or
// float8 copy of the same bytes, so a roof measured with it alone flatters
// every stencil. The roof is the fastest verified candidate.

#include "tuner/device.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// Work-group sizes each copy kernel is timed with; 0 is the runtime's choice.
std::vector<size_t> copyWorkGroups();

/// The value element i of a copy's source holds: non-zero everywhere (an
/// untouched, zero-filled output fails), exact in float (below 2^23, i + 0.5
/// needs 24 significant bits), with period 2^23, so an element that was not
/// written or was written from far away is caught.
float copyPattern(size_t i);
/// nullopt when `copied` holds copyPattern(0..n-1), else which element differs.
std::optional<std::string> copyMismatch(const std::vector<float> &copied);

/// Index of the fastest measured candidate; std::runtime_error when none was measured.
size_t fastestCopy(const std::vector<CopyCandidate> &candidates);

/// Median over `runs` of the host's memcpy of `bytes` (after one warm-up
/// copy that also faults the pages in), as read plus write bytes per second.
double measureHostMemcpy(size_t bytes, int runs);

/// A note when the roof and the host memcpy differ by more than 2x either
/// way (on a CPU device both move the same DRAM), else nullopt.
std::optional<std::string> hostMemcpyNote(const CopyBandwidth &bandwidth);

} // namespace liftcc::tuner
