// Heat equation, 3D 7 points (PolyBench heat-3d, one time step):
//   B = 0.125 (T - 2C + B) + 0.125 (S - 2C + N) + 0.125 (E - 2C + W) + C
// (z, then y, then x second differences). Clamp padding.
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program heat() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr A = gridInput("A", sizes);
  Expr heatFun = userFun("heat", floatParams({"c", "t", "b", "s", "n", "e", "w"}), ScalarKind::Float,
                         "return 0.125f * (t - 2.0f * c + b) + 0.125f * (s - 2.0f * c + n)"
                         " + 0.125f * (e - 2.0f * c + w) + c;");
  Expr f = fn(
      [&](Expr nbh) {
        return apply(
            heatFun,
            neighbours(nbh, 1, {centre(3), {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}));
      },
      "nbh");
  return program({A}, mapN(3, f, clampNeighbourhoods(3, 1, A)));
}

} // namespace liftcc::examples
