// Room acoustics, 3D 7 points (the FDTD scheme of Webb & Bilbao, "Computing
// room acoustics with CUDA", as in Lift's Acoustic benchmark). One time step
// over the current pressure grid U and the previous one Uprev:
//   u' = ((2 - K l2) u + l2 S - (1 - lb) uprev) / (1 + lb),  lb = 0.5 beta l (6 - K)
// S is the sum of the 6 axis neighbours inside the room and K their number
// (6 in the interior, fewer on the walls, where the losses lb apply).
//  * Boundary: neighbours outside the room do not exist, so U is padded with
//    0 (padConstant) rather than clamped: S then sums exactly K neighbours.
//  * K comes from a third grid, a mask generated from the index and the grid
//    size (sizeValue), as Lift's Array3DFromUserFunGenerator.
//  * Constants: Courant number l = 1/sqrt(3) (the 3D stability limit),
//    l2 = l^2, wall loss beta = 0.1.
//
//   zipN(3, {slideN(3, 3, 1, padConstantN(3, 1, 1, 0, U)), Uprev, mask})
#include "examples/stencil_helpers.h"
#include "examples/stencils.h"

namespace liftcc::examples {

using namespace api;

namespace {
/// [[[int]M]N]O: for every point, how many of its 6 axis neighbours are inside the grid.
Expr neighbourCountMask(const std::vector<Size> &sizes) {
  Expr count = userFun("roomNeighbours",
                       {{"i", ScalarKind::Int},
                        {"j", ScalarKind::Int},
                        {"k", ScalarKind::Int},
                        {"o", ScalarKind::Int},
                        {"n", ScalarKind::Int},
                        {"m", ScalarKind::Int}},
                       ScalarKind::Int,
                       "int count = 6;\n"
                       "if (i == 0 || i == o - 1) count -= 1;\n"
                       "if (j == 0 || j == n - 1) count -= 1;\n"
                       "if (k == 0 || k == m - 1) count -= 1;\n"
                       "return count;");
  const Size &O = sizes[0], &N = sizes[1], &M = sizes[2];
  auto countAt = [&](Expr i, Expr j, Expr k) {
    return apply(count, {i, j, k, sizeValue(O), sizeValue(N), sizeValue(M)});
  };
  // generate3(O, N, M, countAt) as three nested 1D generates.
  return generate(
      O, fn(
             [&](Expr i) {
               return generate(
                   N, fn([&](Expr j) { return generate(M, fn([&](Expr k) { return countAt(i, j, k); }, "k")); }, "j"));
             },
             "i"));
}
} // namespace

Program acoustic() {
  std::vector<Size> sizes = gridSizes(3, 3);
  Expr U = gridInput("U", sizes);
  Expr Uprev = gridInput("Uprev", sizes);
  Expr step = userFun("acousticStep",
                      {{"c", ScalarKind::Float},
                       {"b", ScalarKind::Float},
                       {"t", ScalarKind::Float},
                       {"n", ScalarKind::Float},
                       {"s", ScalarKind::Float},
                       {"w", ScalarKind::Float},
                       {"e", ScalarKind::Float},
                       {"prev", ScalarKind::Float},
                       {"count", ScalarKind::Int}},
                      ScalarKind::Float,
                      "const float l = 0.57735027f;\n"
                      "const float l2 = 0.33333334f;\n"
                      "const float beta = 0.1f;\n"
                      "float lb = 0.5f * beta * l * (float)(6 - count);\n"
                      "float sum = b + t + n + s + w + e;\n"
                      "return ((2.0f - (float)count * l2) * c + l2 * sum - (1.0f - lb) * prev) / (1.0f + lb);");
  Expr f = fn(
      [&](Expr m) {
        std::vector<Expr> args =
            neighbours(get(0, m), 1, {centre(3), {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}});
        args.push_back(get(1, m));
        args.push_back(get(2, m));
        return apply(step, args);
      },
      "m");
  Expr neighbourhoods = constantNeighbourhoods(3, 1, 0.0f, U);
  return program({U, Uprev}, mapN(3, f, zipN(3, {neighbourhoods, Uprev, neighbourCountMask(sizes)})));
}

} // namespace liftcc::examples
