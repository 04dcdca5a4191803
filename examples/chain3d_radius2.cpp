// A 3D chain of two high-order (radius 2) stencils, as in the multi-statement
// stencils of seismic and climate codes, returning both fields:
//   B = 0.5 C + 0.0625 (distance 1) + 0.0208333 (distance 2)   (13-point star of A)
//   L = -7.5 C + 1.3333334 (distance 1) - 0.083333336 (distance 2)  (4th-order Laplacian of B)
// (the Laplacian's weights are the 1D 4th-order second difference
// -1/12, 4/3, -5/2, 4/3, -1/12 on each of the three axes). Clamped
// boundaries. B is read by L through a radius-2 neighbourhood, so it is a
// global temporary that is also the first result.
#include "examples/multistage_examples.h"
#include "examples/stencil_helpers.h"

namespace liftcc::examples {

using namespace api;

Program chain3dRadius2() {
  Expr A = gridInput("A", gridSizes(3, 5));
  Expr smooth = fn(
      [](Expr nbh) {
        return weightedSum("smooth13", nbh, 2,
                           {{"0.5f", {centre(3)}}, {"0.0625f", axisOffsets(3, 1)}, {"0.0208333f", axisOffsets(3, 2)}});
      },
      "nbh");
  Expr laplacian = fn(
      [](Expr nbh) {
        return weightedSum(
            "laplacian4", nbh, 2,
            {{"-7.5f", {centre(3)}}, {"1.3333334f", axisOffsets(3, 1)}, {"-0.083333336f", axisOffsets(3, 2)}});
      },
      "nbh");
  Expr B = mapN(3, smooth, clampNeighbourhoods(3, 2, A));
  return program({A}, tuple({B, mapN(3, laplacian, clampNeighbourhoods(3, 2, B))}));
}

} // namespace liftcc::examples
