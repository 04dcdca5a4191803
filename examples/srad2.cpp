// Rodinia SRAD, kernel 2: the image update, over the image J and the
// diffusion coefficients C of kernel 1 (srad2_kernel.cl):
//   D = C[c] dN + C[S] dS + C[c] dW + C[E] dE,   J' = J + 0.25 lambda D
// The coefficient stencil has 3 points (centre, south, east). Rodinia reads
// the derivatives dN..dE stored by kernel 1; like Lift we recompute them
// from a 5-point neighbourhood of J, so both grids are padded and slid:
//   zipN(2, {slideN(2, 3, 1, padN(2, 1, 1, clamp, J)), slideN(2, 3, 1, padN(2, 1, 1, clamp, C))})
// Clamp boundaries as Rodinia's iS/jE index arrays; lambda = 0.5 (Rodinia's
// default), all literals float.
#include "examples/stages.h"
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Expr sradUpdate(const Expr &J, const Expr &C) {
  return stencil({{"J", J, clamp}, {"C", C, clamp}},
                 "const float lambda = 0.5f;\n"
                 "float dN = J[-1][0] - J[0][0];\n"
                 "float dS = J[1][0] - J[0][0];\n"
                 "float dW = J[0][-1] - J[0][0];\n"
                 "float dE = J[0][1] - J[0][0];\n"
                 "float d = C[0][0] * dN + C[1][0] * dS + C[0][0] * dW + C[0][1] * dE;\n"
                 "return J[0][0] + 0.25f * lambda * d;",
                 "sradUpdate");
}

Program srad2() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr J = gridInput("J", sizes);
  Expr C = gridInput("C", sizes);
  return program({J, C}, sradUpdate(J, C));
}

} // namespace liftcc::examples
