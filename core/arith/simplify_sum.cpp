// Canonical sums: flattening, like-term collection, constant folding and the
// div/mod recombination rules that need to see several terms at once.

#include "core/arith/internal.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory_resource>
#include <span>

namespace liftcc::arith {

namespace {

/// Collects like terms (k*x + j*x -> (k+j)*x) of a flattened term list and
/// returns them in canonical order, the constant (if any, non-zero) last.
std::vector<Expr> collectTerms(std::span<const Expr> terms) {
  struct Item {
    TermView view;
    const Expr *term;
  };
  // Sums are short: the working list lives on the stack unless it is long.
  std::array<std::byte, 16 * sizeof(Item)> buffer;
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
  std::pmr::vector<Item> items(&arena);
  items.reserve(terms.size());
  for (const Expr &t : terms) items.push_back({viewTerm(t), &t});
  std::sort(items.begin(), items.end(),
            [](const Item &a, const Item &b) { return compareFactors(a.view.factors, b.view.factors) < 0; });

  std::vector<Expr> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size();) {
    size_t j = i + 1;
    int64_t coeff = items[i].view.coeff;
    while (j < items.size() && compareFactors(items[i].view.factors, items[j].view.factors) == 0)
      coeff = wrapAdd(coeff, items[j++].view.coeff);
    if (coeff != 0) {
      // Reuse the existing node when nothing was merged: no allocation.
      out.push_back(j == i + 1 ? *items[i].term : makeTerm(coeff, items[i].view.factors));
    }
    i = j;
  }
  return out;
}

const Expr *findTerm(const std::vector<Expr> &terms, const Expr &wanted) {
  for (const Expr &t : terms)
    if (t == wanted) return &t;
  return nullptr;
}

/// C guarantees `(x/n)*n + x%n == x` for every n != 0 (truncating division).
/// Two rules recombine such pieces inside one sum (c a constant):
///   A:  c*(x/n)*n + c*(x%n)        -> c*x
///   B:  c*(x/n)*n - c*x  (all terms) -> -c*(x%n)
/// Both strictly shrink the sum, so applying them to a fixpoint terminates.
std::optional<Expr> recombineDivMod(Ctx &ctx, const std::vector<Expr> &terms) {
  for (const Expr &t : terms) {
    for (const Expr &f : viewTerm(t).factors) {
      if (f.kind() != Kind::Div) continue;
      const Expr &x = f.operands()[0];
      const Expr &n = f.operands()[1];
      if (n.kind() == Kind::Sum) continue; // f*n would distribute
      const Expr divTimesN = mkMul(ctx, f, n);
      const std::optional<Expr> q = divideTermExactly(t, divTimesN);
      if (!q || !q->isConstant()) continue;
      const int64_t c = q->constant();

      auto without = [&](std::initializer_list<const Expr *> drop) {
        std::vector<Expr> rest;
        for (const Expr &u : terms)
          if (std::find(drop.begin(), drop.end(), &u) == drop.end()) rest.push_back(u);
        return rest;
      };

      // Rule A.
      const Expr modTerm = mkMul(ctx, Expr(c), Builder::raw(Kind::Mod, {x, n}));
      if (const Expr *m = findTerm(terms, modTerm); m && proveNonZero(ctx, n)) {
        std::vector<Expr> rest = without({&t, m});
        rest.push_back(mkMul(ctx, Expr(c), x));
        return mkSum(ctx, std::move(rest));
      }

      // Rule B.
      const Expr negX = mkMul(ctx, Expr(wrapNeg(c)), x);
      bool allPresent = false;
      for (const Expr &u : sumTerms(negX)) {
        if (u.isConstant()) continue;
        allPresent = findTerm(terms, u) != nullptr;
        if (!allPresent) break;
      }
      if (allPresent && proveNonZero(ctx, n)) {
        std::vector<Expr> rest = without({&t});
        rest.push_back(mkMul(ctx, Expr(c), x));
        rest.push_back(mkMul(ctx, Expr(wrapNeg(c)), mkMod(ctx, x, n)));
        return mkSum(ctx, std::move(rest));
      }
    }
  }
  return std::nullopt;
}

} // namespace

Expr mkSum(Ctx &ctx, std::vector<Expr> input) {
  std::array<std::byte, 16 * sizeof(Expr)> buffer;
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
  std::pmr::vector<Expr> flat(&arena);
  flat.reserve(input.size() + 4);
  for (Expr &t : input) {
    if (t.kind() == Kind::Sum) {
      const std::vector<Expr> &ops = t.operands();
      flat.insert(flat.end(), ops.begin(), ops.end());
    } else {
      flat.push_back(std::move(t));
    }
  }
  std::vector<Expr> terms = collectTerms(flat);
  if (terms.empty()) return Expr(0);
  if (terms.size() == 1) return terms.front();
  if (std::optional<Expr> r = recombineDivMod(ctx, terms)) return *r;
  return Builder::raw(Kind::Sum, std::move(terms));
}

} // namespace liftcc::arith
