// SHOC Stencil2D: a 9-point weighted average,
//   out = wCenter * c + wCardinal * (N + S + W + E) + wDiagonal * (NW + NE + SW + SE)
// with SHOC's default weights wCenter = 0.25, wCardinal = 0.15,
// wDiagonal = 0.05 (the neighbour order of SHOC's CPU reference).
// SHOC keeps a fixed halo; like Lift's version we clamp at the border instead.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program stencil2d() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, weightedSumStencil("stencil2d", A,
                                         {{"0.25f", {centre(2)}},
                                          {"0.15f", {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}},
                                          {"0.05f", {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}}}));
}

} // namespace liftcc::examples
