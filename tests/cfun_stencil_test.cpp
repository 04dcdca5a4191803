// Typical stencil user functions: results must match the same computation
// compiled as C++ in float, bit for bit.

// The reference computations below must round every operation, exactly as
// the interpreter does; forbid the compiler from fusing a*b+c into an FMA.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "tests/cfun_test_helpers.h"

#include <cmath>
#include <random>

using namespace cfun_test;

namespace {

struct Rng {
  std::mt19937 gen{12345};
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
  double uniformD(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
};

constexpr int kSamples = 500;

} // namespace

TEST_CASE("cfun stencil: sum of five floats") {
  Function f =
      compile({f32("n"), f32("s"), f32("e"), f32("w"), f32("c")}, ScalarKind::Float, "return n + s + e + w + c;");
  CHECK(f.signatureC() == "float f(float n, float s, float e, float w, float c)");
  CHECK_FALSE(f.usesDouble());
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float n = rng.uniform(-100, 100), s = rng.uniform(-100, 100), e = rng.uniform(-1, 1), w = rng.uniform(0, 1e6f),
          c = rng.uniform(-1e-3f, 1e-3f);
    Scalar r =
        f.call({Scalar::ofFloat(n), Scalar::ofFloat(s), Scalar::ofFloat(e), Scalar::ofFloat(w), Scalar::ofFloat(c)});
    REQUIRE(r.kind() == ScalarKind::Float);
    CHECK(sameBits(r.asFloat(), n + s + e + w + c));
  }
}

TEST_CASE("cfun stencil: weighted Jacobi") {
  Function f = compile({f32("c"), f32("n"), f32("s"), f32("e"), f32("w")}, ScalarKind::Float,
                       "  // 5-point weighted Jacobi\n"
                       "  const float wc = 0.6f;\n"
                       "  const float wn = 0.1f;\n"
                       "  return wc * c + wn * (n + s + e + w);\n");
  CHECK_FALSE(f.usesDouble());
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float c = rng.uniform(-10, 10), n = rng.uniform(-10, 10), s = rng.uniform(-10, 10), e = rng.uniform(-10, 10),
          w = rng.uniform(-10, 10);
    float expected = 0.6f * c + 0.1f * (n + s + e + w);
    Scalar r =
        f.call({Scalar::ofFloat(c), Scalar::ofFloat(n), Scalar::ofFloat(s), Scalar::ofFloat(e), Scalar::ofFloat(w)});
    CHECK(sameBits(r.asFloat(), expected));
  }
}

TEST_CASE("cfun stencil: Hotspot-like with several parameters and locals") {
  const char *body = R"(
    const float stepDivCap = step / cap;
    float vertical = (n + s - 2.0f * t) / ry;
    float horizontal = (e + w - 2.0f * t) / rx;
    float ambient = (amb - t) / rz;
    float delta = stepDivCap * (p + vertical + horizontal + ambient);
    return t + delta;
  )";
  Function f = compile({f32("t"), f32("p"), f32("n"), f32("s"), f32("e"), f32("w"), f32("cap"), f32("rx"), f32("ry"),
                        f32("rz"), f32("step"), f32("amb")},
                       ScalarKind::Float, body);
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float t = rng.uniform(300, 350), p = rng.uniform(0, 1), n = rng.uniform(300, 350), s = rng.uniform(300, 350),
          e = rng.uniform(300, 350), w = rng.uniform(300, 350);
    float cap = 0.5f, rx = 1.2f, ry = 1.3f, rz = 80.5f, step = 0.001f, amb = 80.0f;
    const float stepDivCap = step / cap;
    float vertical = (n + s - 2.0f * t) / ry;
    float horizontal = (e + w - 2.0f * t) / rx;
    float ambient = (amb - t) / rz;
    float delta = stepDivCap * (p + vertical + horizontal + ambient);
    float expected = t + delta;
    Scalar r = f.call({Scalar::ofFloat(t), Scalar::ofFloat(p), Scalar::ofFloat(n), Scalar::ofFloat(s),
                       Scalar::ofFloat(e), Scalar::ofFloat(w), Scalar::ofFloat(cap), Scalar::ofFloat(rx),
                       Scalar::ofFloat(ry), Scalar::ofFloat(rz), Scalar::ofFloat(step), Scalar::ofFloat(amb)});
    CHECK(sameBits(r.asFloat(), expected));
  }
}

namespace {
float sradReference(float c, float n, float s, float e, float w, float q0sqr) {
  float dN = n - c, dS = s - c, dW = w - c, dE = e - c;
  float G2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (c * c);
  float L = (dN + dS + dW + dE) / c;
  float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
  float den = 1.0f + (0.25f * L);
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coef = 1.0f / (1.0f + den);
  if (coef < 0.0f)
    return 0.0f;
  else if (coef > 1.0f)
    return 1.0f;
  return c + coef * std::exp(-L) * 0.25f;
}
} // namespace

TEST_CASE("cfun stencil: SRAD-like with exp and divisions") {
  const char *body = R"(
    float dN = n - c;
    float dS = s - c;
    float dW = w - c;
    float dE = e - c;
    float G2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (c * c);
    float L = (dN + dS + dW + dE) / c;
    float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
    float den = 1.0f + (0.25f * L);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float coef = 1.0f / (1.0f + den);
    if (coef < 0.0f) return 0.0f;
    else if (coef > 1.0f) return 1.0f;
    return c + coef * exp(-L) * 0.25f;
  )";
  Function f = compile({f32("c"), f32("n"), f32("s"), f32("e"), f32("w"), f32("q0sqr")}, ScalarKind::Float, body);
  CHECK_FALSE(f.usesDouble()); // exp(float) is the float overload
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float c = rng.uniform(0.5f, 2), n = rng.uniform(0.5f, 2), s = rng.uniform(0.5f, 2), e = rng.uniform(0.5f, 2),
          w = rng.uniform(0.5f, 2), q = rng.uniform(0.01f, 1);
    Scalar r = f.call({Scalar::ofFloat(c), Scalar::ofFloat(n), Scalar::ofFloat(s), Scalar::ofFloat(e),
                       Scalar::ofFloat(w), Scalar::ofFloat(q)});
    CHECK(sameBits(r.asFloat(), sradReference(c, n, s, e, w, q)));
  }
}

TEST_CASE("cfun stencil: clamp written with ?: and with if/else agree") {
  Function ternary =
      compile({f32("x"), f32("lo"), f32("hi")}, ScalarKind::Float, "return x < lo ? lo : x > hi ? hi : x;");
  Function branches = compile({f32("x"), f32("lo"), f32("hi")}, ScalarKind::Float, R"(
      if (x < lo) {
        return lo;
      } else if (x > hi) {
        return hi;
      }
      return x;)");
  Function library = compile({f32("x"), f32("lo"), f32("hi")}, ScalarKind::Float, "return fmin(fmax(x, lo), hi);");
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float x = rng.uniform(-2, 2);
    std::initializer_list<Scalar> args = {Scalar::ofFloat(x), Scalar::ofFloat(-1), Scalar::ofFloat(1)};
    float expected = x < -1 ? -1.0f : x > 1 ? 1.0f : x;
    CHECK(sameBits(ternary.call(args).asFloat(), expected));
    CHECK(sameBits(branches.call(args).asFloat(), expected));
    CHECK(sameBits(library.call(args).asFloat(), expected));
  }
}

TEST_CASE("cfun stencil: double version computes in double") {
  Function f = compile({f64("c"), f64("n"), f64("s"), f64("e"), f64("w")}, ScalarKind::Double,
                       "return 0.2 * (c + n + s + e + w);");
  CHECK(f.usesDouble());
  CHECK(f.signatureC() == "double f(double c, double n, double s, double e, double w)");
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    double c = rng.uniformD(-1, 1), n = rng.uniformD(-1, 1), s = rng.uniformD(-1, 1), e = rng.uniformD(-1, 1),
           w = rng.uniformD(-1, 1);
    Scalar r = f.call(
        {Scalar::ofDouble(c), Scalar::ofDouble(n), Scalar::ofDouble(s), Scalar::ofDouble(e), Scalar::ofDouble(w)});
    REQUIRE(r.kind() == ScalarKind::Double);
    CHECK(sameBits(r.asDouble(), 0.2 * (c + n + s + e + w)));
  }
}

TEST_CASE("cfun stencil: float body with a double literal computes in double, as C does") {
  // 0.1 is a double, so c * 0.1 is a double product rounded once to float on
  // return; with 0.1f everything stays float. The two differ for some c.
  Function viaDouble = compile({f32("c")}, ScalarKind::Float, "return c * 0.1;");
  Function inFloat = compile({f32("c")}, ScalarKind::Float, "return c * 0.1f;");
  CHECK(viaDouble.usesDouble());
  CHECK_FALSE(inFloat.usesDouble());
  Rng rng;
  int differ = 0;
  for (int i = 0; i < kSamples; ++i) {
    float c = rng.uniform(-1000, 1000);
    float d = viaDouble.call({Scalar::ofFloat(c)}).asFloat();
    float f = inFloat.call({Scalar::ofFloat(c)}).asFloat();
    CHECK(sameBits(d, static_cast<float>(static_cast<double>(c) * 0.1)));
    CHECK(sameBits(f, c * 0.1f));
    differ += !sameBits(d, f);
  }
  CHECK(differ > 0);
}

TEST_CASE("cfun stencil: Gaussian blur with int weights and a divisor") {
  Function f = compile({f32("a"), f32("b"), f32("c"), f32("d"), f32("e")}, ScalarKind::Float,
                       "return (a + 4 * b + 6 * c + 4 * d + e) / 16;");
  Rng rng;
  for (int i = 0; i < kSamples; ++i) {
    float a = rng.uniform(0, 255), b = rng.uniform(0, 255), c = rng.uniform(0, 255), d = rng.uniform(0, 255),
          e = rng.uniform(0, 255);
    Scalar r =
        f.call({Scalar::ofFloat(a), Scalar::ofFloat(b), Scalar::ofFloat(c), Scalar::ofFloat(d), Scalar::ofFloat(e)});
    CHECK(sameBits(r.asFloat(), (a + 4 * b + 6 * c + 4 * d + e) / 16));
  }
}

TEST_CASE("cfun stencil: integer game-of-life rule") {
  Function f = compile({i32("alive"), i32("neighbours")}, ScalarKind::Int, R"(
      if (alive != 0) return neighbours == 2 || neighbours == 3;
      return neighbours == 3 ? 1 : 0;)");
  for (int alive = 0; alive <= 1; ++alive)
    for (int n = 0; n <= 8; ++n) {
      int expected = alive ? (n == 2 || n == 3) : (n == 3);
      CHECK(f.call({Scalar::ofInt(alive), Scalar::ofInt(n)}) == Scalar::ofInt(expected));
    }
}
