// The 2D wave equation u_tt = c^2 (u_xx + u_yy), one leapfrog step over the
// two time levels it needs, the current grid U and the previous one Uprev:
//   Unext = 2 U - Uprev + c2 (N + S + W + E - 4 U),  c2 = (c dt / h)^2 = 0.25
// (below the 2D stability limit 0.5). The boundary is a fixed zero
// displacement (padConstant 0). The result holds both time levels the next
// step needs, (Unext, U), per point: an array of pairs that the kernels write
// as two grids (structure of arrays), so a host swaps buffers between steps.
//
//   mapN(2, m -> (wave(nbh(m), Uprev(m)), centre(m)),
//        zipN(2, {slideN(2, 3, 1, padConstantN(2, 1, 1, 0, U)), Uprev}))
#include "examples/multistage_examples.h"
#include "examples/stencil_helpers.h"

namespace liftcc::examples {

using namespace api;

Program wave2d() {
  std::vector<Size> sizes = gridSizes(2, 1);
  Expr U = gridInput("U", sizes);
  Expr Uprev = gridInput("Uprev", sizes);
  Expr leapfrog = userFun("waveLeapfrog", floatParams({"c", "n", "s", "w", "e", "p"}), ScalarKind::Float,
                          "const float c2 = 0.25f;\n"
                          "return 2.0f * c - p + c2 * (n + s + w + e - 4.0f * c);");
  Expr f = fn(
      [&](Expr m) {
        Expr nbh = get(0, m);
        std::vector<Expr> args = neighbours(nbh, 1, {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}});
        args.push_back(get(1, m));
        return tuple({apply(leapfrog, args), neighbour(nbh, 1, centre(2))});
      },
      "m");
  return program({U, Uprev}, mapN(2, f, zipN(2, {constantNeighbourhoods(2, 1, 0.0f, U), Uprev})));
}

} // namespace liftcc::examples
