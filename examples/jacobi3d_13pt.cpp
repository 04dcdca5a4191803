// Jacobi 3D, 13 points: the radius-2 star (centre, 6 points at distance 1,
// 6 at distance 2) as a weighted average whose weights sum to 1:
//   out = 0.25 C + 0.1 * (sum at distance 1) + 0.025 * (sum at distance 2)
// The Table 1 benchmark only fixes the shape; these weights are our choice.
// Clamp padding of width 2.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi3d13pt() {
  std::vector<Size> sizes = gridSizes(3, 5);
  Expr A = gridInput("A", sizes);
  return program({A}, weightedSumStencil("jacobi3d13", A,
                                         {{"0.25f", {centre(3)}}, {"0.1f", axisOffsets(3, 1)}, {"0.025f", axisOffsets(3, 2)}}));
}

} // namespace liftcc::examples
