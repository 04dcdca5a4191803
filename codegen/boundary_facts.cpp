#include "codegen/boundary_facts.h"

#include "core/arith/index_range.h"

#include <map>

namespace liftcc::codegen::kir {

int64_t boundaryOperationsWithin(const BoundaryFacts &facts, const Kernel::Interior &margins) {
  // Each map index over the interior only, as the interior's lowering
  // declares it (Generator::emitMapIterations).
  std::map<std::string, arith::Expr> narrowed;
  for (const MapIndexFact &map : facts.maps)
    narrowed.emplace(map.var, arith::indexWithin(map.var, margins.lo[map.dim], map.extent - margins.hi[map.dim]));
  auto narrow = [&](const arith::Expr &e) { return arith::substitute(e, narrowed); };
  int64_t left = 0;
  for (const BoundaryRead &read : facts.reads) {
    arith::Expr shifted = narrow(read.shifted), length = narrow(read.length);
    bool inside = arith::provablyNonNegative(shifted) && arith::provablyLess(shifted, length);
    if (inside) continue;
    // A clamp the simplifier drops leaves no arithmetic even where the
    // bounds are not both proved (Generator::readThrough).
    if (read.reindexed && narrow(*read.reindexed) == shifted) continue;
    ++left;
  }
  return left;
}

} // namespace liftcc::codegen::kir
