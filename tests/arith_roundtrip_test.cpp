// Printing with minimal parentheses and parse(e.str()) == e.

#include "core/arith/expr.h"

#include <doctest/doctest.h>

using namespace liftcc::arith;

namespace {
const Expr N = Expr::size("N");
const Expr M = Expr::size("M");
const Expr x = Expr::var("x");
const Expr y = Expr::var("y");
const std::map<std::string, Range> kRanges = {{"N", N.varRange()}, {"M", M.varRange()}};

void checkRoundTrip(const Expr &e) {
  INFO(e.str());
  const Expr back = parse(e.str(), kRanges);
  CHECK(back == e);
  CHECK(back.hash() == e.hash());
  CHECK(back.str() == e.str());
}
} // namespace

TEST_CASE("arith print: minimal parentheses") {
  CHECK(Expr(-5).str() == "-5");
  CHECK((x + 1).str() == "x + 1");
  CHECK((x - 1).str() == "x - 1");
  CHECK((N - 2 * M).str() == "-2*M + N");
  CHECK((-x).str() == "-x");
  CHECK((x * y).str() == "x*y");
  CHECK(((x + 1) / 2).str() == "(x + 1) / 2");
  CHECK((x / 2 * y).str() == "y*(x / 2)");
  CHECK((x / (y * 2)).str() == "x / (2*y)");
  CHECK(((x / 2) % 3).str() == "x / 2 % 3");
  CHECK((x % (y % 3)).str() == "x % (y % 3)");
  CHECK((-(x / 3)).str() == "-(x / 3)");
  CHECK((3 * (x / y)).str() == "3*(x / y)");
  CHECK(min(x, y + 1).str() == "min(x, y + 1)");
  CHECK(select(x, CmpOp::Lt, y, 1, -1).str() == "(x < y ? 1 : -1)");
  CHECK((select(x, CmpOp::Eq, y, 1, 2) * 2).str() == "2*(x == y ? 1 : 2)");
}

TEST_CASE("arith print: a call prefix goes before every min and max, nowhere else") {
  // Kernels with 64-bit indices call their own liftcc_min / liftcc_max.
  const Expr e = min(x, max(N, y - 1)) + select(x, CmpOp::Lt, y, min(x, 1), 0);
  CHECK(e.str("liftcc_") == "liftcc_min(x, liftcc_max(N, y - 1)) + (x < y ? liftcc_min(1, x) : 0)");
  CHECK(e.str("") == e.str());
  CHECK((x + 2 * y).str("liftcc_") == (x + 2 * y).str());
}

TEST_CASE("arith print: round trips") {
  checkRoundTrip(Expr(0));
  checkRoundTrip(Expr(-17));
  checkRoundTrip(Expr(INT64_MIN));
  checkRoundTrip(Expr(INT64_MAX));
  checkRoundTrip(N - 2);
  checkRoundTrip(-x - 3);
  checkRoundTrip((x + 1) * M + y + 2);
  checkRoundTrip(x / 0);
  checkRoundTrip(-(x / 3) * y);
  checkRoundTrip(x / y / (x % 7));
  checkRoundTrip((x / 2) * 2);
  checkRoundTrip(x / 2 % 3 * y);
  checkRoundTrip(min(x, -y) + max(N, x - 1));
  checkRoundTrip(select(x, CmpOp::Le, -y, N - 1, select(y, CmpOp::Ne, 3, -2, x)));
  checkRoundTrip(-select(x, CmpOp::Lt, y, x, y) / 5);
}

TEST_CASE("arith parse: syntax") {
  CHECK(parse("1 + 2*3") == Expr(7));
  CHECK(parse("(1 + 2)*3") == Expr(9));
  CHECK(parse("-7 / 2") == Expr(-3));
  CHECK(parse("7 % -3") == Expr(1));
  CHECK(parse("x - -y") == x + y);
  CHECK(parse("  x+y ") == x + y);
  CHECK(parse("a > b ? 1 : 2") == parse("(b < a ? 1 : 2)"));
  CHECK(parse("min(3, max(1, 2))") == Expr(2));
  CHECK(parse("-9223372036854775808") == Expr(INT64_MIN));
  CHECK(parse("i", {{"i", Range::between(0, 3)}}).varRange().hi->isConstant(3));
  CHECK(parse("i % 4", {{"i", Range::between(0, 3)}}) == Expr::var("i"));
  CHECK_THROWS_AS(parse(""), ParseError);
  CHECK_THROWS_AS(parse("1 +"), ParseError);
  CHECK_THROWS_AS(parse("(1"), ParseError);
  CHECK_THROWS_AS(parse("1 2"), ParseError);
  CHECK_THROWS_AS(parse("x < y"), ParseError);
  CHECK_THROWS_AS(parse("min(1)"), ParseError);
  CHECK_THROWS_AS(parse("99999999999999999999"), ParseError);
  CHECK_THROWS_AS(parse("x $ y"), ParseError);
}
