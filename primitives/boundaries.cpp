// Boundary handling: pad (reindexing: clamp, mirror, wrap) and padConstant
// (a scalar outside the input).

#include "primitives/rules.h"

#include <algorithm>

namespace liftcc::rules {

namespace {
/// A value of `type` with every scalar equal to `fill` (padConstant).
Value broadcast(EvalContext &interpreter, const Type &type, const Scalar &fill) {
  if (type.isScalar()) return fill;
  if (!type.isArray()) throw InterpreterError("padConstant: cannot fill a tuple");
  std::vector<Value> elements(static_cast<size_t>(interpreter.size(type.arrayLength())),
                              broadcast(interpreter, type.arrayElement(), fill));
  return Value::array(std::move(elements));
}

/// Index into an array of length n for position i of its padded form.
int64_t reindex(PadMode mode, int64_t i, int64_t n) {
  switch (mode) {
  case PadMode::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
  case PadMode::Mirror: return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i);
  case PadMode::Wrap: return ((i % n) + n) % n;
  }
  return i;
}

/// The type rule of both: `value` is padConstant's typed value operand.
Expr typePadding(TypeContext &checker, const Expr &e, const std::string &path, const std::optional<Expr> &value) {
  const std::string op(e.info().name);
  bool constant = value.has_value();
  Expr in = checker.checkArray(inputOf(e), checker.field(path, "in"), e);
  const Type &t = in.typeOrThrow();
  const arith::Expr &l = padLeft(e), &r = padRight(e);
  checker.requireNonNegative(l, checker.field(path, "left"), "the left padding", e);
  checker.requireNonNegative(r, checker.field(path, "right"), "the right padding", e);
  if (constant && value->typeOrThrow() != t.innermost())
    checker.fail(checker.field(path, "value"), op + ": the padding value must have the element type " +
                                                   t.innermost().str() + ", found " + value->typeOrThrow().str());
  if (!constant && e.padMode() != PadMode::Clamp &&
      !(arith::provablyLessEq(l, t.arrayLength()) && arith::provablyLessEq(r, t.arrayLength())))
    checker.fail(path, op + " " + std::string(padModeName(e.padMode())) + ": padding (" + l.str() + ", " + r.str() +
                           ") must be provably at most the input length " + t.arrayLength().str());
  std::vector<Expr> args;
  if (constant) args.push_back(*value);
  args.push_back(in);
  return checker.rebuild(e, {}, std::move(args), Type::array(t.arrayElement(), l + t.arrayLength() + r));
}
} // namespace

Expr typePad(TypeContext &checker, const Expr &e, const std::string &path) {
  return typePadding(checker, e, path, std::nullopt);
}

Value evalPad(EvalContext &interpreter, const Expr &e) {
  Value in = interpreter.eval(inputOf(e));
  int64_t l = interpreter.size(padLeft(e)), r = interpreter.size(padRight(e));
  int64_t n = static_cast<int64_t>(in.size());
  std::vector<Value> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(0, l + n + r)));
  for (int64_t i = -l; i < n + r; ++i) out.push_back(in[static_cast<size_t>(reindex(e.padMode(), i, n))]);
  return Value::array(std::move(out));
}

Expr typePadConstant(TypeContext &checker, const Expr &e, const std::string &path) {
  return typePadding(checker, e, path, checker.check(padValue(e), checker.field(path, "value")));
}

Value evalPadConstant(EvalContext &interpreter, const Expr &e) {
  Scalar fill = interpreter.eval(padValue(e)).scalar();
  Value in = interpreter.eval(inputOf(e));
  int64_t l = interpreter.size(padLeft(e)), r = interpreter.size(padRight(e));
  Value border = broadcast(interpreter, inputOf(e).typeOrThrow().arrayElement(), fill);
  std::vector<Value> out(static_cast<size_t>(l), border);
  out.insert(out.end(), in.elements().begin(), in.elements().end());
  out.insert(out.end(), static_cast<size_t>(r), border);
  return Value::array(std::move(out));
}

} // namespace liftcc::rules
