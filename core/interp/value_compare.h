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
};

/// nullopt when equal within the tolerance (ints and bools exactly), else a
/// description of the first mismatch ("element 17: expected 0.25, found 0.5",
/// with the number of mismatching elements).
std::optional<std::string> compareValues(const Value &expected, const Value &actual, Tolerance tolerance = {});

} // namespace liftcc
