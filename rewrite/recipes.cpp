#include "rewrite/recipes.h"

#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/lower_maps.h"
#include "rewrite/nd_patterns.h"

namespace liftcc::rewrite {

namespace {

Program withBody(const Program &program, Expr body) {
  return Program{program.sizes, Expr::lambda(program.inputs(), std::move(body))};
}

/// Tiles the first stencil found, trying 3, 2 and then 1 dimensions.
std::pair<Program, int> tileStencil(const Program &typed, int64_t outputs) {
  for (int dims = 3; dims >= 1; --dims) {
    Rule rule = overlappedTiling(dims, outputs);
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return {applyRule(typed, rule, locations.front()), dims};
  }
  throw RewriteError("no stencil (mapN over slideN) whose output is divisible by the tile size " +
                     std::to_string(outputs) + " was found to tile");
}

/// A tile: the parameter of the per-tile function, or a component of it
/// (zipped inputs), but never a program input.
bool isTileAccess(const Expr &e, const Program &program) {
  const Expr *param = e.is(ExprKind::Param) ? &e : e.isPrim(Op::Get) && e.args()[0].is(ExprKind::Param) ? &e.args()[0] : nullptr;
  if (!param) return false;
  for (const Expr &in : program.inputs())
    if (in.sameNode(*param)) return false;
  return true;
}

/// Copies each tile that a neighbourhood reads into local memory first.
Program copyTilesToLocal(const Program &tiled, int dims) {
  Rule copy = localCopy(dims);
  Expr body = transformBottomUp(tiled.body(), [&](const Expr &e) -> Expr {
    auto slide = matchSlideN(e, dims);
    if (!slide || !isTileAccess(slide->in, tiled)) return e;
    auto local = copy.apply(slide->in);
    if (!local) return e;
    return api::slideN(dims, slide->size, slide->step, *local);
  });
  return typeCheck(withBody(tiled, body));
}

Program unrollAll(Program program) {
  program = normalizeProgram(program, reduceSeqToUnroll());
  return normalizeProgram(program, mapSeqToUnroll());
}

} // namespace

std::string recipeName(Recipe recipe) {
  switch (recipe) {
  case Recipe::Plain: return "plain";
  case Recipe::Tiled: return "tiled";
  case Recipe::Local: return "local";
  }
  return "?";
}

std::optional<Recipe> parseRecipe(const std::string &name) {
  for (Recipe r : {Recipe::Plain, Recipe::Tiled, Recipe::Local})
    if (recipeName(r) == name) return r;
  return std::nullopt;
}

Program applyRecipe(const Program &typed, Recipe recipe, const RecipeOptions &options) {
  Program lowered = typed;
  switch (recipe) {
  case Recipe::Plain: lowered = typeCheck(lowerToGlobalMaps(typed)); break;
  case Recipe::Tiled:
  case Recipe::Local: {
    auto [tiled, dims] = tileStencil(typed, options.tileOutputs);
    if (recipe == Recipe::Local) tiled = copyTilesToLocal(tiled, dims);
    lowered = typeCheck(withBody(tiled, lowerMaps(tiled.body(), {Op::MapWrg, Op::MapLcl})));
    break;
  }
  }
  return options.unroll ? unrollAll(lowered) : lowered;
}

} // namespace liftcc::rewrite
