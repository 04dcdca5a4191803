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

/// Why the rule found nothing to tile: the boundary, when it is one the
/// rule cannot make exact, else the shape it needs.
std::string refusal(const Program &step, int64_t depth) {
  bool clamp = false, mirror = false;
  containsNode(step.body(), [&](const Expr &e) {
    if (e.isPrim(Op::Pad)) {
      clamp = clamp || e.padMode() == PadMode::Clamp;
      mirror = mirror || e.padMode() == PadMode::Mirror;
    }
    return false;
  });
  if (clamp || mirror)
    return std::string("timeTiledLocal: the ") + (clamp ? "clamp" : "mirror") +
           " boundary is not time-tiled through local memory: beyond the grid edge an intermediate step's value is "
           "a copy of a value inside the grid at a position that depends on where the tile lies, which a tile's "
           "local buffer cannot be remapped to by a view; wrap and constant boundaries are (use timeTile(" +
           std::to_string(depth) + ") with another lowering for this program)";
  return "timeTiledLocal: no time tile of " + std::to_string(depth) +
         " steps to tile through local memory: each step must be mapN over slideN (window n, step 1) of one "
         "input of scalars padded by n-1 in all (nothing zipped), with constant grid extents";
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
