// Values computed from indices and sizes: generate(n, f) (element i is f(i))
// and sizeValue(s) (the value of a size expression as an int).

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeGenerate(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  checker.requireNonNegative(generateSize(e), checker.field(path, "size"), "the size", e);
  TypedFun f = checker.checkFun(funOf(e), {i32()}, checker.field(path, "f"), op);
  return checker.rebuild(e, {f.fun}, {}, Type::array(f.result, generateSize(e)));
}

Value evalGenerate(EvalContext &interpreter, const Expr &e) {
  std::vector<Value> out;
  for (int64_t i = 0, n = interpreter.size(generateSize(e)); i < n; ++i)
    out.push_back(interpreter.call(funOf(e), {Scalar::ofInt(static_cast<int32_t>(i))}));
  return Value::array(std::move(out));
}

Expr typeSizeValue(TypeContext &checker, const Expr &e, const std::string &) {
  return checker.rebuild(e, {}, {}, i32());
}

Value evalSizeValue(EvalContext &interpreter, const Expr &e) {
  return Scalar::ofInt(static_cast<int32_t>(interpreter.size(sizeValueOf(e))));
}

} // namespace liftcc::rules
