// Overlapped tiling (CGO'18, section 4.2), for 1, 2 and 3 dimensions and for
// stencils whose neighbourhoods are zipped with further inputs.

#include "core/error.h"
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/rule.h"

#include <algorithm>

namespace liftcc::rewrite {

namespace {} // namespace

Rule overlappedTiling(int dims, int64_t outputs) {
  return overlappedTiling(std::vector<int64_t>(static_cast<size_t>(std::max(dims, 1)), outputs));
}

Rule overlappedTiling(const std::vector<int64_t> &extents) {
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
          [dims, outerFirst, equal](const Expr &e) -> std::optional<Expr> {
            auto m = matchStencilN(e, dims);
            if (!m || !m->step.isConstant() || m->step.constant() <= 0) return std::nullopt;
            std::vector<arith::Expr> u, v;
            for (int64_t k : outerFirst) {
              v.push_back(arith::Expr(k) * m->step);
              u.push_back(v.back() + m->size - m->step);
            }
            // The tiles must cover the output exactly: the number of outputs
            // per dimension must be provably divisible by the tile extent. The
            // type checker proves the rest (the lengths of the tiled result).
            if (e.type()) {
              Type t = *e.type();
              for (int d = 0; d < dims; ++d) {
                if (!t.isArray() || !arith::provablyDivisible(t.arrayLength(), arith::Expr(outerFirst[d])))
                  return std::nullopt;
                t = t.arrayElement();
              }
            }
            // Equal extents build exactly the IR of api::slideN.
            auto tilesOf = [&](const std::vector<arith::Expr> &sizes, const Expr &in) {
              return equal ? api::slideN(dims, sizes[0], v[0], in) : slideNPerDimension(sizes, v, in);
            };
            std::vector<Expr> tiledInputs;
            for (size_t i = 0; i < m->inputs.size(); ++i)
              tiledInputs.push_back(tilesOf(m->slid[i] ? u : v, m->inputs[i]));
            Expr tiles = m->zipped ? api::zipN(dims, tiledInputs) : tiledInputs[0];
            StencilMatch match = *m;
            Expr perTile = api::fn(
                [match, dims](Expr t) {
                  std::vector<Expr> parts;
                  for (size_t i = 0; i < match.inputs.size(); ++i) {
                    Expr component = match.zipped ? api::get(static_cast<int>(i), t) : t;
                    parts.push_back(match.slid[i] ? api::slideN(dims, match.size, match.step, component) : component);
                  }
                  return api::mapN(dims, match.f, match.zipped ? api::zipN(dims, parts) : parts[0]);
                },
                "tile");
            return untileN(dims, api::mapN(dims, perTile, tiles));
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
