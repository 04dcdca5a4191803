#pragma once
// A small iterated program for the export suites.

#include "primitives/api.h"

#include <cstdint>
#include <string>

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

/// A two-level wave in 2D as a JSON program, iterate(count, (u, v) -> (2u - v + c lap(u), u), (U, V)):
/// its second component is carried over (codegen::Kernel::Iteration::carriedFrom).
inline std::string waveTupleJson(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "U", "type": "[[float]M]N"}, {"name": "V", "type": "[[float]M]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["u", "v"],
   "body": {"op": "tuple", "in": [{"op": "stencil", "name": "wave", "grids": {"u": "clamp", "v": "pointwise"},
     "body": "return 2.0f*u[0][0] - v[0][0] + 0.1f*(u[-1][0] + u[1][0] + u[0][-1] + u[0][1] - 4.0f*u[0][0]);"},
     {"param": "u"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "U"}, {"param": "V"}]}}})";
}

} // namespace liftcc::test
