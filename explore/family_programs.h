#pragma once
// The family table's product before launches (issue #32 item 2): the
// distinct low-level programs of the selected families (explore/families/),
// in enumeration order, and the families' summaries. explore/space.cpp
// crosses each program with its launches.

#include "explore/space.h"

#include <exception>
#include <set>
#include <utility>
#include <vector>

namespace liftcc::explore {

/// Throws DeadlineReached once past SpaceOptions::deadline.
void checkSpaceDeadline(const SpaceOptions &options);

/// The distinct low-level programs of the selected families, in enumeration order.
struct LoweredPrograms {
  std::vector<std::pair<Configuration, Program>> programs;
  size_t unmappedPrograms = 0;     ///< the programs of the base families (before the mapping family's)
  std::set<size_t> everyDimension; ///< programs coarsened in every dimension for time tiles
  /// The rewriting's first refusal (rewrite::RewriteError): the reason when
  /// no configuration lowers at all.
  std::exception_ptr firstRefusal;
};

/// The programs of every selected family's configurations that lower
/// (a configuration the rules refuse, or whose tiles are wider than the
/// output, is no program), each distinct program once, for its first
/// configuration. Throws DeadlineReached.
LoweredPrograms lowerPrograms(const Program &typed, const SpaceOptions &options);

/// The selected families' parameters as `liftc explore --space` prints them.
std::vector<FamilySummary> familySummaries(const SpaceOptions &options);

/// The selected families that apply to `typed` (fused: an intermediate to
/// fuse; timeTiled: a dividing time tile), each counting its programs.
std::vector<FamilySummary> selectedFamilies(const Program &typed, const LoweredPrograms &lowered,
                                            const SpaceOptions &options);

} // namespace liftcc::explore
