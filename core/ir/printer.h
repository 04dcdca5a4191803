#pragma once
// Human-readable rendering of IR, in the functional notation of the Lift
// papers: map(\x: [float]3. reduce(add, 0.0f, x), slide(3, 1, pad(1, 1, clamp, A))).
// Lambda parameters show their types when the program is typed. Long calls
// are broken over several lines.

#include "core/ir/expr.h"

#include <string>

namespace liftcc {

std::string printExpr(const Expr &e);
/// The program's signature, its user functions and its body.
std::string printProgram(const Program &program);

} // namespace liftcc
