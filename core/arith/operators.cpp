// Public smart constructors and simplify(): thin wrappers that give each
// top-level call its own Ctx.

#include "core/arith/internal.h"

namespace liftcc::arith {

Expr operator+(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkAdd(ctx, a, b);
}

Expr operator-(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkSub(ctx, a, b);
}

Expr operator-(const Expr &a) {
  Ctx ctx;
  return mkNeg(ctx, a);
}

Expr operator*(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkMul(ctx, a, b);
}

Expr operator/(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkDiv(ctx, a, b);
}

Expr operator%(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkMod(ctx, a, b);
}

Expr min(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkMin(ctx, a, b);
}

Expr max(const Expr &a, const Expr &b) {
  Ctx ctx;
  return mkMax(ctx, a, b);
}

Expr select(const Expr &lhs, CmpOp op, const Expr &rhs, const Expr &then, const Expr &otherwise) {
  Ctx ctx;
  return mkSelect(ctx, lhs, op, rhs, then, otherwise);
}

Expr rebuild(Ctx &ctx, const Expr &e) {
  const std::vector<Expr> &ops = e.operands();
  auto all = [&] {
    std::vector<Expr> out;
    out.reserve(ops.size());
    for (const Expr &op : ops) out.push_back(rebuild(ctx, op));
    return out;
  };
  switch (e.kind()) {
  case Kind::Constant:
  case Kind::Variable: return e;
  case Kind::Sum: return mkSum(ctx, all());
  case Kind::Product: return mkProduct(ctx, all());
  case Kind::Div: return mkDiv(ctx, rebuild(ctx, ops[0]), rebuild(ctx, ops[1]));
  case Kind::Mod: return mkMod(ctx, rebuild(ctx, ops[0]), rebuild(ctx, ops[1]));
  case Kind::Min: return mkMin(ctx, rebuild(ctx, ops[0]), rebuild(ctx, ops[1]));
  case Kind::Max: return mkMax(ctx, rebuild(ctx, ops[0]), rebuild(ctx, ops[1]));
  case Kind::Select: {
    const std::vector<Expr> r = all();
    return mkSelect(ctx, r[0], e.selectCmp(), r[1], r[2], r[3]);
  }
  }
  return e;
}

Expr simplify(const Expr &e) {
  Ctx ctx;
  return rebuild(ctx, e);
}

} // namespace liftcc::arith
