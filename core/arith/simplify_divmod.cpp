// Division and remainder with C semantics (truncation toward zero).
//
// Identities such as (a*k + b)/k == a + b/k only hold for truncating division
// when the numerator and b have the same sign, so every such rule is guarded
// by a proof of non-negativity. Exact divisions ((4*N)/4, (N*M)/M) need no
// range facts. A division by (possibly) zero is never folded.

#include "core/arith/internal.h"

#include <numeric>

namespace liftcc::arith {

namespace {

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

int64_t floorDiv(int64_t a, int64_t k) { // k > 0
  const int64_t q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}

/// Splits a = q*k + r term by term: terms divisible by k go to q; for a
/// positive constant k the constant term is split with a floored quotient so
/// that its remainder part is in [0, k).
struct Split {
  std::vector<Expr> quotient;
  std::vector<Expr> remainder;
};

Split splitByDivisor(const Expr &a, const Expr &k) {
  Split s;
  const bool positiveConstant = k.isConstant() && k.constant() > 0;
  for (const Expr &term : sumTerms(a)) {
    if (term.isConstant() && positiveConstant) {
      const int64_t q = floorDiv(term.constant(), k.constant());
      const int64_t r = wrapAdd(term.constant(), wrapNeg(wrapMul(q, k.constant())));
      if (q != 0) s.quotient.emplace_back(q);
      if (r != 0) s.remainder.emplace_back(r);
    } else if (std::optional<Expr> q = divideTermExactly(term, k)) {
      s.quotient.push_back(*q);
    } else {
      s.remainder.push_back(term);
    }
  }
  return s;
}

/// gcd of k (a constant > 1) and all coefficients of a; 1 if none shared.
int64_t commonFactor(const Expr &a, int64_t k) {
  uint64_t g = magnitude(k);
  for (const Expr &term : sumTerms(a)) {
    g = std::gcd(g, magnitude(viewTerm(term).coeff));
    if (g == 1) break;
  }
  return static_cast<int64_t>(g);
}

/// a with every coefficient divided by g (which divides all of them).
Expr divideCoefficients(Ctx &ctx, const Expr &a, int64_t g) {
  std::vector<Expr> terms;
  for (const Expr &term : sumTerms(a)) {
    const TermView v = viewTerm(term);
    terms.push_back(makeTerm(v.coeff / g, v.factors));
  }
  return mkSum(ctx, std::move(terms));
}

/// Lazily computed proof of a >= 0 (several rules need it).
class LazyNonNeg {
public:
  LazyNonNeg(Ctx &ctx, const Expr &e) : ctx_(ctx), e_(e) {}
  bool operator()() {
    if (state_ == kUnknown) state_ = proveNonNeg(ctx_, e_) ? kTrue : kFalse;
    return state_ == kTrue;
  }

private:
  Ctx &ctx_;
  const Expr &e_;
  // Not std::optional<bool>: g++ 12 reports a false maybe-uninitialized.
  enum { kUnknown, kTrue, kFalse } state_ = kUnknown;
};

} // namespace

Expr mkDiv(Ctx &ctx, const Expr &a, const Expr &b) {
  if (b.isConstant()) {
    const int64_t k = b.constant();
    if (k == 0) return Builder::raw(Kind::Div, {a, b}); // keep; evaluate throws
    if (a.isConstant()) return Expr(cDiv(a.constant(), k));
    if (k == 1) return a;
    if (k == -1) return mkNeg(ctx, a);
    // a / -k == -(a / k) in C; keeps divisors positive in canonical form.
    if (k < 0 && k != INT64_MIN) return mkNeg(ctx, mkDiv(ctx, a, Expr(-k)));
    if (k > 1) {
      // (g*a)/(g*k) == a/k exactly (same rational), for any signs.
      if (const int64_t g = commonFactor(a, k); g > 1) return mkDiv(ctx, divideCoefficients(ctx, a, g), Expr(k / g));
    }
  } else if (!proveNonZero(ctx, b)) {
    return Builder::raw(Kind::Div, {a, b});
  }
  // From here on b != 0.
  if (a.isConstant(0)) return Expr(0);
  if (a == b) return Expr(1);
  // |a % b| < |b|
  if (a.kind() == Kind::Mod && a.operands()[1] == b) return Expr(0);

  LazyNonNeg aNonNeg(ctx, a);
  const Split split = splitByDivisor(a, b);
  if (!split.quotient.empty()) {
    Expr q = mkSum(ctx, split.quotient);
    Expr r = mkSum(ctx, split.remainder);
    if (r.isConstant(0)) return q; // exact: (4*N)/4 -> N, (N*M)/M -> N
    // (q*b + r)/b == q + r/b when both q*b + r and r are >= 0 (b > 0).
    if (provePositive(ctx, b) && aNonNeg() && proveNonNeg(ctx, r)) return mkAdd(ctx, q, mkDiv(ctx, r, b));
  }
  // (x/c)/b == x/(c*b) for c, b > 0 (holds for negative x too: truncation
  // is symmetric).
  if (a.kind() == Kind::Div && provePositive(ctx, a.operands()[1]) && provePositive(ctx, b))
    return mkDiv(ctx, a.operands()[0], mkMul(ctx, a.operands()[1], b));
  // 0 <= a < b
  if (provePositive(ctx, b) && aNonNeg() && proveLT(ctx, a, b)) return Expr(0);
  return Builder::raw(Kind::Div, {a, b});
}

Expr mkMod(Ctx &ctx, const Expr &a, const Expr &b) {
  if (b.isConstant()) {
    const int64_t k = b.constant();
    if (k == 0) return Builder::raw(Kind::Mod, {a, b}); // keep; evaluate throws
    if (a.isConstant()) return Expr(cMod(a.constant(), k));
    if (k == 1 || k == -1) return Expr(0);
    // The sign of a % b follows a only: a % -k == a % k.
    if (k < 0 && k != INT64_MIN) return mkMod(ctx, a, Expr(-k));
    if (k > 1) {
      // (g*a) % (g*k) == g*(a % k) in C.
      if (const int64_t g = commonFactor(a, k); g > 1)
        return mkMul(ctx, Expr(g), mkMod(ctx, divideCoefficients(ctx, a, g), Expr(k / g)));
    }
  } else if (!proveNonZero(ctx, b)) {
    return Builder::raw(Kind::Mod, {a, b});
  }
  // From here on b != 0.
  if (a.isConstant(0) || a == b) return Expr(0);
  if (a.kind() == Kind::Mod) {
    const Expr &inner = a.operands()[1];
    if (inner == b) return a; // (x % b) % b
    // (x % c) % k == x % k when k divides c (the sign of both follows x).
    if (inner.isConstant() && b.isConstant() && cMod(inner.constant(), b.constant()) == 0)
      return mkMod(ctx, a.operands()[0], b);
  }

  LazyNonNeg aNonNeg(ctx, a);
  const Split split = splitByDivisor(a, b);
  if (!split.quotient.empty()) {
    Expr r = mkSum(ctx, split.remainder);
    if (r.isConstant(0)) return Expr(0); // (x*k) % k
    // (q*b + r) % b == r % b when both q*b + r and r are >= 0 (b > 0).
    if (provePositive(ctx, b) && aNonNeg() && proveNonNeg(ctx, r)) return mkMod(ctx, r, b);
  }
  // 0 <= a < b
  if (provePositive(ctx, b) && aNonNeg() && proveLT(ctx, a, b)) return a;
  return Builder::raw(Kind::Mod, {a, b});
}

} // namespace liftcc::arith
