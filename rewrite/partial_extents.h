#pragma once
// Partial tiles and partial vectors: a rule that computes outputs in blocks
// of k (tiles, vectors) at a constant extent L that k does not divide rounds
// L up to whole blocks, extends its inputs at the end by clamping (so the
// surplus reads stay inside the input) and drops the surplus outputs with
// take (whose writes codegen guards).

#include "core/ir/expr.h"
#include "core/types.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace liftcc::rewrite {

/// The constant number of outputs per dimension (outermost first) of a typed
/// d-dimensional result, or nothing where a length is symbolic.
std::optional<std::vector<int64_t>> constantExtents(Type t, int dims);

/// f applied at array depth `depth` of `in` (0: to `in` itself).
Expr atDepth(int depth, const std::function<Expr(Expr)> &f, Expr in);

/// `in` extended at the end of dimension d by extra[d] elements (outermost
/// first): clamped copies of the last one, so every read of the partial
/// block's surplus stays inside the input (the values computed from them are
/// never written).
Expr extendEnds(const std::vector<arith::Expr> &extra, Expr in);

/// The first extents[d] elements of every dimension d of `in` where
/// rounded[d] differs from extents[d].
Expr takeFirst(const std::vector<int64_t> &extents, const std::vector<int64_t> &rounded, Expr in);

} // namespace liftcc::rewrite
