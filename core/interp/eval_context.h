#pragma once
// What the primitives' interpreter cases (primitives/<family>.cpp) may ask of
// an interpreter, and the one entry point through which the interpreters
// evaluate a primitive. The interpreters declare the interface and the
// primitives implement it, so this folder includes nothing above core/:
// evalPrimitive is defined beside the rules (primitives/rules.cpp), in the
// library this folder is built into (liftcc_primitives, see core/CMakeLists.txt).

#include "core/interp/value.h"
#include "core/ir/expr.h"

#include <cstdint>
#include <vector>

namespace liftcc::rules {

/// What an interpreter case may ask of the interpreter.
class EvalContext {
public:
  virtual Value eval(const Expr &e) = 0;
  virtual Value call(const Expr &f, const std::vector<Value> &args) = 0;
  /// The value of a size expression at the interpreted sizes.
  virtual int64_t size(const arith::Expr &s) const = 0;

protected:
  ~EvalContext() = default;
};

/// Evaluates the typed primitive node `prim` by its family's rule.
Value evalPrimitive(EvalContext &interpreter, const Expr &prim);

} // namespace liftcc::rules
