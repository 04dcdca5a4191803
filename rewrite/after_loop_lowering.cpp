#include "rewrite/after_loop_lowering.h"

#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"

#include <string>
#include <unordered_map>

namespace liftcc::rewrite {

namespace {

/// `view`, an array of scalars (of any rank) that no function computes, as
/// a copy; a tuple of such arrays component by component.
Expr copied(const Expr &view) {
  const Type &type = view.typeOrThrow();
  if (type.isTuple()) {
    std::vector<Expr> parts;
    for (size_t c = 0; c < type.tupleElements().size(); ++c)
      parts.push_back(copied(api::get(static_cast<int>(c), view).withType(type.tupleElements()[c])));
    return api::tuple(parts);
  }
  int rank = 0;
  Type element = type;
  for (; element.isArray(); element = element.arrayElement()) ++rank;
  if (rank == 0 || !element.isScalar())
    throw RewriteError("the stage after the iterate only rearranges its result (" + type.str() +
                       ") into something other than arrays of scalars: nothing to compute");
  return api::mapN(rank, api::id(element.scalarKind()), view);
}

/// The stage lowered by the recipe, else plain (a reduction, a stage the
/// recipe has no pattern for: as a stage of a multi-kernel program).
Program loweredStage(const Program &stage, Recipe recipe, const RecipeOptions &options) {
  RecipeOptions once = options;
  once.timeTile = 1;
  try {
    return applyRecipe(stage, recipe, once);
  } catch (const RewriteError &) {
    once.vectorWidth = 0;
    return applyRecipe(stage, Recipe::Plain, once);
  }
}

} // namespace

Program lowerAfterLoop(const AfterLoop &split, Recipe recipe, const RecipeOptions &options) {
  const Program loop = applyRecipe(typeCheck(split.loop), recipe, options);
  if (std::optional<std::string> read = stateInputReadAfterLoop(loop, split.after))
    throw RewriteError(stateInputReadAfterLoopMessage(*read));
  Program stage = typeCheck(split.after);
  if (!containsNode(stage.body(), [](const Expr &e) { return e.is(ExprKind::UserFun); }))
    stage = typeCheck(Program{stage.sizes, Expr::lambda(stage.inputs(), copied(stage.body()))});
  const Program after = loweredStage(stage, recipe, options);
  // The lowered stage over the lowered loop: the program's inputs as the
  // loop has them, each state input the loop's result (its component).
  std::unordered_map<std::string, Expr> byName;
  for (const Expr &in : loop.inputs()) byName.emplace(in.name(), in);
  for (size_t c = 0; c < split.state.size(); ++c)
    byName.emplace(split.state[c].name(),
                   split.state.size() == 1 ? loop.body() : api::get(static_cast<int>(c), loop.body()));
  Expr body = transformBottomUp(after.body(), [&](const Expr &n) {
    if (!n.is(ExprKind::Param)) return n;
    for (const Expr &in : after.inputs())
      if (n.sameNode(in)) return byName.at(in.name());
    return n;
  });
  return typeCheck(Program{loop.sizes, Expr::lambda(loop.inputs(), body)});
}

} // namespace liftcc::rewrite
