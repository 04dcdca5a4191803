// reduce and its low-level forms (reduceSeq, reduceSeqUnroll): a left fold of
// f over the input from init, as a one-element array.

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeReduce(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr init = checker.check(reduceInit(e), checker.field(path, "init"));
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &acc = init.typeOrThrow();
  TypedFun f = checker.checkFun(funOf(e), {acc, in.typeOrThrow().arrayElement()}, checker.field(path, "f"), op);
  if (f.result != acc)
    checker.fail(checker.field(path, "f"),
                 op + ": the function must return the accumulator type " + acc.str() + ", found " + f.result.str());
  return checker.rebuild(e, {f.fun}, {init, in}, Type::array(acc, arith::Expr(1)));
}

Value evalReduce(EvalContext &interpreter, const Expr &e) {
  Value acc = interpreter.eval(reduceInit(e));
  Value in = interpreter.eval(inputOf(e));
  for (const Value &x : in.elements()) acc = interpreter.call(funOf(e), {acc, x});
  return Value::array({acc});
}

} // namespace liftcc::rules
