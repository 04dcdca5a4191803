#pragma once
// Lowering of map nests to the OpenCL thread hierarchy.
//
// A "parallel nest" is a map over an array whose function maps over its
// parameter again (the shape mapN produces), up to three deep. Lowering with
// levels {MapGlb} turns the outermost nest into mapGlb(d-1) ... mapGlb(0)
// (dimension 0 innermost, so consecutive work-items touch consecutive
// elements); levels {MapWrg, MapLcl} turn the outermost nest into mapWrg and
// the next nest inside it into mapLcl. Every other map that computes values
// becomes mapSeq and every reduce becomes reduceSeq. Maps that only rearrange
// data (map(transpose), map(slide ...)) stay views.

#include "core/ir/expr.h"

#include <vector>

namespace liftcc::rewrite {

/// True for a map whose function computes values (applies a user function
/// or reduces), as opposed to a map that only rearranges data.
bool mapComputes(const Expr &map);

/// The lowered body (untyped: type-check the program before use).
Expr lowerMaps(const Expr &body, const std::vector<Op> &levels);

/// The plain recipe: lowerMaps with {MapGlb}.
Program lowerToGlobalMaps(const Program &program);

} // namespace liftcc::rewrite
