// Data layout: split, join, slide, transpose, reverse, take, at and atDynamic only rearrange (or
// pick) elements; codegen reads through them as views (codegen/generator_views.cpp).

#include "primitives/rules.h"

#include <algorithm>

namespace liftcc::rules {

namespace {
/// One element subrange [first, first + count) of an array value.
Value subarray(const Value &in, size_t first, size_t count) {
  auto begin = in.elements().begin() + static_cast<std::ptrdiff_t>(first);
  return Value::array({begin, begin + static_cast<std::ptrdiff_t>(count)});
}
/// The typed input of join or transpose, which must be an array of arrays.
Expr checkNestedArray(TypeContext &checker, const Expr &e, const std::string &path, const std::string &expected) {
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  if (!t.arrayElement().isArray())
    checker.fail(path, std::string(e.info().name) + ": expected " + expected + ", found " + t.str());
  return in;
}
} // namespace

Expr typeSplit(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &n = splitSize(e);
  checker.requirePositive(n, checker.field(path, "n"), "the chunk size", e);
  if (!arith::provablyDivisible(t.arrayLength(), n))
    checker.fail(path, op + "(" + n.str() + ") of " + t.str() + ": length " + t.arrayLength().str() +
                           " is not provably divisible by " + n.str() + " (give concrete sizes or pad the input)");
  return checker.rebuild(e, {}, {in}, Type::array(Type::array(t.arrayElement(), n), t.arrayLength() / n));
}

Value evalSplit(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  size_t n = static_cast<size_t>(interpreter.size(splitSize(e)));
  std::vector<Value> chunks;
  chunks.reserve(n == 0 ? 0 : in.size() / n);
  for (size_t i = 0; i + n <= in.size(); i += n) chunks.push_back(subarray(in, i, n));
  return Value::array(std::move(chunks));
}

Expr typeJoin(TypeContext &checker, const Expr &e, const std::string &path) {
  Expr in = checkNestedArray(checker, e, path, "an array of arrays");
  const Type &t = in.typeOrThrow();
  const Type &inner = t.arrayElement();
  return checker.rebuild(e, {}, {in}, Type::array(inner.arrayElement(), t.arrayLength() * inner.arrayLength()));
}

Value evalJoin(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  std::vector<Value> out;
  for (const Value &row : in.elements()) out.insert(out.end(), row.elements().begin(), row.elements().end());
  return Value::array(std::move(out));
}

CheckedWindows checkWindows(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &size = slideSize(e), &step = slideStep(e);
  checker.requirePositive(size, checker.field(path, "size"), "the window size", e);
  checker.requirePositive(step, checker.field(path, "step"), "the step", e);
  if (!arith::provablyLessEq(size, t.arrayLength()))
    checker.fail(path, op + "(" + size.str() + ", " + step.str() + ") of " + t.str() +
                           ": the input is not provably at least one window long");
  arith::Expr count = (t.arrayLength() - size + step) / step;
  return {in, Type::array(Type::array(t.arrayElement(), size), count)};
}

Expr typeSlide(TypeContext &checker, const Expr &e, const std::string &path) {
  CheckedWindows w = checkWindows(checker, e, path);
  return checker.rebuild(e, {}, {w.in}, w.windows);
}

std::vector<Value> slideWindows(EvalContext &interpreter, const Expr &e, const Value &in) {
  int64_t windowSize = interpreter.size(slideSize(e)), step = interpreter.size(slideStep(e));
  int64_t count = (static_cast<int64_t>(in.size()) - windowSize + step) / step;
  std::vector<Value> windows;
  windows.reserve(static_cast<size_t>(std::max<int64_t>(0, count)));
  for (int64_t w = 0; w < count; ++w)
    windows.push_back(subarray(in, static_cast<size_t>(w * step), static_cast<size_t>(windowSize)));
  return windows;
}

Value evalSlide(EvalContext &interpreter, const Expr &e) {
  return Value::array(slideWindows(interpreter, e, interpreter.eval(inputOf(e))));
}

Expr typeTranspose(TypeContext &checker, const Expr &e, const std::string &path) {
  Expr in = checkNestedArray(checker, e, path, "a 2D array");
  const Type &t = in.typeOrThrow();
  const Type &inner = t.arrayElement();
  return checker.rebuild(e, {}, {in},
                         Type::array(Type::array(inner.arrayElement(), t.arrayLength()), inner.arrayLength()));
}

Value evalTranspose(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  size_t rows = in.size();
  size_t cols = static_cast<size_t>(interpreter.size(inputOf(e).typeOrThrow().arrayElement().arrayLength()));
  // Sized up front: the interpreter's time goes to allocating (tests run it
  // under AddressSanitizer on every kernel they check).
  std::vector<Value> out;
  out.reserve(cols);
  for (size_t j = 0; j < cols; ++j) {
    std::vector<Value> column;
    column.reserve(rows);
    for (size_t i = 0; i < rows; ++i) column.push_back(in[i][j]);
    out.push_back(Value::array(std::move(column)));
  }
  return Value::array(std::move(out));
}

Expr typeReverse(TypeContext &checker, const Expr &e, const std::string &path) {
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  Type t = in.typeOrThrow();
  return checker.rebuild(e, {}, {in}, std::move(t));
}

Value evalReverse(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  return Value::array({in.elements().rbegin(), in.elements().rend()});
}

Expr typeTake(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &n = takeCount(e);
  checker.requirePositive(n, checker.field(path, "n"), "the count", e);
  if (!arith::provablyLessEq(n, t.arrayLength()))
    checker.fail(checker.field(path, "n"), op + "(" + n.str() + ") of " + t.str() + ": " + n.str() +
                                               " is not provably at most the length " + t.arrayLength().str());
  return checker.rebuild(e, {}, {in}, Type::array(t.arrayElement(), n));
}

Value evalTake(EvalContext &interpreter, const Expr &e) {
  return subarray(interpreter.eval(inputOf(e)), 0, static_cast<size_t>(interpreter.size(takeCount(e))));
}

Expr typeAt(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &i = atIndex(e);
  if (!arith::provablyNonNegative(i) || !arith::provablyLess(i, t.arrayLength()))
    checker.fail(checker.field(path, "index"), op + ": index " + i.str() + " is not provably within [0, " +
                                                   t.arrayLength().str() + ") of " + t.str());
  return checker.rebuild(e, {}, {in}, t.arrayElement());
}

Value evalAt(EvalContext &interpreter, const Expr &e) {
  return interpreter.eval(inputOf(e))[static_cast<size_t>(interpreter.size(atIndex(e)))];
}

Expr typeAtDynamic(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr index = checker.check(dynamicIndexOf(e), checker.field(path, "index"));
  const Type &indexType = index.typeOrThrow();
  if (!indexType.isScalar() || indexType.scalarKind() != ScalarKind::Int)
    checker.fail(checker.field(path, "index"), op + ": expected an int index, found " + indexType.str());
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  Type element = in.typeOrThrow().arrayElement();
  return checker.rebuild(e, {}, {index, in}, std::move(element));
}

Value evalAtDynamic(EvalContext &interpreter, const Expr &e) {
  // Clamped into the array (the generated code clamps the same way): an
  // index out of range reads the nearest end, never outside.
  int64_t i = interpreter.eval(dynamicIndexOf(e)).scalar().asInt();
  Value in = interpreter.eval(inputOf(e));
  int64_t last = static_cast<int64_t>(in.elements().size()) - 1;
  return in[static_cast<size_t>(std::clamp<int64_t>(i, 0, last))];
}

} // namespace liftcc::rules
