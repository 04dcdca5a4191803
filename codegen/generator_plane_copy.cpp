// The plane copy of a stream through local memory, spread evenly over the
// work-group (generator_slide_seq_local.cpp decides when): the tile plus
// halo as one row-major run of P scalars, work-item f of the F in the
// work-group copying scalars f, f + F, f + 2F, ... (ceil(P / F) each, the
// last guarded). The copy as written (a mapLcl nest over the plane's
// dimensions) gives each work-item whole loops over rows and columns: a 32 x 4
// work-group copying a 34 x 6 plane ran four passes, three of them mostly idle,
// where the flat copy runs two, the first with every work-item busy.
//
// Prefetching: the plane the next step needs is read into private registers
// (`fetch`) right after this step's barrier and stored into the ring at the
// start of the next step (`store`), so its global loads are in flight while
// the step computes instead of stalling at the barrier.

#include "codegen/generator.h"
#include "core/ir/operands.h"

namespace liftcc::codegen {

namespace {

/// The user function a copy `\p. mapLcl(d, \row. ... mapLcl(0, h, row) ..., p)`
/// applies to each scalar of the plane, or nothing for any other copy.
const Expr *elementwiseFunction(const Expr &copy) {
  const Expr *f = &copy;
  while (f->is(ExprKind::Lambda) && f->params().size() == 1) {
    const Expr &body = f->body();
    if (!body.isPrim(Op::MapLcl) || !inputOf(body).is(ExprKind::Param) || !inputOf(body).sameNode(f->params()[0]))
      return nullptr;
    f = &funOf(body);
  }
  return f->is(ExprKind::UserFun) ? f : nullptr;
}

} // namespace

std::optional<Generator::CooperativeCopy> Generator::cooperativeCopy(const Expr &copy, const Type &plane,
                                                                     int innerDims) const {
  const Expr *element = elementwiseFunction(copy);
  if (!element) return std::nullopt;
  CooperativeCopy c;
  c.element = element;
  for (Type t = plane; t.isArray(); t = t.arrayElement()) {
    if (!t.arrayLength().isConstant()) return std::nullopt;
    c.extents.push_back(t.arrayLength().constant());
    c.scalars *= c.extents.back();
  }
  if (static_cast<int>(c.extents.size()) != innerDims) return std::nullopt;
  // Every work-item of the launch counted: the work-group size given in the
  // plane's dimensions, 1 in the others (the kernel requires it).
  for (int d = 0; d < 3; ++d) {
    const int64_t local = options_.localSize[static_cast<size_t>(d)];
    if (d < innerDims ? local < 1 : local > 1) return std::nullopt;
    if (d < innerDims) c.items *= local;
  }
  return c;
}

void Generator::declareFlatIndex(CooperativeCopy &c) {
  std::string text, scale;
  for (int d = 0; d < static_cast<int>(c.extents.size()); ++d) {
    text += (text.empty() ? "" : " + ") + scale + indexBuiltin(&Dialect::localId, d);
    scale += std::to_string(options_.localSize[static_cast<size_t>(d)]) + "*";
  }
  c.flat = freshName("item");
  body_.let(indexType(), c.flat, text);
}

void Generator::copyPlaneCooperatively(const CooperativeCopy &c, CopyPhase phase, const Expr &planes,
                                       const std::string &ring, const arith::Expr &index, int64_t slots, const Env &env,
                                       const std::string &where) {
  const arith::Expr flat = arith::Expr::var(c.flat, arith::Range::between(0, c.items - 1));
  const int64_t perItem = (c.scalars + c.items - 1) / c.items;
  const Type element = planes.typeOrThrow().innermost();
  for (int64_t j = 0; j < perItem; ++j) {
    const arith::Expr scalar = flat + arith::Expr(j * c.items);
    auto value = [&] {
      // Scalar `scalar` of the plane, row-major: its index in each dimension.
      AccessPath path{PathStep::arrayIndex(index)};
      arith::Expr rest = scalar;
      std::vector<arith::Expr> coordinates(c.extents.size());
      for (size_t k = c.extents.size(); k-- > 0;) {
        coordinates[k] = arith::simplify(rest % arith::Expr(c.extents[k]));
        rest = arith::simplify(rest / arith::Expr(c.extents[k]));
      }
      for (const arith::Expr &x : coordinates) path.push_back(PathStep::arrayIndex(x));
      return callUserFun(*c.element, {read(planes, env, path, where)}, element);
    };
    const std::string reg = c.registers + "[" + std::to_string(j) + "]";
    auto copy = [&] {
      if (phase == CopyPhase::Fetch) {
        body_.assign(reg, value());
        return;
      }
      arith::Expr offset = arith::simplify((index % arith::Expr(slots)) * arith::Expr(c.scalars) + scalar);
      body_.assign(ring + "[" + bufferIndex(offset) + "]", phase == CopyPhase::Store ? reg : value());
    };
    if (arith::provablyLess(scalar, arith::Expr(c.scalars)))
      copy();
    else
      body_.ifThen(this->index(scalar) + " < " + std::to_string(c.scalars), copy);
  }
}

} // namespace liftcc::codegen
