// Jacobi 1D, 3 points (PolyBench jacobi-1d):
//   B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1])
// Clamp padding at both ends. Not part of CGO'18 Table 1; the simplest
// stencil, kept as the 1D building block of the others.
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi1d3pt() {
  std::vector<Size> sizes = gridSizes(1, 3);
  Expr A = gridInput("A", sizes);
  Expr jacobi = userFun("jacobi3", floatParams({"l", "c", "r"}), ScalarKind::Float, "return 0.33333f * (l + c + r);");
  Expr f = fn([&](Expr nbh) { return apply(jacobi, neighbours(nbh, 1, {{-1}, {0}, {1}})); }, "nbh");
  return program({A}, mapN(1, f, clampNeighbourhoods(1, 1, A)));
}

} // namespace liftcc::examples
