// Rodinia Hotspot (2D), 5 points over the temperature grid plus the power
// grid at the centre. Rodinia's kernel (hotspot_kernel.cl):
//   T' = T + step/Cap * (P + (T[S] + T[N] - 2T) / Ry + (T[E] + T[W] - 2T) / Rx + (amb - T) / Rz)
// with indices clamped at the chip border, which is pad(clamp).
// Constants (inlined as in Lift's Hotspot2D) are Rodinia's derivation for a
// 1024x1024 grid: t_chip = 0.0005, chip 0.016 x 0.016, K_SI = 100,
// FACTOR_CHIP = 0.5, SPEC_HEAT_SI = 1.75e6, MAX_PD = 3e6, PRECISION = 0.001
//   => step/Cap = 1.365333, 1/Rx = 1/Ry = 0.1, 1/Rz = 4.882813e-05, amb = 80.
//
//   zipN(2, {slideN(2, 3, 1, padN(2, 1, 1, clamp, T)), P})
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program hotspot2d() {
  std::vector<Size> sizes = gridSizes(2, 3);
  Expr T = gridInput("T", sizes);
  Expr P = gridInput("P", sizes);
  return program({T, P}, stencil({{T, clamp}, {P, StencilBoundary::pointWise()}},
                                  "const float stepDivCap = 1.365333f;\n"
                                  "const float rx1 = 0.1f;\n"
                                  "const float ry1 = 0.1f;\n"
                                  "const float rz1 = 4.882813e-05f;\n"
                                  "const float ambTemp = 80.0f;\n"
                                  "return T[0][0] + stepDivCap * (P[0][0] + (T[1][0] + T[-1][0] - 2.0f * T[0][0]) * ry1"
                                  " + (T[0][1] + T[0][-1] - 2.0f * T[0][0]) * rx1 + (ambTemp - T[0][0]) * rz1);",
                                  "hotspot"));
}

} // namespace liftcc::examples
