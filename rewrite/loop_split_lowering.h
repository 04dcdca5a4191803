#pragma once
// The lowering of programs split where they meet their loop
// (core/ir/loop_split.h): the loop and the stage after it, or the
// computation of the initial state and the loop over it, are lowered each as
// a program of its own and put back together, one reading the other's
// lowered result. The code generator splits them again at the same place and
// launches the other piece's kernels once after (or before) the loop.

#include "core/ir/loop_split.h"
#include "rewrite/recipes.h"

namespace liftcc::rewrite {

/// `split` (of the typed program) lowered by `recipe`: the loop as the
/// recipe lowers an iterate, the stage by the recipe or, where it does not
/// apply (a reduction, a stage that is no stencil), plain; a stage that only
/// rearranges the state (get(k, loop), a transpose) becomes a copy. Where the
/// stage reads an input the loop would write its steps over, the loop's
/// state is computed before it (lowerBeforeLoop). Throws RewriteError as the
/// recipe does for the loop.
Program lowerAfterLoop(const AfterLoop &split, Recipe recipe, const RecipeOptions &options);

/// `split` (of the typed program) lowered by `recipe`: the initial state by
/// the recipe or plain, each component that computes nothing (an input, an
/// input held twice) as a copy, and the loop over it as the recipe lowers an
/// iterate over inputs.
Program lowerBeforeLoop(const BeforeLoop &split, Recipe recipe, const RecipeOptions &options);

} // namespace liftcc::rewrite
