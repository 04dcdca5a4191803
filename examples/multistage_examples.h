#pragma once
// Multi-stage stencil programs (issue #16): several stencils chained through
// intermediate grids, several results, and iteration in time. Not in the
// CGO'18 Table 1; listed by multiStageExamples() (examples/example.h). Each
// returns a fresh, untyped program.

#include "core/ir/expr.h"

#include <cstdint>

namespace liftcc::examples {

/// Rodinia SRAD as one program: the coefficients C of J (kernel 1), then the
/// update of J from J and C (kernel 2). C is read through a neighbourhood, so
/// it is a global temporary (or recomputed where read, when fused).
Program sradTwoStage();
/// One leapfrog step of the 2D wave equation with two time levels:
/// (U, Uprev) -> (Unext, U), Unext = 2 U - Uprev + c2 (N + S + W + E - 4 U),
/// c2 = 0.25, a zero (Dirichlet) boundary.
Program wave2d();
/// A 3D chain of two radius-2 stencils with both results:
/// B = smooth(A) (13-point star), C = the 4th-order Laplacian of B; (B, C).
Program chain3dRadius2();
/// `steps` steps of the 2D 5-point Jacobi: iterate(steps, jacobi2d5ptStep, A).
Program jacobi2d5ptIterated(int64_t steps);

} // namespace liftcc::examples
