#include "tests/multistage_references.h"

namespace liftcc::testref {

namespace {

/// A 13-point radius-2 star with weights for the centre, distance 1 and
/// distance 2, summed as examples/stencil_helpers.cpp's weightedSum writes it:
/// per group left to right, axes outermost first, -d before +d.
std::vector<float> star13(const Grid &g, float centre, float near, float far) {
  std::vector<float> out;
  const int64_t o = g.extents.at(0), n = g.extents.at(1), m = g.extents.at(2);
  for (int64_t i = 0; i < o; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < m; ++k) {
        float d1 = g.clamped(i - 1, j, k) + g.clamped(i + 1, j, k) + g.clamped(i, j - 1, k) + g.clamped(i, j + 1, k) +
                   g.clamped(i, j, k - 1) + g.clamped(i, j, k + 1);
        float d2 = g.clamped(i - 2, j, k) + g.clamped(i + 2, j, k) + g.clamped(i, j - 2, k) + g.clamped(i, j + 2, k) +
                   g.clamped(i, j, k - 2) + g.clamped(i, j, k + 2);
        // A negative weight is written as a subtraction of its magnitude.
        float sum = centre * g.clamped(i, j, k);
        sum = near < 0 ? sum - (-near) * d1 : sum + near * d1;
        sum = far < 0 ? sum - (-far) * d2 : sum + far * d2;
        out.push_back(sum);
      }
  return out;
}

std::vector<float> jacobi2d5ptIterated(const std::vector<Grid> &in, int steps) {
  Grid grid = in.at(0);
  for (int s = 0; s < steps; ++s) grid.data = jacobi2d5pt({grid});
  return grid.data;
}

} // namespace

std::vector<float> sradTwoStage(const std::vector<Grid> &in) {
  const Grid &image = in.at(0);
  Grid coefficients{image.extents, srad1({image})};
  return srad2({image, coefficients});
}

std::vector<float> wave2d(const std::vector<Grid> &in) {
  const Grid &u = in.at(0), &previous = in.at(1);
  const int64_t n = u.extents.at(0), m = u.extents.at(1);
  auto at = [&](int64_t i, int64_t j) {
    return i < 0 || i >= n || j < 0 || j >= m ? 0.0f : u.data.at(static_cast<size_t>(i * m + j));
  };
  const float c2 = 0.25f;
  std::vector<float> out;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      float c = at(i, j), p = previous.data.at(static_cast<size_t>(i * m + j));
      out.push_back(2.0f * c - p + c2 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.0f * c));
      out.push_back(c);
    }
  return out;
}

std::vector<float> chain3dRadius2(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  Grid smooth{a.extents, star13(a, 0.5f, 0.0625f, 0.0208333f)};
  std::vector<float> laplacian = star13(smooth, -7.5f, 1.3333334f, -0.083333336f);
  std::vector<float> out = smooth.data;
  out.insert(out.end(), laplacian.begin(), laplacian.end());
  return out;
}

std::vector<float> jacobi2d5ptIter16(const std::vector<Grid> &in) { return jacobi2d5ptIterated(in, 16); }
std::vector<float> jacobi2d5ptIter64(const std::vector<Grid> &in) { return jacobi2d5ptIterated(in, 64); }

} // namespace liftcc::testref
