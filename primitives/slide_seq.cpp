// slideSeq(size, step, f, in): f applied to each window of `in`, in order.
// Its meaning is exactly mapSeq(f, slide(size, step, in)); what differs is
// the execution codegen gives it (codegen/generator_slide_seq.cpp): one
// work-item marches along `in` keeping the window in private memory and
// loading each element once (2.5D streaming when `in` is a column of planes).

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeSlideSeq(TypeContext &checker, const Expr &e, const std::string &path) {
  CheckedWindows w = checkWindows(checker, e, path);
  TypedFun f =
      checker.checkFun(funOf(e), {w.windows.arrayElement()}, checker.field(path, "f"), std::string(e.info().name));
  return checker.rebuild(e, {f.fun}, {w.in}, Type::array(f.result, w.windows.arrayLength()));
}

Value evalSlideSeq(EvalContext &interpreter, const Expr &e) {
  std::vector<Value> out;
  for (const Value &window : slideWindows(interpreter, e, interpreter.eval(inputOf(e))))
    out.push_back(interpreter.call(funOf(e), {window}));
  return Value::array(std::move(out));
}

} // namespace liftcc::rules
