// Jacobi 2D, 9 points (the j2d9pt stencil of the PPCG/Lift benchmark set):
//   B[i][j] = (7 NW + 5 N + 9 NE + 12 W + 15 C + 12 E + 9 SW + 5 S + 7 SE) / 118
// Clamp padding.
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi2d9pt() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr A = gridInput("A", sizes);
  Expr jacobi = userFun("jacobi9", floatParams({"nw", "n", "ne", "w", "c", "e", "sw", "s", "se"}), ScalarKind::Float,
                        "return (7.0f * nw + 5.0f * n + 9.0f * ne + 12.0f * w + 15.0f * c + 12.0f * e"
                        " + 9.0f * sw + 5.0f * s + 7.0f * se) / 118.0f;");
  // The 3x3 box in row-major order is exactly nw, n, ne, w, c, e, sw, s, se.
  Expr f = fn([&](Expr nbh) { return apply(jacobi, neighbours(nbh, 1, boxOffsets(2, 1))); }, "nbh");
  return program({A}, mapN(2, f, clampNeighbourhoods(2, 1, A)));
}

} // namespace liftcc::examples
