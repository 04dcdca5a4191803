#pragma once
// What the explorer requires of a CUDA variant's SASS figures before it
// spends GPU time on it (issue #33 item 4). The model that ranks variants
// (traffic over bandwidth, explore/win_explanation.h) assumes a kernel keeps
// its loads in registers and the SM busy while a work-group waits at a load
// or a barrier, so a variant is dropped (Outcome::Constraints, never timed)
// when ptxas says it
//   * spills to local memory (any spill store or load bytes), or
//   * lets fewer than `minGroupsPerSm` of its work-groups be resident on one
//     SM, counting registers (allocated per warp in units of 256) and shared
//     memory (1 KB reserved per work-group) against the SM of its architecture
//     (sm_90: 65,536 registers and 228 KB of shared memory, at most 2,048
//     threads and 32 work-groups).
// With 1, only a variant that cannot be launched at all is dropped; the
// default, 2, also drops one whose single resident group idles the SM at
// every barrier and long load.

#include "tuner/sass_summary.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace liftcc::explore {

struct SassRequirements {
  bool dropSpills = true;
  /// 0 disables the occupancy check.
  int64_t minGroupsPerSm = 2; ///< kDefaultMinGroupsPerSm
};
inline constexpr int64_t kDefaultMinGroupsPerSm = 2;

/// One SM's resources (the occupancy calculator's figures).
struct SmResources {
  int64_t registers = 65536;
  int64_t sharedBytes = 228 * 1024;
  int64_t sharedReservedPerGroup = 1024;
  int64_t maxThreads = 2048;
  int64_t maxGroups = 32;
};
/// The SM of `arch` ("sm_90"); architectures the table does not know get sm_90's.
SmResources smResources(const std::string &arch);

/// Work-groups of `workGroupSize` threads that can be resident on one SM of
/// `sass.arch` given the kernel's registers and shared memory (0: none can
/// be launched).
int64_t residentGroups(const tuner::SassSummary &sass, int64_t workGroupSize);

/// Why a variant with these figures and work-groups of `workGroupSize`
/// threads is not worth timing, in one line naming the figure ("spills 24
/// bytes (sm_90)"), or nullopt when it passes.
std::optional<std::string> sassRejection(const tuner::SassSummary &sass, int64_t workGroupSize,
                                         const SassRequirements &requirements);

} // namespace liftcc::explore
