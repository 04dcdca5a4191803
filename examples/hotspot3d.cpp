// Rodinia Hotspot3D, 7 points over the temperature grid plus the power grid
// at the centre. Rodinia's kernel (hotspotKernel.cl), grid [z][y][x]:
//   T' = cc T + cw T[W] + ce T[E] + cs T[S] + cn T[N] + cb T[B] + ct T[T]
//        + stepDivCap * P + ct * amb
// with W/E = x-+1, N/S = y-+1, B/T = z-+1, each clamped to the centre at the
// border, which is pad(clamp). Constants (inlined as in Lift's Hotspot3D)
// are Rodinia's derivation for its 512 x 512 x 8 input:
//   ce = cw = cn = cs = stepDivCap / Rx = 0.03413333
//   ct = cb = stepDivCap / Rz = 0.00053333
//   cc = 1 - (2 ce + 2 cn + 3 ct) = 0.86186665, stepDivCap = 0.3413333, amb = 80.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program hotspot3d() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr T = gridInput("T", sizes);
  Expr P = gridInput("P", sizes);
  return program({T, P}, stencil({{T, clamp}, {P, StencilBoundary::pointWise()}},
                                  "const float cc = 0.86186665f;\n"
                                  "const float cw = 0.03413333f;\n"
                                  "const float ce = 0.03413333f;\n"
                                  "const float cs = 0.03413333f;\n"
                                  "const float cn = 0.03413333f;\n"
                                  "const float cb = 0.00053333f;\n"
                                  "const float ct = 0.00053333f;\n"
                                  "const float stepDivCap = 0.3413333f;\n"
                                  "const float ambTemp = 80.0f;\n"
                                  "return cc * T[0][0][0] + cw * T[0][0][-1] + ce * T[0][0][1] + cs * T[0][1][0]"
                                  " + cn * T[0][-1][0] + cb * T[-1][0][0] + ct * T[1][0][0]"
                                  " + stepDivCap * P[0][0][0] + ct * ambTemp;",
                                  "hotspot3d"));
}

} // namespace liftcc::examples
