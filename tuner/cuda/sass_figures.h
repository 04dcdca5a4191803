#pragma once
// Static figures of a CUDA kernel, read without a GPU (issue #33 item 4):
// NVRTC compiles the CUDA C to SASS for a real architecture (sm_90 by
// default) with ptxas's verbose report, and the report gives each entry
// function's registers, barriers, stack frame, spill bytes and shared memory.
// These decide occupancy and whether a variant spills, which a GPU run would
// otherwise reveal only as a slow kernel.

#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/sass_summary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::cuda {

struct SassFigures {
  std::string function; ///< the entry function
  std::string arch;     ///< e.g. "sm_90"
  int registers = 0;    ///< per thread
  int barriers = 0;     ///< named barriers used
  int64_t stackFrameBytes = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  int64_t sharedBytes = 0; ///< static shared memory per block

  bool spills() const { return spillStoreBytes > 0 || spillLoadBytes > 0; }
};

/// The figures of every entry function in ptxas's verbose report (`ptxas -v`
/// or NVRTC's `--ptxas-options=-v` log), in the report's order. Lines it does
/// not know are ignored; a report without entry functions gives none.
std::vector<SassFigures> parsePtxasReport(std::string_view report);

/// Compiles `source` with NVRTC to SASS for `options.arch` (a real
/// architecture, sm_XY) with ptxas's report, and returns the figures of each
/// entry function. Throws NvrtcError like compileToPtx (also when NVRTC is
/// not available), and std::invalid_argument for a virtual architecture
/// (compute_XY: no SASS, no report).
/// The option that makes NVRTC (with a real architecture, which runs ptxas
/// anyway) write ptxas's report into its log: the kernel's own compilation
/// then gives its figures, with no second compile.
inline constexpr const char *kPtxasReportOption = "--ptxas-options=-v";

/// What the tuner records of a kernel's entry functions (one, or one per
/// stage of a multi-kernel program): the largest of each figure over them,
/// since the worst stage decides whether the kernel spills or fits.
/// nullopt when there are none.
std::optional<tuner::SassSummary> summarize(const std::vector<SassFigures> &figures);

std::vector<SassFigures> sassFigures(std::string_view source, NvrtcOptions options = {},
                                     std::string_view programName = "liftcc_kernel.cu");

} // namespace liftcc::cuda
