#pragma once
// Internal interfaces shared by the simplifier, the range reasoning and the
// public wrappers. Everything takes a Ctx so that recursion between smart
// constructors and proofs is bounded without any global mutable state.

#include "core/arith/node.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace liftcc::arith {

/// Per-call state of one public operation. Smart constructors ask for proofs,
/// proofs build expressions through smart constructors; the depth counters
/// cut this mutual recursion (and cycles between variable ranges) off.
struct Ctx {
  int proofDepth = 0;
  int rangeDepth = 0;
};

/// Deeper proofs give up (answer "not provable"), which is always sound.
inline constexpr int kMaxProofDepth = 2;
/// How many variable ranges a bound may chase (i -> N -> ...); also stops
/// cyclic ranges such as i in [0, j], j in [0, i].
inline constexpr int kMaxRangeDepth = 6;

/// RAII increment of one of the Ctx counters.
class DepthGuard {
public:
  explicit DepthGuard(int &counter) : counter_(counter) { ++counter_; }
  ~DepthGuard() { --counter_; }
  DepthGuard(const DepthGuard &) = delete;
  DepthGuard &operator=(const DepthGuard &) = delete;

private:
  int &counter_;
};

// ---- Smart constructors (canonical.cpp, simplify_*.cpp) ---------------------
Expr mkSum(Ctx &ctx, std::vector<Expr> terms);
Expr mkProduct(Ctx &ctx, std::vector<Expr> factors);
Expr mkDiv(Ctx &ctx, const Expr &a, const Expr &b);
Expr mkMod(Ctx &ctx, const Expr &a, const Expr &b);
Expr mkMin(Ctx &ctx, const Expr &a, const Expr &b);
Expr mkMax(Ctx &ctx, const Expr &a, const Expr &b);
Expr mkSelect(Ctx &ctx, const Expr &lhs, CmpOp op, const Expr &rhs, const Expr &then, const Expr &otherwise);
// The binary forms answer the cases with a constant operand of 0 or 1, or
// two constants, without building the operand list: index arithmetic is
// full of `+ 0`, `* 1` and `c - d`, and each list and its sorting were
// allocations (under AddressSanitizer most of code generation's time).
// Operands are canonical, so the shortcuts return what the general path
// would.
inline Expr mkAdd(Ctx &ctx, const Expr &a, const Expr &b) {
  if (b.isConstant(0)) return a;
  if (a.isConstant(0)) return b;
  if (a.isConstant() && b.isConstant()) return Expr(wrapAdd(a.constant(), b.constant()));
  return mkSum(ctx, {a, b});
}
inline Expr mkMul(Ctx &ctx, const Expr &a, const Expr &b) {
  if (b.isConstant(1)) return a;
  if (a.isConstant(1)) return b;
  if (a.isConstant() && b.isConstant()) return Expr(wrapMul(a.constant(), b.constant()));
  return mkProduct(ctx, {a, b});
}
inline Expr mkNeg(Ctx &ctx, const Expr &a) {
  if (a.isConstant()) return Expr(wrapNeg(a.constant()));
  return mkProduct(ctx, {Expr(-1), a});
}
inline Expr mkSub(Ctx &ctx, const Expr &a, const Expr &b) {
  if (a == b) return Expr(0);
  return mkAdd(ctx, a, mkNeg(ctx, b));
}
/// Rebuilds bottom-up through the smart constructors.
Expr rebuild(Ctx &ctx, const Expr &e);

/// Three-way form of operator< (expr.cpp).
int compareExprs(const Expr &a, const Expr &b);

// ---- Terms (terms.cpp) ------------------------------------------------------
/// A canonical sum term viewed as coefficient * factors, without allocating:
/// `3*x*y` -> {3, [x, y]}, `x` -> {1, [x]}, `7` -> {7, []}.
struct TermView {
  int64_t coeff = 0;
  std::span<const Expr> factors;
};
TermView viewTerm(const Expr &term);
/// The terms of e as a sum (e itself unless e is a Sum).
std::span<const Expr> sumTerms(const Expr &e);
/// Canonical term from a coefficient and sorted, non-constant factors.
Expr makeTerm(int64_t coeff, std::span<const Expr> factors);
/// Order of canonical sum terms: higher degree first, then factors, then
/// coefficient. Total on canonical terms.
bool termLess(const TermView &a, const TermView &b);
int compareFactors(std::span<const Expr> a, std::span<const Expr> b);
/// term / k when it divides exactly ((6*x*N) / (3*N) -> 2*x); k != 0.
std::optional<Expr> divideTermExactly(const Expr &term, const Expr &k);

// ---- Ranges (bounds.cpp) ------------------------------------------------------
/// The node's interval (Node::interval), computed when it was built.
inline Interval interval(Ctx &, const Expr &e) { return e.node()->interval; }
Wide lowerBound(Ctx &ctx, const Expr &e); ///< best constant bound, -kInf if none
Wide upperBound(Ctx &ctx, const Expr &e);
std::optional<Expr> symLower(Ctx &ctx, const Expr &e);
std::optional<Expr> symUpper(Ctx &ctx, const Expr &e);

bool proveNonNeg(Ctx &ctx, const Expr &e);
bool provePositive(Ctx &ctx, const Expr &e);
bool proveNonZero(Ctx &ctx, const Expr &e);
bool proveLE(Ctx &ctx, const Expr &a, const Expr &b);
bool proveLT(Ctx &ctx, const Expr &a, const Expr &b);

} // namespace liftcc::arith
