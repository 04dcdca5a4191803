#pragma once
// The iterated stencils the tests of temporal blocking share
// (time_tile_local_test.cpp, time_tile_stream_test.cpp): a step of any
// radius and boundary whose taps each have their own weight (so that a
// misplaced halo shows), with or without a grid zipped beside the windows,
// iterated or composed.

#include "codegen/kernel.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "tests/stencil_offsets.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace liftcc::test::time_tiles {

using namespace api;

enum Boundary { Clamp, Mirror, Wrap, Constant };
inline const char *const kBoundaryNames[] = {"clamp", "mirror", "wrap", "constant"};

inline void checkSame(const Value &expected, const Value &actual) {
  auto mismatch = compareValues(expected, actual, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// `x` padded by `radius` in every dimension with the boundary (the constant 0.5).
inline Expr paddedBy(int dims, int radius, Boundary boundary, const Expr &x) {
  return boundary == Constant
             ? padConstantN(dims, radius, radius, lit(0.5f), x)
             : padN(dims, radius, radius, std::array{PadMode::Clamp, PadMode::Mirror, PadMode::Wrap}[boundary], x);
}

/// One step of a `dims`-dimensional stencil of radius r with the boundary:
/// the star and the box's corners, each point its own weight (their sum
/// below 1, so iterating stays bounded) so that a misplaced halo shows.
inline Expr step(int dims, int radius, Boundary boundary, Expr x) {
  Expr padded = paddedBy(dims, radius, boundary, x);
  std::vector<examples::Offset> offsets = test::starCentreAndCorners(dims, radius);
  std::vector<examples::WeightedGroup> groups;
  int k = 0;
  double scale = 1.0 / (static_cast<double>(offsets.size()) * (static_cast<double>(offsets.size()) + 1.0) / 2.0);
  for (const examples::Offset &o : offsets) groups.push_back({std::to_string(scale * ++k) + "f", {o}});
  Expr f =
      fn([&](Expr nbh) { return examples::weightedSum("r" + std::to_string(radius), nbh, radius, groups); }, "nbh");
  return mapN(dims, f, slideN(dims, 2 * radius + 1, 1, padded));
}

/// The step with a second grid zipped beside its windows and read at the
/// output's position (a power grid: the same in every step): step(x) + 0.25 P.
inline Expr pointwiseStep(int dims, int radius, Boundary boundary, Expr x, Expr p) {
  Expr padded = paddedBy(dims, radius, boundary, x);
  std::vector<examples::WeightedGroup> groups;
  int k = 0;
  for (const examples::Offset &o : examples::starOffsets(dims, radius))
    groups.push_back({std::to_string(0.02 * ++k) + "f", {o}});
  groups.push_back({"0.3f", {examples::centre(dims)}});
  Expr plus = userFun("plusQuarter", {{"s", ScalarKind::Float}, {"p", ScalarKind::Float}}, ScalarKind::Float,
                      "return s + 0.25f * p;");
  Expr f = fn(
      [&](Expr q) {
        return apply(plus,
                     {examples::weightedSum("pw" + std::to_string(radius), get(0, q), radius, groups), get(1, q)});
      },
      "q");
  return mapN(dims, f, zipN(dims, {slideN(dims, 2 * radius + 1, 1, padded), p}));
}

/// iterate(steps, pointwiseStep, A) with the power grid P.
inline Program iteratedPointwise(int dims, int radius, Boundary boundary, int64_t steps) {
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  Expr grid = examples::gridInput("A", sizes), power = examples::gridInput("P", sizes);
  return program(
      {grid, power},
      iterate(steps, fn([&](Expr x) { return pointwiseStep(dims, radius, boundary, x, power); }, "x"), grid));
}

/// iterate(steps, step, A) over a grid of `extents` (outermost first).
inline Program iterated(int dims, int radius, Boundary boundary, int64_t steps) {
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  Expr grid = examples::gridInput("A", sizes);
  return program({grid}, iterate(steps, fn([&](Expr x) { return step(dims, radius, boundary, x); }, "x"), grid));
}

/// The step composed `depth` times (a time tile, as lowerIterate builds it).
inline Program composed(int dims, int radius, Boundary boundary, int depth) {
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  Expr grid = examples::gridInput("A", sizes);
  Expr x = grid;
  for (int k = 0; k < depth; ++k) x = step(dims, radius, boundary, x);
  return program({grid}, x);
}

inline std::map<std::string, int64_t> extentsOf(int dims, int radius, const std::vector<int64_t> &values) {
  std::map<std::string, int64_t> extents;
  std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
  for (size_t d = 0; d < sizes.size(); ++d) extents[sizes[d].varName()] = values[d];
  return extents;
}

/// Extents no test tile, chunk or depth divides: 37 x 29, or 11 x 10 x 9.
inline std::vector<int64_t> oddExtents(int dims) {
  return dims == 2 ? std::vector<int64_t>{37, 29} : std::vector<int64_t>{11, 10, 9};
}

/// Runs `kernel` on the device (when there is one) against the interpreter; whether it ran.
inline bool checkOnDevice(ocl::Context *context, const Program &typed, const std::map<std::string, int64_t> &extents,
                          const codegen::Kernel &kernel) {
  if (!context) return false;
  std::vector<Value> inputs = randomInputs(typed, extents, 7);
  tuner::OpenCLKernelRunner runner(*context, kernel);
  checkSame(interpret(typed, extents, inputs), runner.run(extents, inputs, typed.body().typeOrThrow()).output);
  return true;
}

/// A time tile's CUDA C compiles with NVRTC (`options`) with an empty log and has its barriers.
inline void checkCompilesWithBarriers(const codegen::Kernel &kernel, const cuda::NvrtcOptions &options,
                                      const std::string &file) {
  CAPTURE(kernel.source);
  cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, options, file);
  CHECK(ptx.log.empty());
  CHECK(ptx.warnings.empty());
  CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
  CHECK(ptx.ptx.find("bar.sync") != std::string::npos);
}

} // namespace liftcc::test::time_tiles
