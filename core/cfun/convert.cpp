#include "core/cfun/convert.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace liftcc::cfun {
namespace {

int32_t floatingToInt(double v) {
  if (std::isnan(v)) return 0;
  // Both bounds are exact in double; inside them truncation is in range.
  if (v >= 2147483648.0) return std::numeric_limits<int32_t>::max();
  if (v <= -2147483649.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

/// double -> float with IEEE round-to-nearest-even, written out for values
/// beyond the float range, where a C++ cast is formally undefined.
float doubleToFloat(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  // Half an ulp above FLT_MAX (ulp 2^104) is the tie point; FLT_MAX has an
  // odd significand, so the tie itself rounds up to infinity.
  constexpr double kOverflow = kMax + 0x1p103;
  if (std::isfinite(v) && std::fabs(v) > kMax) {
    float mag = std::fabs(v) >= kOverflow ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::max();
    return v < 0 ? -mag : mag;
  }
  return static_cast<float>(v);
}

} // namespace

Scalar convertScalar(const Scalar &value, ScalarKind to) {
  if (value.kind() == to) return value;
  switch (value.kind()) {
  case ScalarKind::Float:
    if (to == ScalarKind::Int) return Scalar::ofInt(floatingToInt(value.asFloat()));
    break;
  case ScalarKind::Double:
    if (to == ScalarKind::Int) return Scalar::ofInt(floatingToInt(value.asDouble()));
    if (to == ScalarKind::Float) return Scalar::ofFloat(doubleToFloat(value.asDouble()));
    break;
  case ScalarKind::Bool:
  case ScalarKind::Int: break;
  }
  // Every remaining conversion is defined in C++ for all values: to bool
  // (compare with zero), int or bool to floating (rounds), double to float
  // (handled above for doubles beyond the float range).
  return value.convertTo(to);
}

} // namespace liftcc::cfun
