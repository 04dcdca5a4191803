// The 2D 5-point Jacobi (examples/jacobi2d_5pt.cpp) iterated in time:
//   iterate(steps, A -> jacobi2d5ptStep(A), A)
// generated as a host loop of one kernel, or as time tiles of several steps
// per kernel (the earlier steps of a tile recomputed where the last reads them).
#include "examples/multistage_examples.h"
#include "examples/stages.h"
#include "examples/stencil_helpers.h"

namespace liftcc::examples {

using namespace api;

Program jacobi2d5ptIterated(int64_t steps) {
  Expr A = gridInput("A", gridSizes(2, 3));
  return program({A}, iterate(steps, fn([](Expr grid) { return jacobi2d5ptStep(grid); }, "grid"), A));
}

} // namespace liftcc::examples
