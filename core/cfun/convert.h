#pragma once
// C conversions between scalar kinds, defined for every input.
//
// Scalar::convertTo uses a plain static_cast, which is undefined behaviour in
// C++ (and in C) for a NaN or out-of-range floating value converted to int.
// The interpreter must never execute UB itself, so it converts here instead;
// out-of-range results are pinned to what NVIDIA hardware (cvt.rzi.s32)
// produces, which is also what most OpenCL devices do in practice.

#include "core/scalar.h"

namespace liftcc::cfun {

/// `(to)value` with C semantics: truncation toward zero for floating to
/// int, nonzero-is-true for conversions to bool, round-to-nearest for
/// narrowing to float. Where C leaves floating-to-int undefined, NaN gives 0
/// and values beyond the int range saturate to INT_MIN / INT_MAX.
Scalar convertScalar(const Scalar &value, ScalarKind to);

} // namespace liftcc::cfun
