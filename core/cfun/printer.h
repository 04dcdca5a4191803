#pragma once
// Prints a checked user function (ir::Program) back as C: every conversion
// explicit, every operator parenthesised, locals declared at the top. The
// code generators use it instead of the verbatim body where the verbatim
// body would be undefined in C (floating -> int conversions).

#include "core/cfun/function.h"
#include "core/cfun/ir.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::cfun {

/// Rewrites printBody may apply, each a relaxation of C's evaluation.
struct PrintRewrites {
  /// Every floating division by a constant whose inverse is a normal number
  /// is printed as a multiplication by that inverse, folded to a literal
  /// (Function::divisionsAsMultiplications).
  bool divisionsAsMultiplications = false;
  /// Every sum of at least kRegroupedSumTerms floating terms is printed as
  /// chains of about sqrt(n) terms whose sums are added
  /// (Function::regroupedSums).
  bool regroupSums = false;
};

/// Shorter sums gain nothing measurable from regrouping: on PoCL the
/// 9-term sum of Jacobi 2D 9-point and the 4- and 5-term ones of Heat and
/// Jacobi 2D 5-point ran within noise of C's order, while Poisson's 12-term
/// sum ran 1.3x faster and Gaussian's 25-term one 1.3-1.8x (docs/codegen.md,
/// Fast math). Regrouping them would only grow the exploration space.
constexpr size_t kRegroupedSumTerms = 10;

std::string printBody(const ir::Program &program, const std::vector<Param> &params,
                      const std::function<std::string(ScalarKind from, const std::string &operand)> &floatingToInt,
                      PrintRewrites rewrites = {});

/// The number of terms of the longest chain of floating additions and
/// subtractions in `program` (1 when it has none).
size_t longestFloatingSum(const ir::Program &program);

/// The inverse of the divisor of `division` (an Arith Div node) in its
/// floating type, when the divisor is a constant (possibly converted from an
/// int) and the inverse is a normal number; else nullopt.
std::optional<Scalar> inverseOfConstantDivisor(const ir::Expr &division);

} // namespace liftcc::cfun
