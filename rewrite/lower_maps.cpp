#include "rewrite/lower_maps.h"

#include "core/ir/transform.h"

namespace liftcc::rewrite {

namespace {

bool computesValues(const Expr &e) {
  return containsNode(e, [](const Expr &n) {
    if (n.is(ExprKind::Apply) && n.fun().is(ExprKind::UserFun)) return true;
    if (!n.is(ExprKind::Prim)) return false;
    return isReduceLike(n.op()) || (isMapLike(n.op()) && n.op() != Op::Map) ||
           (n.op() == Op::Map && n.funs()[0].is(ExprKind::UserFun));
  });
}

Expr withOp(const Expr &e, Op op, int attr = 0) {
  return Expr::prim(op, {e.sizes(), attr, e.padMode(), e.funs(), e.args()});
}

/// Inside a work-item: computing maps run sequentially, reductions too.
Expr lowerSequential(const Expr &e) {
  return transformBottomUp(e, [](const Expr &n) {
    if (n.isPrim(Op::Map) && mapComputes(n)) return withOp(n, Op::MapSeq);
    if (n.isPrim(Op::Reduce)) return withOp(n, Op::ReduceSeq);
    return n;
  });
}

/// Depth of the parallel nest starting at `e` (0 when `e` is not a computing map).
int nestDepth(const Expr &e) {
  int depth = 0;
  const Expr *cur = &e;
  while (depth < 3 && cur->isPrim(Op::Map) && mapComputes(*cur)) {
    ++depth;
    const Expr &f = cur->funs()[0];
    if (!f.is(ExprKind::Lambda) || f.params().size() != 1) break;
    const Expr &next = f.body();
    // Only a map over the element itself continues the nest (mapN's shape).
    if (!next.isPrim(Op::Map) || !next.args()[0].is(ExprKind::Param) || !next.args()[0].sameNode(f.params()[0])) break;
    cur = &next;
  }
  return depth;
}

Expr lowerTop(const Expr &e, const std::vector<Op> &levels, size_t level);

/// Lowers the nest rooted at `map` with `dim` the dimension of this map.
Expr lowerNest(const Expr &map, int dim, const std::vector<Op> &levels, size_t level) {
  const Expr &f = map.funs()[0];
  Expr in = lowerSequential(map.args()[0]);
  Expr lowered = f;
  if (f.is(ExprKind::Lambda)) {
    Expr body = dim == 0 ? (level + 1 < levels.size() ? lowerTop(f.body(), levels, level + 1) : lowerSequential(f.body()))
                         : lowerNest(f.body(), dim - 1, levels, level);
    lowered = Expr::lambda(f.params(), body);
  }
  return Expr::prim(levels[level], {{}, dim, PadMode::Clamp, {lowered}, {in}});
}

Expr lowerTop(const Expr &e, const std::vector<Op> &levels, size_t level) {
  if (int depth = nestDepth(e)) return lowerNest(e, depth - 1, levels, level);
  // Look through the layout primitives that wrap a result (e.g. the joins of
  // an untiled result) and through lambda applications.
  if (e.is(ExprKind::Prim) && (e.op() == Op::Join || e.op() == Op::Split || e.op() == Op::Transpose ||
                               (e.op() == Op::Map && !mapComputes(e)))) {
    return Expr::prim(e.op(), {e.sizes(), e.attr(), e.padMode(), e.funs(), {lowerTop(e.args()[0], levels, level)}});
  }
  if (e.isPrim(Op::Iterate) && e.funs()[0].is(ExprKind::Lambda)) {
    // The iterated function is the kernel (see codegen's Kernel::Iteration).
    const Expr &f = e.funs()[0];
    Expr lowered = Expr::lambda(f.params(), lowerTop(f.body(), levels, level));
    return Expr::prim(Op::Iterate, {e.sizes(), e.attr(), e.padMode(), {lowered}, {lowerSequential(e.args()[0])}});
  }
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda)) {
    std::vector<Expr> args;
    for (const Expr &a : e.args()) args.push_back(lowerSequential(a));
    return Expr::apply(Expr::lambda(e.fun().params(), lowerTop(e.fun().body(), levels, level)), std::move(args));
  }
  return lowerSequential(e);
}

} // namespace

bool mapComputes(const Expr &map) {
  const Expr &f = map.funs()[0];
  return f.is(ExprKind::UserFun) || computesValues(f.body());
}

Expr lowerMaps(const Expr &body, const std::vector<Op> &levels) { return lowerTop(body, levels, 0); }

Program lowerToGlobalMaps(const Program &program) {
  return Program{program.sizes, Expr::lambda(program.inputs(), lowerMaps(program.body(), {Op::MapGlb}))};
}

} // namespace liftcc::rewrite
