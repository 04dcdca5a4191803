#include "examples/stencil_helpers.h"

#include "primitives/stencil.h"

#include <functional>
#include <stdexcept>

namespace liftcc::examples {

using namespace api;

std::vector<Size> gridSizes(int dims, int64_t minimum) {
  static const std::vector<std::vector<std::string>> names{{"N"}, {"N", "M"}, {"O", "N", "M"}};
  if (dims < 1 || dims > 3) throw std::invalid_argument("gridSizes: dims must be 1, 2 or 3");
  std::vector<Size> sizes;
  for (const std::string &n : names[static_cast<size_t>(dims - 1)]) sizes.push_back(size(n, minimum));
  return sizes;
}

Expr gridInput(const std::string &name, const std::vector<Size> &sizes) { return input(name, array(f32(), sizes)); }

Expr clampNeighbourhoods(int dims, int radius, Expr grid) {
  return slideN(dims, 2 * radius + 1, 1, padN(dims, radius, radius, clamp, std::move(grid)));
}

Expr constantNeighbourhoods(int dims, int radius, float border, Expr grid) {
  return slideN(dims, 2 * radius + 1, 1, padConstantN(dims, radius, radius, lit(border), std::move(grid)));
}

Expr neighbour(const Expr &nbh, int radius, const Offset &offset) {
  // The outermost dimension is indexed first: nbh[r + dz][r + dy][r + dx].
  Expr e = nbh;
  for (int d : offset) {
    if (d < -radius || d > radius) throw std::invalid_argument("neighbour: offset outside the neighbourhood");
    e = at(radius + d, e);
  }
  return e;
}

std::vector<Expr> neighbours(const Expr &nbh, int radius, const std::vector<Offset> &offsets) {
  std::vector<Expr> out;
  for (const Offset &o : offsets) out.push_back(neighbour(nbh, radius, o));
  return out;
}

Offset centre(int dims) { return Offset(static_cast<size_t>(dims), 0); }

std::vector<Offset> starOffsets(int dims, int radius) {
  std::vector<Offset> out;
  for (int axis = 0; axis < dims; ++axis)
    for (int d = -radius; d <= radius; ++d) {
      if (d == 0) continue;
      Offset o = centre(dims);
      o[static_cast<size_t>(axis)] = d;
      out.push_back(o);
    }
  return out;
}

std::vector<Offset> axisOffsets(int dims, int distance) {
  std::vector<Offset> out;
  for (int axis = 0; axis < dims; ++axis)
    for (int d : {-distance, distance}) {
      Offset o = centre(dims);
      o[static_cast<size_t>(axis)] = d;
      out.push_back(o);
    }
  return out;
}

std::vector<Offset> boxOffsets(int dims, int radius) {
  std::vector<Offset> out{Offset{}};
  for (int axis = 0; axis < dims; ++axis) {
    std::vector<Offset> next;
    for (const Offset &prefix : out)
      for (int d = -radius; d <= radius; ++d) {
        Offset o = prefix;
        o.push_back(d);
        next.push_back(o);
      }
    out = std::move(next);
  }
  return out;
}

std::vector<cfun::Param> floatParams(const std::vector<std::string> &names) {
  std::vector<cfun::Param> params;
  for (const std::string &n : names) params.push_back({n, ScalarKind::Float});
  return params;
}

namespace {

/// "w1 * (t + t) + w2 * t - w3 * t", each term `termOf(offset)`, in the
/// groups' order; `caller` names the function in the empty-group error.
std::string weightedSumText(const std::vector<WeightedGroup> &groups,
                            const std::function<std::string(const Offset &)> &termOf, const std::string &caller) {
  std::string sum;
  for (const WeightedGroup &g : groups) {
    if (g.offsets.empty() || g.weight.empty()) throw std::invalid_argument(caller + ": empty group");
    std::string terms;
    for (const Offset &o : g.offsets) terms += (terms.empty() ? "" : " + ") + termOf(o);
    if (g.offsets.size() > 1) terms = "(" + terms + ")";
    bool negative = g.weight[0] == '-';
    std::string magnitude = negative ? g.weight.substr(1) : g.weight;
    if (sum.empty())
      sum = g.weight + " * " + terms;
    else
      sum += (negative ? " - " : " + ") + magnitude + " * " + terms;
  }
  return sum;
}

} // namespace

Expr weightedSum(const std::string &name, const Expr &nbh, int radius, const std::vector<WeightedGroup> &groups) {
  std::vector<std::string> names;
  std::vector<Offset> offsets;
  std::string sum = weightedSumText(
      groups,
      [&](const Offset &o) {
        names.push_back("v" + std::to_string(names.size()));
        offsets.push_back(o);
        return names.back();
      },
      "weightedSum");
  Expr f = userFun(name, floatParams(names), ScalarKind::Float, "return " + sum + ";");
  return apply(f, neighbours(nbh, radius, offsets));
}

std::string cell(const std::string &grid, const Offset &offset) {
  std::string out = grid;
  for (int d : offset) out += "[" + std::to_string(d) + "]";
  return out;
}

Expr weightedSumStencil(const std::string &name, const Expr &grid, const std::vector<WeightedGroup> &groups) {
  std::string sum =
      weightedSumText(groups, [&](const Offset &o) { return cell(grid.name(), o); }, "weightedSumStencil");
  return stencil({{grid, clamp}}, "return " + sum + ";", name);
}

} // namespace liftcc::examples
