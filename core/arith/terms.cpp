// Coefficient/factor views of canonical terms, shared by the sum collector,
// the division rules and provablyDivisible.

#include "core/arith/internal.h"

namespace liftcc::arith {

TermView viewTerm(const Expr &term) {
  switch (term.kind()) {
  case Kind::Constant: return {term.constant(), {}};
  case Kind::Product: {
    const std::vector<Expr> &ops = term.operands();
    if (ops.front().isConstant()) return {ops.front().constant(), std::span<const Expr>(ops).subspan(1)};
    return {1, ops};
  }
  case Kind::Variable:
  case Kind::Sum:
  case Kind::Div:
  case Kind::Mod:
  case Kind::Min:
  case Kind::Max:
  case Kind::Select: return {1, std::span<const Expr>(&term, 1)};
  }
  return {1, std::span<const Expr>(&term, 1)};
}

std::span<const Expr> sumTerms(const Expr &e) {
  if (e.kind() == Kind::Sum) return e.operands();
  return std::span<const Expr>(&e, 1);
}

Expr makeTerm(int64_t coeff, std::span<const Expr> factors) {
  if (coeff == 0 || factors.empty()) return Expr(factors.empty() ? coeff : 0);
  if (coeff == 1 && factors.size() == 1) return factors.front();
  std::vector<Expr> ops;
  ops.reserve(factors.size() + 1);
  if (coeff != 1) ops.emplace_back(coeff);
  ops.insert(ops.end(), factors.begin(), factors.end());
  return Builder::raw(Kind::Product, std::move(ops));
}

int compareFactors(std::span<const Expr> a, std::span<const Expr> b) {
  // Higher degree first reads like a polynomial: `M*i + j + 2`.
  if (a.size() != b.size()) return a.size() > b.size() ? -1 : 1;
  for (size_t i = 0; i < a.size(); ++i)
    if (int c = compareExprs(a[i], b[i])) return c;
  return 0;
}

bool termLess(const TermView &a, const TermView &b) {
  if (int c = compareFactors(a.factors, b.factors)) return c < 0;
  return a.coeff < b.coeff;
}

std::optional<Expr> divideTermExactly(const Expr &term, const Expr &k) {
  const TermView t = viewTerm(term);
  const TermView d = viewTerm(k);
  if (d.coeff == 0 || cMod(t.coeff, d.coeff) != 0) return std::nullopt;
  // Multiset difference t.factors - d.factors; both are sorted by operator<.
  std::vector<Expr> rest;
  size_t j = 0;
  for (const Expr &f : t.factors) {
    if (j < d.factors.size() && f == d.factors[j]) {
      ++j;
      continue;
    }
    rest.push_back(f);
  }
  if (j != d.factors.size()) return std::nullopt;
  return makeTerm(cDiv(t.coeff, d.coeff), rest);
}

} // namespace liftcc::arith
