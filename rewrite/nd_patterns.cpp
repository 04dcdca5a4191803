#include "rewrite/nd_patterns.h"

#include "core/ir/nd_forms.h"
#include "primitives/api.h"

namespace liftcc::rewrite {

// The recognisers live with the builders in core/ir/nd_forms.cpp.
std::optional<MapNMatch> matchMapN(const Expr &e, int dims) {
  auto m = nd::matchMapN(e, dims);
  if (!m) return std::nullopt;
  return MapNMatch{m->f, m->in};
}

std::optional<SlideNMatch> matchSlideN(const Expr &e, int dims) {
  auto m = nd::matchSlideN(e, dims);
  if (!m) return std::nullopt;
  return SlideNMatch{m->size, m->step, m->in};
}

std::optional<std::vector<Expr>> matchZipN(const Expr &e, int dims) {
  auto m = nd::matchZipN(e, dims);
  if (!m) return std::nullopt;
  return m->ins;
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
