// Heat equation, 3D 7 points (PolyBench heat-3d, one time step):
//   B = 0.125 (T - 2C + B) + 0.125 (S - 2C + N) + 0.125 (E - 2C + W) + C
// (z, then y, then x second differences). Clamp padding.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program heat() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, stencil({{A, clamp}},
                              "return 0.125f * (A[1][0][0] - 2.0f * A[0][0][0] + A[-1][0][0])"
                              " + 0.125f * (A[0][1][0] - 2.0f * A[0][0][0] + A[0][-1][0])"
                              " + 0.125f * (A[0][0][1] - 2.0f * A[0][0][0] + A[0][0][-1]) + A[0][0][0];",
                              "heat"));
}

} // namespace liftcc::examples
