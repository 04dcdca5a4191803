#pragma once
// The N-dimensional forms mapN, padN, slideN and zipN, defined once as
// compositions of the 1D primitives: the C++ API (primitives/api.h) builds
// them with these functions, the JSON reader expands its derived forms with
// them, and the JSON writer and the rewrite rules recognise them by
// rebuilding with them and comparing (alpha-equivalence). There are no N-d
// primitives: the compiler only ever sees the 1D compositions.

#include "core/ir/expr.h"

#include <optional>
#include <vector>

namespace liftcc::nd {

/// mapN(1, f, x) = map(f, x); mapN(d, f, x) = map(\x. mapN(d-1, f, x), x).
Expr mapN(int dims, Expr f, Expr in);

/// One pad per dimension, outermost first:
/// padN({l0, l1}, {r0, r1}, {m0, m1}, x) = map(\x. pad(l1, r1, m1, x), pad(l0, r0, m0, x)).
/// The three vectors have one entry per dimension (at least one).
Expr padN(std::vector<arith::Expr> left, std::vector<arith::Expr> right, std::vector<PadMode> modes, Expr in);

/// [n1..nd] -> [c1..cd][size1..sized]: the windows of `size` points every
/// `step` points in every dimension, each window a d-dimensional array.
Expr slideN(int dims, arith::Expr size, arith::Expr step, Expr in);

/// slideN with one window size and step per dimension, outermost first
/// (non-square windows, e.g. 3 rows by 5 columns); with equal entries exactly
/// slideN(dims, size, step, in).
Expr slideN(std::vector<arith::Expr> sizes, std::vector<arith::Expr> steps, Expr in);

/// zipN(1, ins) = zip(ins); zipN(d, ins) = map(\t. zipN(d-1, get(0,t), ...), zip(ins)).
Expr zipN(int dims, std::vector<Expr> ins);

/// Recognisers: they return the parts only when rebuilding with the builders
/// above gives an expression equal to `e`. `dims` is the number of
/// dimensions to recognise; the `largest*` forms find the largest dims >= 2
/// that matches (the JSON writer's choice), or nothing.
struct MapNParts {
  int dims;
  Expr f, in;
};
std::optional<MapNParts> matchMapN(const Expr &e, int dims);
std::optional<MapNParts> largestMapN(const Expr &e);

struct PadNParts {
  std::vector<arith::Expr> left, right;
  std::vector<PadMode> modes;
  Expr in;
};
std::optional<PadNParts> largestPadN(const Expr &e);

struct SlideNParts {
  int dims;
  arith::Expr size, step;
  Expr in;
};
std::optional<SlideNParts> matchSlideN(const Expr &e, int dims);
std::optional<SlideNParts> largestSlideN(const Expr &e);
/// The per-dimension form (which includes the equal one), `dims` dimensions.
struct SlideNPerDimensionParts {
  std::vector<arith::Expr> sizes, steps; ///< outermost first
  Expr in;
};
std::optional<SlideNPerDimensionParts> matchSlideNPerDimension(const Expr &e, int dims);

struct ZipNParts {
  int dims;
  std::vector<Expr> ins;
};
std::optional<ZipNParts> matchZipN(const Expr &e, int dims);
std::optional<ZipNParts> largestZipN(const Expr &e);

} // namespace liftcc::nd
