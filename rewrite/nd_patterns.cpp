#include "rewrite/nd_patterns.h"

#include "core/error.h"
#include "core/ir/nd_forms.h"
#include "core/ir/operands.h"
#include "primitives/api.h"

namespace liftcc::rewrite {

// The recognisers live with the builders in core/ir/nd_forms.cpp.
std::optional<MapNMatch> matchMapN(const Expr &e, int dims) {
  auto m = nd::matchMapN(e, dims);
  if (!m) return std::nullopt;
  return MapNMatch{m->f, m->in};
}

std::optional<SlideNMatch> matchSlideN(const Expr &e, int dims) {
  auto m = nd::matchSlideNPerDimension(e, dims);
  if (!m) return std::nullopt;
  return SlideNMatch{m->sizes[0], m->steps[0], m->in, m->sizes, m->steps};
}

std::optional<std::vector<Expr>> matchZipN(const Expr &e, int dims) {
  auto m = nd::matchZipN(e, dims);
  if (!m) return std::nullopt;
  return m->ins;
}

Expr slideNPerDimension(std::vector<arith::Expr> sizes, std::vector<arith::Expr> steps, Expr in) {
  if (sizes.empty() || sizes.size() != steps.size())
    throw InternalError("slideNPerDimension: one size and step per dimension");
  return nd::slideN(std::move(sizes), std::move(steps), std::move(in));
}

Expr moveDimensionToFront(int from, Expr in) {
  // Swap it outwards one level at a time: transpose at depth j swaps the
  // dimensions j and j+1.
  for (int j = from - 1; j >= 0; --j)
    in = j == 0 ? api::transpose(in) : api::mapN(j, api::fn([](Expr x) { return api::transpose(x); }), in);
  return in;
}

Expr moveFrontDimensionTo(int to, Expr in) {
  for (int j = 0; j < to; ++j)
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

bool StencilMatch::square() const {
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] != size || steps[d] != step) return false;
  return true;
}

std::optional<StencilMatch> matchStencilN(const Expr &e, int dims) {
  auto map = matchMapN(e, dims);
  if (!map) return std::nullopt;
  StencilMatch m{map->f, {}, {}, false, arith::Expr(0), arith::Expr(0), {}, {}};
  std::vector<Expr> candidates{map->in};
  if (auto zipped = matchZipN(map->in, dims)) {
    candidates = *zipped;
    m.zipped = true;
  }
  bool any = false;
  for (const Expr &c : candidates) {
    auto slide = matchSlideN(c, dims);
    if (slide && (!any || (slide->sizes == m.sizes && slide->steps == m.steps))) {
      if (!any) m.size = slide->size, m.step = slide->step, m.sizes = slide->sizes, m.steps = slide->steps;
      any = true;
      m.inputs.push_back(slide->in);
      m.slid.push_back(true);
    } else {
      m.inputs.push_back(c);
      m.slid.push_back(false);
    }
  }
  if (!any) return std::nullopt;
  return m;
}

std::optional<MapNMatch> matchMapLclNest(const Expr &e, int dims) {
  if (dims < 1 || !e.isPrim(Op::MapLcl)) return std::nullopt;
  const Expr *cur = &e;
  for (int k = 1; k < dims; ++k) {
    const Expr &f = funOf(*cur);
    if (!f.is(ExprKind::Lambda) || f.params().size() != 1 || !f.body().isPrim(Op::MapLcl)) return std::nullopt;
    cur = &f.body();
  }
  MapNMatch m{funOf(*cur), inputOf(e)};
  if (!(mapLclNest(dims, m.f, m.in) == e)) return std::nullopt;
  return m;
}

Expr mapLclNest(int dims, Expr f, Expr in) {
  if (dims == 1) return api::mapLcl(0, f, in);
  return api::mapLcl(dims - 1, api::fn([dims, f](Expr row) { return mapLclNest(dims - 1, f, row); }, "row"), in);
}

} // namespace liftcc::rewrite
