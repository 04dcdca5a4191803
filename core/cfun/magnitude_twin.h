#pragma once
// The magnitude twin of a user function: the same function with every term
// made non-negative (a - b becomes a + b, -a becomes a, constants their
// absolute values, fmin becomes fmax), so that called on the absolute values
// of the arguments it returns the sum of the magnitudes of the terms
// (|a| + |b| for a +- b, |a||b| for ab, |a|/|c| for a division by a constant):
// a bound on the values a reordered or contracted evaluation rounds, which
// the verification tolerance scales with (core/interp/magnitudes.h).
//
// Only functions whose result is such a sum of products are twinned: floating
// arithmetic (+, -, *, division by a constant), negation, fabs, fmin, fmax
// and conversions between numeric kinds, in straight-line code. Anything
// else (comparisons, conditionals, if, division by a variable, integer
// arithmetic, sqrt, exp, ...) has no twin, and the tolerance stays relative
// to the result.

#include "core/cfun/function.h"

#include <optional>

namespace liftcc::cfun {

std::optional<Function> magnitudeTwin(const Function &function);

} // namespace liftcc::cfun
