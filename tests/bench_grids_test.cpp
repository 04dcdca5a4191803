// bench::compareGrids: compareValues' rule on the raw floats of benchmark-size
// outputs (the benchmark's verification and the peers' test rely on both
// agreeing).

#include "bench/grids.h"
#include "core/interp/value_compare.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

namespace liftcc {

TEST_CASE("bench grids: compareGrids gives compareValues' verdict on the same floats") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<bench::Grid, bench::Grid>> cases{
      {{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}},          // equal
      {{1.0f, 2.0f, 3.0f}, {1.0f, 2.00001f, 3.0f}},      // within the relative tolerance
      {{1.0f, 2.0f, 3.0f}, {1.0f, 2.1f, 3.0f}},          // not
      {{0.0f, 1e-7f}, {1e-7f, 0.0f}},                    // within the absolute tolerance near zero
      {{nan, 1.0f}, {nan, 1.0f}},                        // NaN matches NaN
      {{nan, 1.0f}, {0.0f, 1.0f}},                       // and nothing else
      {{1.0f, 1000.0f}, {1.0005f, 1000.0f}},             // beyond relative, within magnitude (below)
  };
  auto toValue = [](const bench::Grid &grid) {
    std::vector<Value> elements;
    for (float f : grid) elements.push_back(Scalar::ofFloat(f));
    return Value::array(std::move(elements));
  };
  for (const Tolerance &tolerance : {Tolerance{1e-4, 1e-5}, Tolerance{1e-5, 1e-6, 1e-6}}) {
    for (const auto &[expected, actual] : cases) {
      CAPTURE(tolerance.magnitude);
      bool values = !compareValues(toValue(expected), toValue(actual), tolerance);
      bool grids = !bench::compareGrids(expected, actual, tolerance);
      CHECK(grids == values);
    }
  }
  CHECK(bench::compareGrids({1.0f, 2.0f, 3.0f}, {1.0f, 2.1f, 3.0f}, {}) ==
        std::optional<std::string>("element 1: expected 2, found 2.1 (1 elements differ)"));
  CHECK(bench::compareGrids({1.0f}, {1.0f, 2.0f}, {}) == std::optional<std::string>("different sizes"));
}

} // namespace liftcc
