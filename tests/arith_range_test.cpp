// Range-aware simplification rules and the bound/proof queries.

#include "core/arith/expr.h"
#include "core/arith/index_range.h"

#include <doctest/doctest.h>

using namespace liftcc::arith;

namespace {
const Expr N = Expr::size("N");
const Expr M = Expr::size("M");
const Expr i = Expr::index("i", N);
const Expr j = Expr::index("j", M);
const Expr k = Expr::var("k", Range::between(0, 2)); // window offset, size 3
const Expr x = Expr::var("x");                       // unbounded: may be negative
const Expr n = Expr::var("n", Range::atLeast(1));
} // namespace

TEST_CASE("arith range: slide output lengths") {
  CHECK((N - 3 + 1) / 1 == N - 2);
  CHECK((N + 2 - 3 + 1) / 1 == N);
  CHECK(((N - 3 + 1) / 1).str() == "N - 2");
  CHECK((4 * N) / 4 == N);
  CHECK(N * M / M == N);
  CHECK((N * M) / N == M);
  CHECK((4 * N) % 4 == Expr(0));
  CHECK((N * M) % M == Expr(0));
  // Exact divisions need no sign facts.
  CHECK((4 * x) / 4 == x);
  CHECK((4 * x - 8) / 4 == x - 2);
}

TEST_CASE("arith range: div/mod recombination") {
  CHECK((i / n) * n + i % n == i);
  CHECK((i / 4) * 4 + i % 4 == i);
  CHECK(3 * ((i / 4) * 4) + 3 * (i % 4) == 3 * i);
  CHECK((x / 4) * 4 + x % 4 == x); // holds for every x in C
  CHECK(i - (i / 4) * 4 == i % 4);
  CHECK(N - 1 - 2 * ((N - 1) / 2) == (N - 1) % 2);
}

TEST_CASE("arith range: (a*k + b)/k and (a*k + b)%k") {
  CHECK((i * M + j) / M == i);
  CHECK((i * M + j) % M == j);
  CHECK((i * 4 + k) / 4 == i);
  CHECK((i * 4 + k) % 4 == k);
  CHECK((i * 4 + 7) / 4 == i + 1);
  CHECK((i * 4 + 7) % 4 == Expr(3));
  CHECK((i * 4 + N) / 4 == i + N / 4);
  // Not provable for possibly negative numerators: must stay symbolic.
  CHECK((x * 4 + 1) / 4 != x);
  CHECK((x * 4 + 1) % 4 != Expr(1));
  CHECK(evaluate((x * 4 + 1) / 4, {{"x", -1}}) == 0);  // -3/4 == 0 in C
  CHECK(evaluate((x * 4 + 1) % 4, {{"x", -1}}) == -3); // -3%4 == -3 in C
}

TEST_CASE("arith range: small numerators") {
  CHECK(j % M == j);
  CHECK(j / M == Expr(0));
  CHECK(k % 3 == k);
  CHECK(k / 3 == Expr(0));
  CHECK(k % 2 != k);
  CHECK(x % 3 != x);
  CHECK((x % 4) / 4 == Expr(0));
  CHECK((x % 4) % 4 == x % 4);
  CHECK((x % 8) % 4 == x % 4);
}

TEST_CASE("arith range: nested division") {
  CHECK((i / 2) / 3 == i / 6);
  CHECK((i / n) / 2 == i / (2 * n));
  CHECK((x / 2) / 3 == x / 6); // truncation is symmetric
}

TEST_CASE("arith range: min, max and select folding") {
  CHECK(min(i, N) == i);
  CHECK(max(i, N) == N);
  CHECK(min(i, N - 1) == i);
  CHECK(max(j + 1, 0) == j + 1);
  CHECK(min(x, x + 1) == x);
  CHECK(max(x - 2, x) == x);
  CHECK(min(x, n).kind() == Kind::Min);
  CHECK(select(i, CmpOp::Lt, N, i + 1, 0) == i + 1);
  CHECK(select(i, CmpOp::Ge, N, 1, 2) == Expr(2));
  CHECK(select(j, CmpOp::Le, M - 1, 1, 2) == Expr(1));
  CHECK(select(N, CmpOp::Eq, 0, 1, 2) == Expr(2));
  CHECK(select(N, CmpOp::Ne, 0, 1, 2) == Expr(1));
  CHECK(select(x, CmpOp::Lt, 0, 1, 2).kind() == Kind::Select);
}

TEST_CASE("arith range: stencil index bounds") {
  const Expr size = 3, step = 1;
  const Expr w = Expr::index("w", (N - size + step) / step); // window index
  CHECK(provablyLessEq(w * step + k, N - 1));
  CHECK(provablyLess(w + k, N));
  const Expr w2 = Expr::index("w2", (N - 3 + 2) / 2); // step 2
  CHECK(provablyLessEq(w2 * 2 + k, N - 1));
  CHECK(provablyNonNegative((i + 1) * M + j + 2));
  CHECK(provablyPositive((i + 1) * M + j + 2));
  CHECK(provablyLess(j, M));
  CHECK_FALSE(provablyLess(j, M - 1));
  CHECK(provablyLess((i * M + j), N * M));
}

TEST_CASE("arith range: bounds") {
  CHECK(constantLowerBound(i) == 0);
  CHECK(constantUpperBound(i) == std::nullopt);
  CHECK(constantUpperBound(i - N) == -1);
  CHECK(constantLowerBound(N - i) == 1);
  CHECK(constantUpperBound(k * 2 + 1) == 5);
  CHECK(constantLowerBound(x) == std::nullopt);
  CHECK(constantUpperBound(x % 5) == 4);
  CHECK(constantLowerBound(x % 5) == -4);
  CHECK(constantLowerBound(min(k, 1) - 3) == -3);
  CHECK(symbolicUpperBound(i) == N - 1);
  CHECK(symbolicUpperBound(i * M + j) == N * M - 1);
  CHECK(symbolicLowerBound(i + j + N) == N);
  CHECK(symbolicUpperBound(x + i) == x + N - 1);    // x has no symbolic range: kept
  CHECK(symbolicUpperBound(i * x) == std::nullopt); // sign of x unknown
  CHECK(symbolicUpperBound(N) == N);
  CHECK(symbolicLowerBound(N) == N);
  CHECK(symbolicUpperBound(k * 2 + 1) == Expr(5));
  CHECK(symbolicLowerBound(i - k) == Expr(-2));
  const Expr w = Expr::index("w", (N - 3 + 2) / 2);
  CHECK(symbolicUpperBound(w * 2 + k) == 2 * ((N - 1) / 2));
}

TEST_CASE("arith range: provablyEqual and provablyDivisible") {
  CHECK(provablyEqual((i + 1) * M, i * M + M));
  CHECK(provablyEqual(j % M, j));
  CHECK_FALSE(provablyEqual(N, M));
  CHECK(provablyDivisible(4 * N, 4));
  CHECK(provablyDivisible(N * M, N));
  CHECK(provablyDivisible(6 * N * M + 3 * M, 3 * M));
  CHECK_FALSE(provablyDivisible(N, 4));
  CHECK_FALSE(provablyDivisible(N + 1, N));
  CHECK_FALSE(provablyDivisible(N, 0));
}

TEST_CASE("arith range: cyclic and deep ranges terminate") {
  // a in [0, b], b in [0, a] can only be expressed through names: the range
  // of the inner reference is resolved by the depth limit.
  const Expr b0 = Expr::var("b", Range::atLeast(0));
  const Expr a = Expr::var("a", Range::between(0, b0));
  const Expr b = Expr::var("b", Range::between(0, a));
  CHECK(constantLowerBound(a + b) == 0);
  CHECK(provablyNonNegative(a - 0));
  Expr chain = Expr::size("S0");
  for (int d = 1; d < 20; ++d) chain = Expr::index("S" + std::to_string(d), chain);
  CHECK(constantLowerBound(chain) == 0);
  CHECK((chain * 4 + 3) / 4 == chain);
}

TEST_CASE("arith range: interior index ranges prove pad reindexing away") {
  // An index in [2, N - 2) (an interior with margins of 2): its neighbours
  // i - 2 .. i + 2 stay in [0, N), so clamp and mirror are the identity.
  const Expr ii = indexWithin("ii", 2, N - 2);
  CHECK(constantLowerBound(ii) == 2);
  CHECK(symbolicUpperBound(ii) == N - 3);
  for (int offset = -2; offset <= 2; ++offset) {
    Expr at = ii + offset;
    CHECK(min(max(at, 0), N - 1) == at);
    CHECK(select(at, CmpOp::Lt, 0, -1 - at, select(at, CmpOp::Ge, N, 2 * N - 1 - at, at)) == at);
    CHECK(provablyNonNegative(at));
    CHECK(provablyLess(at, N));
  }
  // One step further the proof fails in each direction (the margins are tight).
  CHECK_FALSE(provablyNonNegative(ii - 3));
  CHECK_FALSE(provablyLess(ii + 3, N));
  CHECK(min(max(ii - 3, 0), N - 1) != ii - 3);
  // The full index space [0, N) proves nothing about i - 1.
  CHECK(min(max(i - 1, 0), N - 1) != i - 1);
  // Constant extents.
  const Expr c = indexWithin("c", 1, 63);
  CHECK(min(max(c - 1, 0), 63) == c - 1);
  CHECK(min(max(c + 1, 0), 63) == c + 1);
  CHECK(constantUpperBound(c) == 62);
}
