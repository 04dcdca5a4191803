// map and its low-level forms (mapGlb, mapWrg, mapLcl, mapSeq, mapSeqUnroll):
// f applied to every element. The low-level forms only fix how codegen
// executes the map; their type and meaning are map's.

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeMap(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  if (e.info().attr == AttrKind::Dim && (mapDim(e) < 0 || mapDim(e) > 2))
    checker.fail(path + "/dim", op + ": dimension must be 0, 1 or 2, found " + std::to_string(mapDim(e)));
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  TypedFun f = checker.checkFun(funOf(e), {t.arrayElement()}, checker.field(path, "f"), op);
  return checker.rebuild(e, {f.fun}, {in}, Type::array(f.result, t.arrayLength()));
}

Value evalMap(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  std::vector<Value> out;
  out.reserve(in.size());
  for (const Value &x : in.elements()) out.push_back(interpreter.call(funOf(e), {x}));
  return Value::array(std::move(out));
}

} // namespace liftcc::rules
