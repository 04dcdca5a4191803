// Jacobi 2D, 9 points (the j2d9pt stencil of the PPCG/Lift benchmark set):
//   B[i][j] = (7 NW + 5 N + 9 NE + 12 W + 15 C + 12 E + 9 SW + 5 S + 7 SE) / 118
// Clamp padding.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi2d9pt() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, stencil({{A, clamp}},
                              "return (7.0f * A[-1][-1] + 5.0f * A[-1][0] + 9.0f * A[-1][1] + 12.0f * A[0][-1]"
                              " + 15.0f * A[0][0] + 12.0f * A[0][1] + 9.0f * A[1][-1] + 5.0f * A[1][0]"
                              " + 7.0f * A[1][1]) / 118.0f;",
                              "jacobi9"));
}

} // namespace liftcc::examples
