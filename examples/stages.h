#pragma once
// The stencils of the examples as functions of their input grids, so that
// the multi-stage programs (examples/multistage_examples.h) compose the very
// stages the single-stage examples are made of.

#include "core/ir/expr.h"

namespace liftcc::examples {

/// Rodinia SRAD kernel 1 over the image J (examples/srad1.cpp): the
/// diffusion coefficient of every point.
Expr sradCoefficients(const Expr &J);
/// Rodinia SRAD kernel 2 (examples/srad2.cpp): the updated image from J and
/// the coefficients C.
Expr sradUpdate(const Expr &J, const Expr &C);
/// One step of the 2D 5-point Jacobi (examples/jacobi2d_5pt.cpp) over A.
Expr jacobi2d5ptStep(const Expr &A);

} // namespace liftcc::examples
