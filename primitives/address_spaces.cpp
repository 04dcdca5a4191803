// toGlobal / toLocal / toPrivate: f(in), with f's results written to that
// address space (codegen/generator_memory.cpp). The meaning is f(in).

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeAddressSpace(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.check(inputOf(e), checker.field(path, "in"));
  TypedFun f = checker.checkFun(funOf(e), {in.typeOrThrow()}, checker.field(path, "f"), op);
  return checker.rebuild(e, {f.fun}, {in}, f.result);
}

Value evalAddressSpace(EvalContext &interpreter, const Expr &e) {
  return interpreter.call(funOf(e), {interpreter.eval(inputOf(e))});
}

} // namespace liftcc::rules
