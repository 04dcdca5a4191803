// Vectors: asVector groups consecutive scalars into vectors (float<4>),
// asScalar spreads them out again. Both only reindex, so codegen reads
// through asVector (vloadN where the lanes are contiguous in memory) and
// writes through asScalar (vstoreN); see codegen/generator_vectors.cpp.

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeAsVector(TypeContext &checker, const Expr &e, const std::string &path) {
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &width = vectorWidthOf(e);
  const std::string widthPath = checker.field(path, "width");
  if (!width.isConstant() || !isVectorWidth(width.constant()))
    checker.fail(widthPath, "asVector: the width must be 2, 4, 8 or 16, found " + width.str());
  const Type &element = t.arrayElement();
  if (!element.isScalar() || (element.scalarKind() != ScalarKind::Float && element.scalarKind() != ScalarKind::Double))
    checker.fail(path, "asVector: expected an array of float or double, found " + t.str());
  if (!arith::provablyDivisible(t.arrayLength(), width))
    checker.fail(path, "asVector(" + width.str() + ") of " + t.str() + ": length " + t.arrayLength().str() +
                           " is not provably divisible by " + width.str());
  Type vector = Type::vector(element.scalarKind(), static_cast<int>(width.constant()));
  return checker.rebuild(e, {}, {in}, Type::array(vector, t.arrayLength() / width));
}

Value evalAsVector(EvalContext &interpreter, const Expr &e) {
  // The interpreter keeps a vector as the array of its lanes (core/interp/value.h).
  Value in = interpreter.eval(inputOf(e));
  size_t width = static_cast<size_t>(interpreter.size(vectorWidthOf(e)));
  std::vector<Value> vectors;
  for (size_t i = 0; i + width <= in.size(); i += width) {
    auto begin = in.elements().begin() + static_cast<std::ptrdiff_t>(i);
    vectors.push_back(Value::array({begin, begin + static_cast<std::ptrdiff_t>(width)}));
  }
  return Value::array(std::move(vectors));
}

Expr typeAsScalar(TypeContext &checker, const Expr &e, const std::string &path) {
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  if (!t.arrayElement().isVector()) checker.fail(path, "asScalar: expected an array of vectors, found " + t.str());
  const Type &vector = t.arrayElement();
  return checker.rebuild(e, {}, {in},
                         Type::array(Type::scalar(vector.scalarKind()), t.arrayLength() * vector.vectorWidth()));
}

Value evalAsScalar(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  std::vector<Value> lanes;
  for (const Value &vector : in.elements())
    lanes.insert(lanes.end(), vector.elements().begin(), vector.elements().end());
  return Value::array(std::move(lanes));
}

} // namespace liftcc::rules
