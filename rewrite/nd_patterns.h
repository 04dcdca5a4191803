#pragma once
// Recognisers for the N-dimensional compositions of the C++ API (mapN,
// slideN, zipN) and builders for their tiled forms. A recogniser extracts the
// parts from the outer structure, rebuilds the composition with the API and
// accepts only if the rebuilt expression is alpha-equivalent: so the
// compositions stay defined in exactly one place (primitives/api.cpp).

#include "core/ir/expr.h"

#include <optional>
#include <vector>

namespace liftcc::rewrite {

struct MapNMatch {
  Expr f; ///< the function applied to each element of the d-dimensional array
  Expr in;
};
std::optional<MapNMatch> matchMapN(const Expr &e, int dims);

/// slideN, with one window size and step per dimension (outermost first);
/// size and step are the outermost ones (all of them for square windows).
struct SlideNMatch {
  arith::Expr size, step;
  Expr in;
  std::vector<arith::Expr> sizes, steps;
};
std::optional<SlideNMatch> matchSlideN(const Expr &e, int dims);

/// zipN(dims, ins); for dims == 1 a plain zip.
std::optional<std::vector<Expr>> matchZipN(const Expr &e, int dims);

/// A stencil: mapN(f, slideN(n, s, x)), or with inputs zipped beside the
/// neighbourhoods, mapN(f, zipN(.., slideN(n, s, x), .., y, ..)) where every
/// slid input has the same window sizes and steps (which may differ per
/// dimension: non-square windows). inputs[i] is the i-th zipped
/// input (the one input when not zipped), seen through its slideN when slid[i].
struct StencilMatch {
  Expr f;
  std::vector<Expr> inputs;
  std::vector<bool> slid;
  bool zipped = false;
  arith::Expr size{0}, step{0};          ///< the outermost dimension's window
  std::vector<arith::Expr> sizes, steps; ///< per dimension, outermost first
  /// One window size and step in every dimension (slideN(dims, n, s, x)).
  bool square() const;
};
std::optional<StencilMatch> matchStencilN(const Expr &e, int dims);

/// slideN with one window size and step per dimension, outermost first; with
/// equal entries exactly nd::slideN (same IR). Used for tiles whose extents
/// differ per dimension (coarsening along one dimension).
Expr slideNPerDimension(std::vector<arith::Expr> sizes, std::vector<arith::Expr> steps, Expr in);

/// Inverse of tiling: [t1..td][k1..kd] tiles -> [t1*k1 .. td*kd] array.
Expr untileN(int dims, Expr tiles);

/// Moves the array dimension at depth `from` (0 = outermost) to the front.
Expr moveDimensionToFront(int from, Expr in);

/// Moves the outermost dimension to depth `to` (the inverse of moveDimensionToFront).
Expr moveFrontDimensionTo(int to, Expr in);

/// mapLcl nested `dims` deep, the outermost on local dimension dims-1 (x on
/// 0): a work-group's work-items over an array of `dims` dimensions.
Expr mapLclNest(int dims, Expr f, Expr in);

/// mapLclNest(dims, f, in), recognised: f and in.
std::optional<MapNMatch> matchMapLclNest(const Expr &e, int dims);

} // namespace liftcc::rewrite
