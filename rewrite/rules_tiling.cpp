// Overlapped tiling (CGO'18, section 4.2), for 1, 2 and 3 dimensions and for
// stencils whose neighbourhoods are zipped with further inputs.

#include "core/error.h"
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/partial_extents.h"
#include "rewrite/rule.h"

#include <algorithm>
#include <functional>

namespace liftcc::rewrite {

namespace {

/// Where the tile extent divides the number of outputs, the tiles cover the
/// output exactly (the type checker proves the lengths of the tiled result):
/// no extra outputs. Elsewhere (partial tiles, constant sizes only) the
/// outputs are rounded up to whole tiles: the inputs extended at the end
/// (clamped), the surplus outputs dropped by take, so that the last tile's
/// writes beyond the edge are guarded.
struct OutputRounding {
  std::vector<int64_t> extents, rounded;    ///< per dimension, outermost first
  std::vector<arith::Expr> extraOutputs;    ///< empty where the tiles divide
};

/// nullopt where the rule does not apply (not a dims-deep array, symbolic
/// sizes that the tiles may not divide, a tile beyond a WithinOutput output).
std::optional<OutputRounding> roundedOutputs(const Expr &e, int dims, const std::vector<int64_t> &outerFirst,
                                             TileFit fit) {
  OutputRounding r;
  if (!e.type()) return r;
  Type t = *e.type();
  bool divisible = true;
  for (int d = 0; d < dims; ++d) {
    if (!t.isArray()) return std::nullopt;
    divisible = divisible && arith::provablyDivisible(t.arrayLength(), arith::Expr(outerFirst[d]));
    t = t.arrayElement();
  }
  if (divisible) return r;
  auto constant = constantExtents(*e.type(), dims);
  if (!constant) return std::nullopt;
  r.extents = *constant;
  for (int d = 0; d < dims; ++d) {
    int64_t k = outerFirst[static_cast<size_t>(d)], n = r.extents[static_cast<size_t>(d)];
    if (k > n && fit == TileFit::WithinOutput) return std::nullopt;
    r.rounded.push_back((n + k - 1) / k * k);
    r.extraOutputs.push_back(arith::Expr(r.rounded.back() - n));
  }
  return r;
}

/// \t. the stencil of `match` within one tile t (t's components slid again
/// where the stencil slides them).
Expr perTileStencil(const StencilMatch &match, int dims) {
  return api::fn(
      [match, dims](Expr t) {
        std::vector<Expr> parts;
        for (size_t i = 0; i < match.inputs.size(); ++i) {
          Expr component = match.zipped ? api::get(static_cast<int>(i), t) : t;
          parts.push_back(match.slid[i] ? slideNPerDimension(match.sizes, match.steps, component) : component);
        }
        return api::mapN(dims, match.f, match.zipped ? api::zipN(dims, parts) : parts[0]);
      },
      "tile");
}

} // namespace

Rule overlappedTiling(int dims, int64_t outputs, TileFit fit) {
  return overlappedTiling(std::vector<int64_t>(static_cast<size_t>(std::max(dims, 1)), outputs), fit);
}

Rule overlappedTiling(const std::vector<int64_t> &extents, TileFit fit) {
  int dims = static_cast<int>(extents.size());
  if (dims < 1 || dims > 3) throw InternalError("overlappedTiling: 1 to 3 extents, found " + std::to_string(dims));
  // Equal extents keep the one-parameter name ("overlappedTiling2D(8)") that
  // stored results and rewrite locations use; otherwise innermost first.
  bool equal = std::all_of(extents.begin(), extents.end(), [&](int64_t k) { return k == extents[0]; });
  std::string parameters;
  for (size_t d = 0; d < (equal ? 1 : extents.size()); ++d) parameters += (d ? "," : "") + std::to_string(extents[d]);
  std::string name = "overlappedTiling" + std::to_string(dims) + "D(" + parameters + ")";
  // Outermost first, the order of the array dimensions.
  std::vector<int64_t> outerFirst(extents.rbegin(), extents.rend());
  return {name,
          "mapN(f, slideN(n, s, x)) -> untileN(mapN(\\t. mapN(f, slideN(n, s, t)), slideN(u, v, x))), v = k*s, u - v = "
          "n - s "
          "(k per dimension)",
          [dims, outerFirst, equal, fit](const Expr &e) -> std::optional<Expr> {
            auto m = matchStencilN(e, dims);
            if (!m) return std::nullopt;
            // Per dimension (outermost first): tiles of k outputs advance by
            // v = k*s and are u = v + n - s wide (windows may differ per dimension).
            std::vector<arith::Expr> u, v;
            for (size_t d = 0; d < outerFirst.size(); ++d) {
              const arith::Expr &n = m->sizes[d], &s = m->steps[d];
              if (!s.isConstant() || s.constant() <= 0) return std::nullopt;
              v.push_back(arith::Expr(outerFirst[d]) * s);
              u.push_back(v.back() + n - s);
            }
            bool sameTiles = equal && m->square();
            std::optional<OutputRounding> rounding = roundedOutputs(e, dims, outerFirst, fit);
            if (!rounding) return std::nullopt;
            const std::vector<arith::Expr> &extraOutputs = rounding->extraOutputs;
            auto extended = [&](const Expr &in, bool slid) {
              if (extraOutputs.empty()) return in;
              std::vector<arith::Expr> extra;
              for (size_t d = 0; d < extraOutputs.size(); ++d)
                extra.push_back(slid ? extraOutputs[d] * m->steps[d] : extraOutputs[d]);
              return extendEnds(extra, in);
            };
            // Equal extents of square windows build exactly the IR of api::slideN.
            auto tilesOf = [&](const std::vector<arith::Expr> &sizes, const Expr &in) {
              return sameTiles ? api::slideN(dims, sizes[0], v[0], in) : slideNPerDimension(sizes, v, in);
            };
            std::vector<Expr> tiledInputs;
            for (size_t i = 0; i < m->inputs.size(); ++i)
              tiledInputs.push_back(tilesOf(m->slid[i] ? u : v, extended(m->inputs[i], m->slid[i])));
            Expr tiles = m->zipped ? api::zipN(dims, tiledInputs) : tiledInputs[0];
            Expr perTile = perTileStencil(*m, dims);
            Expr untiled = untileN(dims, api::mapN(dims, perTile, tiles));
            return extraOutputs.empty() ? untiled : takeFirst(rounding->extents, rounding->rounded, untiled);
          }};
}

Rule slideWidening(int64_t outputs) {
  return {"slideWidening(" + std::to_string(outputs) + ")",
          "slide(n, s, x) -> join(map(\\t. slide(n, s, t), slide(u, v, x))), v = k*s, u - v = n - s",
          [outputs](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Slide) || !slideStep(e).isConstant() || slideStep(e).constant() <= 0) return std::nullopt;
            // The windows must split evenly into groups of `outputs`.
            if (!e.type() || !arith::provablyDivisible(e.type()->arrayLength(), arith::Expr(outputs)) ||
                arith::provablyEqual(e.type()->arrayLength(), arith::Expr(outputs)))
              return std::nullopt;
            const arith::Expr &n = slideSize(e), &s = slideStep(e);
            arith::Expr v = arith::Expr(outputs) * s, u = v + n - s;
            Expr inner = api::fn([n, s](Expr t) { return api::slide(n, s, t); }, "t");
            return api::join(api::map(inner, api::slide(u, v, inputOf(e))));
          }};
}

} // namespace liftcc::rewrite
