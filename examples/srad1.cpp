// Rodinia SRAD, kernel 1: the diffusion coefficient of speckle-reducing
// anisotropic diffusion, 5 points over the image J (srad_kernel.cl):
//   dN = J[N] - Jc, dS, dW, dE likewise
//   G2 = (dN^2 + dS^2 + dW^2 + dE^2) / Jc^2,  L = (dN + dS + dW + dE) / Jc
//   num = 0.5 G2 - (1/16) L^2,  den = 1 + 0.25 L,  qsqr = num / den^2
//   den = (qsqr - q0sqr) / (q0sqr (1 + q0sqr)),  c = 1 / (1 + den), clamped to [0, 1]
// Rodinia clamps the neighbour indices at the image border (iN/iS/jW/jE),
// which is pad(clamp). Rodinia recomputes q0sqr from a region of interest in
// every iteration; like Lift we inline a constant (q0sqr = 0.053787220).
// All literals are float: the benchmark is single precision.
#include "examples/stages.h"
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Expr sradCoefficients(const Expr &J) {
  return stencil({{"J", J, clamp}},
                 "const float q0sqr = 0.053787220f;\n"
                 "float dN = J[-1][0] - J[0][0];\n"
                 "float dS = J[1][0] - J[0][0];\n"
                 "float dW = J[0][-1] - J[0][0];\n"
                 "float dE = J[0][1] - J[0][0];\n"
                 "float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (J[0][0] * J[0][0]);\n"
                 "float l = (dN + dS + dW + dE) / J[0][0];\n"
                 "float num = 0.5f * g2 - 0.0625f * (l * l);\n"
                 "float den = 1.0f + 0.25f * l;\n"
                 "float qsqr = num / (den * den);\n"
                 "den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));\n"
                 "float coeff = 1.0f / (1.0f + den);\n"
                 "if (coeff < 0.0f) return 0.0f;\n"
                 "if (coeff > 1.0f) return 1.0f;\n"
                 "return coeff;",
                 "sradCoefficient");
}

Program srad1() {
  Expr J = gridInput("J", gridSizes(2, 3));
  return program({J}, sradCoefficients(J));
}

} // namespace liftcc::examples
