// Gradient, 2D 5 points (the PPCG/Lift "gradient" benchmark):
//   out = c + 1 / sqrt(0.0001 + (c-N)^2 + (c-S)^2 + (c-W)^2 + (c-E)^2)
// Clamp padding.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program gradient() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, stencil({{A, clamp}},
                              "float dn = A[0][0] - A[-1][0];\n"
                              "float ds = A[0][0] - A[1][0];\n"
                              "float dw = A[0][0] - A[0][-1];\n"
                              "float de = A[0][0] - A[0][1];\n"
                              "return A[0][0] + 1.0f / sqrt(0.0001f + dn * dn + ds * ds + dw * dw + de * de);",
                              "gradient"));
}

} // namespace liftcc::examples
