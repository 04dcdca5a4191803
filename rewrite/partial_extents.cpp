#include "rewrite/partial_extents.h"

#include "primitives/api.h"

namespace liftcc::rewrite {

std::optional<std::vector<int64_t>> constantExtents(Type t, int dims) {
  std::vector<int64_t> extents;
  for (int d = 0; d < dims; ++d) {
    if (!t.isArray() || !t.arrayLength().isConstant()) return std::nullopt;
    extents.push_back(t.arrayLength().constant());
    t = t.arrayElement();
  }
  return extents;
}

Expr atDepth(int depth, const std::function<Expr(Expr)> &f, Expr in) {
  if (depth == 0) return f(std::move(in));
  return api::mapN(depth, api::fn([&](Expr x) { return f(std::move(x)); }), std::move(in));
}

Expr extendEnds(const std::vector<arith::Expr> &extra, Expr in) {
  for (size_t d = 0; d < extra.size(); ++d)
    if (!arith::provablyEqual(extra[d], arith::Expr(0)))
      in = atDepth(
          static_cast<int>(d), [&](Expr x) { return api::pad(arith::Expr(0), extra[d], PadMode::Clamp, std::move(x)); },
          in);
  return in;
}

Expr takeFirst(const std::vector<int64_t> &extents, const std::vector<int64_t> &rounded, Expr in) {
  for (size_t d = 0; d < extents.size(); ++d)
    if (extents[d] != rounded[d])
      in = atDepth(
          static_cast<int>(d), [&](Expr x) { return api::take(arith::Expr(extents[d]), std::move(x)); }, in);
  return in;
}

} // namespace liftcc::rewrite
