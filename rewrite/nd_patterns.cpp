#include "rewrite/nd_patterns.h"

#include "core/ir/operands.h"
#include "primitives/api.h"

namespace liftcc::rewrite {

std::optional<MapNMatch> matchMapN(const Expr &e, int dims) {
  if (!e.isPrim(Op::Map)) return std::nullopt;
  const Expr *cur = &e;
  for (int k = 1; k < dims; ++k) {
    const Expr &f = funOf(*cur);
    if (!f.is(ExprKind::Lambda) || !f.body().isPrim(Op::Map)) return std::nullopt;
    cur = &f.body();
  }
  MapNMatch m{funOf(*cur), inputOf(e)};
  if (dims > 1 && !(api::mapN(dims, m.f, m.in) == e)) return std::nullopt;
  return m;
}

std::optional<SlideNMatch> matchSlideN(const Expr &e, int dims) {
  if (dims == 1) {
    if (!e.isPrim(Op::Slide)) return std::nullopt;
    return SlideNMatch{slideSize(e), slideStep(e), inputOf(e)};
  }
  // map(reorder, slide(n, s, map(\row. slideN(dims-1, n, s, row), in)))
  if (!e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Slide)) return std::nullopt;
  const Expr &slide = inputOf(e);
  if (!inputOf(slide).isPrim(Op::Map)) return std::nullopt;
  SlideNMatch m{slideSize(slide), slideStep(slide), inputOf(inputOf(slide))};
  if (!(api::slideN(dims, m.size, m.step, m.in) == e)) return std::nullopt;
  return m;
}

std::optional<std::vector<Expr>> matchZipN(const Expr &e, int dims) {
  if (dims == 1) {
    if (!e.isPrim(Op::Zip)) return std::nullopt;
    return inputsOf(e);
  }
  if (!e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Zip)) return std::nullopt;
  std::vector<Expr> ins = inputsOf(inputOf(e));
  if (!(api::zipN(dims, ins) == e)) return std::nullopt;
  return ins;
}

Expr moveDimensionToFront(int from, Expr in) {
  // Swap it outwards one level at a time: transpose at depth j swaps the
  // dimensions j and j+1.
  for (int j = from - 1; j >= 0; --j)
    in = j == 0 ? api::transpose(in) : api::mapN(j, api::fn([](Expr x) { return api::transpose(x); }), in);
  return in;
}

Expr untileN(int dims, Expr tiles) {
  if (dims == 1) return api::join(std::move(tiles));
  // tiles: [t1][t2..td][k1][k2..kd]. For each tile row, bring k1 in front of
  // t2..td, untile the remaining dims-1 dimensions of each of the k1 rows, and
  // join the tile rows with their k1 rows.
  Expr perTileRow = api::fn([dims](Expr row) {
    return api::map(api::fn([dims](Expr r) { return untileN(dims - 1, r); }), moveDimensionToFront(dims - 1, row));
  });
  return api::join(api::map(perTileRow, std::move(tiles)));
}

} // namespace liftcc::rewrite
