#pragma once
// Comparing a computed value with the interpreter's: the verdict every
// kernel test and the tuner's verification rely on.

#include "core/interp/value.h"

#include <optional>
#include <string>

namespace liftcc {

struct Tolerance {
  double relative = 1e-5;
  double absolute = 1e-6; ///< for results near zero, where relative error is meaningless
  /// Times the largest magnitude among the expected values: the error of a
  /// computation whose terms are as large as its largest results, wherever a
  /// value cancels to near zero (codegen/fast_math.h).
  double magnitude = 0;
};

/// Float values x (expected) and y (found) agree when
///   |x - y| <= absolute + relative * |x| + magnitude * max_i |expected_i|;
/// NaN only matches NaN.
/// nullopt when equal within the tolerance (ints and bools exactly), else a
/// description of the first mismatch ("element 17: expected 0.25, found 0.5",
/// with the number of mismatching elements).
std::optional<std::string> compareValues(const Value &expected, const Value &actual, Tolerance tolerance = {});

} // namespace liftcc
