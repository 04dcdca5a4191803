// Tuples: zip (arrays of equal length -> array of tuples), tuple (values ->
// tuple) and get (a tuple's component).

#include "primitives/rules.h"

namespace liftcc::rules {

Expr typeZip(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  std::vector<Expr> ins;
  std::vector<Type> elements;
  for (size_t i = 0; i < inputsOf(e).size(); ++i) {
    ins.push_back(checker.checkArray(inputsOf(e)[i], path + argPath(e, i), e));
    const Type &t = ins.back().typeOrThrow();
    const Type &first = ins.front().typeOrThrow();
    if (t.arrayLength() != first.arrayLength())
      checker.fail(path + "/in/" + std::to_string(i), op + ": input " + std::to_string(i) + " has length " +
                                                          t.arrayLength().str() + " but input 0 has length " +
                                                          first.arrayLength().str());
    elements.push_back(t.arrayElement());
  }
  arith::Expr n = ins.front().typeOrThrow().arrayLength();
  return checker.rebuild(e, {}, std::move(ins), Type::array(Type::tuple(std::move(elements)), n));
}

Value evalZip(EvalContext &interpreter, const Expr &e) {
  std::vector<Value> ins;
  for (const Expr &a : inputsOf(e)) ins.push_back(interpreter.eval(a));
  std::vector<Value> out;
  out.reserve(ins.front().size());
  for (size_t i = 0; i < ins.front().size(); ++i) {
    std::vector<Value> t;
    t.reserve(ins.size());
    for (const Value &in : ins) t.push_back(in[i]);
    out.push_back(Value::tuple(std::move(t)));
  }
  return Value::array(std::move(out));
}

Expr typeTuple(TypeContext &checker, const Expr &e, const std::string &path) {
  std::vector<Expr> ins;
  std::vector<Type> types;
  for (size_t i = 0; i < inputsOf(e).size(); ++i) {
    ins.push_back(checker.check(inputsOf(e)[i], path + "/in/" + std::to_string(i)));
    types.push_back(ins.back().typeOrThrow());
  }
  return checker.rebuild(e, {}, std::move(ins), Type::tuple(std::move(types)));
}

Value evalTuple(EvalContext &interpreter, const Expr &e) {
  std::vector<Value> elements;
  for (const Expr &a : inputsOf(e)) elements.push_back(interpreter.eval(a));
  return Value::tuple(std::move(elements));
}

Expr typeGet(TypeContext &checker, const Expr &e, const std::string &path) {
  const std::string op(e.info().name);
  Expr in = checker.check(inputOf(e), checker.field(path, "in"));
  const Type &t = in.typeOrThrow();
  if (!t.isTuple()) checker.fail(checker.field(path, "in"), op + ": expected a tuple, found " + t.str());
  if (getIndex(e) < 0 || static_cast<size_t>(getIndex(e)) >= t.tupleElements().size())
    checker.fail(checker.field(path, "index"),
                 op + ": index " + std::to_string(getIndex(e)) + " out of range for " + t.str());
  return checker.rebuild(e, {}, {in}, t.tupleElements()[static_cast<size_t>(getIndex(e))]);
}

Value evalGet(EvalContext &interpreter, const Expr &e) {
  return interpreter.eval(inputOf(e))[static_cast<size_t>(getIndex(e))];
}

} // namespace liftcc::rules
