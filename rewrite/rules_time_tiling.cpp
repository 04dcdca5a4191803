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
// the edge). Which boundaries that holds for without moving data across the
// tile:
//   wrap      the periodic extension of a stencil's result is the stencil
//             of the periodic extension (no position is special), so the
//             plain shrinking form above is exact when the input is padded
//             by D times the step's halo;
//   constant  beyond the edge every step is the constant: a mask (1 inside
//             the grid, 0 beyond: padConstantN of a generated array of ones)
//             tiled beside the input selects g's value or the constant;
//   clamp, mirror  the value beyond the edge is a copy of a value inside at
//             a position that depends on where the tile lies in the grid; a
//             tile's local buffer cannot be remapped by a static view, so
//             the rule does not match (the recipe refuses them, naming why).
// Partial tiles as in overlapped tiling: inputs extended at the end, the
// surplus outputs dropped by take.

#include "core/interp/components.h"
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/partial_extents.h"
#include "rewrite/rule.h"
#include "rewrite/time_tiled_local.h"

#include <algorithm>

namespace liftcc::rewrite {

namespace {

/// mapLcl nested `dims` deep, the outermost on local dimension dims-1.
Expr mapLclNest(int dims, Expr f, Expr in) {
  if (dims == 1) return api::mapLcl(0, f, in);
  return api::mapLcl(dims - 1, api::fn([dims, f](Expr row) { return mapLclNest(dims - 1, f, row); }, "row"), in);
}

/// One step of the chain: mapN(g, slideN(n, 1, pad(left, right, boundary, in))).
struct StepMatch {
  StepMatch(Expr function, Expr input) : g(std::move(function)), in(std::move(input)) {}
  Expr g;
  int64_t size = 0, left = 0, right = 0;
  std::optional<PadMode> mode; ///< empty: padConstant with `value`
  std::optional<Expr> value;
  Expr in;
};

bool constantValue(const arith::Expr &e, int64_t &out) {
  if (!e.isConstant()) return false;
  out = e.constant();
  return true;
}

/// padN(dims, l, r, mode, in) or padConstantN(dims, l, r, value, in) with
/// the same amounts in every dimension (recognised by rebuilding it).
bool matchPad(const Expr &e, int dims, StepMatch &step) {
  const Expr *outer = &e;
  for (int d = 1; d < dims && outer->isPrim(Op::Map); ++d) outer = &inputOf(*outer);
  if (!outer->isPrim(Op::Pad) && !outer->isPrim(Op::PadConstant)) return false;
  if (!constantValue(padLeft(*outer), step.left) || !constantValue(padRight(*outer), step.right)) return false;
  step.in = inputOf(*outer);
  arith::Expr l(step.left), r(step.right);
  if (outer->isPrim(Op::Pad)) {
    step.mode = outer->padMode();
    return api::padN(dims, l, r, *step.mode, step.in) == e;
  }
  step.value = padValue(*outer);
  return api::padConstantN(dims, l, r, *step.value, step.in) == e;
}

std::optional<StepMatch> matchStep(const Expr &e, int dims) {
  auto m = matchStencilN(e, dims);
  if (!m || m->zipped || m->inputs.size() != 1 || !m->slid[0] || !m->square()) return std::nullopt;
  StepMatch step(m->f, m->inputs[0]);
  int64_t stride = 0;
  if (!constantValue(m->size, step.size) || !constantValue(m->step, stride) || stride != 1) return std::nullopt;
  if (!matchPad(m->inputs[0], dims, step)) return std::nullopt;
  // A step keeps the grid's extent: its window's halo is the pad.
  if (step.left < 0 || step.right < 0 || step.left + step.right != step.size - 1) return std::nullopt;
  return step;
}

bool sameBoundary(const StepMatch &a, const StepMatch &b) {
  if (a.size != b.size || a.left != b.left || a.right != b.right || a.mode != b.mode) return false;
  return !a.value || (b.value && *a.value == *b.value);
}

/// An array of `extents` (outermost first) of int ones, as a view.
Expr onesOf(const std::vector<int64_t> &extents, size_t level = 0) {
  return api::generate(
      arith::Expr(extents[level]),
      api::fn([&extents,
               level](Expr) { return level + 1 == extents.size() ? api::lit(int32_t(1)) : onesOf(extents, level + 1); },
              "i"));
}

std::string ruleName(int dims, int64_t depth, const std::vector<int64_t> &extents) {
  std::string name = "timeTileThroughLocal" + std::to_string(dims) + "D(" + std::to_string(depth) + ";";
  for (size_t d = 0; d < extents.size(); ++d) name += (d ? "," : "") + std::to_string(extents[d]);
  return name + ")";
}

/// One tile's D steps (`steps`, the last first): the tile copied to local
/// memory, each intermediate step computed into a local buffer of its own
/// from the previous one's windows (for a constant boundary, kept only
/// inside the grid: then `tile` zips the input's tile with step k's in-grid
/// mask as component k), and the last step's map over the last buffer's
/// windows.
Expr stepsThroughLocal(const std::vector<StepMatch> &steps, int dims, ScalarKind kind, const Expr &tile) {
  const StepMatch &first = steps.front();
  const int64_t depth = static_cast<int64_t>(steps.size()), n = first.size;
  const bool wrap = first.mode == PadMode::Wrap;
  Expr keep = api::userFun("timeTileKeep_" + std::string(scalarKindName(kind)),
                           {{"inside", ScalarKind::Int}, {"v", kind}, {"c", kind}}, kind, "return inside ? v : c;");
  Expr buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, api::id(kind), x); }, "x"),
                             !wrap && depth > 1 ? api::get(0, tile) : tile); // (masks zipped beside)
  // Step k from step k-1 (steps[depth-1] is the first step's function).
  for (int64_t k = 1; k < depth; ++k) {
    const Expr &g = steps[static_cast<size_t>(depth - k)].g;
    Expr windows = api::slideN(dims, arith::Expr(n), arith::Expr(1), buffer);
    if (wrap) {
      buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, g, x); }, "x"), windows);
      continue;
    }
    Expr masked = api::fn(
        [&](Expr p) {
          return api::apply(keep, {api::get(1, p), api::apply(g, {api::get(0, p)}), *first.value});
        },
        "p");
    buffer = api::toLocal(api::fn([&](Expr x) { return mapLclNest(dims, masked, x); }, "x"),
                          api::zipN(dims, {windows, api::get(static_cast<int>(k), tile)}));
  }
  return api::mapN(dims, first.g, api::slideN(dims, arith::Expr(n), arith::Expr(1), buffer));
}

} // namespace

Rule timeTileThroughLocal(int64_t depth, const std::vector<int64_t> &extents) {
  const int dims = static_cast<int>(extents.size());
  std::vector<int64_t> outerFirst(extents.rbegin(), extents.rend());
  return {ruleName(dims, depth, extents),
          "D steps mapN(g, slideN(n, 1, pad_b(x))) composed -> untileN(mapN(\\t. mapN(g, slideN(n, 1, B_{D-1})), "
          "slideN(T + D(n-1), T, pad_b^D(x)))), B_0 = toLocal(mapLclN(id), t), B_k = toLocal(mapLclN(g), slideN(n, 1, "
          "B_{k-1})); boundary wrap, or constant with a tiled in-grid mask",
          [depth, dims, outerFirst](const Expr &e) -> std::optional<Expr> {
            if (depth < 1 || dims < 1 || dims > 3 || !e.type()) return std::nullopt;
            // The chain of `depth` steps, the last (outermost) first.
            std::vector<StepMatch> steps;
            Expr cur = e;
            for (int64_t k = 0; k < depth; ++k) {
              auto step = matchStep(cur, dims);
              if (!step || (!steps.empty() && !sameBoundary(steps.front(), *step))) return std::nullopt;
              cur = step->in;
              steps.push_back(std::move(*step));
            }
            const StepMatch &first = steps.front();
            const bool wrap = first.mode == PadMode::Wrap;
            if (!wrap && !first.value) return std::nullopt; // clamp, mirror: see above
            // Constant extents (partial tiles), the grid's: each step keeps them.
            auto grid = constantExtents(*e.type(), dims);
            if (!grid) return std::nullopt;
            Type element = *e.type();
            for (int d = 0; d < dims; ++d) element = element.arrayElement();
            if (!element.isScalar()) return std::nullopt;
            const ScalarKind kind = element.scalarKind();
            const int64_t n = first.size, l = first.left, r = first.right;
            // The periodic extension needs the padding within one period.
            for (int64_t extent : *grid)
              if (wrap && depth * std::max(l, r) > extent) return std::nullopt;
            std::vector<arith::Expr> extra, tileSteps;
            std::vector<int64_t> rounded;
            for (int d = 0; d < dims; ++d) {
              int64_t k = outerFirst[static_cast<size_t>(d)], extent = (*grid)[static_cast<size_t>(d)];
              if (k < 1) return std::nullopt;
              rounded.push_back((extent + k - 1) / k * k);
              extra.push_back(arith::Expr(rounded.back() - extent));
              tileSteps.push_back(arith::Expr(k));
            }
            const bool partial = *grid != rounded;
            // Tiles of the array extended by `halo` steps: T + halo*(n-1) wide.
            auto tilesOf = [&](int64_t halo, const Expr &in) {
              std::vector<arith::Expr> sizes;
              for (int d = 0; d < dims; ++d)
                sizes.push_back(arith::Expr(outerFirst[static_cast<size_t>(d)] + halo * (n - 1)));
              return slideNPerDimension(sizes, tileSteps, partial ? extendEnds(extra, in) : in);
            };
            // The array padded by `halo` steps' pads (wrap, or the constant `value`).
            auto padded = [&](int64_t halo, const Expr &in, const std::optional<Expr> &value) {
              arith::Expr left(halo * l), right(halo * r);
              return value ? api::padConstantN(dims, left, right, *value, in)
                           : api::padN(dims, left, right, PadMode::Wrap, in);
            };
            // Input tiles, and for a constant boundary step k's in-grid mask (k = 1 .. D-1).
            std::vector<Expr> tiled{tilesOf(depth, padded(depth, cur, first.value))};
            if (!wrap)
              for (int64_t k = 1; k < depth; ++k)
                tiled.push_back(tilesOf(depth - k, padded(depth - k, onesOf(*grid), api::lit(int32_t(0)))));
            Expr tiles = tiled.size() == 1 ? tiled[0] : api::zipN(dims, tiled);
            Expr perTile = api::fn([&](Expr t) { return stepsThroughLocal(steps, dims, kind, t); }, "tile");
            Expr untiled = untileN(dims, api::mapN(dims, perTile, tiles));
            return partial ? takeFirst(*grid, rounded, untiled) : untiled;
          }};
}

} // namespace liftcc::rewrite
