// The reference interpreter on hand-checked examples of every primitive. Later
// tests trust the interpreter as their oracle, so its own semantics are pinned
// down here against values worked out by hand.

#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;

Value floats(const std::vector<float> &xs) {
  std::vector<Value> elements;
  for (float x : xs) elements.push_back(Scalar::ofFloat(x));
  return Value::array(elements);
}

Value matrix(const std::vector<std::vector<float>> &rows) {
  std::vector<Value> elements;
  for (const auto &row : rows) elements.push_back(floats(row));
  return Value::array(elements);
}

std::vector<float> flatFloats(const Value &v) {
  std::vector<float> out;
  for (const Scalar &s : v.flatten()) out.push_back(s.convertTo(ScalarKind::Float).asFloat());
  return out;
}

/// Runs a one-input program with N bound to the input length.
std::vector<float> run1(const std::function<Expr(Expr)> &body, const std::vector<float> &values) {
  // N >= 3: what slide(3) and the pads of 2 below need to type-check symbolically.
  Size n = size("N", 3);
  Expr a = input("A", array(f32(), n));
  Program typed = typeCheck(program({a}, body(a)));
  return flatFloats(interpret(typed, {{"N", int64_t(values.size())}}, {floats(values)}));
}

Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}

} // namespace

TEST_CASE("interpreter: pad modes") {
  std::vector<float> x = {1, 2, 3, 4};
  CHECK(run1([](Expr a) { return pad(2, 2, clamp, a); }, x) == std::vector<float>{1, 1, 1, 2, 3, 4, 4, 4});
  CHECK(run1([](Expr a) { return pad(2, 2, mirror, a); }, x) == std::vector<float>{2, 1, 1, 2, 3, 4, 4, 3});
  CHECK(run1([](Expr a) { return pad(2, 2, wrap, a); }, x) == std::vector<float>{3, 4, 1, 2, 3, 4, 1, 2});
  CHECK(run1([](Expr a) { return padConstant(1, 2, lit(9.0f), a); }, x) == std::vector<float>{9, 1, 2, 3, 4, 9, 9});
}

TEST_CASE("interpreter: slide, split, join, at") {
  std::vector<float> x = {1, 2, 3, 4, 5};
  CHECK(run1([](Expr a) { return join(slide(3, 1, a)); }, x) == std::vector<float>{1, 2, 3, 2, 3, 4, 3, 4, 5});
  CHECK(run1([](Expr a) { return join(slide(3, 2, a)); }, x) == std::vector<float>{1, 2, 3, 3, 4, 5});
  CHECK(run1([](Expr a) { return map([](Expr w) { return at(2, w); }, slide(3, 1, a)); }, x) ==
        std::vector<float>{3, 4, 5});
  CHECK(run1([](Expr a) { return join(split(1, a)); }, x) == x);
}

TEST_CASE("interpreter: reduce, map with a user function, iterate") {
  std::vector<float> x = {1, 2, 3, 4};
  CHECK(run1([](Expr a) { return reduce(add(), lit(10.0f), a); }, x) == std::vector<float>{20});
  CHECK(run1(
            [](Expr a) {
              return map([](Expr v) { return apply(add(), {v, v}); }, a);
            },
            x) == std::vector<float>{2, 4, 6, 8});
  CHECK(run1(
            [](Expr a) {
              return iterate(
                  3,
                  [](Expr y) {
                    return map([](Expr v) { return apply(add(), {v, v}); }, y);
                  },
                  a);
            },
            x) == std::vector<float>{8, 16, 24, 32});
}

TEST_CASE("interpreter: zip, get, tuple, generate, sizeValue") {
  std::vector<float> x = {1, 2, 3};
  CHECK(run1(
            [](Expr a) {
              return map(
                  [](Expr t) {
                    return apply(add(), {get(0, t), get(1, t)});
                  },
                  zip(a, map(
                             [](Expr v) {
                               return apply(add(), {v, lit(10.0f)});
                             },
                             a)));
            },
            x) == std::vector<float>{12, 14, 16});
  Expr toFloat =
      userFun("scale", {{"i", ScalarKind::Int}, {"n", ScalarKind::Int}}, ScalarKind::Float, "return (float)(i * n);");
  CHECK(run1(
            [&](Expr a) {
              return map([&](Expr t) { return get(0, t); }, zip(a, generate(size("N", 3), [&](Expr i) {
                                                                  return apply(toFloat, {i, sizeValue(size("N", 3))});
                                                                })));
            },
            x) == x);
  CHECK(run1(
            [&](Expr) {
              return generate(size("N", 3), [&](Expr i) { return apply(toFloat, {i, sizeValue(size("N", 3))}); });
            },
            x) == std::vector<float>{0, 3, 6});
}

TEST_CASE("interpreter: transpose and the 2D compositions") {
  Size n = size("N"), m = size("M");
  Expr a = input("A", array(f32(), n, m));
  Value in = matrix({{1, 2, 3}, {4, 5, 6}});
  std::map<std::string, int64_t> sizes{{"N", 2}, {"M", 3}};

  Program t = typeCheck(program({a}, transpose(a)));
  CHECK(t.body().typeOrThrow() == array(f32(), m, n));
  CHECK(flatFloats(interpret(t, sizes, {in})) == std::vector<float>{1, 4, 2, 5, 3, 6});

  // pad2 clamps both dimensions; slide2 gives for each of the N x M positions
  // the 3 x 3 window around it.
  Program windows = typeCheck(program({a}, slideN(2, 3, 1, padN(2, 1, 1, clamp, a))));
  CHECK(windows.body().typeOrThrow() == Type::array(Type::array(array(f32(), 3, 3), m), n));
  Value w = interpret(windows, sizes, {in});
  CHECK(flatFloats(w[0][0]) == std::vector<float>{1, 1, 2, 1, 1, 2, 4, 4, 5});
  CHECK(flatFloats(w[1][2]) == std::vector<float>{2, 3, 3, 5, 6, 6, 5, 6, 6});
}

TEST_CASE("type checker: slide and pad lengths are simplified symbolically") {
  Size n = size("N", 3);
  Expr a = input("A", array(f32(), n));
  CHECK(typeCheck(program({a}, slide(3, 1, a))).body().typeOrThrow() == array(array(f32(), 3), n - 2));
  CHECK(typeCheck(program({a}, slide(3, 1, pad(1, 1, clamp, a)))).body().typeOrThrow() == array(array(f32(), 3), n));
  CHECK(typeCheck(program({a}, join(split(1, a)))).body().typeOrThrow() == array(f32(), n));
}

} // namespace liftcc
