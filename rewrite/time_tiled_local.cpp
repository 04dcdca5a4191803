#include "rewrite/time_tiled_local.h"

#include "core/interp/components.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "rewrite/apply.h"
#include "rewrite/rule.h"

#include <algorithm>

namespace liftcc::rewrite {

namespace {

int arrayDimensions(const Type &type) {
  int dims = 0;
  for (Type t = type; t.isArray(); t = t.arrayElement()) ++dims;
  return dims;
}

/// Why the rule found nothing to tile: the shape it needs, and for a
/// mirror boundary the reach a single reflection has.
std::string refusal(const Program &step, int64_t depth) {
  bool mirror =
      containsNode(step.body(), [](const Expr &e) { return e.isPrim(Op::Pad) && e.padMode() == PadMode::Mirror; });
  return "timeTiledLocal: no time tile of " + std::to_string(depth) +
         " steps to tile through local memory: each step must be mapN over slideN (window n, step 1) of one "
         "input of scalars padded by n-1 in all (other grids may be zipped beside the windows, read at the output's "
         "position and the same in every step), with constant grid extents" +
         (mirror ? std::string("; a mirror boundary also needs pads of at most the grid's extent, a right pad at "
                               "most the left plus 1 and a left pad at most the tile plus the right")
                 : std::string());
}

} // namespace

Program tileTimeStepsThroughLocal(const Program &step, int64_t depth, const RecipeOptions &options) {
  if (depth < 1)
    throw RewriteError("timeTiledLocal: the depth must be at least 1 step, found " + std::to_string(depth));
  const int dims = arrayDimensions(step.body().typeOrThrow());
  if (dims < 1 || dims > 3) throw RewriteError("timeTiledLocal: the iterated array must have 1 to 3 dimensions");
  std::vector<int64_t> extents;
  for (int d = 0; d < dims; ++d) {
    int64_t k = options.tileExtents[static_cast<size_t>(d)];
    extents.push_back(k > 0 ? k : options.tileOutputs);
    if (extents.back() < 1) throw RewriteError("timeTiledLocal: the tile must be at least 1 output wide");
  }
  for (int d = dims; d < 3; ++d)
    if (options.tileExtents[static_cast<size_t>(d)] > 1)
      throw RewriteError("timeTiledLocal: tile extent " + std::to_string(options.tileExtents[static_cast<size_t>(d)]) +
                         " along dimension " + std::to_string(d) + " but the grid has " + std::to_string(dims) +
                         " dimension(s)");
  Rule rule = timeTileThroughLocal(depth, extents);
  std::vector<std::string> at = applicableLocations(step, rule);
  if (at.empty()) throw RewriteError(refusal(step, depth));
  // The whole time tile: the shallowest location (the step's root).
  auto root = std::min_element(at.begin(), at.end(),
                               [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
  return applyRule(step, rule, *root);
}

} // namespace liftcc::rewrite
