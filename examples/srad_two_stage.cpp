// Rodinia SRAD, both kernels of one iteration as one program over the image J:
//   C  = sradCoefficients(J)      (kernel 1, examples/srad1.cpp)
//   J' = sradUpdate(J, C)         (kernel 2, examples/srad2.cpp)
// Kernel 2 reads C through a clamped 3-point neighbourhood, so C is an
// intermediate grid: a global temporary written by a first kernel, or
// recomputed (with J's wider halo) by the update kernel when fused.
#include "examples/multistage_examples.h"
#include "examples/stages.h"
#include "examples/stencil_helpers.h"

namespace liftcc::examples {

using namespace api;

Program sradTwoStage() {
  Expr J = gridInput("J", gridSizes(2, 3));
  return program({J}, sradUpdate(J, sradCoefficients(J)));
}

} // namespace liftcc::examples
