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

} // namespace liftcc
