#pragma once
// The state of a top-level iterate as the host loop sees it. A compiled
// iterate launches its step `count` times, exchanging between launches the
// buffer of each component of the state with the output that replaces it;
// that needs every component to be a buffer of its own, i.e. a program input.
// iterate(n, f, A) has one component, A; iterate(n, f, tuple(A, B)) two,
// A and B (a two-level wave, a coupled system).

#include "core/ir/expr.h"

#include <optional>
#include <vector>

namespace liftcc {

/// The program inputs a top-level iterate's state is made of, in the order
/// of its components: {A} for iterate(n, f, A), {A, B} for
/// iterate(n, f, tuple(A, B)) where A and B are distinct inputs holding
/// arrays without tuples. nullopt when the body is not an iterate or its
/// state is anything else (a computed array, a nested tuple, an input twice).
std::optional<std::vector<Expr>> iteratedInputs(const Program &program);

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
