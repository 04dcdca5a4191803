#pragma once
// Building blocks shared by the benchmark stencils: grid sizes and inputs,
// neighbourhoods (pad + slide in N dimensions), reading a neighbour at an
// offset from the centre, and weighted sums as user functions.
//
// Conventions:
//  * A d-dimensional grid is [..[float]M..]N with the outermost dimension
//    first; the sizes are N (1D), N x M (2D: N rows of M columns) and
//    O x N x M (3D: O planes). Offsets are written in the same order:
//    {dz, dy, dx} in 3D, {dy, dx} in 2D.
//  * A neighbourhood of radius r is the (2r+1)^d window around one grid
//    point, as produced by slideN(d, 2r+1, 1, padN(d, r, r, ...)).

#include "primitives/api.h"

#include <cstdint>
#include <string>
#include <vector>

namespace liftcc::examples {

using api::Size;

/// Size variables of a `dims`-dimensional grid, outermost first
/// (N; N, M; O, N, M), each with range [minimum, +inf).
std::vector<Size> gridSizes(int dims, int64_t minimum);
/// A float grid input [..[float]M..]N over `sizes`.
Expr gridInput(const std::string &name, const std::vector<Size> &sizes);

/// Every radius-r neighbourhood of `grid`, out-of-range points clamped to the
/// nearest border point (Rodinia's and Lift's boundary handling):
/// slideN(dims, 2r+1, 1, padN(dims, r, r, clamp, grid)).
Expr clampNeighbourhoods(int dims, int radius, Expr grid);
/// Same, with out-of-range points reading `border`.
Expr constantNeighbourhoods(int dims, int radius, float border, Expr grid);

/// Offset of a neighbour from the centre, outermost dimension first.
using Offset = std::vector<int>;
/// The point at centre + offset of a radius-r neighbourhood
/// (at(r + dx, ... at(r + dz, nbh))).
Expr neighbour(const Expr &nbh, int radius, const Offset &offset);
/// neighbour() for each offset, in order (ready to be user-function arguments).
std::vector<Expr> neighbours(const Expr &nbh, int radius, const std::vector<Offset> &offsets);

/// The centre {0, ..., 0}.
Offset centre(int dims);
/// The 2*dims*radius points of the axis-aligned star, without the centre:
/// per axis (outermost first) distances -radius..-1 then 1..radius.
std::vector<Offset> starOffsets(int dims, int radius);
/// Points at distance exactly `distance` along one axis:
/// per axis (outermost first) -distance then +distance.
std::vector<Offset> axisOffsets(int dims, int distance);
/// All (2r+1)^dims points of the box, row-major (outermost dimension slowest).
std::vector<Offset> boxOffsets(int dims, int radius);

/// Float parameters with the given names.
std::vector<cfun::Param> floatParams(const std::vector<std::string> &names);

/// A group of neighbours sharing one weight. `weight` is the C float literal
/// as written in the original benchmark (e.g. "0.15f", "-1.670f").
struct WeightedGroup {
  std::string weight;
  std::vector<Offset> offsets;
};

/// Applies the user function
///   name(v0, v1, ...) = w0 * (v.. + v..) + w1 * (...) + ...
/// (one parameter per offset, groups in order, additions left to right, a
/// single-point group without parentheses, a negative weight written as a
/// subtraction) to the neighbours of `nbh`.
Expr weightedSum(const std::string &name, const Expr &nbh, int radius, const std::vector<WeightedGroup> &groups);

/// The same sum as a stencil form over `grid` with clamp boundaries (primitives/stencil.h): the body reads
/// the neighbours by offset (`0.25f * A[0][0] + 0.15f * (A[-1][0] + ...)`), the function `name` has one
/// parameter per neighbour (A_0_0, A_m1_0, ...), the radius is the largest |offset|.
Expr weightedSumStencil(const std::string &name, const Expr &grid, const std::vector<WeightedGroup> &groups);

/// GRID[o1][o2]...: a neighbour in the body of a stencil form.
std::string cell(const std::string &grid, const Offset &offset);

} // namespace liftcc::examples
