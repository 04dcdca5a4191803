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
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Expr sradUpdate(const Expr &J, const Expr &C) {
  Expr update = userFun("sradUpdate", floatParams({"jc", "jn", "js", "jw", "je", "cc", "cs", "ce"}), ScalarKind::Float,
                        "const float lambda = 0.5f;\n"
                        "float dN = jn - jc;\n"
                        "float dS = js - jc;\n"
                        "float dW = jw - jc;\n"
                        "float dE = je - jc;\n"
                        "float d = cc * dN + cs * dS + cc * dW + ce * dE;\n"
                        "return jc + 0.25f * lambda * d;");
  Expr f = fn(
      [&](Expr m) {
        std::vector<Expr> args = neighbours(get(0, m), 1, {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}});
        for (const Expr &v : neighbours(get(1, m), 1, {{0, 0}, {1, 0}, {0, 1}})) args.push_back(v);
        return apply(update, args);
      },
      "m");
  return mapN(2, f, zipN(2, {clampNeighbourhoods(2, 1, J), clampNeighbourhoods(2, 1, C)}));
}

Program srad2() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr J = gridInput("J", sizes);
  Expr C = gridInput("C", sizes);
  return program({J, C}, sradUpdate(J, C));
}

} // namespace liftcc::examples
