// Gaussian blur, 2D 25 points: the 5x5 binomial kernel
//   w[dy][dx] = b[dy] * b[dx] / 256,  b = {1, 4, 6, 4, 1}
// summed in row-major order (the weights are exact binary fractions).
// Clamp padding of width 2.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

#include <cstdio>

namespace liftcc::examples {

using namespace api;

namespace {
std::vector<WeightedGroup> gaussianTaps() {
  const int binomial[5] = {1, 4, 6, 4, 1};
  std::vector<WeightedGroup> taps;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      char weight[32];
      // k / 256 has at most 8 fractional decimal digits, so %.8g is exact.
      std::snprintf(weight, sizeof weight, "%.8gf", binomial[dy + 2] * binomial[dx + 2] / 256.0);
      taps.push_back({weight, {{dy, dx}}});
    }
  return taps;
}
} // namespace

Program gaussian() {
  std::vector<Size> sizes = gridSizes(2, 5);
  Expr A = gridInput("A", sizes);
  return program({A}, weightedSumStencil("gaussian5x5", A, gaussianTaps()));
}

} // namespace liftcc::examples
