// Temporal blocking through local memory (issue #33 item 2): the steps of a
// time tile of iterate, each an intermediate array in local memory.
//
// A time tile of depth D is the step f composed D times (rewrite/recipes.cpp,
// lowerIterate): D stencils X_k = mapN(g, slideN(n, 1, pad_b(X_{k-1}))) each
// reading the previous one through the same boundary pad. The rule tiles the
// last one and gives every step's tile its own local buffer:
//
//   untileN(mapN(\t. mapN(g, slideN(n, 1, B_{D-1}(t))), slideN(T + D(n-1), T, pad_b^D(X_0))))
//   B_0(t) = toLocal(mapLclN(id), t)
//   B_k(t) = toLocal(mapLclN(g), slideN(n, 1, B_{k-1}(t)))        (shrinking by n-1 per step)
//
// Each buffer holds the step's values on the tile plus the halo the later
// steps read, so its positions beyond the grid edge must hold what the
// boundary gives there (pad_b of the step, not the stencil applied beyond
// the edge). Per boundary:
//   wrap      the periodic extension of a stencil's result is the stencil
//             of the periodic extension (no position is special), so the
//             plain shrinking form above is exact when the input is padded
//             by D times the step's halo;
//   constant  beyond the edge every step is the constant: a mask (1 inside
//             the grid, 0 beyond: padConstantN of a generated array of ones)
//             tiled beside the input selects g's value or the constant;
//   clamp, mirror  beyond the edge a step's value is a copy of one inside,
//             at b(p) for grid position p (b the boundary's reindexing),
//             whose window lies in the same tile's previous buffer at local
//             index j + b(p) - p. The offsets b(p) - p are a generated
//             array over the padded grid (0 inside), tiled beside the input
//             like the masks, so each tile has its own; each step computes
//             position j from the window at j + offset (atDynamic, per
//             dimension), so every buffer holds the boundary's values beyond
//             the edge and the next step reads it as it is. The input is
//             padded by b for one step and clamped beyond (only one step's
//             pad is ever read from it). Mirror reflects once, so
//             it needs pads of at most the grid's extent, a right pad at
//             most the left plus 1 and a left pad at most the tile plus the
//             right (then b(p) lies in the tile's buffer).
// Partial tiles as in overlapped tiling: inputs extended at the end, the
// surplus outputs dropped by take.

#include "core/interp/components.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/rule.h"
#include "rewrite/time_tile_chain.h"
#include "rewrite/time_tiled_local.h"

namespace liftcc::rewrite {

namespace {

using namespace time_tile;

/// One tile's D steps (`steps`, the last first; tiles of `tileExtents`
/// outputs, outermost first): the tile copied to local memory, each
/// intermediate step computed into a local buffer of its own from the
/// previous one's windows, and the last step's map over the last buffer's
/// windows. For a constant boundary a step is kept only inside the grid (its
/// in-grid mask); for clamp and mirror a step computes each position beyond
/// the grid at its source (its offsets), so that every buffer holds the
/// boundary's values there. Pointwise inputs are zipped beside each level's
/// windows (and moved with them to the source). `tile` holds the parts as
/// `layout` says.
Expr stepsThroughLocal(const std::vector<StepMatch> &steps, int dims, ScalarKind kind,
                       const std::vector<int64_t> &tileExtents, const TileLayout &layout, const Expr &tile) {
  const StepMatch &first = steps.front();
  const int64_t depth = static_cast<int64_t>(steps.size()), n = first.size;
  const bool wrap = first.mode == PadMode::Wrap, reindexing = first.mode && !wrap;
  const Expr keep = keepInside(kind);
  Expr buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, api::id(kind), x); }, "x"),
                             layout.zipped() ? api::get(0, tile) : tile);
  // Level k's windows over the previous buffer, with the pointwise inputs beside them.
  auto windowsOf = [&](const Expr &previous, int64_t k) {
    Expr windows = api::slideN(dims, arith::Expr(n), arith::Expr(1), previous);
    if (first.pointwise.empty()) return windows;
    std::vector<Expr> parts{windows};
    for (int64_t j = 0; j < layout.pointwise; ++j) parts.push_back(api::get(layout.pointwiseAt(k, j), tile));
    return api::zipN(dims, parts);
  };
  // g of one element of windowsOf: the window, or the tuple g's zip gives it.
  auto step = [&](const Expr &g) { return stepOnWindow(first, layout.pointwise, g); };
  // Step k from step k-1 (steps[depth-1] is the first step's function).
  for (int64_t k = 1; k < depth; ++k) {
    const Expr g = step(steps[static_cast<size_t>(depth - k)].g);
    Expr windows = windowsOf(buffer, k);
    if (reindexing) {
      std::vector<Expr> offsets;
      std::vector<int64_t> extents;
      for (int d = 0; d < dims; ++d) {
        offsets.push_back(api::get(layout.extra(k, d), tile));
        extents.push_back(tileExtents[static_cast<size_t>(d)] + (depth - k) * (n - 1));
      }
      windows = windowsAtSources(windows, offsets, extents);
    }
    if (first.mode) {
      buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, g, x); }, "x"), windows);
      continue;
    }
    Expr masked = api::fn(
        [&](Expr p) {
          return api::apply(keep, {api::get(1, p), api::apply(g, {api::get(0, p)}), *first.value});
        },
        "p");
    buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, masked, x); }, "x"),
                          api::zipN(dims, {windows, api::get(layout.extra(k, 0), tile)}));
  }
  return api::mapN(dims, step(first.g), windowsOf(buffer, depth));
}

} // namespace

Rule timeTileThroughLocal(int64_t depth, const std::vector<int64_t> &extents) {
  return timeTileRule(
      "timeTileThroughLocal",
      "D steps mapN(g, slideN(n, 1, pad_b(x))) composed -> untileN(mapN(\\t. mapN(g, slideN(n, 1, B_{D-1})), "
      "slideN(T + D(n-1), T, pad_b^D(x)))), B_0 = toLocal(mapLclN(id), t), B_k = toLocal(mapLclN(g), slideN(n, 1, "
      "B_{k-1})); boundary wrap, constant with a tiled in-grid mask, or clamp and mirror reading each buffer at "
      "tiled offsets",
      1, depth, extents,
      [](const Chain &chain, const std::vector<int64_t> &tile, const TileLayout &layout, const Expr &t) {
        return stepsThroughLocal(chain.steps, static_cast<int>(tile.size()), chain.kind, tile, layout, t);
      });
}

} // namespace liftcc::rewrite
