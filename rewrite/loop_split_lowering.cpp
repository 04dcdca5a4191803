#include "rewrite/loop_split_lowering.h"

#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"

#include <algorithm>
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
    throw RewriteError("a stage around the iterate only rearranges arrays (" + type.str() +
                       ") into something other than arrays of scalars: nothing to compute");
  return api::mapN(rank, api::id(element.scalarKind()), view);
}

/// `e` with each component that computes nothing copied (a tuple's one by
/// one). A component equal to an earlier one (a state (U, U), a wave at
/// rest) is copied once more per earlier equal: equal stages would be one
/// kernel writing one buffer, where the loop needs a buffer per component.
Expr computedEverywhere(const Expr &e) {
  if (!e.isPrim(Op::Tuple)) return appliesUserFunction(e) ? e : copied(e);
  std::vector<Expr> parts;
  for (const Expr &c : inputsOf(e)) {
    Expr part = appliesUserFunction(c) ? c : copied(c);
    while (std::any_of(parts.begin(), parts.end(), [&](const Expr &p) { return p == part; }))
      part = copied(part.withType(c.typeOrThrow()));
    parts.push_back(part);
  }
  return api::tuple(parts);
}

/// Component c of `e`, a value of `count` components.
Expr component(const Expr &e, size_t c, size_t count) {
  if (count == 1) return e;
  if (e.isPrim(Op::Tuple)) return inputsOf(e).at(c);
  return api::get(static_cast<int>(c), e);
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
  const Program typedLoop = typeCheck(split.loop);
  Program loop = applyRecipe(typedLoop, recipe, options);
  if (std::optional<std::string> read = stateInputReadAfterLoop(loop, split.after)) {
    // The loop would write its steps over an input the stage reads: its
    // state starts from a copy instead.
    std::optional<BeforeLoop> before = splitBeforeLoop(typedLoop);
    if (!before) throw RewriteError(stateInputReadAfterLoopMessage(*read));
    loop = lowerBeforeLoop(*before, recipe, options);
  }
  Program stage = typeCheck(split.after);
  if (!appliesUserFunction(stage.body()))
    stage = typeCheck(Program{stage.sizes, Expr::lambda(stage.inputs(), copied(stage.body()))});
  const Program after = loweredStage(stage, recipe, options);
  // The lowered stage over the lowered loop: the program's inputs as the
  // loop has them, each state input the loop's result (its component).
  std::unordered_map<std::string, Expr> byName;
  for (const Expr &in : loop.inputs()) byName.emplace(in.name(), in);
  for (size_t c = 0; c < split.state.size(); ++c)
    byName.emplace(split.state[c].name(), component(loop.body(), c, split.state.size()));
  return typeCheck(Program{loop.sizes, Expr::lambda(loop.inputs(), bodyOver(after, byName))});
}

Program lowerBeforeLoop(const BeforeLoop &split, Recipe recipe, const RecipeOptions &options) {
  Program start = typeCheck(split.before);
  start = typeCheck(Program{start.sizes, Expr::lambda(start.inputs(), computedEverywhere(start.body()))});
  const Program before = loweredStage(start, recipe, options);
  const Program loop = applyRecipe(typeCheck(split.loop), recipe, options);
  // The lowered loop over the lowered initial state: the program's inputs
  // as the state's computation has them, each state input its component.
  std::unordered_map<std::string, Expr> byName;
  for (const Expr &in : before.inputs()) byName.emplace(in.name(), in);
  for (size_t c = 0; c < split.state.size(); ++c)
    byName.emplace(split.state[c].name(), component(before.body(), c, split.state.size()));
  return typeCheck(Program{before.sizes, Expr::lambda(before.inputs(), bodyOver(loop, byName))});
}

} // namespace liftcc::rewrite
