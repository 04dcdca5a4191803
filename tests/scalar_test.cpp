// Scalars: conversions that C++ leaves undefined are defined (as on GPUs),
// and every value has a C literal that OpenCL C and CUDA accept.

#include "core/scalar.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

namespace liftcc {

TEST_CASE("scalar: out-of-range conversions saturate instead of being undefined") {
  CHECK(Scalar::ofFloat(3e9f).convertTo(ScalarKind::Int).asInt() == std::numeric_limits<int32_t>::max());
  CHECK(Scalar::ofFloat(-3e9f).convertTo(ScalarKind::Int).asInt() == std::numeric_limits<int32_t>::min());
  CHECK(Scalar::ofFloat(std::nanf("")).convertTo(ScalarKind::Int).asInt() == 0);
  CHECK(Scalar::ofFloat(-2.7f).convertTo(ScalarKind::Int).asInt() == -2);
  CHECK(std::isinf(Scalar::ofDouble(1e300).convertTo(ScalarKind::Float).asFloat()));
  CHECK(Scalar::ofDouble(0.5).convertTo(ScalarKind::Float).asFloat() == 0.5f);
}

TEST_CASE("scalar: C literals") {
  CHECK(toCLiteral(Scalar::ofFloat(1.0f)) == "1.0f");
  CHECK(toCLiteral(Scalar::ofFloat(0.25f)) == "0.25f");
  CHECK(toCLiteral(Scalar::ofDouble(2.0)) == "2.0");
  CHECK(toCLiteral(Scalar::ofInt(-3)) == "-3");
  CHECK(toCLiteral(Scalar::ofFloat(std::numeric_limits<float>::infinity())) == "(1.0f / 0.0f)");
  CHECK(toCLiteral(Scalar::ofFloat(-std::numeric_limits<float>::infinity())) == "(-1.0f / 0.0f)");
  CHECK(toCLiteral(Scalar::ofDouble(std::nan(""))) == "(0.0 / 0.0)");
}

} // namespace liftcc
