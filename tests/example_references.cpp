#include "tests/example_references.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace liftcc::testref {

namespace {
int64_t clampIndex(int64_t i, int64_t n) { return std::clamp<int64_t>(i, 0, n - 1); }

// Loops over every point of the output, row-major, collecting f(indices).
template <typename F> std::vector<float> forEach1D(const Grid &g, F f) {
  std::vector<float> out;
  for (int64_t i = 0; i < g.extents.at(0); ++i) out.push_back(f(i));
  return out;
}
template <typename F> std::vector<float> forEach2D(const Grid &g, F f) {
  std::vector<float> out;
  for (int64_t i = 0; i < g.extents.at(0); ++i)
    for (int64_t j = 0; j < g.extents.at(1); ++j) out.push_back(f(i, j));
  return out;
}
template <typename F> std::vector<float> forEach3D(const Grid &g, F f) {
  std::vector<float> out;
  for (int64_t i = 0; i < g.extents.at(0); ++i)
    for (int64_t j = 0; j < g.extents.at(1); ++j)
      for (int64_t k = 0; k < g.extents.at(2); ++k) out.push_back(f(i, j, k));
  return out;
}
} // namespace

float Grid::clamped(int64_t i) const { return data.at(static_cast<size_t>(clampIndex(i, extents.at(0)))); }

float Grid::clamped(int64_t i, int64_t j) const {
  int64_t m = extents.at(1);
  return data.at(static_cast<size_t>(clampIndex(i, extents.at(0)) * m + clampIndex(j, m)));
}

float Grid::clamped(int64_t i, int64_t j, int64_t k) const {
  int64_t n = extents.at(1), m = extents.at(2);
  return data.at(static_cast<size_t>((clampIndex(i, extents.at(0)) * n + clampIndex(j, n)) * m + clampIndex(k, m)));
}

float Grid::zeroOutside(int64_t i, int64_t j, int64_t k) const {
  int64_t o = extents.at(0), n = extents.at(1), m = extents.at(2);
  if (i < 0 || i >= o || j < 0 || j >= n || k < 0 || k >= m) return 0.0f;
  return data.at(static_cast<size_t>((i * n + j) * m + k));
}

// ---- 1D --------------------------------------------------------------------

std::vector<float> jacobi1d3pt(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach1D(a, [&](int64_t i) { return 0.33333f * (a.clamped(i - 1) + a.clamped(i) + a.clamped(i + 1)); });
}

// ---- 2D --------------------------------------------------------------------

std::vector<float> stencil2d(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach2D(a, [&](int64_t i, int64_t j) {
    return 0.25f * a.clamped(i, j) +
           0.15f * (a.clamped(i - 1, j) + a.clamped(i + 1, j) + a.clamped(i, j - 1) + a.clamped(i, j + 1)) +
           0.05f *
               (a.clamped(i - 1, j - 1) + a.clamped(i - 1, j + 1) + a.clamped(i + 1, j - 1) + a.clamped(i + 1, j + 1));
  });
}

std::vector<float> srad1(const std::vector<Grid> &in) {
  const Grid &img = in.at(0);
  const float q0sqr = 0.053787220f;
  return forEach2D(img, [&](int64_t i, int64_t j) {
    float jc = img.clamped(i, j);
    float dN = img.clamped(i - 1, j) - jc, dS = img.clamped(i + 1, j) - jc;
    float dW = img.clamped(i, j - 1) - jc, dE = img.clamped(i, j + 1) - jc;
    float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
    float l = (dN + dS + dW + dE) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    return c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
  });
}

std::vector<float> srad2(const std::vector<Grid> &in) {
  const Grid &img = in.at(0), &coeff = in.at(1);
  const float lambda = 0.5f;
  return forEach2D(img, [&](int64_t i, int64_t j) {
    float jc = img.clamped(i, j);
    float dN = img.clamped(i - 1, j) - jc, dS = img.clamped(i + 1, j) - jc;
    float dW = img.clamped(i, j - 1) - jc, dE = img.clamped(i, j + 1) - jc;
    float cN = coeff.clamped(i, j), cS = coeff.clamped(i + 1, j), cW = coeff.clamped(i, j),
          cE = coeff.clamped(i, j + 1);
    float d = cN * dN + cS * dS + cW * dW + cE * dE;
    return jc + 0.25f * lambda * d;
  });
}

std::vector<float> hotspot2d(const std::vector<Grid> &in) {
  const Grid &temp = in.at(0), &power = in.at(1);
  const float stepDivCap = 1.365333f, rx1 = 0.1f, ry1 = 0.1f, rz1 = 4.882813e-05f, ambTemp = 80.0f;
  return forEach2D(temp, [&](int64_t i, int64_t j) {
    float c = temp.clamped(i, j);
    float p = power.data.at(static_cast<size_t>(i * temp.extents[1] + j));
    return c + stepDivCap * (p + (temp.clamped(i + 1, j) + temp.clamped(i - 1, j) - 2.0f * c) * ry1 +
                             (temp.clamped(i, j + 1) + temp.clamped(i, j - 1) - 2.0f * c) * rx1 + (ambTemp - c) * rz1);
  });
}

std::vector<float> gaussian(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  const float b[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
  return forEach2D(a, [&](int64_t i, int64_t j) {
    float sum = 0.0f;
    bool first = true;
    for (int di = -2; di <= 2; ++di)
      for (int dj = -2; dj <= 2; ++dj) {
        float term = (b[di + 2] * b[dj + 2] / 256.0f) * a.clamped(i + di, j + dj);
        sum = first ? term : sum + term;
        first = false;
      }
    return sum;
  });
}

std::vector<float> gradient(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach2D(a, [&](int64_t i, int64_t j) {
    float c = a.clamped(i, j);
    float dn = c - a.clamped(i - 1, j), ds = c - a.clamped(i + 1, j);
    float dw = c - a.clamped(i, j - 1), de = c - a.clamped(i, j + 1);
    return c + 1.0f / std::sqrt(0.0001f + dn * dn + ds * ds + dw * dw + de * de);
  });
}

std::vector<float> jacobi2d5pt(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach2D(a, [&](int64_t i, int64_t j) {
    return (5.0f * a.clamped(i - 1, j) + 12.0f * a.clamped(i, j - 1) + 15.0f * a.clamped(i, j) +
            12.0f * a.clamped(i, j + 1) + 5.0f * a.clamped(i + 1, j)) /
           118.0f;
  });
}

std::vector<float> jacobi2d9pt(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach2D(a, [&](int64_t i, int64_t j) {
    return (7.0f * a.clamped(i - 1, j - 1) + 5.0f * a.clamped(i - 1, j) + 9.0f * a.clamped(i - 1, j + 1) +
            12.0f * a.clamped(i, j - 1) + 15.0f * a.clamped(i, j) + 12.0f * a.clamped(i, j + 1) +
            9.0f * a.clamped(i + 1, j - 1) + 5.0f * a.clamped(i + 1, j) + 7.0f * a.clamped(i + 1, j + 1)) /
           118.0f;
  });
}

// ---- 3D (grid [z][y][x], indices i, j, k) ------------------------------------

std::vector<float> hotspot3d(const std::vector<Grid> &in) {
  const Grid &temp = in.at(0), &power = in.at(1);
  const float cc = 0.86186665f, cw = 0.03413333f, ce = 0.03413333f, cs = 0.03413333f, cn = 0.03413333f;
  const float cb = 0.00053333f, ct = 0.00053333f, stepDivCap = 0.3413333f, ambTemp = 80.0f;
  return forEach3D(temp, [&](int64_t z, int64_t y, int64_t x) {
    float p = power.data.at(static_cast<size_t>((z * temp.extents[1] + y) * temp.extents[2] + x));
    return cc * temp.clamped(z, y, x) + cw * temp.clamped(z, y, x - 1) + ce * temp.clamped(z, y, x + 1) +
           cs * temp.clamped(z, y + 1, x) + cn * temp.clamped(z, y - 1, x) + cb * temp.clamped(z - 1, y, x) +
           ct * temp.clamped(z + 1, y, x) + stepDivCap * p + ct * ambTemp;
  });
}

std::vector<float> acoustic(const std::vector<Grid> &in) {
  const Grid &u = in.at(0), &prev = in.at(1);
  const int64_t o = u.extents[0], n = u.extents[1], m = u.extents[2];
  const float l = 0.57735027f, l2 = 0.33333334f, beta = 0.1f;
  return forEach3D(u, [&](int64_t i, int64_t j, int64_t k) {
    int count = 6;
    if (i == 0 || i == o - 1) count -= 1;
    if (j == 0 || j == n - 1) count -= 1;
    if (k == 0 || k == m - 1) count -= 1;
    float lb = 0.5f * beta * l * static_cast<float>(6 - count);
    float sum = u.zeroOutside(i - 1, j, k) + u.zeroOutside(i + 1, j, k) + u.zeroOutside(i, j - 1, k) +
                u.zeroOutside(i, j + 1, k) + u.zeroOutside(i, j, k - 1) + u.zeroOutside(i, j, k + 1);
    float p = prev.data.at(static_cast<size_t>((i * n + j) * m + k));
    return ((2.0f - static_cast<float>(count) * l2) * u.zeroOutside(i, j, k) + l2 * sum - (1.0f - lb) * p) /
           (1.0f + lb);
  });
}

std::vector<float> jacobi3d7pt(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach3D(a, [&](int64_t i, int64_t j, int64_t k) {
    return 0.161f * a.clamped(i, j, k + 1) + 0.162f * a.clamped(i, j, k - 1) + 0.163f * a.clamped(i, j + 1, k) +
           0.164f * a.clamped(i, j - 1, k) + 0.165f * a.clamped(i + 1, j, k) + 0.166f * a.clamped(i - 1, j, k) -
           1.670f * a.clamped(i, j, k);
  });
}

std::vector<float> jacobi3d13pt(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach3D(a, [&](int64_t i, int64_t j, int64_t k) {
    float near = a.clamped(i - 1, j, k) + a.clamped(i + 1, j, k) + a.clamped(i, j - 1, k) + a.clamped(i, j + 1, k) +
                 a.clamped(i, j, k - 1) + a.clamped(i, j, k + 1);
    float far = a.clamped(i - 2, j, k) + a.clamped(i + 2, j, k) + a.clamped(i, j - 2, k) + a.clamped(i, j + 2, k) +
                a.clamped(i, j, k - 2) + a.clamped(i, j, k + 2);
    return 0.25f * a.clamped(i, j, k) + 0.1f * near + 0.025f * far;
  });
}

std::vector<float> poisson(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach3D(a, [&](int64_t i, int64_t j, int64_t k) {
    // Row-major over the 3x3x3 box: faces (one non-zero offset) and edges (two).
    float faces = 0.0f, edges = 0.0f;
    bool firstFace = true, firstEdge = true;
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        for (int dk = -1; dk <= 1; ++dk) {
          int nonZero = (di != 0) + (dj != 0) + (dk != 0);
          float v = a.clamped(i + di, j + dj, k + dk);
          if (nonZero == 1) {
            faces = firstFace ? v : faces + v;
            firstFace = false;
          } else if (nonZero == 2) {
            edges = firstEdge ? v : edges + v;
            firstEdge = false;
          }
        }
    return 2.666f * a.clamped(i, j, k) - 0.166f * faces - 0.0833f * edges;
  });
}

std::vector<float> heat(const std::vector<Grid> &in) {
  const Grid &a = in.at(0);
  return forEach3D(a, [&](int64_t i, int64_t j, int64_t k) {
    float c = a.clamped(i, j, k);
    return 0.125f * (a.clamped(i + 1, j, k) - 2.0f * c + a.clamped(i - 1, j, k)) +
           0.125f * (a.clamped(i, j + 1, k) - 2.0f * c + a.clamped(i, j - 1, k)) +
           0.125f * (a.clamped(i, j, k + 1) - 2.0f * c + a.clamped(i, j, k - 1)) + c;
  });
}

} // namespace liftcc::testref
