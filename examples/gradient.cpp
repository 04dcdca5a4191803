// Gradient, 2D 5 points (the PPCG/Lift "gradient" benchmark):
//   out = c + 1 / sqrt(0.0001 + (c-N)^2 + (c-S)^2 + (c-W)^2 + (c-E)^2)
// Clamp padding.
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program gradient() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr A = gridInput("A", sizes);
  Expr grad = userFun("gradient", floatParams({"c", "n", "s", "w", "e"}), ScalarKind::Float,
                      "float dn = c - n;\n"
                      "float ds = c - s;\n"
                      "float dw = c - w;\n"
                      "float de = c - e;\n"
                      "return c + 1.0f / sqrt(0.0001f + dn * dn + ds * ds + dw * dw + de * de);");
  Expr f = fn(
      [&](Expr nbh) {
        return apply(grad, neighbours(nbh, 1, {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}));
      },
      "nbh");
  return program({A}, mapN(2, f, clampNeighbourhoods(2, 1, A)));
}

} // namespace liftcc::examples
