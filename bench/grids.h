#pragma once
// Host-side data of the benchmark: float grids in row-major order (what is
// uploaded to device buffers), sizes, and the conversions to the
// interpreter's values for verification.

#include "core/interp/value.h"
#include "core/interp/value_compare.h"
#include "core/ir/expr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

using Sizes = std::map<std::string, int64_t>;
using Grid = std::vector<float>;

/// Uniformly random floats in [-1, 1) for every input of `typed` (a program
/// type-checked at `sizes`), deterministic in `seed`. Generated directly as
/// floats rather than through the interpreter's Value, which at benchmark
/// sizes (millions of points) would cost gigabytes. Throws
/// std::invalid_argument for a non-float input.
std::vector<Grid> randomGrids(const Program &typed, const Sizes &sizes, uint64_t seed);

/// The grids as the interpreter's input values.
std::vector<Value> toValues(const Program &typed, const Sizes &sizes, const std::vector<Grid> &grids);
/// A grid as a value of the program's result type (a result of several
/// grids: its components one after another, as kernels write them).
Value toValue(const Program &typed, const Sizes &sizes, const Grid &grid);

/// Scalars of the program's result at `sizes` (of all its grids); throws
/// unless every component of the result is an array of floats.
int64_t outputElements(const Program &typed, const Sizes &sizes);

/// compareValues' rule (core/interp/value_compare.h) on raw floats: outputs at
/// benchmark sizes (millions of points) are too large to convert to
/// interpreter values. nullopt when equal within the tolerance.
std::optional<std::string> compareGrids(const Grid &expected, const Grid &actual, const Tolerance &tolerance);

} // namespace liftcc::bench
