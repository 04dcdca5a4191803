// C semantics of the evaluator: conversions, integer arithmetic, builtins.

#include "tests/cfun_test_helpers.h"

#include "core/cfun/convert.h"

#include <climits>
#include <cmath>
#include <limits>

using namespace cfun_test;
using liftcc::cfun::CFunEvalError;

namespace {

Scalar run(std::vector<Param> params, ScalarKind result, const std::string &body, std::initializer_list<Scalar> args) {
  return compile(std::move(params), result, body).call(args);
}

Scalar intExpr(const std::string &expr, int a = 0, int b = 0) {
  return run({i32("a"), i32("b")}, ScalarKind::Int, "return " + expr + ";", {Scalar::ofInt(a), Scalar::ofInt(b)});
}

} // namespace

TEST_CASE("cfun semantics: integer division truncates toward zero, % takes the dividend's sign") {
  CHECK(intExpr("a / b", 7, 2) == Scalar::ofInt(3));
  CHECK(intExpr("a / b", -7, 2) == Scalar::ofInt(-3));
  CHECK(intExpr("a / b", 7, -2) == Scalar::ofInt(-3));
  CHECK(intExpr("a % b", 7, 2) == Scalar::ofInt(1));
  CHECK(intExpr("a % b", -7, 2) == Scalar::ofInt(-1));
  CHECK(intExpr("a % b", 7, -2) == Scalar::ofInt(1));
  CHECK(intExpr("a % b", -7, -2) == Scalar::ofInt(-1));
  CHECK(intExpr("7 / 2 * 2") == Scalar::ofInt(6));
}

TEST_CASE("cfun semantics: integer division by zero and INT_MIN / -1 throw CFunEvalError") {
  Function div = compile({i32("a"), i32("b")}, ScalarKind::Int, "return a / b;");
  Function rem = compile({i32("a"), i32("b")}, ScalarKind::Int, "\n  return a % b;");
  CHECK_THROWS_AS(div.call({Scalar::ofInt(1), Scalar::ofInt(0)}), CFunEvalError);
  CHECK_THROWS_AS(rem.call({Scalar::ofInt(1), Scalar::ofInt(0)}), CFunEvalError);
  CHECK_THROWS_AS(div.call({Scalar::ofInt(INT_MIN), Scalar::ofInt(-1)}), CFunEvalError);
  CHECK_THROWS_AS(rem.call({Scalar::ofInt(INT_MIN), Scalar::ofInt(-1)}), CFunEvalError);
  try {
    rem.call({Scalar::ofInt(1), Scalar::ofInt(0)});
  } catch (const CFunEvalError &e) {
    CHECK(e.line == 2);
    CHECK(e.column == 12);
    CHECK(std::string(e.what()) == "user function 'f', line 2, column 12: integer remainder by zero (undefined in C)");
  }
  // Compound assignment divides too.
  Function compound = compile({i32("a"), i32("b")}, ScalarKind::Int, "a /= b; return a;");
  CHECK_THROWS_AS(compound.call({Scalar::ofInt(1), Scalar::ofInt(0)}), CFunEvalError);
  // Only the branch taken is evaluated.
  Function guarded = compile({i32("a"), i32("b")}, ScalarKind::Int, "return b != 0 ? a / b : 0;");
  CHECK(guarded.call({Scalar::ofInt(1), Scalar::ofInt(0)}) == Scalar::ofInt(0));
  Function shortCircuit = compile({i32("a"), i32("b")}, ScalarKind::Bool, "return b != 0 && a / b > 1;");
  CHECK(shortCircuit.call({Scalar::ofInt(1), Scalar::ofInt(0)}) == Scalar::ofBool(false));
  // Float division by zero is IEEE, not an error.
  Function fdiv = compile({f32("a"), f32("b")}, ScalarKind::Float, "return a / b;");
  CHECK(std::isinf(fdiv.call({Scalar::ofFloat(1), Scalar::ofFloat(0)}).asFloat()));
}

TEST_CASE("cfun semantics: int overflow wraps around") {
  CHECK(intExpr("a + b", INT_MAX, 1) == Scalar::ofInt(INT_MIN));
  CHECK(intExpr("a - b", INT_MIN, 1) == Scalar::ofInt(INT_MAX));
  CHECK(intExpr("a * b", 65536, 65536) == Scalar::ofInt(0));
  CHECK(intExpr("-a", INT_MIN) == Scalar::ofInt(INT_MIN));
  CHECK(intExpr("2147483647 + 1") == Scalar::ofInt(INT_MIN));
}

TEST_CASE("cfun semantics: usual arithmetic conversions") {
  // int / int stays int even when the result is float.
  CHECK(run({i32("a")}, ScalarKind::Float, "return a / 2;", {Scalar::ofInt(3)}) == Scalar::ofFloat(1.0f));
  CHECK(run({i32("a")}, ScalarKind::Float, "return a / 2.0f;", {Scalar::ofInt(3)}) == Scalar::ofFloat(1.5f));
  CHECK(run({i32("a")}, ScalarKind::Float, "return (float)a / 2;", {Scalar::ofInt(3)}) == Scalar::ofFloat(1.5f));
  // int -> float rounds: 16777217 is not representable in float.
  CHECK(run({i32("a")}, ScalarKind::Float, "return a + 0.0f;", {Scalar::ofInt(16777217)}) ==
        Scalar::ofFloat(16777216.0f));
  // ... but fits in double.
  CHECK(run({i32("a")}, ScalarKind::Double, "return a + 0.0;", {Scalar::ofInt(16777217)}) ==
        Scalar::ofDouble(16777217.0));
  // float op double happens in double.
  CHECK(run({f32("x")}, ScalarKind::Double, "return x * 0.1;", {Scalar::ofFloat(3.0f)}) == Scalar::ofDouble(3.0 * 0.1));
  // bool promotes to int.
  CHECK(run({b8("p"), b8("q")}, ScalarKind::Int, "return p + q;", {Scalar::ofBool(true), Scalar::ofBool(true)}) ==
        Scalar::ofInt(2));
  CHECK(run({b8("p")}, ScalarKind::Int, "return -p;", {Scalar::ofBool(true)}) == Scalar::ofInt(-1));
  // Comparisons yield 0 or 1.
  CHECK(intExpr("(a < b) + (a < b) * 10", 1, 2) == Scalar::ofInt(11));
  CHECK(intExpr("a < b < 1", 5, 2) == Scalar::ofInt(1)); // (5 < 2) < 1 is 0 < 1
  // ?: arms are converted to their common type.
  CHECK(run({b8("p")}, ScalarKind::Double, "return p ? 1 : 2.5f;", {Scalar::ofBool(true)}) == Scalar::ofDouble(1.0));
}

TEST_CASE("cfun semantics: floating to int conversions truncate; out of range saturates") {
  auto toInt = [](float x) { return run({f32("x")}, ScalarKind::Int, "return (int)x;", {Scalar::ofFloat(x)}).asInt(); };
  CHECK(toInt(2.9f) == 2);
  CHECK(toInt(-2.9f) == -2);
  CHECK(toInt(-0.5f) == 0);
  CHECK(toInt(1e10f) == INT_MAX);
  CHECK(toInt(-1e10f) == INT_MIN);
  CHECK(toInt(std::numeric_limits<float>::infinity()) == INT_MAX);
  CHECK(toInt(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(toInt(-2147483648.0f) == INT_MIN);
  // Implicit conversions on assignment, initialisation, return and call.
  CHECK(run({f32("x")}, ScalarKind::Int, "int i = x; return i;", {Scalar::ofFloat(-3.7f)}) == Scalar::ofInt(-3));
  CHECK(run({i32("i")}, ScalarKind::Int, "i = 2.5f * i; return i;", {Scalar::ofInt(3)}) == Scalar::ofInt(7));
  CHECK(run({i32("i")}, ScalarKind::Int, "i += 0.6f; return i;", {Scalar::ofInt(1)}) == Scalar::ofInt(1));
  CHECK(run({i32("i")}, ScalarKind::Int, "i *= 1.5; return i;", {Scalar::ofInt(3)}) == Scalar::ofInt(4));
  CHECK(run({f32("x")}, ScalarKind::Int, "return x;", {Scalar::ofFloat(9.99f)}) == Scalar::ofInt(9));
  CHECK(run({i32("i")}, ScalarKind::Int, "return i;", {Scalar::ofFloat(-9.99f)}) == Scalar::ofInt(-9));
  CHECK(run({i32("i")}, ScalarKind::Int, "return i;", {Scalar::ofDouble(1e300)}) == Scalar::ofInt(INT_MAX));
}

TEST_CASE("cfun semantics: conversions to bool and to float") {
  CHECK(run({f32("x")}, ScalarKind::Bool, "return x;", {Scalar::ofFloat(0.25f)}) == Scalar::ofBool(true));
  CHECK(run({f32("x")}, ScalarKind::Bool, "return x;", {Scalar::ofFloat(-0.0f)}) == Scalar::ofBool(false));
  CHECK(run({f32("x")}, ScalarKind::Bool, "return x;", {Scalar::ofFloat(NAN)}) == Scalar::ofBool(true));
  CHECK(run({i32("i")}, ScalarKind::Int, "bool b = i; return b;", {Scalar::ofInt(-5)}) == Scalar::ofInt(1));
  CHECK(run({i32("i")}, ScalarKind::Int, "if (i) return 1; return 2;", {Scalar::ofInt(-5)}) == Scalar::ofInt(1));
  CHECK(run({f32("x")}, ScalarKind::Int, "return !x;", {Scalar::ofFloat(0.0f)}) == Scalar::ofInt(1));
  // double -> float rounds to nearest; beyond the float range gives inf.
  CHECK(run({f64("d")}, ScalarKind::Float, "return d;", {Scalar::ofDouble(0.1)}) == Scalar::ofFloat(0.1f));
  CHECK(run({f64("d")}, ScalarKind::Float, "return d;", {Scalar::ofDouble(1e300)}) ==
        Scalar::ofFloat(std::numeric_limits<float>::infinity()));
  CHECK(run({f64("d")}, ScalarKind::Float, "return d;", {Scalar::ofDouble(-1e300)}) ==
        Scalar::ofFloat(-std::numeric_limits<float>::infinity()));
  double justAbove = static_cast<double>(std::numeric_limits<float>::max()) * (1 + 1e-9);
  CHECK(liftcc::cfun::convertScalar(Scalar::ofDouble(justAbove), ScalarKind::Float) ==
        Scalar::ofFloat(std::numeric_limits<float>::max()));
}

TEST_CASE("cfun semantics: float arithmetic is done in float, not double") {
  // (a*b)/c in float loses what a double intermediate would keep.
  float a = 16777216.0f, b = 3.0f;
  Function f = compile({f32("a"), f32("b")}, ScalarKind::Float, "return a + b - a;");
  volatile float va = a, vb = b; // keep the expected value from being folded in another precision
  float expected = va + vb - va;
  CHECK(sameBits(f.call({Scalar::ofFloat(a), Scalar::ofFloat(b)}).asFloat(), expected));
  CHECK(expected == 4.0f); // 16777219 rounds to 16777220 in float
  Function g = compile({f32("a"), f32("b")}, ScalarKind::Float, "return (float)((double)a + b - a);");
  CHECK(g.call({Scalar::ofFloat(a), Scalar::ofFloat(b)}) == Scalar::ofFloat(3.0f));
}

TEST_CASE("cfun semantics: builtins pick the float or double overload") {
  Function sf = compile({f32("x")}, ScalarKind::Double, "return sqrt(x);");
  CHECK(sf.usesDouble()); // the result type is double
  Scalar r = sf.call({Scalar::ofFloat(2.0f)});
  CHECK(r == Scalar::ofDouble(static_cast<double>(std::sqrt(2.0f)))); // sqrtf, then widened
  Function sd = compile({f32("x")}, ScalarKind::Double, "return sqrt((double)x);");
  CHECK(sd.call({Scalar::ofFloat(2.0f)}) == Scalar::ofDouble(std::sqrt(2.0)));
  Function lit = compile({}, ScalarKind::Float, "return sqrt(2.0);");
  CHECK(lit.usesDouble()); // C's sqrt on the double literal 2.0 is double
  CHECK(lit.call({}) == Scalar::ofFloat(static_cast<float>(std::sqrt(2.0))));
  CHECK(compile({}, ScalarKind::Float, "return sqrt(2.0f);").call({}) == Scalar::ofFloat(std::sqrt(2.0f)));
  CHECK_FALSE(compile({}, ScalarKind::Float, "return sqrt(2.0f);").usesDouble());
  CHECK(compile({f32("x"), f32("y")}, ScalarKind::Float, "return pow(x, y);")
            .call({Scalar::ofFloat(1.1f), Scalar::ofFloat(2.5f)}) == Scalar::ofFloat(std::pow(1.1f, 2.5f)));
  CHECK(compile({f32("x")}, ScalarKind::Float, "return fabs(x) + floor(x) + ceil(x);").call({Scalar::ofFloat(-1.5f)}) ==
        Scalar::ofFloat(1.5f + -2.0f + -1.0f));
  CHECK(compile({f32("x")}, ScalarKind::Float, "return sin(x) * cos(x) + tan(x) + log(x) + exp(x);")
            .call({Scalar::ofFloat(0.7f)}) ==
        Scalar::ofFloat(std::sin(0.7f) * std::cos(0.7f) + std::tan(0.7f) + std::log(0.7f) + std::exp(0.7f)));
  CHECK(compile({f32("x"), f32("y")}, ScalarKind::Float, "return fmin(x, y) - fmax(x, y);")
            .call({Scalar::ofFloat(1), Scalar::ofFloat(NAN)}) == Scalar::ofFloat(0.0f));
  CHECK(intExpr("min(a, b) * 10 + max(a, b)", 3, -4) == Scalar::ofInt(-37));
}

TEST_CASE("cfun semantics: scoping, locals, compound assignment, bool locals") {
  const char *body = R"(
    int acc = 0;
    {
      int t = a * 2;
      acc += t;
    }
    {
      int t = b;      // a new t: the first one went out of scope
      acc -= t;
    }
    bool big = acc > 10;
    if (big) { acc *= 2; } else { acc /= 2; }
    return acc;)";
  Function f = compile({i32("a"), i32("b")}, ScalarKind::Int, body);
  CHECK(f.call({Scalar::ofInt(10), Scalar::ofInt(1)}) == Scalar::ofInt(38));
  CHECK(f.call({Scalar::ofInt(3), Scalar::ofInt(1)}) == Scalar::ofInt(2));
  CHECK(f.call({Scalar::ofInt(3), Scalar::ofInt(9)}) == Scalar::ofInt(-1)); // -3 / 2 truncates
}

TEST_CASE("cfun semantics: literals") {
  CHECK(compile({}, ScalarKind::Double, "return 1e-3;").call({}) == Scalar::ofDouble(1e-3));
  CHECK(compile({}, ScalarKind::Float, "return 1.5f;").call({}) == Scalar::ofFloat(1.5f));
  CHECK(compile({}, ScalarKind::Float, "return .5F + 1.f + 2e1f;").call({}) == Scalar::ofFloat(21.5f));
  CHECK(compile({}, ScalarKind::Int, "return 2147483647;").call({}) == Scalar::ofInt(INT_MAX));
  CHECK(compile({}, ScalarKind::Int, "return -2147483647 - 1;").call({}) == Scalar::ofInt(INT_MIN));
  CHECK(compile({}, ScalarKind::Bool, "return true && !false;").call({}) == Scalar::ofBool(true));
  // 0.1f is the float nearest to 0.1, not (float)0.1 rounded twice.
  CHECK(compile({}, ScalarKind::Float, "return 0.1f;").call({}) == Scalar::ofFloat(0.1f));
  CHECK(compile({}, ScalarKind::Float, "return 1e-40f;").call({}) == Scalar::ofFloat(1e-40f)); // subnormal
}

TEST_CASE("cfun semantics: call converts arguments to the parameter kinds") {
  Function f = compile({f32("x"), i32("i"), b8("b")}, ScalarKind::Float, "return b ? x + i : x - i;");
  CHECK(f.call({Scalar::ofInt(2), Scalar::ofFloat(3.9f), Scalar::ofInt(7)}) == Scalar::ofFloat(5.0f));
  CHECK(f.call({Scalar::ofDouble(2.0), Scalar::ofDouble(-3.9), Scalar::ofFloat(0.0f)}) == Scalar::ofFloat(5.0f));
  CHECK_THROWS_AS(f.call({Scalar::ofFloat(1)}), std::invalid_argument);
  CHECK_THROWS_AS(f.call({}), std::invalid_argument);
}
