#pragma once
// What a kernel's lowering learnt about its boundaries, kept beside its
// kernel IR so that boundary specialisation can ask, without lowering again,
// which boundary operations would remain in an interior: the parallel map
// indices the interior narrows, and each read that kept boundary arithmetic
// (a constant-pad select, or a clamp, mirror or wrap the ranges did not
// simplify away). The expressions are the lowering's, over the general
// kernel's index variables; narrowing re-simplifies them under the
// interior's ranges.

#include "codegen/kernel.h"
#include "core/arith/expr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::codegen::kir {

/// The index variable of a mapGlb or mapWrg over `extent`: boundary
/// specialisation narrows it to [lo, extent - hi) in the interior.
struct MapIndexFact {
  std::string var;
  int dim = 0;
  arith::Expr extent;
};

/// A read through a boundary (pad, padConstant) that kept boundary
/// arithmetic: `shifted` is the index into the padded operand before the
/// boundary, `length` the operand's length; `reindexed` is the index a
/// clamp, mirror or wrap reads instead (nullopt for a constant pad, whose
/// select remains while `shifted` may leave [0, length)).
struct BoundaryRead {
  arith::Expr shifted, length;
  std::optional<arith::Expr> reindexed;
};

struct BoundaryFacts {
  std::vector<MapIndexFact> maps;
  std::vector<BoundaryRead> reads;
};

/// How many of `facts.reads` keep boundary arithmetic in the interior within
/// `margins`: the lowering's own decision (a select where the ranges cannot
/// prove the index inside; the reindexed index where it differs from the
/// shifted one), taken under the narrowed ranges.
int64_t boundaryOperationsWithin(const BoundaryFacts &facts, const Kernel::Interior &margins);

} // namespace liftcc::codegen::kir
