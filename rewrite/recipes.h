#pragma once
// Default optimisation recipes: strategies that turn a high-level stencil
// program into a low-level one (`liftc compile --opt plain|tiled|local`).
//
//   plain  the outer map nest on global work-items (mapGlb), the rest sequential
//   tiled  overlapped tiling in every stencil dimension; tiles on work-groups
//          (mapWrg), outputs of a tile on work-items (mapLcl), reading global memory
//   local  tiled, and each tile copied to local memory first (toLocal)
//   coarsened  thread coarsening / register blocking: overlapped tiling with
//          per-dimension extents whose tiles go to global work-items (mapGlb)
//          and whose outputs a work-item computes sequentially (mapSeqUnroll),
//          each tile's window copied to private memory once (toPrivate)
//   stream 2.5D streaming: the outermost stencil dimension marched by slideSeq
//          (window in registers), the inner dimensions on global work-items
//   streamLocal 2.5D streaming through local memory: the outermost dimension cut
//          into chunks, the inner ones into plane tiles, one work-group per
//          chunk and tile; it marches along its chunk, copying each plane (tile
//          plus halo) to local memory, its work-items computing from there
//   timeTiledLocal temporal blocking of iterate(n, f, A) through local memory: a
//          kernel computes timeTile steps, one work-group per tile of the last,
//          each intermediate step's tile plus halo in a local buffer of its
//          own (rule timeTileThroughLocal; every boundary)
//   timeTiledStream temporal blocking of a 2D or 3D iterate(n, f, A) through
//          streaming: a kernel computes timeTile steps, one work-group per
//          chunk and plane tile of the last, each step streaming its planes
//          through a local ring from the planes the step before produces
//          (rule timeTileThroughStream; every boundary)
// A program iterate(n, f, A) is lowered by lowering f's body with the
// recipe as a program of its own (its intermediates fused: the host loop
// launches one kernel), optionally time-tiled (RecipeOptions::timeTile).
// All unroll reductions and maps of constant length.

#include "rewrite/apply.h"
#include "rewrite/mapping.h"
#include "rewrite/stages.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace liftcc::rewrite {

enum class Recipe { Plain, Tiled, Local, Coarsened, Stream, StreamLocal, TimeTiledLocal, TimeTiledStream };

std::string recipeName(Recipe recipe);
std::optional<Recipe> parseRecipe(const std::string &name);

struct RecipeOptions {
  int64_t tileOutputs = 8; ///< outputs per tile and dimension (tiled, local)
  bool unroll = true;
  /// coarsened: outputs per work-item along x, y, z (innermost first, as
  /// `--local`); dimensions beyond the stencil's must be 1.
  std::array<int64_t, 3> coarsen{8, 1, 1};
  /// coarsened: copy each work-item's window to private memory first, so
  /// every input element of it is loaded once (else: read from global memory
  /// per output, leaving shared loads to the OpenCL compiler).
  bool privateWindow = true;
  /// How the outermost parallel map nest goes onto the NDRange (order,
  /// sequential dimensions; rewrite/mapping.h). Work-group recipes (tiled,
  /// local) take orders only: every dimension on work-groups.
  Mapping mapping = {};
  // (Fields added later come last, so that aggregate initialisation such as
  // {8, true} keeps its meaning.)
  /// plain, coarsened: vectorise the innermost dimension of the stencil with
  /// vectors of this many lanes (2, 4, 8, 16; 0 = scalar code): a work-item
  /// computes that many consecutive outputs along x as one vector (plain), or
  /// its coarsened outputs along x as vectors (coarsened, factor along x a
  /// multiple of the width). See vectorizeStencil in rewrite/rule.h.
  int64_t vectorWidth = 0;
  /// tiled, local: outputs per tile along x, y, z (innermost first, as
  /// `--local`) where they differ per dimension, e.g. {32, 4, 0}; the stencil
  /// is then tiled in every dimension of the output (entries beyond it must
  /// be 0 or 1). All 0: every dimension by tileOutputs.
  std::array<int64_t, 3> tileExtents{0, 0, 0};
  /// Multi-kernel programs: a kernel per intermediate array (Separate), or
  /// each intermediate computable per element recomputed by the kernels
  /// reading it (Inline; rewrite/stages.h). Single-kernel programs ignore it.
  Fusion fusion = Fusion::Separate;
  /// Programs `iterate(n, f, A)`: time tiling, one kernel computing this
  /// many steps (f composed with itself, the intermediate steps fused into
  /// the last, so their halos are recomputed per tile), launched n / timeTile
  /// times by the host; it must divide n. 1: one step per launch.
  int64_t timeTile = 1;
  /// streamLocal: output planes per work-group along the streamed (outermost)
  /// dimension, the chunk each work-group marches through (more chunks, more
  /// work-groups). The plane tile is tileExtents (x, y; 0 or absent:
  /// tileOutputs) along the inner dimensions.
  int64_t streamChunk = 8;
};

/// Every iterate over one element's scalars (or tuple of scalars) as a
/// reduction over its step count (rule iterateAsReduction), each shared node
/// rewritten once; applyRecipe does this first.
Program elementLoopsAsReductions(const Program &typed);

/// `typed` is a type-checked high-level program; tiling needs its sizes to be
/// provably divisible by the tile size, or constant (partial tiles), so
/// specialise the sizes first (typeCheck(program, sizes)). Throws RewriteError when the recipe does not
/// apply (e.g. no stencil to tile).
Program applyRecipe(const Program &typed, Recipe recipe, const RecipeOptions &options = {});

} // namespace liftcc::rewrite
