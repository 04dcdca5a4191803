// iterate(n, f, x): f applied n times. Codegen emits f as one kernel that the
// host launches n times, swapping the input and output buffers.

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeIterate(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.check(inputOf(e), checker.field(path, "in"));
  const Type &t = in.typeOrThrow();
  checker.requireNonNegative(iterateCount(e), checker.field(path, "n"), "the iteration count", e);
  TypedFun f = checker.checkFun(funOf(e), {t}, checker.field(path, "f"), op);
  if (f.result != t)
    checker.fail(checker.field(path, "f"),
                 op + ": the function must return its input type " + t.str() + ", found " + f.result.str());
  return checker.rebuild(e, {f.fun}, {in}, t);
}

Value evalIterate(EvalContext &interpreter, const Expr &e) {
  Value v = interpreter.eval(inputOf(e));
  for (int64_t i = 0, n = interpreter.size(iterateCount(e)); i < n; ++i) v = interpreter.call(funOf(e), {v});
  return v;
}

} // namespace liftcc::rules
