#pragma once
// The straightforward lowering of a high-level program (the "plain" recipe):
// the outermost nest of up to three maps that compute values becomes
// mapGlb(d-1) ... mapGlb(0) (dimension 0 innermost, so consecutive
// work-items touch consecutive elements), every other computing map becomes
// mapSeq and every reduce becomes reduceSeq. Maps that only rearrange data
// (map(transpose), map(slide ...)) stay views.

#include "core/ir/expr.h"

namespace liftcc::rewrite {

/// True for a map whose function computes values (applies a user function
/// or reduces), as opposed to a map that only rearranges data.
bool mapComputes(const Expr &map);

/// Returns the lowered program (untyped: type-check it before use).
Program lowerToGlobalMaps(const Program &program);

} // namespace liftcc::rewrite
