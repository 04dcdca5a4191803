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
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/partial_extents.h"
#include "rewrite/rule.h"
#include "rewrite/time_tiled_local.h"

#include <algorithm>
#include <functional>

namespace liftcc::rewrite {

namespace {

/// One step of the chain: mapN(g, slideN(n, 1, pad(left, right, boundary, in))).
struct StepMatch {
  StepMatch(Expr function, Expr input) : g(std::move(function)), in(std::move(input)) {}
  Expr g;
  int64_t size = 0, left = 0, right = 0;
  std::optional<PadMode> mode; ///< empty: padConstant with `value`
  std::optional<Expr> value;
  Expr in;
  /// Inputs zipped beside the windows, read at the output's position (a
  /// power grid, coefficients), in zip order; g then takes the tuple with
  /// the window at `slid`.
  std::vector<Expr> pointwise;
  size_t slid = 0;
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

/// Whether `e` is an array of `dims` dimensions of scalars.
bool scalarGrid(const Expr &e, int dims) {
  if (!e.type()) return false;
  Type t = *e.type();
  for (int d = 0; d < dims; ++d) {
    if (!t.isArray()) return false;
    t = t.arrayElement();
  }
  return t.isScalar();
}

std::optional<StepMatch> matchStep(const Expr &e, int dims) {
  auto m = matchStencilN(e, dims);
  if (!m || !m->square() || std::count(m->slid.begin(), m->slid.end(), true) != 1) return std::nullopt;
  const size_t slid = static_cast<size_t>(std::find(m->slid.begin(), m->slid.end(), true) - m->slid.begin());
  StepMatch step(m->f, m->inputs[slid]);
  step.slid = slid;
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    if (i == slid) continue;
    if (!scalarGrid(m->inputs[i], dims)) return std::nullopt;
    step.pointwise.push_back(m->inputs[i]);
  }
  int64_t stride = 0;
  if (!constantValue(m->size, step.size) || !constantValue(m->step, stride) || stride != 1) return std::nullopt;
  if (!matchPad(m->inputs[slid], dims, step)) return std::nullopt;
  // A step keeps the grid's extent: its window's halo is the pad.
  if (step.left < 0 || step.right < 0 || step.left + step.right != step.size - 1) return std::nullopt;
  return step;
}

/// The same window, boundary and pointwise inputs (which must not change
/// from step to step: they are tiled once for every step of the tile).
bool sameBoundary(const StepMatch &a, const StepMatch &b) {
  if (a.size != b.size || a.left != b.left || a.right != b.right || a.mode != b.mode) return false;
  if (a.slid != b.slid || a.pointwise != b.pointwise) return false;
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

/// The N-d array of `extents` (outermost first) whose element at
/// (i_0, ..., i_d-1) is f of those indices, as a view.
Expr generateN(const std::vector<int64_t> &extents, const std::function<Expr(const std::vector<Expr> &)> &f,
               const std::vector<Expr> &outer = {}) {
  return api::generate(arith::Expr(extents[outer.size()]),
                       api::fn(
                           [&](Expr i) {
                             std::vector<Expr> indices = outer;
                             indices.push_back(i);
                             return indices.size() == extents.size() ? f(indices) : generateN(extents, f, indices);
                           },
                           "i"));
}

/// The element of `array` at `indices` (outermost first, int values).
Expr elementAt(Expr array, const std::vector<Expr> &indices) {
  for (const Expr &i : indices) array = api::atDynamic(i, std::move(array));
  return array;
}

/// `in` padded by `halo` steps' pads: the step's own boundary (clamp or
/// mirror) for one step, clamped beyond (only one step's pad is read).
Expr paddedForOneStep(int dims, int64_t halo, int64_t l, int64_t r, PadMode mode, const Expr &in) {
  Expr once = api::padN(dims, arith::Expr(l), arith::Expr(r), mode, in);
  if (halo == 1) return once;
  return api::padN(dims, arith::Expr((halo - 1) * l), arith::Expr((halo - 1) * r), PadMode::Clamp, once);
}

/// For the buffer of a step read by `halo` more steps: over the grid padded
/// by `halo` steps, the offset b(p) - p in dimension `dim` (outermost 0) of
/// each position, p its grid position and b the boundary's reindexing (0
/// inside the grid).
Expr sourceOffsets(const std::vector<int64_t> &grid, int64_t halo, int64_t l, int64_t r, PadMode mode, size_t dim) {
  const int dims = static_cast<int>(grid.size());
  std::vector<int64_t> padded;
  for (int64_t extent : grid) padded.push_back(extent + halo * (l + r));
  Expr positions = generateN(grid, [dim](const std::vector<Expr> &i) { return i[dim]; });
  Expr sources = paddedForOneStep(dims, halo, l, r, mode, positions);
  const std::string shift = std::to_string(halo * l);
  Expr offset = api::userFun("timeTileSourceOffset" + shift, {{"source", ScalarKind::Int}, {"at", ScalarKind::Int}},
                             ScalarKind::Int, "return source - at + " + shift + ";");
  return generateN(padded, [&](const std::vector<Expr> &i) {
    return api::apply(offset, {elementAt(sources, i), i[dim]});
  });
}

/// The windows of step k's input (one per position of step k's buffer, of
/// `extents`, outermost first) with each position beyond the grid given the
/// window at its source: element j is the window at j + offset(j) in every
/// dimension, `offsets` the tile's sourceOffsets. The source index is
/// computed once per element, not once per tap.
Expr windowsAtSources(const Expr &windows, const std::vector<Expr> &offsets, const std::vector<int64_t> &extents) {
  Expr plus = api::userFun("timeTileSourceIndex", {{"at", ScalarKind::Int}, {"offset", ScalarKind::Int}},
                           ScalarKind::Int, "return at + offset;");
  // Applied to the windows, so that the buffer under them is a data operand
  // (materialised) rather than an array a function reads.
  return api::apply(api::fn(
                        [&](Expr w) {
                          return generateN(extents, [&](const std::vector<Expr> &j) {
                            std::vector<Expr> source;
                            for (size_t d = 0; d < j.size(); ++d)
                              source.push_back(api::apply(plus, {j[d], elementAt(offsets[d], j)}));
                            return elementAt(w, source);
                          });
                        },
                        "windows"),
                    {windows});
}

std::string ruleName(int dims, int64_t depth, const std::vector<int64_t> &extents) {
  std::string name = "timeTileThroughLocal" + std::to_string(dims) + "D(" + std::to_string(depth) + ";";
  for (size_t d = 0; d < extents.size(); ++d) name += (d ? "," : "") + std::to_string(extents[d]);
  return name + ")";
}

/// Where the parts of a tile sit in the zip of tiled arrays (component 0
/// the input's tile): per intermediate step k (1 .. D-1) the constant
/// boundary's in-grid mask or clamp's and mirror's offsets (one per
/// dimension), then per computed level k (1 .. D, D the last step's outputs)
/// each pointwise input's tile.
struct TileLayout {
  int64_t depth = 1;
  int64_t perStep = 0;   ///< masks or offsets per intermediate step
  int64_t pointwise = 0; ///< pointwise inputs
  bool zipped() const { return perStep * (depth - 1) + pointwise * depth > 0; }
  int extra(int64_t k, int64_t i) const { return static_cast<int>(1 + (k - 1) * perStep + i); }
  int pointwiseAt(int64_t k, int64_t j) const {
    return static_cast<int>(1 + (depth - 1) * perStep + (k - 1) * pointwise + j);
  }
};

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
  Expr keep = api::userFun("timeTileKeep_" + std::string(scalarKindName(kind)),
                           {{"inside", ScalarKind::Int}, {"v", kind}, {"c", kind}}, kind, "return inside ? v : c;");
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
  auto step = [&](const Expr &g) {
    if (first.pointwise.empty()) return g;
    return api::fn(
        [&](Expr q) {
          std::vector<Expr> components;
          for (int64_t j = 0; j < layout.pointwise; ++j) components.push_back(api::get(static_cast<int>(1 + j), q));
          components.insert(components.begin() + static_cast<std::ptrdiff_t>(first.slid), api::get(0, q));
          return api::apply(g, {api::tuple(components)});
        },
        "q");
  };
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

/// Mirror reflects once: b(p) must exist and lie in the tile's buffer.
bool mirrorReaches(const std::vector<int64_t> &grid, const std::vector<int64_t> &tile, int64_t l, int64_t r) {
  for (size_t d = 0; d < grid.size(); ++d)
    if (std::max(l, r) > grid[d] || r > l + 1 || l > tile[d] + r) return false;
  return true;
}

} // namespace

Rule timeTileThroughLocal(int64_t depth, const std::vector<int64_t> &extents) {
  const int dims = static_cast<int>(extents.size());
  std::vector<int64_t> outerFirst(extents.rbegin(), extents.rend());
  return {
      ruleName(dims, depth, extents),
      "D steps mapN(g, slideN(n, 1, pad_b(x))) composed -> untileN(mapN(\\t. mapN(g, slideN(n, 1, B_{D-1})), "
      "slideN(T + D(n-1), T, pad_b^D(x)))), B_0 = toLocal(mapLclN(id), t), B_k = toLocal(mapLclN(g), slideN(n, 1, "
      "B_{k-1})); boundary wrap, constant with a tiled in-grid mask, or clamp and mirror reading each buffer at "
      "tiled offsets",
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
        const bool wrap = first.mode == PadMode::Wrap, reindexing = first.mode && !wrap;
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
        if (first.mode == PadMode::Mirror && !mirrorReaches(*grid, outerFirst, l, r)) return std::nullopt;
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
        // Input tiles; for step k (k = 1 .. D-1) a constant boundary's
        // in-grid mask or clamp's and mirror's offsets, one per
        // dimension; and for each level k (1 .. D) the pointwise inputs'
        // tiles: wrapped for wrap (the periodic extension), else clamped
        // (beyond the grid their values are masked, or read at the source).
        TileLayout layout{depth, first.value ? 1 : reindexing ? dims : 0, static_cast<int64_t>(first.pointwise.size())};
        std::vector<Expr> tiled{tilesOf(depth, reindexing ? paddedForOneStep(dims, depth, l, r, *first.mode, cur)
                                                          : padded(depth, cur, first.value))};
        for (int64_t k = 1; k < depth; ++k) {
          if (first.value) tiled.push_back(tilesOf(depth - k, padded(depth - k, onesOf(*grid), api::lit(int32_t(0)))));
          for (size_t d = 0; reindexing && d < static_cast<size_t>(dims); ++d)
            tiled.push_back(tilesOf(depth - k, sourceOffsets(*grid, depth - k, l, r, *first.mode, d)));
        }
        for (int64_t k = 1; k <= depth; ++k)
          for (const Expr &input : first.pointwise) {
            int64_t halo = depth - k;
            tiled.push_back(tilesOf(halo, halo == 0 ? input
                                                    : api::padN(dims, arith::Expr(halo * l), arith::Expr(halo * r),
                                                                wrap ? PadMode::Wrap : PadMode::Clamp, input)));
          }
        Expr tiles = layout.zipped() ? api::zipN(dims, tiled) : tiled[0];
        Expr perTile =
            api::fn([&](Expr t) { return stepsThroughLocal(steps, dims, kind, outerFirst, layout, t); }, "tile");
        Expr untiled = untileN(dims, api::mapN(dims, perTile, tiles));
        return partial ? takeFirst(*grid, rounded, untiled) : untiled;
      }};
}

} // namespace liftcc::rewrite
