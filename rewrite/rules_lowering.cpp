// Lowering rules: they choose how a map or reduce executes (which work-items,
// sequential or unrolled) and where intermediate arrays live.

#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "primitives/api.h"
#include "rewrite/rule.h"

namespace liftcc::rewrite {

namespace {

/// Whether `e` contains a computation: a user function applied, a reduction,
/// a lowered map, or a map of a user function.
bool computesValues(const Expr &e) {
  return containsNode(e, [](const Expr &n) {
    if (n.is(ExprKind::Apply) && n.fun().is(ExprKind::UserFun)) return true;
    if (!n.is(ExprKind::Prim)) return false;
    return isReduceLike(n.op()) || (isMapLike(n.op()) && n.op() != Op::Map) || n.isPrim(Op::SlideSeq) ||
           (n.op() == Op::Map && funOf(n).is(ExprKind::UserFun));
  });
}

Rule retarget(std::string name, std::string summary, Op from, Op to, int attr, bool needsComputingMap) {
  return {std::move(name), std::move(summary),
          [from, to, attr, needsComputingMap](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(from)) return std::nullopt;
            if (needsComputingMap && !mapComputes(e)) return std::nullopt; // layout maps stay views
            return withOp(e, to, attr);
          }};
}

bool constantExtent(const Expr &in) {
  return in.type() && in.type()->isArray() && in.type()->arrayLength().isConstant();
}

/// Number of array dimensions of a type whose innermost element is a scalar.
std::optional<int> scalarArrayRank(const Type &t) {
  int rank = 0;
  Type cur = t;
  while (cur.isArray()) {
    ++rank;
    cur = cur.arrayElement();
  }
  if (!cur.isScalar()) return std::nullopt;
  return rank;
}

Expr mapLclN(int dims, Expr f, Expr in, int dim) {
  if (dims == 1) return api::mapLcl(dim, f, in);
  return api::mapLcl(dim, api::fn([&](Expr row) { return mapLclN(dims - 1, f, row, dim - 1); }), in);
}

/// mapSeq nested `dims` deep: a sequential copy of every element.
Expr mapSeqN(int dims, Expr f, Expr in) {
  if (dims == 1) return api::mapSeq(f, in);
  return api::mapSeq(api::fn([&](Expr row) { return mapSeqN(dims - 1, f, row); }), in);
}

} // namespace

bool mapComputes(const Expr &map) {
  const Expr &f = funOf(map);
  return f.is(ExprKind::UserFun) || computesValues(f.body());
}

Rule mapToGlb(int dim) {
  return retarget("mapToGlb(" + std::to_string(dim) + ")", "map(f, x) -> mapGlb(" + std::to_string(dim) + ")(f, x)",
                  Op::Map, Op::MapGlb, dim, true);
}
Rule mapToWrg(int dim) {
  return retarget("mapToWrg(" + std::to_string(dim) + ")", "map(f, x) -> mapWrg(" + std::to_string(dim) + ")(f, x)",
                  Op::Map, Op::MapWrg, dim, true);
}
Rule mapToLcl(int dim) {
  return retarget("mapToLcl(" + std::to_string(dim) + ")", "map(f, x) -> mapLcl(" + std::to_string(dim) + ")(f, x)",
                  Op::Map, Op::MapLcl, dim, true);
}
Rule mapToSeq() { return retarget("mapToSeq", "map(f, x) -> mapSeq(f, x)", Op::Map, Op::MapSeq, 0, true); }
Rule reduceToSeq() {
  return retarget("reduceToSeq", "reduce(f, z, x) -> reduceSeq(f, z, x)", Op::Reduce, Op::ReduceSeq, 0, false);
}

Rule mapSeqToUnroll() {
  return {"mapSeqToUnroll", "mapSeq(f, x) -> mapSeqUnroll(f, x)  when x has a constant length",
          [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::MapSeq) || !constantExtent(inputOf(e))) return std::nullopt;
            return withOp(e, Op::MapSeqUnroll);
          }};
}

Rule reduceSeqToUnroll() {
  return {"reduceSeqToUnroll", "reduceSeq(f, z, x) -> reduceSeqUnroll(f, z, x)  when x has a constant length",
          [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::ReduceSeq) || !constantExtent(inputOf(e))) return std::nullopt;
            return withOp(e, Op::ReduceSeqUnroll);
          }};
}

Rule localCopy(int dims) {
  return {"localCopy" + std::to_string(dims) + "D", "x -> toLocal(mapLclN(id), x)",
          [dims](const Expr &e) -> std::optional<Expr> {
            if (!e.type() || e.isPrim(Op::ToLocal) || e.is(ExprKind::Lambda) || e.is(ExprKind::UserFun))
              return std::nullopt;
            auto rank = scalarArrayRank(*e.type());
            if (!rank || *rank != dims) return std::nullopt;
            ScalarKind kind = e.type()->innermost().scalarKind();
            Expr copy = api::fn([dims, kind](Expr x) { return mapLclN(dims, api::id(kind), x, dims - 1); });
            return api::toLocal(copy, e);
          }};
}

Rule privateCopy() { return privateCopy(1); }

Rule privateCopy(int dims) {
  std::string name = dims == 1 ? "privateCopy" : "privateCopy" + std::to_string(dims) + "D";
  return {name, dims == 1 ? "x -> toPrivate(mapSeq(id), x)" : "x -> toPrivate(mapSeqN(id), x)",
          [dims](const Expr &e) -> std::optional<Expr> {
            if (!e.type() || e.isPrim(Op::ToPrivate) || e.is(ExprKind::Lambda) || e.is(ExprKind::UserFun))
              return std::nullopt;
            auto rank = scalarArrayRank(*e.type());
            if (!rank || *rank != dims) return std::nullopt;
            ScalarKind kind = e.type()->innermost().scalarKind();
            return api::toPrivate(api::fn([dims, kind](Expr x) { return mapSeqN(dims, api::id(kind), x); }), e);
          }};
}

} // namespace liftcc::rewrite
