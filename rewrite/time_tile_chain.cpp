#include "rewrite/time_tile_chain.h"

#include "core/interp/components.h"
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/partial_extents.h"

#include <algorithm>

namespace liftcc::rewrite::time_tile {

namespace {

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

/// Mirror reflects once: b(p) must exist and lie in the tile's buffer.
bool mirrorReaches(const std::vector<int64_t> &grid, const std::vector<int64_t> &tile, int64_t l, int64_t r) {
  for (size_t d = 0; d < grid.size(); ++d)
    if (std::max(l, r) > grid[d] || r > l + 1 || l > tile[d] + r) return false;
  return true;
}

} // namespace

/// The N-d array of `extents` (outermost first) whose element at
/// (i_0, ..., i_d-1) is f of those indices, as a view.
Expr generateN(const std::vector<int64_t> &extents, const std::function<Expr(const std::vector<Expr> &)> &f,
               const std::vector<Expr> &outer) {
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

/// The windows of step k's input (one per position of step k's buffer, of
/// `extents`, outermost first) with each position beyond the grid given the
/// window at its source: element j is the window at j + offset(j) in every
/// dimension, `offsets` the tile's sourceOffsets. The source index is
/// computed once per element, not once per tap.
Expr windowsAtSources(const Expr &windows, const std::vector<Expr> &offsets, const std::vector<int64_t> &extents) {
  const Expr plus = sourceIndex();
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

std::optional<Chain> matchChain(const Expr &e, int64_t depth, int dims, const std::vector<int64_t> &tile) {
  if (depth < 1 || dims < 1 || dims > 3 || !e.type() || tile.size() != static_cast<size_t>(dims)) return std::nullopt;
  if (std::any_of(tile.begin(), tile.end(), [](int64_t k) { return k < 1; })) return std::nullopt;
  Chain chain(e);
  // The chain of `depth` steps, the last (outermost) first.
  Expr cur = e;
  for (int64_t k = 0; k < depth; ++k) {
    auto step = matchStep(cur, dims);
    if (!step || (!chain.steps.empty() && !sameBoundary(chain.steps.front(), *step))) return std::nullopt;
    cur = step->in;
    chain.steps.push_back(std::move(*step));
  }
  chain.input = cur;
  // Constant extents (partial tiles), the grid's: each step keeps them.
  auto grid = constantExtents(*e.type(), dims);
  if (!grid) return std::nullopt;
  chain.grid = *grid;
  Type element = *e.type();
  for (int d = 0; d < dims; ++d) element = element.arrayElement();
  if (!element.isScalar()) return std::nullopt;
  chain.kind = element.scalarKind();
  const StepMatch &first = chain.first();
  const int64_t l = first.left, r = first.right;
  // The periodic extension needs the padding within one period.
  for (int64_t extent : chain.grid)
    if (chain.wrap() && depth * std::max(l, r) > extent) return std::nullopt;
  if (first.mode == PadMode::Mirror && !mirrorReaches(chain.grid, tile, l, r)) return std::nullopt;
  return chain;
}

Expr tiledTimeTile(const Chain &chain, int dims, const std::vector<int64_t> &tile,
                   const std::function<Expr(const TileLayout &, const Expr &)> &perTile) {
  const StepMatch &first = chain.first();
  const int64_t depth = static_cast<int64_t>(chain.steps.size());
  const int64_t n = first.size, l = first.left, r = first.right;
  const bool reindexing = chain.reindexing();
  const std::vector<int64_t> &grid = chain.grid;
  std::vector<arith::Expr> extra, tileSteps;
  std::vector<int64_t> rounded;
  for (int d = 0; d < dims; ++d) {
    int64_t k = tile[static_cast<size_t>(d)], extent = grid[static_cast<size_t>(d)];
    rounded.push_back((extent + k - 1) / k * k);
    extra.push_back(arith::Expr(rounded.back() - extent));
    tileSteps.push_back(arith::Expr(k));
  }
  const bool partial = grid != rounded;
  // Tiles of the array extended by `halo` steps: T + halo*(n-1) wide.
  auto tilesOf = [&](int64_t halo, const Expr &in) {
    std::vector<arith::Expr> sizes;
    for (int d = 0; d < dims; ++d) sizes.push_back(arith::Expr(tile[static_cast<size_t>(d)] + halo * (n - 1)));
    return slideNPerDimension(sizes, tileSteps, partial ? extendEnds(extra, in) : in);
  };
  // The array padded by `halo` steps' pads (wrap, or the constant `value`).
  auto padded = [&](int64_t halo, const Expr &in, const std::optional<Expr> &value) {
    arith::Expr left(halo * l), right(halo * r);
    return value ? api::padConstantN(dims, left, right, *value, in) : api::padN(dims, left, right, PadMode::Wrap, in);
  };
  // Input tiles; for step k (k = 1 .. D-1) a constant boundary's in-grid
  // mask or clamp's and mirror's offsets, one per dimension; and for each
  // level k (1 .. D) the pointwise inputs' tiles: wrapped for wrap (the
  // periodic extension), else clamped (beyond the grid their values are
  // masked, or read at the source).
  TileLayout layout{depth, first.value ? 1 : reindexing ? dims : 0, static_cast<int64_t>(first.pointwise.size())};
  std::vector<Expr> tiled{tilesOf(depth, reindexing ? paddedForOneStep(dims, depth, l, r, *first.mode, chain.input)
                                                    : padded(depth, chain.input, first.value))};
  for (int64_t k = 1; k < depth; ++k) {
    if (first.value) tiled.push_back(tilesOf(depth - k, padded(depth - k, onesOf(grid), api::lit(int32_t(0)))));
    for (size_t d = 0; reindexing && d < static_cast<size_t>(dims); ++d)
      tiled.push_back(tilesOf(depth - k, sourceOffsets(grid, depth - k, l, r, *first.mode, d)));
  }
  for (int64_t k = 1; k <= depth; ++k)
    for (const Expr &input : first.pointwise) {
      int64_t halo = depth - k;
      tiled.push_back(tilesOf(halo, halo == 0 ? input
                                              : api::padN(dims, arith::Expr(halo * l), arith::Expr(halo * r),
                                                          chain.wrap() ? PadMode::Wrap : PadMode::Clamp, input)));
    }
  Expr tiles = layout.zipped() ? api::zipN(dims, tiled) : tiled[0];
  Expr each = api::fn([&](Expr t) { return perTile(layout, t); }, "tile");
  Expr untiled = untileN(dims, api::mapN(dims, each, tiles));
  return partial ? takeFirst(grid, rounded, untiled) : untiled;
}

Rule timeTileRule(const std::string &name, std::string description, int minDims, int64_t depth,
                  const std::vector<int64_t> &extents, PerTile perTile) {
  const int dims = static_cast<int>(extents.size());
  std::vector<int64_t> outerFirst(extents.rbegin(), extents.rend());
  std::string ruleName = name + std::to_string(dims) + "D(" + std::to_string(depth) + ";";
  for (size_t d = 0; d < extents.size(); ++d) ruleName += (d ? "," : "") + std::to_string(extents[d]);
  return {ruleName + ")", std::move(description),
          [depth, dims, minDims, outerFirst, perTile](const Expr &e) -> std::optional<Expr> {
            if (dims < minDims) return std::nullopt;
            auto chain = matchChain(e, depth, dims, outerFirst);
            if (!chain) return std::nullopt;
            return tiledTimeTile(*chain, dims, outerFirst, [&](const TileLayout &layout, const Expr &tile) {
              return perTile(*chain, outerFirst, layout, tile);
            });
          }};
}

Expr stepOnWindow(const StepMatch &step, int64_t pointwise, const Expr &g) {
  if (step.pointwise.empty()) return g;
  return api::fn(
      [&](Expr q) {
        std::vector<Expr> components;
        for (int64_t j = 0; j < pointwise; ++j) components.push_back(api::get(static_cast<int>(1 + j), q));
        components.insert(components.begin() + static_cast<std::ptrdiff_t>(step.slid), api::get(0, q));
        return api::apply(g, {api::tuple(components)});
      },
      "q");
}

Expr sourceIndex() {
  return api::userFun("timeTileSourceIndex", {{"at", ScalarKind::Int}, {"offset", ScalarKind::Int}}, ScalarKind::Int,
                      "return at + offset;");
}

Expr keepInside(ScalarKind kind) {
  return api::userFun("timeTileKeep_" + std::string(scalarKindName(kind)),
                      {{"inside", ScalarKind::Int}, {"v", kind}, {"c", kind}}, kind, "return inside ? v : c;");
}

} // namespace liftcc::rewrite::time_tile
