#include "rewrite/lower_plain.h"

#include "core/ir/transform.h"

namespace liftcc::rewrite {

namespace {

bool computesValues(const Expr &e) {
  return containsNode(e, [](const Expr &n) {
    if (n.is(ExprKind::Apply) && n.fun().is(ExprKind::UserFun)) return true;
    if (!n.is(ExprKind::Prim)) return false;
    return isReduceLike(n.op()) || (isMapLike(n.op()) && n.funs()[0].is(ExprKind::UserFun));
  });
}

Expr withOp(const Expr &e, Op op, int attr = 0) {
  Expr::PrimOperands o{e.sizes(), attr, e.padMode(), e.funs(), e.args()};
  return Expr::prim(op, std::move(o));
}

/// Inside a work-item: computing maps run sequentially, reductions too.
Expr lowerSequential(const Expr &e) {
  return transformBottomUp(e, [](const Expr &n) {
    if (n.isPrim(Op::Map) && mapComputes(n)) return withOp(n, Op::MapSeq);
    if (n.isPrim(Op::Reduce)) return withOp(n, Op::ReduceSeq);
    return n;
  });
}

/// The nest of computing maps starting at `e`, outermost first (at most 3).
std::vector<const Expr *> parallelNest(const Expr &e) {
  std::vector<const Expr *> nest;
  const Expr *cur = &e;
  while (nest.size() < 3 && cur->isPrim(Op::Map) && mapComputes(*cur)) {
    nest.push_back(cur);
    const Expr &f = cur->funs()[0];
    if (!f.is(ExprKind::Lambda)) break;
    cur = &f.body();
  }
  return nest;
}

Expr lowerNest(const Expr &map, int dim) {
  const Expr &f = map.funs()[0];
  Expr in = lowerSequential(map.args()[0]);
  if (dim == 0 || !f.is(ExprKind::Lambda)) {
    Expr lowered = f.is(ExprKind::Lambda) ? Expr::lambda(f.params(), lowerSequential(f.body())) : f;
    return Expr::prim(Op::MapGlb, {{}, dim, PadMode::Clamp, {lowered}, {in}});
  }
  Expr body = lowerNest(f.body(), dim - 1);
  return Expr::prim(Op::MapGlb, {{}, dim, PadMode::Clamp, {Expr::lambda(f.params(), body)}, {in}});
}

Expr lowerTop(const Expr &e) {
  std::vector<const Expr *> nest = parallelNest(e);
  if (!nest.empty()) return lowerNest(e, static_cast<int>(nest.size()) - 1);
  // Look through the layout primitives that wrap the result (e.g. the join
  // of an untiled result) and through lambda applications.
  if (e.is(ExprKind::Prim) && (e.op() == Op::Join || e.op() == Op::Split || e.op() == Op::Transpose ||
                               (e.op() == Op::Map && !mapComputes(e)))) {
    Expr::PrimOperands o{e.sizes(), e.attr(), e.padMode(), e.funs(), {lowerTop(e.args()[0])}};
    return Expr::prim(e.op(), std::move(o));
  }
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda)) {
    std::vector<Expr> args;
    for (const Expr &a : e.args()) args.push_back(lowerSequential(a));
    return Expr::apply(Expr::lambda(e.fun().params(), lowerTop(e.fun().body())), std::move(args));
  }
  return lowerSequential(e);
}

} // namespace

bool mapComputes(const Expr &map) {
  const Expr &f = map.funs()[0];
  return f.is(ExprKind::UserFun) || computesValues(f.body());
}

Program lowerToGlobalMaps(const Program &program) {
  return Program{program.sizes, Expr::lambda(program.inputs(), lowerTop(program.body()))};
}

} // namespace liftcc::rewrite
