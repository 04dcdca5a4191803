#pragma once
// User functions: scalar functions whose body is a small, loop-free C subset.
//
// The same body text is pasted verbatim into OpenCL C and CUDA C kernels as
// `signatureC() { body }`, and evaluated by the reference interpreter through
// Function::call. Everything the checker accepts therefore has to mean the
// same thing in C, OpenCL C and CUDA C++; anything where the three could
// disagree is rejected with a CFunError rather than guessed at.
//
// Supported subset (see core/cfun/README.md for the full rules):
//   statements   {...}  if (e) s [else s]  return e;  ;
//                [const] T x = e;   (T in bool/int/float/double, blocks only)
//                x = e;  x += e;  x -= e;  x *= e;  x /= e;
//   expressions  literals 1  1.5f  1.5  1e-3  true false, names,
//                unary - + !, binary * / % + - < <= > >= == != && ||,
//                ?:, casts (bool)/(int)/(float)/(double), parentheses,
//                sqrt exp log pow fabs fmin fmax floor ceil sin cos tan
//                (float or double, overloaded as in OpenCL C / CUDA C++),
//                min max (int only).
//   Every path must end in a return. C's usual arithmetic conversions apply.

#include "core/cfun/errors.h"
#include "core/scalar.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace liftcc::cfun {

struct Param {
  std::string name;
  ScalarKind kind;
};

namespace ir {
struct Program;
}
struct PrintRewrites;

class Function {
public:
  /// Parses and checks the body; throws CFunError naming line/column and
  /// what is wrong. Also validates the name and parameter names (valid C
  /// identifiers, not reserved in C, C++, OpenCL C or CUDA, no duplicates).
  static Function compile(std::string name, std::vector<Param> params, ScalarKind result, std::string body);

  const std::string &name() const;
  const std::vector<Param> &params() const;
  ScalarKind result() const;
  const std::string &body() const;

  /// "float add(float a, float b)"; "(void)" when there are no parameters,
  /// which means the same in C, OpenCL C and C++. Emitters write
  /// `signatureC() + " {" + body() + "}"`.
  std::string signatureC() const;

  /// True when the function computes in or exchanges double anywhere, so an
  /// OpenCL emitter knows it needs cl_khr_fp64.
  bool usesDouble() const;

  /// True when the body converts a floating value to int anywhere. C leaves
  /// NaN and out-of-range values undefined there (PoCL gives INT_MIN), while
  /// the format and the interpreter define NaN -> 0 and saturation, so
  /// emitters then use bodyWithConversions instead of body().
  bool convertsFloatingToInt() const;

  /// The widest floating kind (double over float) some return statement
  /// gives before its conversion to the result type; nullopt when none does.
  std::optional<ScalarKind> widestFloatingReturn() const;

  /// The body printed from the checked form, every conversion explicit, and
  /// each floating -> int conversion of `operand` (a parenthesised C
  /// expression of kind `from`) spelled `floatingToInt(from, operand)`.
  std::string bodyWithConversions(
      const std::function<std::string(ScalarKind from, const std::string &operand)> &floatingToInt) const;

  /// The same function with every floating division by a constant, `x / c`
  /// (also `x /= c`, and constants converted from int), written as a
  /// multiplication by the inverse folded to a literal, `x * (1/c)`. Exact
  /// when c is a power of two whose inverse is a normal number of its type;
  /// otherwise the inverse is rounded once more, so the result differs from
  /// the division by at most 1.5 units in the last place (relative error
  /// <= 3 * 2^-24 for float, 3 * 2^-53 for double; README of core/cfun).
  /// Integer divisions are left alone. Returns *this when there is nothing
  /// to rewrite, else a function compiled from the printed body.
  Function divisionsAsMultiplications() const;

  /// The same function with every sum of ten or more floating terms
  /// (`t0 + t1 - t2 + ...`, which C evaluates left to right, n - 1 dependent
  /// additions) regrouped into chains of ceil(sqrt(n)) consecutive terms whose
  /// sums are added: Gaussian's 25 weighted taps become five row sums of
  /// five. The same terms and signs; the device compiler, which keeps C's
  /// order without fast math, can overlap the chains. A reassociation: each
  /// sum may differ by a few units in the last place of its largest partial
  /// sum (README of core/cfun). Returns *this when there is no such sum.
  Function regroupedSums() const;

  /// Empty when the body means the same applied lane-wise to OpenCL vectors
  /// of its kind (every parameter, local and the result float, or all
  /// double; only arithmetic, literals and the math builtins that OpenCL C
  /// overloads on vectors), so `vectorize` may emit it with `floatN` types;
  /// otherwise why not, naming the construct (a condition on a lane, a
  /// conversion, an int or bool value, pow).
  std::string laneWiseRefusal() const;

  /// An int function whose body is one `return` of its int parameters and
  /// int literals under +, - and multiplication by a literal, as
  /// `constant + sum of coefficients[i] * parameter i`: the code generator
  /// then computes it as index arithmetic (a source index of a time tile is
  /// `at + offset`), which its range analysis can simplify. nullopt for any
  /// other function.
  struct Affine {
    int64_t constant = 0;
    std::vector<int64_t> coefficients; ///< one per parameter
  };
  std::optional<Affine> affine() const;

  /// Evaluates with C semantics. args.size() must equal params().size()
  /// (std::invalid_argument otherwise); each argument is converted to its
  /// parameter's kind as C would. Throws CFunEvalError on integer division or
  /// remainder by zero.
  Scalar call(std::span<const Scalar> args) const;
  Scalar call(std::initializer_list<Scalar> args) const {
    return call(std::span<const Scalar>(args.begin(), args.size()));
  }

private:
  struct Impl;
  /// Compiled again from the body printed with `rewrites`.
  Function reprinted(const PrintRewrites &rewrites) const;
  explicit Function(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

} // namespace liftcc::cfun
