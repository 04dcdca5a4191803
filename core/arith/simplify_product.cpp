// Canonical products: flattening, constant folding, sorting and distribution
// over sums (so that like terms of different products can be collected).

#include "core/arith/internal.h"

#include <algorithm>

namespace liftcc::arith {

namespace {

/// Distribution multiplies term counts; beyond this a product of sums stays
/// factored (still canonical, just not fully expanded) to avoid blowups.
constexpr size_t kMaxDistributedTerms = 64;

} // namespace

Expr mkProduct(Ctx &ctx, std::vector<Expr> input) {
  int64_t coeff = 1;
  std::vector<Expr> factors;
  factors.reserve(input.size() + 2);
  size_t sums = 1; // number of terms after full distribution
  auto add = [&](const Expr &f) {
    if (f.isConstant()) {
      coeff = wrapMul(coeff, f.constant());
      return;
    }
    if (f.kind() == Kind::Sum) sums = std::min(sums * f.operands().size(), kMaxDistributedTerms + 1);
    factors.push_back(f);
  };
  for (const Expr &f : input) {
    if (f.kind() == Kind::Product) {
      for (const Expr &g : f.operands()) add(g);
    } else {
      add(f);
    }
  }
  if (coeff == 0 || factors.empty()) return Expr(factors.empty() ? coeff : 0);

  if (factors.size() == 1 && factors.front().kind() == Kind::Sum && sums <= kMaxDistributedTerms) {
    // c * (a + b + ...), the shape of every scaled index: each term scaled
    // in place, without the cross product's lists below (same result).
    std::vector<Expr> terms;
    terms.reserve(factors.front().operands().size());
    for (const Expr &t : factors.front().operands()) {
      const TermView view = viewTerm(t);
      const bool factoredSum =
          std::any_of(view.factors.begin(), view.factors.end(), [](const Expr &f) { return f.kind() == Kind::Sum; });
      terms.push_back(factoredSum ? mkProduct(ctx, {Expr(coeff), t})
                                  : makeTerm(wrapMul(coeff, view.coeff), view.factors));
    }
    return mkSum(ctx, std::move(terms));
  }
  const bool hasSum = std::any_of(factors.begin(), factors.end(), [](const Expr &f) { return f.kind() == Kind::Sum; });
  if (hasSum && sums <= kMaxDistributedTerms) {
    // (a + b) * c * (d + e) -> a*c*d + a*c*e + b*c*d + b*c*e
    std::vector<std::vector<Expr>> partial{{Expr(coeff)}};
    for (const Expr &f : factors) {
      std::vector<std::vector<Expr>> next;
      for (const Expr &choice : sumTerms(f)) {
        for (const std::vector<Expr> &p : partial) {
          next.push_back(p);
          next.back().push_back(choice);
        }
      }
      partial = std::move(next);
    }
    std::vector<Expr> terms;
    terms.reserve(partial.size());
    for (std::vector<Expr> &p : partial) terms.push_back(mkProduct(ctx, std::move(p)));
    return mkSum(ctx, std::move(terms));
  }

  std::sort(factors.begin(), factors.end());
  return makeTerm(coeff, factors);
}

} // namespace liftcc::arith
