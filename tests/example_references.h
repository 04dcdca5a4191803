#pragma once
// Plain C++ loop references for the benchmark stencils in examples/.
//
// They are deliberately written the way the original benchmarks are (loops
// over a flat row-major array, explicit clamped index arithmetic) and share
// nothing with the IR versions except the formulas, so that a mistake in a
// pad/slide/zip composition or in a neighbour offset shows up as a mismatch.
// Arithmetic is single precision in the same order as the user functions.

#include <cstdint>
#include <string>
#include <vector>

namespace liftcc::testref {

/// A row-major float grid; extents outermost first (N; N, M; O, N, M).
struct Grid {
  std::vector<int64_t> extents;
  std::vector<float> data;

  /// Reads with every index clamped into range (pad(clamp)).
  float clamped(int64_t i) const;
  float clamped(int64_t i, int64_t j) const;
  float clamped(int64_t i, int64_t j, int64_t k) const;
  /// Reads 0 outside the grid (padConstant(0)).
  float zeroOutside(int64_t i, int64_t j, int64_t k) const;
};

/// A reference: the inputs in the program's order, the output flattened.
using Reference = std::vector<float> (*)(const std::vector<Grid> &inputs);

std::vector<float> stencil2d(const std::vector<Grid> &in);
std::vector<float> srad1(const std::vector<Grid> &in);
std::vector<float> srad2(const std::vector<Grid> &in);
std::vector<float> hotspot2d(const std::vector<Grid> &in);
std::vector<float> hotspot3d(const std::vector<Grid> &in);
std::vector<float> acoustic(const std::vector<Grid> &in);
std::vector<float> gaussian(const std::vector<Grid> &in);
std::vector<float> gradient(const std::vector<Grid> &in);
std::vector<float> jacobi2d5pt(const std::vector<Grid> &in);
std::vector<float> jacobi2d9pt(const std::vector<Grid> &in);
std::vector<float> jacobi3d7pt(const std::vector<Grid> &in);
std::vector<float> jacobi3d13pt(const std::vector<Grid> &in);
std::vector<float> poisson(const std::vector<Grid> &in);
std::vector<float> heat(const std::vector<Grid> &in);
std::vector<float> jacobi1d3pt(const std::vector<Grid> &in);

} // namespace liftcc::testref
