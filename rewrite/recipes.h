#pragma once
// Default optimisation recipes: strategies that turn a high-level stencil
// program into a low-level one (`liftc compile --opt plain|tiled|local`).
//
//   plain  the outer map nest on global work-items (mapGlb), the rest sequential
//   tiled  overlapped tiling in every stencil dimension; tiles on work-groups
//          (mapWrg), outputs of a tile on work-items (mapLcl), reading global memory
//   local  tiled, and each tile copied to local memory first (toLocal)
//   stream 2.5D streaming: the outermost stencil dimension marched by slideSeq
//          (window in registers), the inner dimensions on global work-items
// All unroll reductions and maps of constant length.

#include "rewrite/apply.h"

#include <optional>
#include <string>

namespace liftcc::rewrite {

enum class Recipe { Plain, Tiled, Local, Stream };

std::string recipeName(Recipe recipe);
std::optional<Recipe> parseRecipe(const std::string &name);

struct RecipeOptions {
  int64_t tileOutputs = 8; ///< outputs per tile and dimension (tiled, local)
  bool unroll = true;
};

/// `typed` is a type-checked high-level program; tiling needs its sizes to be
/// provably divisible by the tile size, so specialise the sizes first
/// (typeCheck(program, sizes)). Throws RewriteError when the recipe does not
/// apply (e.g. no stencil to tile).
Program applyRecipe(const Program &typed, Recipe recipe, const RecipeOptions &options = {});

} // namespace liftcc::rewrite
