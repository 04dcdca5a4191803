// Canonical form of arith::Expr: flattening, ordering, like terms, constant
// folding with C semantics, structural equality and hashing.

#include "core/arith/expr.h"

#include <doctest/doctest.h>

using namespace liftcc::arith;

namespace {
const Expr N = Expr::size("N");
const Expr M = Expr::size("M");
const Expr x = Expr::var("x");
const Expr y = Expr::var("y");
const Expr z = Expr::var("z");
} // namespace

TEST_CASE("arith canonical: constants and C-semantics folding") {
  CHECK(Expr().isConstant(0));
  CHECK((Expr(2) + 3).isConstant(5));
  CHECK((Expr(7) / 2).isConstant(3));
  CHECK((Expr(-7) / 2).isConstant(-3)); // truncation, not floor
  CHECK((Expr(-7) % 2).isConstant(-1)); // sign of the dividend
  CHECK((Expr(7) % -2).isConstant(1));
  CHECK((Expr(7) / -2).isConstant(-3));
  CHECK((Expr(-7) / -2).isConstant(3));
  CHECK((Expr(6) * -1).isConstant(-6));
  CHECK(min(Expr(3), Expr(-2)).isConstant(-2));
  CHECK(max(Expr(3), Expr(-2)).isConstant(3));
  CHECK(select(1, CmpOp::Lt, 2, 10, 20).isConstant(10));
  CHECK(select(2, CmpOp::Lt, 2, 10, 20).isConstant(20));
  CHECK(select(2, CmpOp::Eq, 2, 10, 20).isConstant(10));
  CHECK(select(2, CmpOp::Ne, 2, 10, 20).isConstant(20));
}

TEST_CASE("arith canonical: division by zero is never folded") {
  const Expr d = Expr(5) / 0;
  CHECK(d.kind() == Kind::Div);
  CHECK((x % 0).kind() == Kind::Mod);
  CHECK((x / x).kind() == Kind::Div); // x may be 0
  CHECK((N / N).isConstant(1));       // N >= 1
  CHECK_THROWS_AS(evaluate(d, {}), EvalError);
  CHECK_THROWS_AS(evaluate(x % 0, {{"x", 3}}), EvalError);
  CHECK_THROWS_AS(evaluate(x + 1, {}), EvalError); // unbound
  CHECK(evaluate(x / 0 * 0, {{"x", 3}}) == 0);     // 0 * anything folds
}

TEST_CASE("arith canonical: sums are flattened, sorted and collected") {
  CHECK(x + y == y + x);
  CHECK((x + y) + z == x + (y + z));
  CHECK(x + x == 2 * x);
  CHECK(3 * x + 2 * x - 5 * x == Expr(0));
  CHECK(x - x == Expr(0));
  CHECK((x + 1) + (y - 1) == x + y);
  const Expr s = 1 + x + 2 + y;
  REQUIRE(s.kind() == Kind::Sum);
  int constants = 0;
  for (const Expr &t : s.operands()) constants += t.isConstant();
  CHECK(constants == 1);
  CHECK(s.operands().back().isConstant(3)); // constant last in sums
  CHECK(s.str() == "x + y + 3");
}

TEST_CASE("arith canonical: products are flattened, sorted and distributed") {
  CHECK(x * y == y * x);
  CHECK((x * y) * z == x * (y * z));
  CHECK(x * 0 == Expr(0));
  CHECK(x * 1 == x);
  const Expr p = y * 3 * x * 2;
  REQUIRE(p.kind() == Kind::Product);
  CHECK(p.operands().front().isConstant(6)); // constant first in products
  CHECK(p.str() == "6*x*y");
  CHECK(2 * (x + y) == 2 * x + 2 * y);
  CHECK((x + 1) * (x - 1) == x * x - 1);
  CHECK((N + 1) * M - M == N * M);
  CHECK(-(-x) == x);
  CHECK(-(x - y) == y - x);
}

TEST_CASE("arith canonical: structural equality, hashing and order") {
  const Expr a = (x + 1) * N / 4;
  const Expr b = (N * x + N) / 4;
  CHECK(a == b);
  CHECK(a.hash() == b.hash());
  CHECK(std::hash<Expr>{}(a) == b.hash());
  CHECK(a != a + 1);
  CHECK_FALSE(a < b);
  CHECK_FALSE(b < a);
  CHECK(((x < y) != (y < x)));
  // Variables are identified by name.
  CHECK(Expr::var("x") == x);
  CHECK(Expr::var("x", Range::atLeast(0)) == x);
}

TEST_CASE("arith canonical: simplify is the identity on canonical forms") {
  const Expr e = min((x + 2) * N / 4, M % 3) + select(x, CmpOp::Gt, y, N, M);
  CHECK(simplify(e) == e);
  CHECK(simplify(simplify(e)) == simplify(e));
  CHECK(substitute(e, {}) == e);
}

TEST_CASE("arith canonical: negative divisors are normalised") {
  CHECK(x / -3 == -(x / 3));
  CHECK(x % -3 == x % 3);
  CHECK(x / -1 == -x);
  CHECK(x % -1 == Expr(0));
  CHECK(x % 1 == Expr(0));
  CHECK(x / 1 == x);
}

TEST_CASE("arith canonical: gcd of divisor and coefficients") {
  CHECK((2 * x + 2) / 4 == (x + 1) / 2);
  CHECK((6 * x) / 4 == (3 * x) / 2);
  CHECK((2 * x + 4) % 6 == 2 * ((x + 2) % 3));
}

TEST_CASE("arith canonical: select normalisation") {
  CHECK(select(x, CmpOp::Gt, y, N, M) == select(y, CmpOp::Lt, x, N, M));
  CHECK(select(x, CmpOp::Ge, y, N, M) == select(y, CmpOp::Le, x, N, M));
  CHECK(select(x, CmpOp::Eq, y, N, M) == select(y, CmpOp::Eq, x, N, M));
  CHECK(select(x, CmpOp::Lt, y, N, N) == N);
  const Expr s = select(y, CmpOp::Lt, x, N, M);
  REQUIRE(s.kind() == Kind::Select);
  CHECK(s.selectCmp() == CmpOp::Lt);
  CHECK(s.operands().size() == 4);
}

TEST_CASE("arith canonical: substitute and free variables") {
  const Expr e = (x + y) * N;
  CHECK(substitute(e, {{"x", Expr(1)}, {"y", Expr(-1)}}) == Expr(0));
  CHECK(substitute(e, {{"x", y}}) == 2 * y * N);
  CHECK(freeVariables(e) == std::vector<std::string>{"N", "x", "y"});
  CHECK(freeVariables(Expr(3)).empty());
  CHECK(evaluate(e, {{"x", 2}, {"y", 3}, {"N", 4}}) == 20);
}
