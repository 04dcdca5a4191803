#include "core/ir/loop_split.h"

#include "core/ir/iterated_state.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"

#include <algorithm>
#include <string>

namespace liftcc {

namespace {

void collectOutermostIterates(const Expr &e, std::vector<Expr> &found) {
  if (e.isPrim(Op::Iterate)) {
    if (std::none_of(found.begin(), found.end(), [&](const Expr &f) { return f == e; })) found.push_back(e);
    return;
  }
  for (const Child &c : e.children()) collectOutermostIterates(*c.expr, found);
}

bool closedOver(const Program &program, const Expr &e, std::vector<Expr> &bound) {
  if (e.is(ExprKind::Param)) {
    auto same = [&](const Expr &p) { return e.sameNode(p); };
    return std::any_of(program.inputs().begin(), program.inputs().end(), same) ||
           std::any_of(bound.begin(), bound.end(), same);
  }
  if (e.is(ExprKind::Lambda)) {
    bound.insert(bound.end(), e.params().begin(), e.params().end());
    bool result = closedOver(program, e.body(), bound);
    bound.erase(bound.end() - static_cast<std::ptrdiff_t>(e.params().size()), bound.end());
    return result;
  }
  const std::vector<Child> children = e.children();
  return std::all_of(children.begin(), children.end(),
                     [&](const Child &c) { return closedOver(program, *c.expr, bound); });
}

} // namespace

std::vector<Expr> outermostIterates(const Expr &e) {
  std::vector<Expr> found;
  collectOutermostIterates(e, found);
  return found;
}

bool readsOnlyInputs(const Program &program, const Expr &e) {
  std::vector<Expr> bound;
  return closedOver(program, e, bound);
}

std::string freshInputName(const Program &program, const std::string &base) {
  auto clashes = [](const std::string &taken, const std::string &name) {
    return taken == name || taken.rfind(name + "_", 0) == 0;
  };
  auto taken = [&](const std::string &name) {
    return std::any_of(program.inputs().begin(), program.inputs().end(),
                       [&](const Expr &in) { return clashes(in.name(), name); }) ||
           std::any_of(program.sizes.begin(), program.sizes.end(),
                       [&](const arith::Expr &s) { return clashes(s.varName(), name); });
  };
  std::string name = base;
  for (int k = 1; taken(name); ++k) name = base + std::to_string(k);
  return name;
}

bool appliesUserFunction(const Expr &e) {
  return containsNode(e, [](const Expr &n) { return n.is(ExprKind::UserFun); });
}

namespace {

/// `e` with get(c, loop) read from state[c] and the loop itself from the state (a tuple of them).
Expr readingState(const Expr &e, const Expr &loop, const std::vector<Expr> &state, bool tuple) {
  if (tuple && e.isPrim(Op::Get) && inputOf(e) == loop) return state.at(static_cast<size_t>(getIndex(e)));
  if (e == loop) return tuple ? Expr::prim(Op::Tuple, {{}, 0, PadMode::Clamp, {}, state}) : state.front();
  return mapChildren(e, [&](const Expr &c) { return readingState(c, loop, state, tuple); });
}

} // namespace

std::optional<AfterLoop> splitAfterLoop(const Program &program) {
  const Expr &body = program.body();
  if (body.isPrim(Op::Iterate) || !body.type()) return std::nullopt;
  const std::vector<Expr> loops = outermostIterates(body);
  if (loops.size() != 1 || !loops.front().type()) return std::nullopt;
  const Expr &loop = loops.front();
  if (!readsOnlyInputs(program, loop)) return std::nullopt;
  const Type &result = *loop.type();
  const bool tuple = result.isTuple();
  std::vector<Type> components = tuple ? result.tupleElements() : std::vector<Type>{result};
  if (!std::all_of(components.begin(), components.end(), [](const Type &t) { return t.isArray(); }))
    return std::nullopt;
  const std::string name = freshInputName(program, "state");
  std::vector<Expr> state;
  for (size_t c = 0; c < components.size(); ++c)
    state.push_back(Expr::param(tuple ? name + "_" + std::to_string(c) : name, components[c]));
  std::vector<Expr> inputs = program.inputs();
  inputs.insert(inputs.end(), state.begin(), state.end());
  Program after{program.sizes, Expr::lambda(inputs, readingState(body, loop, state, tuple))};
  return AfterLoop{Program{program.sizes, Expr::lambda(program.inputs(), loop)}, std::move(after), std::move(state)};
}

namespace {

/// Whether `e` reads `param`, leaving out the operand of a closed toGlobal
/// (`toGlobal(\p. stage, x)` with p unused: x, an input, only stands for
/// the lowered stages' kernel boundary and is never read).
bool readsValueOf(const Expr &e, const Expr &param) {
  if (e.is(ExprKind::Param)) return e.sameNode(param);
  if (e.isPrim(Op::ToGlobal) && funOf(e).is(ExprKind::Lambda) && funOf(e).params().size() == 1 &&
      !readsParam(funOf(e).body(), funOf(e).params()[0]))
    return readsValueOf(funOf(e).body(), param);
  for (const Child &c : e.children())
    if (readsValueOf(*c.expr, param)) return true;
  return false;
}

} // namespace

std::optional<std::string> stateInputReadAfterLoop(const Program &loop, const Program &after) {
  std::optional<std::vector<Expr>> state = chainedInputs(loop);
  if (!state) return std::nullopt;
  for (const Expr &in : *state)
    for (const Expr &read : after.inputs())
      if (read.name() == in.name() && readsValueOf(after.body(), read)) return in.name();
  return std::nullopt;
}

std::string stateInputReadAfterLoopMessage(const std::string &name) {
  return "iterate: the stage after the loop reads " + name + ", whose buffer the loop writes its steps over; pass " +
         "the initial values as another input";
}

std::optional<BeforeLoop> splitBeforeLoop(const Program &program) {
  const std::vector<Expr> levels = chainLevels(program.body());
  if (levels.empty()) return std::nullopt;
  const Expr &init = inputOf(levels.front());
  if (!init.type()) return std::nullopt;
  const Type &start = *init.type();
  const bool tuple = start.isTuple();
  std::vector<Type> components = tuple ? start.tupleElements() : std::vector<Type>{start};
  for (const Type &c : components) {
    Type element = c;
    while (element.isArray()) element = element.arrayElement();
    if (!c.isArray() || !element.isScalar()) return std::nullopt;
  }
  const std::string name = freshInputName(program, "state") + "_init";
  std::vector<Expr> state;
  for (size_t c = 0; c < components.size(); ++c)
    state.push_back(Expr::param(tuple ? name + "_" + std::to_string(c) : name, components[c]));
  Expr over = tuple ? Expr::prim(Op::Tuple, {{}, 0, PadMode::Clamp, {}, state}) : state.front();
  // Each level over the one before it; the innermost over the state.
  for (const Expr &level : levels) {
    std::vector<Expr> children;
    for (const Child &c : level.children()) children.push_back(c.expr->sameNode(inputOf(level)) ? over : *c.expr);
    over = level.withChildren(std::move(children));
  }
  std::vector<Expr> inputs = program.inputs();
  inputs.insert(inputs.end(), state.begin(), state.end());
  return BeforeLoop{Program{program.sizes, Expr::lambda(program.inputs(), init)},
                    Program{program.sizes, Expr::lambda(inputs, over)}, std::move(state)};
}

bool needsStateBeforeLoop(const Program &program) {
  if (chainLevels(program.body()).empty()) return false;
  return !chainedInputs(program) || stateInputReadByStep(program).has_value();
}

} // namespace liftcc
