#include "core/ir/iterated_state.h"

#include "core/error.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"

#include <algorithm>

namespace liftcc {

namespace {
bool holdsTuple(const Type &type) {
  Type t = type;
  while (t.isArray()) t = t.arrayElement();
  return t.isTuple();
}
} // namespace

std::optional<std::vector<Expr>> iteratedInputs(const Program &program) {
  const Expr &body = program.body();
  if (!body.isPrim(Op::Iterate)) return std::nullopt;
  const Expr &state = inputOf(body);
  auto input = [&](const Expr &e) -> std::optional<Expr> {
    if (!e.is(ExprKind::Param)) return std::nullopt;
    for (const Expr &in : program.inputs())
      if (e.sameNode(in)) return in;
    return std::nullopt;
  };
  if (std::optional<Expr> in = input(state)) return std::vector<Expr>{*in};
  if (!state.isPrim(Op::Tuple)) return std::nullopt;
  std::vector<Expr> components;
  for (const Expr &part : inputsOf(state)) {
    std::optional<Expr> in = input(part);
    if (!in || !in->type() || !in->type()->isArray() || holdsTuple(*in->type())) return std::nullopt;
    if (std::any_of(components.begin(), components.end(), [&](const Expr &c) { return c.sameNode(*in); }))
      return std::nullopt;
    components.push_back(*in);
  }
  if (components.empty()) return std::nullopt;
  return components;
}

std::vector<Expr> chainLevels(const Expr &body) {
  std::vector<Expr> levels;
  for (Expr e = body; e.isPrim(Op::Iterate); e = inputOf(e)) levels.push_back(e);
  std::reverse(levels.begin(), levels.end());
  return levels;
}

std::optional<std::vector<Expr>> chainedInputs(const Program &program) {
  const std::vector<Expr> levels = chainLevels(program.body());
  const Expr &innermost = levels.empty() ? program.body() : levels.front();
  return iteratedInputs(Program{program.sizes, Expr::lambda(program.inputs(), innermost)});
}

std::optional<Expr> stateInputReadByStep(const Program &program) {
  std::optional<std::vector<Expr>> state = chainedInputs(program);
  if (!state) return std::nullopt;
  for (const Expr &level : chainLevels(program.body())) {
    const Expr &f = funOf(level);
    if (!f.is(ExprKind::Lambda)) continue;
    for (const Expr &in : *state)
      if (readsParam(f.body(), in)) return in;
  }
  return std::nullopt;
}

std::string stateInputReadMessage(const Expr &input) {
  // The host loop writes each step's result over the input's buffer.
  return "iterate's step reads its input " + input.name() + " by name, not through its parameter (" + input.name() +
         "'s buffer holds the latest state); pass the initial values as another input";
}

bool iteratesTuple(const Program &program) {
  return iteratedInputs(program) && inputOf(program.body()).isPrim(Op::Tuple);
}

Expr stepOverState(const Program &program) {
  const Expr &body = program.body();
  const Expr &f = funOf(body);
  const Expr &state = inputOf(body);
  if (!f.is(ExprKind::Lambda) || f.params().size() != 1)
    throw InternalError("stepOverState: iterate's function is not a lambda of one parameter");
  const Expr &param = f.params().front();
  return transformBottomUp(f.body(), [&](const Expr &n) {
    if (n.is(ExprKind::Param) && n.sameNode(param)) return state;
    // Bottom-up, the operand of a get has already become the state.
    if (n.isPrim(Op::Get) && inputOf(n).isPrim(Op::Tuple) && inputOf(n).sameNode(state))
      return inputsOf(state).at(static_cast<size_t>(getIndex(n)));
    return n;
  });
}

std::vector<std::optional<size_t>> carriedComponents(const Expr &step, const std::vector<Expr> &state) {
  if (!step.isPrim(Op::Tuple) || inputsOf(step).size() != state.size()) return {};
  std::vector<std::optional<size_t>> from(state.size());
  std::vector<bool> taken(state.size(), false);
  size_t carried = 0;
  for (size_t c = 0; c < state.size(); ++c) {
    const Expr &part = inputsOf(step)[c];
    if (!part.is(ExprKind::Param)) continue;
    for (size_t j = 0; j < state.size(); ++j)
      if (!taken[j] && part.name() == state[j].name() && part.type() && state[j].type() &&
          *part.type() == *state[j].type() && *state[c].type() == *state[j].type()) {
        from[c] = j;
        taken[j] = true;
        ++carried;
        break;
      }
  }
  if (carried == 0 || carried == state.size()) return {};
  return from;
}

} // namespace liftcc
