#pragma once
// The baselines of an exploration: the candidates measured before any search
// strategy picks (search::SearchSpace::first), so that however short the
// budget, the explored best is never slower than the obvious kernels (issue
// #36 item 1). They are, in this order:
//
//   1. the plain kernel at the runtime's work-group size (Configuration{}:
//      what `liftc explore` rates every variant against, "vs plain");
//   2. per family of the space (SpaceDescription::families, in order), one
//      variant: the first of `knownStrategies` (strategy texts,
//      explore/strategy_text.h, of best variants known from other result
//      stores) whose configuration is a candidate of this space and of that
//      family; else the family's fixed default below, at its program's
//      default launch (its first candidate: the runtime's work-group for
//      mapGlb kernels, the tile's own shape for work-group kernels), not
//      specialised, without fast math where the space has such a candidate;
//      else the family's first candidate.
//
// Fixed defaults, chosen by configuration parameters only (never by program
// name or size):
//   plain      mapGlb with the default mapping
//   stream     2.5D streaming
//   tiled      tile 8 (the same extent in every dimension)
//   local      tile 8 copied to local memory
//   coarsened  4 outputs per work-item along x (the innermost dimension), window in private memory
//   vector     plain with vectors of 4 lanes along x
//   mapping    (none: the family's first candidate)
//   fused      the plain program with its intermediates fused
//   timeTiled  coarsened in every dimension at the smallest time tile
//
// A baseline is measured whatever the budget, so it must be cheap to build:
// a program whose default kernel's source exceeds kMaxBaselineSourceBytes
// is never a family's baseline (its fixed default then gives way to the
// family's smallest program). A time tile of an iterated two-stage step
// coarsened 16 x 8 is 850 KB of OpenCL C that PoCL builds in about 30 s: it
// was the timeTiled baseline and took most of a 40 s budget.
//
// Duplicates are listed once.

#include "explore/space.h"

#include <cstddef>
#include <string>
#include <vector>

namespace liftcc::explore {

/// The largest default kernel source a baseline may have.
inline constexpr size_t kMaxBaselineSourceBytes = 128 * 1024;

/// Indices into description.candidates, plain default first.
std::vector<size_t> baselineCandidates(const SpaceDescription &description,
                                       const std::vector<std::string> &knownStrategies);

} // namespace liftcc::explore
