// Jacobi 2D, 5 points (the j2d5pt stencil of the PPCG/Lift benchmark set):
//   B[i][j] = (5 A[i-1][j] + 12 A[i][j-1] + 15 A[i][j] + 12 A[i][j+1] + 5 A[i+1][j]) / 118
// Clamp padding, as in Lift's benchmarks:
//   mapN(2, f, slideN(2, 3, 1, padN(2, 1, 1, clamp, A)))
#include "examples/stages.h"
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Expr jacobi2d5ptStep(const Expr &A) {
  Expr jacobi = userFun("jacobi5", floatParams({"n", "w", "c", "e", "s"}), ScalarKind::Float,
                        "return (5.0f * n + 12.0f * w + 15.0f * c + 12.0f * e + 5.0f * s) / 118.0f;");
  Expr f = fn(
      [&](Expr nbh) {
        return apply(jacobi, neighbours(nbh, 1, {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}}));
      },
      "nbh");
  return mapN(2, f, clampNeighbourhoods(2, 1, A));
}

Program jacobi2d5pt() {
  Expr A = gridInput("A", gridSizes(2, 3));
  return program({A}, jacobi2d5ptStep(A));
}

} // namespace liftcc::examples
