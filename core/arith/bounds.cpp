// Range reasoning.
//
// Two complementary techniques:
//  * interval(): constant interval arithmetic over __int128 with +-kInf,
//    following variable ranges recursively (depth-limited);
//  * symLower()/symUpper(): symbolic bounds that replace variables with a
//    symbolic range (index variables, i in [0, N-1]) by their range ends
//    according to monotonicity, then let the canonicaliser cancel terms:
//    ub(i - N) = (N - 1) - N = -1, which intervals alone cannot see.

#include "core/arith/internal.h"

#include <algorithm>

namespace liftcc::arith {

namespace {

Wide clamp(Wide v) {
  if (v > Wide(INT64_MAX)) return kInf;
  if (v < Wide(INT64_MIN)) return -kInf;
  return v;
}

bool isInf(Wide v) { return v >= kInf || v <= -kInf; }

Wide mulW(Wide a, Wide b) {
  if (a == 0 || b == 0) return 0;
  if (isInf(a) || isInf(b)) return (a < 0) != (b < 0) ? -kInf : kInf;
  return clamp(a * b); // |a|, |b| <= 2^63: no __int128 overflow
}

/// Truncating division of interval corners; b != 0. An infinite operand is
/// resolved conservatively (it only ever widens the hull of the corners).
Wide divW(Wide a, Wide b) {
  if (b == 0) return a < 0 ? -kInf : kInf; // unreachable for non-empty divisor intervals
  if (isInf(b)) return isInf(a) ? ((a < 0) != (b < 0) ? -kInf : kInf) : 0;
  if (isInf(a)) return (a < 0) != (b < 0) ? -kInf : kInf;
  return clamp(a / b);
}

Interval hull(std::initializer_list<Wide> values) { return {std::min(values), std::max(values)}; }

Interval mulI(const Interval &a, const Interval &b) {
  return hull({mulW(a.lo, b.lo), mulW(a.lo, b.hi), mulW(a.hi, b.lo), mulW(a.hi, b.hi)});
}

Interval divI(const Interval &a, const Interval &b) {
  if (b.lo > b.hi) return {}; // empty: only from undefined sub-terms (x % 0)
  if (b.lo >= 1 || b.hi <= -1) return hull({divW(a.lo, b.lo), divW(a.lo, b.hi), divW(a.hi, b.lo), divW(a.hi, b.hi)});
  // b may be +-1 (or 0, which is undefined): |a / b| <= |a|.
  const Wide m = std::max(-a.lo, a.hi);
  return {-m, m};
}

Interval modI(const Interval &a, const Interval &b) {
  // |a % b| < |b| and |a % b| <= |a|; the sign follows a.
  const Wide bMax = std::max(-b.lo, b.hi);
  if (bMax <= 0) return {}; // b == 0: undefined
  const Wide m = isInf(bMax) ? kInf : bMax - 1;
  if (a.lo >= 0) return {0, std::min(a.hi, m)};
  if (a.hi <= 0) return {std::max(a.lo, -m), 0};
  return {std::max(a.lo, -m), std::min(a.hi, m)};
}

bool nonNegInterval(Ctx &ctx, const Expr &e) { return interval(ctx, e).lo >= 0; }

} // namespace

Interval nodeInterval(const Node &n) {
  auto of = [](const Expr &e) -> const Interval & { return e.node()->interval; };
  switch (n.kind) {
  case Kind::Constant: return {n.value, n.value};
  case Kind::Variable: {
    // The range's ends were built before the variable, so their intervals
    // are known: a chain of ranges (i -> N -> ...) is followed to its end.
    Interval r;
    if (n.range.lo) r.lo = of(*n.range.lo).lo;
    if (n.range.hi) r.hi = of(*n.range.hi).hi;
    return r;
  }
  case Kind::Sum: {
    Interval r{0, 0};
    for (const Expr &t : n.ops) {
      r.lo = clamp(r.lo + of(t).lo);
      r.hi = clamp(r.hi + of(t).hi);
    }
    return r;
  }
  case Kind::Product: {
    Interval r{1, 1};
    for (const Expr &f : n.ops) r = mulI(r, of(f));
    return r;
  }
  case Kind::Div: return divI(of(n.ops[0]), of(n.ops[1]));
  case Kind::Mod: return modI(of(n.ops[0]), of(n.ops[1]));
  case Kind::Min: return {std::min(of(n.ops[0]).lo, of(n.ops[1]).lo), std::min(of(n.ops[0]).hi, of(n.ops[1]).hi)};
  case Kind::Max: return {std::max(of(n.ops[0]).lo, of(n.ops[1]).lo), std::max(of(n.ops[0]).hi, of(n.ops[1]).hi)};
  case Kind::Select:
    return {std::min(of(n.ops[2]).lo, of(n.ops[3]).lo), std::max(of(n.ops[2]).hi, of(n.ops[3]).hi)};
  }
  return {};
}

namespace {

std::optional<Expr> symBound(Ctx &ctx, const Expr &e, bool upper);

std::optional<Expr> productBound(Ctx &ctx, const Expr &e, bool upper) {
  const TermView v = viewTerm(e);
  const bool restUpper = v.coeff < 0 ? !upper : upper;
  if (v.factors.size() == 1) {
    std::optional<Expr> b = symBound(ctx, v.factors.front(), restUpper);
    if (!b) return std::nullopt;
    return mkMul(ctx, Expr(v.coeff), *b);
  }
  // Several factors: monotone only when every factor is non-negative.
  for (const Expr &f : v.factors)
    if (!nonNegInterval(ctx, f)) return std::nullopt;
  std::vector<Expr> bounds{Expr(v.coeff)};
  for (const Expr &f : v.factors) {
    std::optional<Expr> b = symBound(ctx, f, restUpper);
    if (!b) return restUpper ? std::nullopt : std::optional<Expr>(Expr(0));
    // A lower bound of a non-negative factor may itself be negative: then 0
    // is the best bound of the product that is still sound.
    if (!restUpper && !nonNegInterval(ctx, *b)) return mkMul(ctx, Expr(v.coeff), Expr(0));
    bounds.push_back(*b);
  }
  return mkProduct(ctx, std::move(bounds));
}

std::optional<Expr> divBound(Ctx &ctx, const Expr &x, const Expr &y, bool upper) {
  if (y.isConstant() && y.constant() > 0) { // monotone in x
    std::optional<Expr> b = symBound(ctx, x, upper);
    if (!b) return std::nullopt;
    return mkDiv(ctx, *b, y);
  }
  if (!nonNegInterval(ctx, x) || interval(ctx, y).lo < 1) return std::nullopt;
  // x >= 0, y >= 1: increasing in x, decreasing in y.
  std::optional<Expr> bx = symBound(ctx, x, upper);
  if (!bx) return upper ? std::nullopt : std::optional<Expr>(Expr(0));
  std::optional<Expr> by = symBound(ctx, y, !upper);
  if (!by) return upper ? std::nullopt : std::optional<Expr>(Expr(0));
  if (interval(ctx, *by).lo < 1) {
    // The symbolic divisor bound might reach zero: use the constant one.
    if (!upper) return Expr(0);
    by = Expr(static_cast<int64_t>(interval(ctx, y).lo));
  }
  return mkDiv(ctx, *bx, *by);
}

std::optional<Expr> symBound(Ctx &ctx, const Expr &e, bool upper) {
  if (!e.node()->hasIndexVar) return e;
  switch (e.kind()) {
  case Kind::Constant: return e;
  case Kind::Variable: {
    const Range &range = e.varRange();
    const std::shared_ptr<const Expr> &bound = upper ? range.hi : range.lo;
    if (!bound || ctx.rangeDepth >= kMaxRangeDepth) return std::nullopt;
    DepthGuard guard(ctx.rangeDepth);
    return symBound(ctx, *bound, upper);
  }
  case Kind::Sum: {
    std::vector<Expr> terms;
    for (const Expr &t : e.operands()) {
      std::optional<Expr> b = symBound(ctx, t, upper);
      if (!b) return std::nullopt;
      terms.push_back(*b);
    }
    return mkSum(ctx, std::move(terms));
  }
  case Kind::Product: return productBound(ctx, e, upper);
  case Kind::Div: return divBound(ctx, e.operands()[0], e.operands()[1], upper);
  case Kind::Mod: {
    const Expr &x = e.operands()[0];
    const Expr &y = e.operands()[1];
    if (!nonNegInterval(ctx, x) || interval(ctx, y).lo < 1) return std::nullopt;
    if (!upper) return Expr(0);
    if (std::optional<Expr> by = symBound(ctx, y, true)) return mkSub(ctx, *by, Expr(1));
    return symBound(ctx, x, true);
  }
  case Kind::Min:
  case Kind::Max: {
    const bool isMin = e.kind() == Kind::Min;
    std::optional<Expr> a = symBound(ctx, e.operands()[0], upper);
    std::optional<Expr> b = symBound(ctx, e.operands()[1], upper);
    // ub(min) needs only one side, lb(min) both; dually for max.
    if (a && b) return isMin ? mkMin(ctx, *a, *b) : mkMax(ctx, *a, *b);
    if (isMin == upper) return a ? a : b;
    return std::nullopt;
  }
  case Kind::Select: {
    std::optional<Expr> a = symBound(ctx, e.operands()[2], upper);
    std::optional<Expr> b = symBound(ctx, e.operands()[3], upper);
    if (!a || !b) return std::nullopt;
    return upper ? mkMax(ctx, *a, *b) : mkMin(ctx, *a, *b);
  }
  }
  return std::nullopt;
}

} // namespace

std::optional<Expr> symLower(Ctx &ctx, const Expr &e) { return symBound(ctx, e, false); }
std::optional<Expr> symUpper(Ctx &ctx, const Expr &e) { return symBound(ctx, e, true); }

Wide lowerBound(Ctx &ctx, const Expr &e) {
  Wide lo = interval(ctx, e).lo;
  if (e.node()->hasIndexVar)
    if (std::optional<Expr> s = symLower(ctx, e)) lo = std::max(lo, interval(ctx, *s).lo);
  return lo;
}

Wide upperBound(Ctx &ctx, const Expr &e) {
  Wide hi = interval(ctx, e).hi;
  if (e.node()->hasIndexVar)
    if (std::optional<Expr> s = symUpper(ctx, e)) hi = std::min(hi, interval(ctx, *s).hi);
  return hi;
}

// ---- Proofs -------------------------------------------------------------------
// Each proof first tries plain intervals (cheap, no expression building); the
// symbolic path builds expressions, which may ask for nested proofs, so it
// counts against kMaxProofDepth.

namespace {

bool lowerAtLeast(Ctx &ctx, const Expr &e, Wide k) {
  if (interval(ctx, e).lo >= k) return true;
  if (!e.node()->hasIndexVar || ctx.proofDepth >= kMaxProofDepth) return false;
  DepthGuard guard(ctx.proofDepth);
  return lowerBound(ctx, e) >= k;
}

bool upperAtMost(Ctx &ctx, const Expr &e, Wide k) {
  if (interval(ctx, e).hi <= k) return true;
  if (!e.node()->hasIndexVar || ctx.proofDepth >= kMaxProofDepth) return false;
  DepthGuard guard(ctx.proofDepth);
  return upperBound(ctx, e) <= k;
}

/// a >= b + margin for every value of the variables, by intervals alone (no
/// expression built). An empty interval (a variable whose range is empty)
/// proves nothing here: there every comparison holds vacuously.
bool provablyAbove(Ctx &ctx, const Expr &a, const Expr &b, Wide margin) {
  const Interval ia = interval(ctx, a);
  if (ia.lo <= -kInf || ia.lo > ia.hi) return false;
  const Interval ib = interval(ctx, b);
  return ib.lo <= ib.hi && ia.lo >= ib.hi + margin;
}

/// b - a, built one proof level deeper (building may itself ask for proofs).
std::optional<Expr> difference(Ctx &ctx, const Expr &b, const Expr &a) {
  if (ctx.proofDepth >= kMaxProofDepth) return std::nullopt;
  DepthGuard guard(ctx.proofDepth);
  return mkSub(ctx, b, a);
}

} // namespace

bool proveNonNeg(Ctx &ctx, const Expr &e) { return lowerAtLeast(ctx, e, 0); }
bool provePositive(Ctx &ctx, const Expr &e) { return lowerAtLeast(ctx, e, 1); }
bool proveNonZero(Ctx &ctx, const Expr &e) { return lowerAtLeast(ctx, e, 1) || upperAtMost(ctx, e, -1); }

bool proveLE(Ctx &ctx, const Expr &a, const Expr &b) {
  if (a == b) return true;
  if (a.isConstant() && b.isConstant()) return a.constant() <= b.constant();
  // a > b wherever the variables may be: nothing to prove, and no difference
  // to build (min and max try both orders, so half their proofs end here).
  if (provablyAbove(ctx, a, b, 1)) return false;
  std::optional<Expr> d = difference(ctx, b, a);
  return d && lowerAtLeast(ctx, *d, 0);
}

bool proveLT(Ctx &ctx, const Expr &a, const Expr &b) {
  if (a == b) return false;
  if (a.isConstant() && b.isConstant()) return a.constant() < b.constant();
  if (provablyAbove(ctx, a, b, 0)) return false; // a >= b everywhere
  std::optional<Expr> d = difference(ctx, b, a);
  return d && lowerAtLeast(ctx, *d, 1);
}

// ---- Public API -------------------------------------------------------------------

namespace {

std::optional<int64_t> finite(Wide v) {
  if (isInf(v)) return std::nullopt;
  return static_cast<int64_t>(v);
}

} // namespace

std::optional<int64_t> constantLowerBound(const Expr &e) {
  Ctx ctx;
  return finite(lowerBound(ctx, e));
}

std::optional<int64_t> constantUpperBound(const Expr &e) {
  Ctx ctx;
  return finite(upperBound(ctx, e));
}

std::optional<Expr> symbolicLowerBound(const Expr &e) {
  Ctx ctx;
  std::optional<Expr> s = symLower(ctx, e);
  if (!s) return std::nullopt;
  // Built with proof depth budget spent on the way; re-canonicalise at the top.
  return simplify(*s);
}

std::optional<Expr> symbolicUpperBound(const Expr &e) {
  Ctx ctx;
  std::optional<Expr> s = symUpper(ctx, e);
  if (!s) return std::nullopt;
  return simplify(*s);
}

bool provablyNonNegative(const Expr &e) {
  Ctx ctx;
  return proveNonNeg(ctx, e);
}

bool provablyPositive(const Expr &e) {
  Ctx ctx;
  return provePositive(ctx, e);
}

bool provablyLess(const Expr &a, const Expr &b) {
  Ctx ctx;
  return proveLT(ctx, a, b);
}

bool provablyLessEq(const Expr &a, const Expr &b) {
  Ctx ctx;
  return proveLE(ctx, a, b);
}

bool provablyEqual(const Expr &a, const Expr &b) {
  if (a == b) return true;
  Ctx ctx;
  const Expr d = mkSub(ctx, a, b);
  if (d.isConstant()) return d.constant() == 0;
  return lowerAtLeast(ctx, d, 0) && upperAtMost(ctx, d, 0);
}

bool provablyDivisible(const Expr &a, const Expr &k) {
  if (k.isConstant(0)) return false; // a % 0 is undefined
  Ctx ctx;
  if (!k.isConstant() && !proveNonZero(ctx, k)) return false;
  bool allTerms = true;
  for (const Expr &term : sumTerms(a)) allTerms = allTerms && divideTermExactly(term, k).has_value();
  if (allTerms) return true;
  return mkMod(ctx, a, k).isConstant(0);
}

} // namespace liftcc::arith
