// slideSeq(size, step, f, in): f applied to each window of `in`, in order.
// Its meaning is exactly mapSeq(f, slide(size, step, in)); what differs is
// the execution codegen gives it (codegen/generator_slide_seq.cpp): one
// work-item marches along `in` keeping the window in private memory and
// loading each element once (2.5D streaming when `in` is a column of planes).

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeSlideSeq(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &size = slideSize(e), &step = slideStep(e);
  checker.requirePositive(size, checker.field(path, "size"), "the window size", e);
  checker.requirePositive(step, checker.field(path, "step"), "the step", e);
  if (!arith::provablyLessEq(size, t.arrayLength()))
    checker.fail(path, op + "(" + size.str() + ", " + step.str() + ") of " + t.str() +
                           ": the input is not provably at least one window long");
  TypedFun f = checker.checkFun(funOf(e), {Type::array(t.arrayElement(), size)}, checker.field(path, "f"), op);
  arith::Expr count = (t.arrayLength() - size + step) / step;
  return checker.rebuild(e, {f.fun}, {in}, Type::array(f.result, count));
}

Value evalSlideSeq(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  int64_t windowSize = interpreter.size(slideSize(e)), step = interpreter.size(slideStep(e));
  int64_t count = (static_cast<int64_t>(in.size()) - windowSize + step) / step;
  std::vector<Value> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t w = 0; w < count; ++w) {
    auto begin = in.elements().begin() + static_cast<std::ptrdiff_t>(w * step);
    Value window = Value::array({begin, begin + static_cast<std::ptrdiff_t>(windowSize)});
    out.push_back(interpreter.call(funOf(e), {window}));
  }
  return Value::array(std::move(out));
}

} // namespace liftcc::rules
