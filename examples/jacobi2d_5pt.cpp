// Jacobi 2D, 5 points (the j2d5pt stencil of the PPCG/Lift benchmark set):
//   B[i][j] = (5 A[i-1][j] + 12 A[i][j-1] + 15 A[i][j] + 12 A[i][j+1] + 5 A[i+1][j]) / 118
// Clamp padding, as in Lift's benchmarks:
//   mapN(2, f, slideN(2, 3, 1, padN(2, 1, 1, clamp, A)))
#include "examples/stages.h"
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Expr jacobi2d5ptStep(const Expr &grid) {
  // The body names the grid as the program does (the input A, or the
  // iterated version's lambda parameter), so the JSON writer can print the
  // stencil form for either.
  auto A = [&](const Offset &o) { return cell(grid.name(), o); };
  return stencil({{grid, clamp}},
                 "return (5.0f * " + A({-1, 0}) + " + 12.0f * " + A({0, -1}) + " + 15.0f * " + A({0, 0}) +
                     " + 12.0f * " + A({0, 1}) + " + 5.0f * " + A({1, 0}) + ") / 118.0f;",
                 "jacobi5");
}

Program jacobi2d5pt() {
  Expr A = gridInput("A", gridSizes(2, 3));
  return program({A}, jacobi2d5ptStep(A));
}

} // namespace liftcc::examples
