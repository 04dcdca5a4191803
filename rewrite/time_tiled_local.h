#pragma once
// The timeTiledLocal recipe's rewriting (rule timeTileThroughLocal): a time
// tile of an iterated stencil with every intermediate step in local memory.

#include "core/ir/expr.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"

#include <cstdint>
#include <vector>

namespace liftcc::rewrite {

/// Rule timeTileThroughLocal (rules_time_tiling.cpp): the time tile of `depth`
/// steps of an iterated stencil (the step composed `depth` times:
/// mapN(g, slideN(n, 1, pad(x))) nested, same window and boundary) tiled by
/// `extents` (innermost first, one per dimension): one work-group per tile of
/// the last step, each intermediate step's tile plus the halo the later steps
/// read in a local buffer of its own (shrinking by n-1 per step), barriers
/// between them, the last step written out. Exact for every boundary (see
/// the file for how each is kept beyond the grid edge; mirror within one
/// reflection). Constant grid extents; partial tiles where the tile does not
/// divide them.
Rule timeTileThroughLocal(int64_t depth, const std::vector<int64_t> &extents);

/// `step` is the typed program of a time tile, the iterated function composed
/// `depth` times (rewrite/recipes.cpp, lowerIterate); returns it tiled by
/// timeTileThroughLocal with options' tile extents (tileExtents, else
/// tileOutputs in every dimension), not yet lowered onto work-groups. Throws
/// RewriteError naming the reason when the rule does not apply (zipped
/// inputs, symbolic extents, a mirror pad beyond one reflection, ...).
Program tileTimeStepsThroughLocal(const Program &step, int64_t depth, const RecipeOptions &options);

/// Rule timeTileThroughStream (rules_time_tiling_stream.cpp): the time tile
/// of `depth` steps as timeTileThroughLocal matches it (2D or 3D), tiled by
/// `extents` (innermost first; the outermost one the chunk of planes a
/// work-group streams), each step streaming its planes through a ring in
/// local memory from the planes the step before produces, the last step
/// written out. Exact for every boundary, as timeTileThroughLocal.
Rule timeTileThroughStream(int64_t depth, const std::vector<int64_t> &extents);

/// As tileTimeStepsThroughLocal, by timeTileThroughStream: the plane tile of
/// options' tile extents (tileExtents, else tileOutputs, in the inner
/// dimensions) and the chunk of options.streamChunk planes.
Program tileTimeStepsThroughStream(const Program &step, int64_t depth, const RecipeOptions &options);

} // namespace liftcc::rewrite
