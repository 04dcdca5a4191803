// The point interpreter computes the whole value of a closed computation
// (an iterate or a reduction with nothing but the program's inputs bound)
// once per interpretPoints call and selects every point from it. Each point
// must still be what the whole interpretation holds there, also where the
// same computation sits inside a map's function (not closed: evaluated per
// element) and where two points share one cached value.
//
// A stage bound by an applied lambda, `(\s. B)(S)` (how a JSON program names
// an earlier stage), is read element by element where B reads it, each
// element once: before, every point evaluated the whole of S and of B, so
// checking a two-stage 4096^2 kernel never finished within a budget.

#include "core/interp/interpreter.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "tests/point_check_support.h"

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <span>
#include <vector>

namespace liftcc {
namespace {

using namespace api;

Expr average3() {
  return userFun("average3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return (a + 2.0f * b + c) / 4.0f;");
}
Expr divide() {
  return userFun("divide", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a / b;");
}
Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}

/// One 1D step: the 3-point average with a clamped boundary.
Expr step(Expr x) {
  return map(fn([](Expr w) {
               return apply(average3(), {at(0, w), at(1, w), at(2, w)});
             }),
             slide(3, 1, pad(1, 1, clamp, std::move(x))));
}

void checkEveryPoint(const Program &built, const std::map<std::string, int64_t> &sizes) {
  Program typed = typeCheck(built, sizes);
  std::vector<Value> inputs = randomInputs(typed, sizes, 3);
  Value whole = interpret(typed, sizes, inputs);
  const Type &type = typed.body().typeOrThrow();
  std::vector<ResultPoint> points = samplePoints(type, sizes, 4096, 1);
  REQUIRE(points.size() > 1);
  std::vector<Value> values = test::interpretPointsOfInputs(typed, sizes, inputs, points);
  if (auto i = test::firstPointDifferingFromWhole(type, sizes, points, values, whole))
    FAIL_CHECK("point " << *i << " differs from the whole interpretation");
}

} // namespace

TEST_CASE("interp points: a closed iterate or reduction is computed once, every point as the whole") {
  Expr a = input("A", array(f32(), size("N")));
  std::map<std::string, int64_t> sizes{{"N", 37}};
  SUBCASE("iterate of the input") {
    checkEveryPoint(program({a}, iterate(
                                     5, [](Expr x) { return step(x); }, a)),
                    sizes);
  }
  SUBCASE("a step after an iterate") {
    checkEveryPoint(program({a}, step(iterate(
                                     3, [](Expr x) { return step(x); }, a))),
                    sizes);
  }
  SUBCASE("a closed reduction beside the input") {
    // zip(A, the sums of A's windows): the sums are closed, each row of
    // the zip reads them.
    Expr sums = join(map(fn([](Expr w) { return reduce(add(), lit(0.0f), w); }), slide(3, 1, pad(1, 1, clamp, a))));
    checkEveryPoint(program({a}, map(fn([](Expr p) {
                                       return apply(add(), {get(0, p), get(1, p)});
                                     }),
                                     zip({a, sums}))),
                    sizes);
  }
  SUBCASE("an iterate inside a map's function (not closed)") {
    Expr m = input("R", array(array(f32(), size("M")), size("N")));
    checkEveryPoint(program({m}, map(fn([](Expr row) {
                                       return iterate(
                                           2, [](Expr x) { return step(x); }, row);
                                     }),
                                     m)),
                    {{"N", 6}, {"M", 9}});
  }
}

TEST_CASE("interp points: a stage bound by an applied lambda is read element by element") {
  Expr a = input("A", array(f32(), size("N")));
  std::map<std::string, int64_t> sizes{{"N", 41}};
  SUBCASE("two stages") {
    checkEveryPoint(program({a}, apply(fn([](Expr s) { return step(s); }, "s"), {step(a)})), sizes);
  }
  SUBCASE("three stages, the inner application inside the outer one's body") {
    Expr inner = fn([](Expr t) { return step(t); }, "t");
    checkEveryPoint(program({a}, apply(fn([inner](Expr s) { return apply(inner, {step(s)}); }, "s"), {step(a)})),
                    sizes);
  }
  SUBCASE("one lambda node applied to two different stages") {
    // The same nodes mean different values in the two applications: nothing
    // may be memoised across them.
    Expr inner = fn([](Expr t) { return step(t); }, "t");
    Expr outer = fn([inner](Expr s) { return apply(inner, {step(s)}); }, "s");
    Expr both = zip({apply(outer, {a}), apply(outer, {step(step(a))})});
    checkEveryPoint(program({a}, map(fn([](Expr p) { return apply(add(), {get(0, p), get(1, p)}); }), both)), sizes);
  }
  SUBCASE("a stage inside a map's function (bound per element)") {
    Expr m = input("R", array(array(f32(), size("M")), size("N")));
    checkEveryPoint(
        program({m}, map(fn([](Expr row) { return apply(fn([](Expr s) { return step(s); }, "s"), {step(row)}); }), m)),
        {{"N", 6}, {"M", 9}});
  }
}

/// Every element of x divided by the sum of x: a reduction read inside a
/// map's function, by every element.
Expr normalised(Expr x) {
  return map(fn([x](Expr e) { return apply(divide(), {e, at(0, reduce(add(), lit(0.0f), x))}); }, "e"), x);
}

TEST_CASE("interp points: a reduction of the inputs or of a top-level stage is computed once, wherever it is read") {
  Expr a = input("A", array(f32(), size("N")));
  std::map<std::string, int64_t> sizes{{"N", 23}};
  SUBCASE("of an input, inside a map's function") { checkEveryPoint(program({a}, normalised(a)), sizes); }
  SUBCASE("of a stage bound by an applied lambda") {
    checkEveryPoint(program({a}, apply(fn([](Expr s) { return normalised(s); }, "s"), {step(a)})), sizes);
  }
  SUBCASE("one lambda node applied to two different stages") {
    Expr f = fn([](Expr s) { return normalised(s); }, "s");
    Expr both = zip({apply(f, {step(a)}), apply(f, {step(step(step(a)))})});
    checkEveryPoint(program({a}, map(fn([](Expr p) { return apply(add(), {get(0, p), get(1, p)}); }), both)), sizes);
  }
}

TEST_CASE("interp points: checking a two-stage grid costs its points, not the grid per point") {
  // 1024 x 1024, every border point and 256 random ones: reading the two
  // stages whole for each point (the old way) is some 10^9 interpreter steps;
  // element by element it is a few thousand per point. The deadline only
  // tells the two apart; it is no performance figure.
  Expr a = input("A", array(array(f32(), size("M")), size("N")));
  auto blur = [](Expr x) { return map(fn([](Expr row) { return step(row); }), std::move(x)); };
  Program typed = typeCheck(program({a}, apply(fn([blur](Expr s) { return blur(s); }, "s"), {blur(a)})),
                            {{"N", 1024}, {"M", 1024}});
  std::map<std::string, int64_t> sizes{{"N", 1024}, {"M", 1024}};
  std::vector<ResultPoint> points = samplePoints(typed.body().typeOrThrow(), sizes, 256, 1);
  std::vector<std::byte> bytes(size_t(1024) * 1024 * sizeof(float));
  std::vector<std::span<const std::byte>> inputs{bytes};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<Value> values;
  CHECK_NOTHROW(values = interpretPoints(typed, sizes, inputs, points, deadline));
  CHECK(values.size() == points.size());
}

TEST_CASE("interp points: a sum every element reads is summed once, not once per point") {
  // 2^21 elements, each divided by their sum: summing again for each of the
  // some 270 points is over 5 * 10^8 interpreter steps; the deadline only
  // tells the two apart, it is no performance figure.
  Expr a = input("A", array(f32(), size("N")));
  std::map<std::string, int64_t> sizes{{"N", int64_t(1) << 21}};
  Program typed = typeCheck(program({a}, normalised(a)), sizes);
  std::vector<ResultPoint> points = samplePoints(typed.body().typeOrThrow(), sizes, 256, 1);
  std::vector<float> ones(size_t(1) << 21, 1.0f);
  std::vector<std::span<const std::byte>> inputs{std::as_bytes(std::span<const float>(ones))};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<Value> values;
  CHECK_NOTHROW(values = interpretPoints(typed, sizes, inputs, points, deadline));
  REQUIRE(values.size() == points.size());
  CHECK(values.front().scalar().toDouble() == doctest::Approx(1.0 / double(1 << 21)));
}

} // namespace liftcc
