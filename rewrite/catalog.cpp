#include "rewrite/catalog.h"

namespace liftcc::rewrite {

std::vector<Rule> algorithmicCatalog() {
  std::vector<Rule> rules{mapFusion(),       mapFission(),         joinSplit(),
                          splitJoinCancel(), transposeTranspose(), reduceMapFusion()};
  for (int64_t n : {2, 4, 8, 16, 32, 64}) rules.push_back(splitJoin(arith::Expr(n)));
  for (int dims = 1; dims <= 3; ++dims)
    for (int64_t k : {2, 4, 8, 16, 32}) rules.push_back(overlappedTiling(dims, k, TileFit::WithinOutput));
  // Tiles one output wide in all but the innermost or the outermost
  // dimension: the coarsened recipe's tilings.
  for (std::vector<int64_t> extents : std::vector<std::vector<int64_t>>{{4, 1}, {1, 4}, {4, 1, 1}, {1, 1, 4}})
    rules.push_back(overlappedTiling(extents, TileFit::WithinOutput));
  for (int64_t k : {2, 4, 8}) rules.push_back(slideWidening(k));
  rules.push_back(slideSeqIntroduction());
  for (int dims = 2; dims <= 3; ++dims) rules.push_back(streamOuterDimension(dims));
  for (int dims = 1; dims <= 3; ++dims) rules.push_back(vectorizeStencil(dims, 4));
  return rules;
}

std::vector<Rule> ruleCatalog() {
  std::vector<Rule> rules = algorithmicCatalog();
  for (int d = 0; d < 3; ++d) {
    rules.push_back(mapToGlb(d));
    rules.push_back(mapToWrg(d));
    rules.push_back(mapToLcl(d));
  }
  for (Rule r : {mapToSeq(), mapSeqToUnroll(), reduceToSeq(), reduceSeqToUnroll(), privateCopy()}) rules.push_back(r);
  for (int dims = 1; dims <= 3; ++dims) rules.push_back(localCopy(dims));
  for (int dims = 2; dims <= 3; ++dims) rules.push_back(privateCopy(dims));
  // Streaming through local memory: introduces mapLcl and toLocal, so it is a
  // lowering rule (inside a work-group), not part of the algorithmic walks.
  for (int dims = 2; dims <= 3; ++dims) rules.push_back(streamPlanesThroughLocal(dims));
  // Its plane's outputs (or a local tile's) as vectors along x.
  for (int dims = 1; dims <= 2; ++dims) rules.push_back(vectorizeLocalOutputs(dims, 4));
  // An iteration of one element's scalar as a loop in the kernel: the
  // recipes apply it first (applyRecipe); no example has one to walk over.
  rules.push_back(iterateAsReduction());
  rules.push_back(iterateOutOfMap());
  return rules;
}

std::optional<Rule> findRule(const std::string &name) {
  for (Rule &r : ruleCatalog())
    if (r.name == name) return r;
  return std::nullopt;
}

} // namespace liftcc::rewrite
