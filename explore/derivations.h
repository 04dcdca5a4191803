#pragma once
// Depth-limited derivation search: every program reachable from a
// high-level program by at most `depth` applications of the algorithmic
// rules (anywhere they apply), each lowered by the recipes; counts the
// distinct programs and the distinct low-level kernels they give. This is the
// breadth the rewrite system offers the exploration before any pruning.

#include "core/ir/expr.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace liftcc::explore {

struct DerivationStats {
  std::vector<size_t> programsPerDepth; ///< distinct programs first reached at depth 0, 1, ...
  size_t programs = 0;                  ///< distinct high-level programs in total
  size_t lowLevelVariants = 0;          ///< distinct kernels from lowering them (plain, tiled, local)
  double seconds = 0;
};

/// `typed` is type-checked at concrete sizes (tiling needs them).
DerivationStats searchDerivations(const Program &typed, int depth, const std::vector<int64_t> &tileSizes = {4, 8});

} // namespace liftcc::explore
