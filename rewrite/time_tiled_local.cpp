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
std::string refusal(const std::string &recipe, const Program &step, int64_t depth) {
  bool mirror =
      containsNode(step.body(), [](const Expr &e) { return e.isPrim(Op::Pad) && e.padMode() == PadMode::Mirror; });
  return recipe + ": no time tile of " + std::to_string(depth) +
         " steps to tile through local memory: each step must be mapN over slideN (window n, step 1) of one "
         "input of scalars padded by n-1 in all (other grids may be zipped beside the windows, read at the output's "
         "position and the same in every step), with constant grid extents" +
         (mirror ? std::string("; a mirror boundary also needs pads of at most the grid's extent, a right pad at "
                               "most the left plus 1 and a left pad at most the tile plus the right")
                 : std::string());
}

/// The time tile rule at the step's root (timeTileThroughStream where
/// `chunked`, else timeTileThroughLocal), its tile of
/// options' extents in every dimension (the chunk, where `chunked`, along
/// the outermost one).
Program tileTimeSteps(const Program &step, int64_t depth, const RecipeOptions &options, bool chunked) {
  const std::string recipe = chunked ? "timeTiledStream" : "timeTiledLocal";
  if (depth < 1) throw RewriteError(recipe + ": the depth must be at least 1 step, found " + std::to_string(depth));
  const int dims = arrayDimensions(step.body().typeOrThrow());
  if (dims < (chunked ? 2 : 1) || dims > 3)
    throw RewriteError(recipe + ": the iterated array must have " + (chunked ? "2" : "1") + " to 3 dimensions");
  std::vector<int64_t> extents;
  for (int d = 0; d < dims; ++d) {
    int64_t k = options.tileExtents[static_cast<size_t>(d)];
    if (chunked && d == dims - 1) {
      if (options.streamChunk < 1)
        throw RewriteError(recipe + ": the chunk must be at least 1 output plane, found " +
                           std::to_string(options.streamChunk));
      if (k > 0)
        throw RewriteError(
            recipe + ": the tile gives the plane's " + std::to_string(dims - 1) +
            " extent(s); the streamed dimension's is the chunk (streamLocal(C) in the strategy, 8 by default)");
      extents.push_back(options.streamChunk);
      continue;
    }
    extents.push_back(k > 0 ? k : options.tileOutputs);
    if (extents.back() < 1) throw RewriteError(recipe + ": the tile must be at least 1 output wide");
  }
  for (int d = dims; d < 3; ++d)
    if (options.tileExtents[static_cast<size_t>(d)] > 1)
      throw RewriteError(recipe + ": tile extent " + std::to_string(options.tileExtents[static_cast<size_t>(d)]) +
                         " along dimension " + std::to_string(d) + " but the grid has " + std::to_string(dims) +
                         " dimension(s)");
  Rule rule = chunked ? timeTileThroughStream(depth, extents) : timeTileThroughLocal(depth, extents);
  std::vector<std::string> at = applicableLocations(step, rule);
  if (at.empty()) throw RewriteError(refusal(recipe, step, depth));
  // The whole time tile: the shallowest location (the step's root).
  auto root = std::min_element(at.begin(), at.end(),
                               [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
  return applyRule(step, rule, *root);
}

} // namespace

Program tileTimeStepsThroughLocal(const Program &step, int64_t depth, const RecipeOptions &options) {
  return tileTimeSteps(step, depth, options, false);
}

Program tileTimeStepsThroughStream(const Program &step, int64_t depth, const RecipeOptions &options) {
  return tileTimeSteps(step, depth, options, true);
}

} // namespace liftcc::rewrite
