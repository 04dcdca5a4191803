#pragma once
// The stencils and checks the tests of streaming through local memory share
// (stream_local_test.cpp, stream_local_vector_test.cpp): stencils of any
// radius and boundary, with grids zipped or slid beside them, at extents no
// plane tile or chunk of the tests divides, checked on the device.

#include "codegen/kernel.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"
#include "tests/opencl_test_support.h"
#include "tests/stencil_offsets.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace liftcc::test::streams {

using namespace api;

inline void checkSame(const Value &expected, const Value &actual) {
  auto mismatch = compareValues(expected, actual, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// Plane tile 4 x 3 and chunks of 3 planes: none divides the test extents.
inline rewrite::RecipeOptions oddTiles() {
  rewrite::RecipeOptions options;
  options.tileExtents = {4, 3, 0};
  options.streamChunk = 3;
  return options;
}

/// The extents of a `dims`-dimensional grid (examples::gridSizes with
/// `minimum`) that neither the 4 x 3 plane tile nor the chunk of 3 divides:
/// 10 x 11 (x 13).
inline std::map<std::string, int64_t> oddExtents(int dims, int64_t minimum) {
  const std::vector<int64_t> values{10, 11, 13};
  std::map<std::string, int64_t> extents;
  std::vector<Size> sizes = examples::gridSizes(dims, minimum);
  for (size_t d = 0; d < sizes.size(); ++d) extents[sizes[d].varName()] = values[d];
  return extents;
}

/// Runs `kernel` on the device and compares it with the interpreter.
inline void checkOnDevice(ocl::Context &context, const Program &typed, const std::map<std::string, int64_t> &sizes,
                          const codegen::Kernel &kernel) {
  std::vector<Value> inputs = randomInputs(typed, sizes, 7);
  tuner::OpenCLKernelRunner runner(context, kernel);
  checkSame(interpret(typed, sizes, inputs), runner.run(sizes, inputs, typed.body().typeOrThrow()).output);
}

/// `x` padded by `radius` in every dimension with the boundary (0 clamp, 1
/// mirror, 2 wrap, 3 the constant 0.5).
inline Expr paddedBy(int dims, int radius, int boundary, const Expr &x) {
  return boundary == 3
             ? padConstantN(dims, radius, radius, lit(0.5f), x)
             : padN(dims, radius, radius, std::array{PadMode::Clamp, PadMode::Mirror, PadMode::Wrap}[boundary], x);
}

/// The star of `radius` and its centre, each point with its own weight.
inline std::vector<examples::WeightedGroup> starGroups(int dims, int radius) {
  std::vector<examples::WeightedGroup> groups;
  int k = 0;
  for (const examples::Offset &o : examples::starOffsets(dims, radius))
    groups.push_back({std::to_string(0.01 * ++k) + "f", {o}});
  groups.push_back({"0.3f", {examples::centre(dims)}});
  return groups;
}

inline Expr plusHalf() {
  return userFun("plusHalf", {{"s", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float,
                 "return s + 0.5f * b;");
}

/// A `dims`-dimensional stencil of radius r with the given boundary (0 clamp,
/// 1 mirror, 2 wrap, 3 constant): the star, and the box's corners at distance
/// r (so planes other than the centre one are read off their centre), each
/// point with its own weight so that a misplaced plane or halo shows.
inline Expr radiusStencilOf(int dims, int radius, int boundary, const Expr &grid) {
  Expr padded = paddedBy(dims, radius, boundary, grid);
  std::vector<examples::Offset> offsets = test::starCentreAndCorners(dims, radius);
  std::vector<examples::WeightedGroup> groups;
  int k = 0;
  for (const examples::Offset &o : offsets) groups.push_back({std::to_string(0.01 * ++k) + "f", {o}});
  Expr f =
      fn([&](Expr nbh) { return examples::weightedSum("r" + std::to_string(radius), nbh, radius, groups); }, "nbh");
  return mapN(dims, f, slideN(dims, 2 * radius + 1, 1, padded));
}

inline Program radiusStencil(int dims, int radius, int boundary) {
  Expr grid = examples::gridInput("A", examples::gridSizes(dims, 2 * radius + 1));
  return program({grid}, radiusStencilOf(dims, radius, boundary, grid));
}

/// The stencil above with a second grid B zipped beside its neighbourhoods
/// and read at the output's position: out = stencil(A) + 0.5 * B.
inline Program zippedRadiusStencil(int dims, int radius, int boundary) {
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  Expr a = examples::gridInput("A", sizes), b = examples::gridInput("B", sizes);
  std::vector<examples::WeightedGroup> groups = starGroups(dims, radius);
  Expr f = fn(
      [&](Expr p) {
        return apply(plusHalf(),
                     {examples::weightedSum("z" + std::to_string(radius), get(0, p), radius, groups), get(1, p)});
      },
      "p");
  Expr padded = paddedBy(dims, radius, boundary, a);
  return program({a, b}, mapN(dims, f, zipN(dims, {slideN(dims, 2 * radius + 1, 1, padded), b})));
}

/// Two slid grids (as SRAD2's image and coefficients): A's stencil plus half
/// of B's, both padded with the boundary; each goes through a ring of its own.
inline Program twoSlidStencil(int dims, int radius, int boundary) {
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  Expr a = examples::gridInput("A", sizes), b = examples::gridInput("B", sizes);
  std::vector<examples::WeightedGroup> groups = starGroups(dims, radius);
  Expr f = fn(
      [&](Expr p) {
        return apply(plusHalf(), {examples::weightedSum("ta" + std::to_string(radius), get(0, p), radius, groups),
                                  examples::weightedSum("tb" + std::to_string(radius), get(1, p), radius, groups)});
      },
      "p");
  auto windows = [&](const Expr &x) { return slideN(dims, 2 * radius + 1, 1, paddedBy(dims, radius, boundary, x)); };
  return program({a, b}, mapN(dims, f, zipN(dims, {windows(a), windows(b)})));
}

} // namespace liftcc::test::streams
