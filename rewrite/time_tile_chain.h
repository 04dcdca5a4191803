#pragma once
// What the rules of temporal blocking through local memory share
// (timeTileThroughLocal, rules_time_tiling.cpp; timeTileThroughStream,
// rules_time_tiling_stream.cpp): the chain of D composed steps they match,
// the tiles of the input and of the boundary's helpers (constant masks,
// clamp's and mirror's source offsets, the pointwise inputs) they zip, and
// the view that computes a position beyond the grid at its source.

#include "core/ir/expr.h"
#include "rewrite/rule.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::rewrite::time_tile {

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

/// `depth` steps of one window and boundary composed (the last, outermost,
/// first in `steps`), over `input`, of a grid of constant `grid` extents
/// (outermost first) of `kind` scalars.
struct Chain {
  explicit Chain(Expr in) : input(std::move(in)) {}
  std::vector<StepMatch> steps;
  Expr input;
  std::vector<int64_t> grid;
  ScalarKind kind = ScalarKind::Float;
  const StepMatch &first() const { return steps.front(); }
  bool wrap() const { return first().mode == PadMode::Wrap; }
  /// Clamp and mirror: positions beyond the grid computed at their source.
  bool reindexing() const { return first().mode && !wrap(); }
};

/// The chain of `depth` steps at `e` whose tiles of `tile` outputs (outermost
/// first) the rules can keep exact at the grid's edge, or nothing.
std::optional<Chain> matchChain(const Expr &e, int64_t depth, int dims, const std::vector<int64_t> &tile);

/// Where the parts of a tile sit in the zip of tiled arrays (component 0
/// the input's tile): per intermediate step k (1 .. D-1) the constant
/// boundary's in-grid mask or clamp's and mirror's offsets (one per
/// dimension, outermost first), then per computed level k (1 .. D, D the
/// last step's outputs) each pointwise input's tile.
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

/// The chain's time tile: `perTile` applied to each tile of `tile` outputs
/// (outermost first; the tile's parts as TileLayout says, each level's
/// extending the tile by its steps' halo) and the tiles put back together,
/// the surplus of partial tiles dropped.
Expr tiledTimeTile(const Chain &chain, int dims, const std::vector<int64_t> &tile,
                   const std::function<Expr(const TileLayout &, const Expr &)> &perTile);

/// A time-tile rule: at an expression, the chain of `depth` steps (a grid of
/// at least `minDims` dimensions) tiled by `extents` (innermost first), each
/// tile `perTile(chain, tile extents outermost first, layout, tile)`. Named
/// `name` + dims + "D(depth;extents)".
using PerTile = std::function<Expr(const Chain &, const std::vector<int64_t> &, const TileLayout &, const Expr &)>;
Rule timeTileRule(const std::string &name, std::string description, int minDims, int64_t depth,
                  const std::vector<int64_t> &extents, PerTile perTile);

/// The N-d array of `extents` (outermost first) whose element at
/// (i_0, ..., i_d-1) is f of those indices, as a view.
Expr generateN(const std::vector<int64_t> &extents, const std::function<Expr(const std::vector<Expr> &)> &f,
               const std::vector<Expr> &outer = {});

/// The element of `array` at `indices` (outermost first, int values).
Expr elementAt(Expr array, const std::vector<Expr> &indices);

/// The windows of a step's input (one per position of the step's buffer, of
/// `extents`, outermost first) with each position beyond the grid given the
/// window at its source: element j is the window at j + offset(j) in every
/// dimension, `offsets` the tile's source offsets. The source index is
/// computed once per element, not once per tap.
Expr windowsAtSources(const Expr &windows, const std::vector<Expr> &offsets, const std::vector<int64_t> &extents);

/// g applied to one element of a level's windows: the window itself, or the
/// tuple of the window and the pointwise inputs' values (first element of
/// the zip the window), in g's order.
Expr stepOnWindow(const StepMatch &step, int64_t pointwise, const Expr &g);

/// `at + offset`: an index moved to its source (an affine user function,
/// which the code generator computes as index arithmetic).
Expr sourceIndex();

/// `inside ? v : c` for a constant boundary's mask.
Expr keepInside(ScalarKind kind);

} // namespace liftcc::rewrite::time_tile
