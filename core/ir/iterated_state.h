#pragma once
// The state of a top-level iterate as the host loop sees it. A compiled
// iterate launches its step `count` times, exchanging between launches the
// buffer of each component of the state with the output that replaces it;
// that needs every component to be a buffer of its own, i.e. a program input.
// iterate(n, f, A) has one component, A; iterate(n, f, tuple(A, B)) two,
// A and B (a two-level wave, a coupled system).

#include "core/ir/expr.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc {

/// The program inputs a top-level iterate's state is made of, in the order
/// of its components: {A} for iterate(n, f, A), {A, B} for
/// iterate(n, f, tuple(A, B)) where A and B are distinct inputs holding
/// arrays without tuples. nullopt when the body is not an iterate or its
/// state is anything else (a computed array, a nested tuple, an input twice).
std::optional<std::vector<Expr>> iteratedInputs(const Program &program);

/// The levels of a chain of iterates iterate(m, g, iterate(n, f, A)),
/// innermost first (one for a single iterate; none when `body` is no
/// iterate).
std::vector<Expr> chainLevels(const Expr &body);

/// The program inputs the state of a chain of iterates starts from:
/// iteratedInputs of the innermost iterate of iterate(m, g, iterate(n, f,
/// A)) (a single iterate is a chain of one; time tiles and the stages
/// around a loop are launched as such chains, in phases).
std::optional<std::vector<Expr>> chainedInputs(const Program &program);

/// A program input of the top-level iterate's state (or of the innermost
/// iterate of a chain iterate(m, g, iterate(n, f, A)), time tiles in phases)
/// that some step reads by its own name rather than through the step's
/// parameter, e.g. iterate(n, \x. f(x, A), A). The host loop overwrites
/// the state inputs' buffers with each launch's result, so such a step would
/// read the latest state where it means the initial values: every verb
/// refuses it (rewrite::applyRecipe, codegen::generateKernel). nullopt when
/// no step does, or the body is no such iterate.
std::optional<Expr> stateInputReadByStep(const Program &program);

/// The one-line message for stateInputReadByStep's input `input`.
std::string stateInputReadMessage(const Expr &input);

/// Whether the top-level iterate's state is a tuple of inputs (see above).
bool iteratesTuple(const Program &program);

/// One step of the top-level iterate as an expression over the program's
/// inputs: f's body with its parameter replaced by the state, and each
/// get(i, tuple(...)) that replacement makes picking its component, so a
/// step over tuple(A, B) reads A and B themselves.
Expr stepOverState(const Program &program);

/// Which components of a step over the state (stepOverState, or a step
/// whose state components are the inputs `state`) are carried over
/// unchanged: component c of the new state is component j of the old one
/// when the step's result is a tuple whose c-th part is state input j
/// itself, as in a wave's (prev, cur) -> (cur, f(prev, cur)). Such a
/// component needs no kernel: the host passes the buffer on
/// (codegen::Kernel::Iteration::carriedFrom). A state input carried to two
/// components is carried to the first only (the second is computed, a
/// copy: two components of a state never share a buffer), and a step that
/// would compute nothing carries nothing (the host loop launches kernels).
/// Empty when no component is carried, else one entry per component.
std::vector<std::optional<size_t>> carriedComponents(const Expr &step, const std::vector<Expr> &state);

/// Whether some launch of an iteration carries a component: the one loop's
/// `carriedFrom`, or a phase's (codegen::Kernel::Iteration,
/// tuner::LaunchPlan::Iteration and exporter::ExportPlan::Iteration alike).
template <class Iteration> bool carriesSomewhere(const Iteration &iteration) {
  if (!iteration.carriedFrom.empty()) return true;
  for (const auto &phase : iteration.phases)
    if (!phase.carriedFrom.empty()) return true;
  return false;
}

} // namespace liftcc
