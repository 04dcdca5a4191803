// Poisson, 3D 19 points (the PPCG/Lift "poisson" benchmark):
//   out = 2.666 C - 0.166 * (6 face neighbours) - 0.0833 * (12 edge neighbours)
// Face neighbours differ from the centre in one coordinate, edge neighbours
// in two (the 3x3x3 box without its 8 corners). Clamp padding.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

#include <cstdlib>

namespace liftcc::examples {

using namespace api;

namespace {
/// Points of the 3x3x3 box with exactly `nonZero` non-zero coordinates, row-major.
std::vector<Offset> boxPointsWithNonZero(int nonZero) {
  std::vector<Offset> out;
  for (const Offset &o : boxOffsets(3, 1))
    if (std::abs(o[0]) + std::abs(o[1]) + std::abs(o[2]) == nonZero) out.push_back(o);
  return out;
}
} // namespace

Program poisson() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, weightedSumStencil("poisson19", A,
                                         {{"2.666f", {centre(3)}},
                                          {"-0.166f", boxPointsWithNonZero(1)},
                                          {"-0.0833f", boxPointsWithNonZero(2)}}));
}

} // namespace liftcc::examples
