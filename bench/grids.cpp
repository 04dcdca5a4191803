#include "bench/grids.h"

#include "core/error.h"
#include "core/interp/components.h"
#include "core/interp/value_io.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <span>
#include <stdexcept>

namespace liftcc::bench {

namespace {

void requireFloats(const Type &type, const std::string &what) {
  if (type.innermost().kind() != TypeKind::Scalar || type.innermost().scalarKind() != ScalarKind::Float)
    throw Error("the benchmark handles float grids only, " + what + " is " + type.str());
}

Value fromGrid(const Type &type, const Sizes &sizes, const Grid &grid) {
  return fromBytes(std::as_bytes(std::span(grid)), type, sizes);
}

} // namespace

std::vector<Grid> randomGrids(const Program &typed, const Sizes &sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<Grid> grids;
  for (const Expr &input : typed.inputs()) {
    const Type &type = input.typeOrThrow();
    requireFloats(type, "input " + input.name());
    Grid grid(static_cast<size_t>(scalarCount(type, sizes)));
    for (float &x : grid) x = uniform(rng);
    grids.push_back(std::move(grid));
  }
  return grids;
}

std::vector<Value> toValues(const Program &typed, const Sizes &sizes, const std::vector<Grid> &grids) {
  if (grids.size() != typed.inputs().size()) throw InternalError("toValues: one grid per input expected");
  std::vector<Value> values;
  for (size_t i = 0; i < grids.size(); ++i)
    values.push_back(fromGrid(typed.inputs()[i].typeOrThrow(), sizes, grids[i]));
  return values;
}

Value toValue(const Program &typed, const Sizes &sizes, const Grid &grid) {
  // A result of several grids comes back as its components one after another.
  return fromComponentBytes(std::as_bytes(std::span(grid)), typed.body().typeOrThrow(), sizes);
}

int64_t outputElements(const Program &typed, const Sizes &sizes) {
  const Type &result = typed.body().typeOrThrow();
  for (const Type &component : components(result)) requireFloats(component, "a component of the result");
  return scalarCount(result, sizes);
}

std::optional<std::string> compareGrids(const Grid &expected, const Grid &actual, const Tolerance &tolerance) {
  if (expected.size() != actual.size()) return "different sizes";
  double largest = 0;
  if (tolerance.magnitude > 0)
    for (float e : expected)
      if (std::isfinite(e)) largest = std::max(largest, static_cast<double>(std::abs(e)));
  const double absolute = tolerance.absolute + tolerance.magnitude * largest;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    double e = expected[i], a = actual[i];
    bool equal = std::abs(e - a) <= absolute + tolerance.relative * std::abs(e) || (std::isnan(e) && std::isnan(a));
    if (!equal && bad++ == 0) first = i;
  }
  if (bad == 0) return std::nullopt;
  std::ostringstream s;
  s << "element " << first << ": expected " << expected[first] << ", found " << actual[first] << " (" << bad
    << " elements differ)";
  return s.str();
}

} // namespace liftcc::bench
