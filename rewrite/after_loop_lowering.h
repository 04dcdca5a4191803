#pragma once
// The lowering of a program with a stage after its loop that the loop cannot
// launch as one of its phases (core/ir/after_loop.h): the loop and the stage
// are lowered each as a program of its own and put back together, the
// stage reading the lowered loop's result. The code generator splits them
// again at the same place and launches the stage's kernels after the loop.

#include "core/ir/after_loop.h"
#include "rewrite/recipes.h"

namespace liftcc::rewrite {

/// `split` (of the typed program) lowered by `recipe`: the loop as the
/// recipe lowers an iterate, the stage by the recipe or, where it does not
/// apply (a reduction, a stage that is no stencil), plain; a stage that only
/// rearranges the state (get(k, loop), a transpose) becomes a copy. Throws
/// RewriteError as the recipe does for the loop.
Program lowerAfterLoop(const AfterLoop &split, Recipe recipe, const RecipeOptions &options);

} // namespace liftcc::rewrite
