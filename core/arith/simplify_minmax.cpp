// min, max and select: folded when the ordering of the operands (or the
// outcome of the comparison) is provable; commutative operands are sorted.

#include "core/arith/internal.h"

#include <utility>

namespace liftcc::arith {

namespace {

Expr makeMinMax(Ctx &ctx, Kind kind, const Expr &a, const Expr &b) {
  const bool isMin = kind == Kind::Min;
  if (a == b) return a;
  if (a.isConstant() && b.isConstant()) {
    const bool aSmaller = a.constant() < b.constant();
    return isMin == aSmaller ? a : b;
  }
  if (proveLE(ctx, a, b)) return isMin ? a : b;
  if (proveLE(ctx, b, a)) return isMin ? b : a;
  return b < a ? Builder::raw(kind, {b, a}) : Builder::raw(kind, {a, b});
}

} // namespace

Expr mkMin(Ctx &ctx, const Expr &a, const Expr &b) { return makeMinMax(ctx, Kind::Min, a, b); }
Expr mkMax(Ctx &ctx, const Expr &a, const Expr &b) { return makeMinMax(ctx, Kind::Max, a, b); }

Expr mkSelect(Ctx &ctx, const Expr &lhsIn, CmpOp op, const Expr &rhsIn, const Expr &then, const Expr &otherwise) {
  Expr lhs = lhsIn;
  Expr rhs = rhsIn;
  // Only Lt, Le, Eq, Ne appear in canonical form: a > b is b < a.
  switch (op) {
  case CmpOp::Gt:
    std::swap(lhs, rhs);
    op = CmpOp::Lt;
    break;
  case CmpOp::Ge:
    std::swap(lhs, rhs);
    op = CmpOp::Le;
    break;
  case CmpOp::Eq:
  case CmpOp::Ne:
    if (rhs < lhs) std::swap(lhs, rhs);
    break;
  case CmpOp::Lt:
  case CmpOp::Le: break;
  }
  if (then == otherwise) return then;

  std::optional<bool> outcome;
  switch (op) {
  case CmpOp::Lt:
    if (proveLT(ctx, lhs, rhs))
      outcome = true;
    else if (proveLE(ctx, rhs, lhs))
      outcome = false;
    break;
  case CmpOp::Le:
    if (proveLE(ctx, lhs, rhs))
      outcome = true;
    else if (proveLT(ctx, rhs, lhs))
      outcome = false;
    break;
  case CmpOp::Eq:
  case CmpOp::Ne:
    if (lhs == rhs)
      outcome = true;
    else if (proveLT(ctx, lhs, rhs) || proveLT(ctx, rhs, lhs))
      outcome = false;
    if (outcome && op == CmpOp::Ne) outcome = !*outcome;
    break;
  case CmpOp::Gt:
  case CmpOp::Ge: break; // normalised away above
  }
  if (outcome) return *outcome ? then : otherwise;
  return Builder::raw(Kind::Select, {lhs, rhs, then, otherwise}, op);
}

} // namespace liftcc::arith
