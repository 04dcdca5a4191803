#include "rewrite/recipes.h"

#include <algorithm>

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
  throw RewriteError("no stencil to tile with " + std::to_string(outputs) +
                     " outputs per tile: overlapped tiling needs mapN over slideN of an input with every tiled output "
                     "extent divisible by the tile size (explicit split/join or other layouts around the stencil are "
                     "not tiled)");
}

/// Whether `lambda` is a per-tile function of overlapped tiling:
/// \t. mapN(f, slideN(n, s, t)), or with zipped inputs
/// \t. mapN(f, zipN(.., slideN(n, s, get(i, t)), ..)).
bool isPerTileFunction(const Expr &lambda, int dims) {
  if (!lambda.is(ExprKind::Lambda) || lambda.params().size() != 1) return false;
  auto map = matchMapN(lambda.body(), dims);
  if (!map) return false;
  const Expr &tile = lambda.params()[0];
  auto readsTile = [&](const Expr &e) {
    auto slide = matchSlideN(e, dims);
    if (!slide) return false;
    const Expr &in = slide->in;
    return in.sameNode(tile) || (in.isPrim(Op::Get) && in.args()[0].sameNode(tile));
  };
  if (readsTile(map->in)) return true;
  auto zipped = matchZipN(map->in, dims);
  return zipped && std::any_of(zipped->begin(), zipped->end(), readsTile);
}

/// The tile parameters of the tiled program: only these are copied. Other
/// lambda parameters (e.g. the rows of a 2D stencil tiled in one dimension)
/// are views that must not be materialised per work-group.
std::vector<Expr> tileParameters(const Expr &body, int dims) {
  std::vector<Expr> tiles;
  transformBottomUp(body, [&](const Expr &e) -> Expr {
    if (isPerTileFunction(e, dims)) tiles.push_back(e.params()[0]);
    return e;
  });
  return tiles;
}

bool isTileAccess(const Expr &e, const std::vector<Expr> &tiles) {
  const Expr *param = e.is(ExprKind::Param) ? &e : e.isPrim(Op::Get) && e.args()[0].is(ExprKind::Param) ? &e.args()[0] : nullptr;
  return param && std::any_of(tiles.begin(), tiles.end(), [&](const Expr &t) { return t.sameNode(*param); });
}

/// The number of array dimensions of the program's result.
int outputDimensions(const Program &typed) {
  int dims = 0;
  for (Type t = typed.body().typeOrThrow(); t.isArray(); t = t.arrayElement()) ++dims;
  return dims;
}

/// Copies each tile that a neighbourhood reads into local memory first.
/// Throws when no tile can be copied: a "local" variant without local memory
/// would silently duplicate the tiled one.
Program copyTilesToLocal(const Program &original, const Program &tiled, int dims) {
  Rule copy = localCopy(dims);
  std::vector<Expr> tiles = tileParameters(tiled.body(), dims);
  int copies = 0;
  Expr body = transformBottomUp(tiled.body(), [&](const Expr &e) -> Expr {
    auto slide = matchSlideN(e, dims);
    if (!slide || !isTileAccess(slide->in, tiles)) return e;
    auto local = copy.apply(slide->in);
    if (!local) return e;
    ++copies;
    return api::slideN(dims, slide->size, slide->step, *local);
  });
  if (copies == 0)
    throw RewriteError("local: the " + std::to_string(dims) + "D tiles found hold neighbourhoods, not input elements, so "
                       "there is no tile to copy to local memory (tiling covered " + std::to_string(dims) + " of the " +
                       std::to_string(std::max(dims, outputDimensions(original))) +
                       " dimension(s): a tile size not dividing every output extent, a wrap/mirror boundary or a "
                       "reduce over the window keeps the rest untiled); choose a tile size that divides every output "
                       "dimension, or use --opt tiled or plain");
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
    // The host iterates the kernel of iterate's function; tiling that
    // function is not implemented, so say so rather than fail later.
    if (containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); }))
      throw RewriteError(recipeName(recipe) + ": programs with iterate are not tiled yet; use --opt plain");
    auto [tiled, dims] = tileStencil(typed, options.tileOutputs);
    if (recipe == Recipe::Local) tiled = copyTilesToLocal(typed, tiled, dims);
    lowered = typeCheck(withBody(tiled, lowerMaps(tiled.body(), {Op::MapWrg, Op::MapLcl})));
    break;
  }
  }
  return options.unroll ? unrollAll(lowered) : lowered;
}

} // namespace liftcc::rewrite
