#include "core/interp/value_compare.h"

#include "core/interp/magnitudes.h"

namespace liftcc {

// One rule for every comparison: without magnitudes, each element's own.
std::optional<std::string> compareValues(const Value &expected, const Value &actual, Tolerance tolerance) {
  return compareWithMagnitudes(expected, actual, nullptr, tolerance);
}

} // namespace liftcc
