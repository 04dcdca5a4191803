// Jacobi 1D, 3 points (PolyBench jacobi-1d):
//   B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1])
// Clamp padding at both ends. Not part of CGO'18 Table 1; the simplest
// stencil, kept as the 1D building block of the others.
#include "examples/stencil_helpers.h"
#include "primitives/stencil.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

Program jacobi1d3pt() {
  std::vector<Size> sizes = gridSizes(1, 3);
  Expr A = gridInput("A", sizes);
  return program({A}, stencil({{A, clamp}}, "return 0.33333f * (A[-1] + A[0] + A[1]);", "jacobi3"));
}

} // namespace liftcc::examples
