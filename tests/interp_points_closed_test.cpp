// The point interpreter computes the whole value of a closed computation
// (an iterate or a reduction with nothing but the program's inputs bound)
// once per interpretPoints call and selects every point from it. Each point
// must still be what the whole interpretation holds there, also where the
// same computation sits inside a map's function (not closed: evaluated per
// element) and where two points share one cached value.

#include "core/interp/interpreter.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "tests/point_check_support.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;

Expr average3() {
  return userFun("average3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return (a + 2.0f * b + c) / 4.0f;");
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

} // namespace liftcc
