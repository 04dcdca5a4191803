#pragma once
// A small iterated program for the export suites.

#include "primitives/api.h"

namespace liftcc::test {

/// iterate(iterations, 3-point average with clamped borders, A), already lowered to mapGlb.
inline Program iteratedAverage(int iterations) {
  using namespace api;
  Size n = size("N", 1);
  Expr a = input("A", array(f32(), n));
  Expr avg3 = userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return (a + b + c) / 3.0f;");
  auto step = [&](Expr x) {
    return mapGlb(
        0,
        [&](Expr w) {
          return apply(avg3, {at(0, w), at(1, w), at(2, w)});
        },
        slide(3, 1, pad(1, 1, clamp, x)));
  };
  return program({a}, iterate(iterations, step, a));
}

} // namespace liftcc::test
