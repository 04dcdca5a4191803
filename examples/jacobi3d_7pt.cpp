// Jacobi 3D, 7 points (the j3d7pt stencil of the PPCG/Lift benchmark set):
//   out = 0.161 E + 0.162 W + 0.163 S + 0.164 N + 0.165 T + 0.166 B - 1.670 C
// with E/W = x+-1, S/N = y+-1, T/B = z+-1 (grid [z][y][x]). Clamp padding.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi3d7pt() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, weightedSumStencil("jacobi3d7", A,
                                         {{"0.161f", {{0, 0, 1}}},
                                          {"0.162f", {{0, 0, -1}}},
                                          {"0.163f", {{0, 1, 0}}},
                                          {"0.164f", {{0, -1, 0}}},
                                          {"0.165f", {{1, 0, 0}}},
                                          {"0.166f", {{-1, 0, 0}}},
                                          {"-1.670f", {centre(3)}}}));
}

} // namespace liftcc::examples
