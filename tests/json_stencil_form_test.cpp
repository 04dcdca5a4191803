// The stencil form ({"op": "stencil", "grids": {"A": "clamp"}, "body": "...A[-1][0]..."}; core/ir/stencil_form.h):
// it reads to the padN/slideN/zipN/mapN/at composition the C++ API builds (api::stencil, and by hand), the
// writer gives it back (same structural hash), `expanded` writes the composition, each error names the
// offending offset or grid, and the rewritten examples compute what their former long forms
// (tests/data/long_forms/, the files as they were before) compute.

#include "core/interp/interpreter.h"
#include "core/ir/nd_forms.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "primitives/stencil.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace liftcc {
namespace {

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/// A program over 2D grids A and B (N x M) and a 1D grid V, with `body`.
std::string program2d(const std::string &body) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
    "inputs": [{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"},
               {"name": "V", "type": "[float]N"}, {"name": "D", "type": "[[[double]M]N]N"},
               {"name": "k", "type": "float"}],
    "body": )" +
         body + "}";
}

std::string stencilBody(const std::string &grids, const std::string &body, const std::string &extra = "") {
  return R"({"op": "stencil", )" + extra + R"("grids": )" + grids + R"(, "body": ")" + body + R"("})";
}

/// Read, write, read: the same IR, the stencil form in the text, and the expanded form reads to it too.
Program roundTrips(const std::string &text) {
  CAPTURE(text);
  Program read = readProgram(text);
  std::string written = writeProgram(read);
  CHECK_MESSAGE(contains(written, "\"op\": \"stencil\""), written);
  Program again = readProgram(written);
  CHECK(again.fun.hash() == read.fun.hash());
  CHECK(again.fun == read.fun);
  CHECK(writeProgram(again) == written);
  std::string expanded = writeProgram(read, {.expanded = true});
  CHECK(!contains(expanded, "\"op\": \"stencil\""));
  CHECK(!contains(expanded, "slideN"));
  CHECK(readProgram(expanded).fun == read.fun);
  CHECK_NOTHROW(typeCheck(read));
  return read;
}

void checkError(const std::string &body, const std::string &pointer, const std::string &message) {
  CAPTURE(body);
  try {
    readProgram(program2d(body));
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK(e.pointer() == pointer);
    CHECK_MESSAGE(contains(e.what(), message), e.what());
    CHECK(!contains(e.what(), "\n"));
  }
}

/// Every scalar equal (NaN equal to NaN): the two programs compute the same thing the same way.
void checkSameResults(const Program &a, const Program &b, const std::map<std::string, int64_t> &sizes) {
  Program ta = typeCheck(a, sizes), tb = typeCheck(b, sizes);
  std::mt19937_64 rng(35);
  std::vector<Value> inputs;
  for (const Expr &in : ta.inputs()) inputs.push_back(Value::random(in.typeOrThrow(), sizes, rng));
  std::vector<Scalar> x = interpret(ta, sizes, inputs).flatten(), y = interpret(tb, sizes, inputs).flatten();
  REQUIRE(x.size() == y.size());
  size_t differ = 0;
  for (size_t i = 0; i < x.size(); ++i)
    differ += !(x[i] == y[i] || (std::isnan(x[i].toDouble()) && std::isnan(y[i].toDouble())));
  CHECK(differ == 0);
}

} // namespace

TEST_SUITE("json stencil form") {

TEST_CASE("json stencil form: 1D, 2D, 3D, several grids and every boundary round-trip with the same hash") {
  roundTrips(program2d(stencilBody(R"({"V": "clamp"})", "return 0.5f * (V[-1] + V[1]);")));
  roundTrips(program2d(stencilBody(R"({"V": "wrap"})", "return V[-2] + V[0] + V[2];", R"("name": "wrap1", )")));
  roundTrips(program2d(
      stencilBody(R"({"A": "mirror"})", "return (A[-1][0] + A[1][0] + A[0][-1] + A[0][1]) * 0.25f - A[0][0];")));
  roundTrips(program2d(stencilBody(R"({"A": {"constant": 1.5}})", "return A[-1][-1] + A[1][1];")));
  // Two windows of different radii and boundaries, and a grid read at its centre only.
  Program several = roundTrips(
      program2d(stencilBody(R"({"A": "clamp", "B": {"constant": 0}})",
                            "// B first: it is zipped first\\nreturn B[0][2] * A[1][0] - A[-1][0] + B[0][0];")));
  CHECK(contains(writeProgram(several), R"("grids": {"B": {"constant": 0.0}, "A": "clamp"})"));
  Program pointWise =
      roundTrips(program2d(stencilBody(R"({"A": "clamp", "B": "pointwise"})", "return A[0][1] + B[0][0];")));
  CHECK(contains(writeProgram(pointWise), R"("B": "pointwise")"));
  // 3D, double elements: the function's parameters and result are double.
  Program d3 = roundTrips(program2d(stencilBody(R"({"D": "clamp"})", "return D[-1][0][0] + D[0][0][1] * 2.0;")));
  CHECK(typeCheck(d3).body().typeOrThrow().str() == "[[[double]M]N]N");
  // A scalar input read by name: a parameter after the neighbours.
  Program scaled = roundTrips(program2d(R"({"op": "stencil", "grids": {"A": "clamp"}, "scalars": ["k"],
                                            "body": "return k * (A[0][1] - A[0][-1]);"})"));
  CHECK(contains(writeProgram(scaled), R"("scalars": ["k"])"));
  // The result type given: a double grid read first, a float result; the
  // writer writes `returns` only where it differs from the first grid's.
  Program narrowed = roundTrips(program2d(R"({"op": "stencil", "grids": {"D": "clamp"}, "returns": "float",
                                                 "body": "return (float)(D[0][0][1] - D[0][0][-1]);"})"));
  CHECK(typeCheck(narrowed).body().typeOrThrow().str() == "[[[float]M]N]N");
  Program same = roundTrips(program2d(
      R"({"op": "stencil", "grids": {"A": "clamp"}, "returns": "float", "body": "return A[0][1] - A[0][-1];"})"));
  CHECK(!contains(writeProgram(same), "returns"));
}

TEST_CASE("json stencil form: `returns` gives the result type the first grid read would not") {
  // "returns": "float" says the result type where the first grid read is a
  // bool mask. The C++ API takes it too.
  const std::string masked = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
    "inputs": [{"name": "A", "type": "[float]N"}, {"name": "K", "type": "[bool]N"}],
    "body": {"op": "stencil", "grids": {"A": "clamp", "K": "pointwise"}, "returns": "float",
             "body": "if (K[0]) return A[-1];\nreturn 0.5f * A[1];"}})";
  Program read = readProgram(masked);
  std::map<std::string, int64_t> sizes{{"N", 5}};
  Program typed = typeCheck(read, sizes);
  CHECK(typed.body().typeOrThrow().str() == "[float]5");
  std::vector<Scalar> a{Scalar::ofFloat(1.5f), Scalar::ofFloat(-2.25f), Scalar::ofFloat(3.0f), Scalar::ofFloat(4.0f),
                        Scalar::ofFloat(0.5f)};
  std::vector<Scalar> k{Scalar::ofBool(true), Scalar::ofBool(false), Scalar::ofBool(true), Scalar::ofBool(false),
                        Scalar::ofBool(true)};
  std::vector<Scalar> out = interpret(typed, sizes,
                                      {Value::fromFlat(typed.inputs()[0].typeOrThrow(), sizes, a),
                                       Value::fromFlat(typed.inputs()[1].typeOrThrow(), sizes, k)})
                                .flatten();
  REQUIRE(out.size() == 5);
  CHECK(out[0].toDouble() == 1.5);   // clamped A[-1]
  CHECK(out[1].toDouble() == 1.5);   // 0.5 * A[2]
  CHECK(out[2].toDouble() == -2.25); // A[1]
  CHECK(out[3].toDouble() == 0.25);  // 0.5 * A[4]
  CHECK(out[4].toDouble() == 4.0);   // A[3]
  Expr apiA = api::input("A", api::array(api::f32(), api::size("N", 3)));
  Expr apiK = api::input("K", api::array(Type::scalar(ScalarKind::Bool), api::size("N", 3)));
  Expr viaApi = api::stencil({{apiA, api::clamp}, {apiK, api::StencilBoundary::pointWise()}},
                             "if (K[0]) return A[-1];\nreturn 0.5f * A[1];", "stencil", {}, ScalarKind::Float);
  CHECK(writeProgram(api::program({apiA, apiK}, viaApi)) == writeProgram(read));

  // Without "returns", a mask read first does not truncate the value the
  // body returns (an independent program's int mask read first made its
  // float result int): the function returns the body's floating kind, the
  // same program as with "returns": "float", which the writer then omits.
  std::string inferred = masked;
  inferred.erase(inferred.find(R"("returns": "float",)"), std::string(R"("returns": "float",)").size());
  CHECK(readProgram(inferred).fun == read.fun);
  CHECK(!contains(writeProgram(read), "returns"));
  CHECK(writeProgram(api::program({apiA, apiK},
                                  api::stencil({{apiA, api::clamp}, {apiK, api::StencilBoundary::pointWise()}},
                                               "if (K[0]) return A[-1];\nreturn 0.5f * A[1];"))) == writeProgram(read));
  // A double returned gives double; said explicitly, a conversion to the
  // mask's kind is what the user asked for, and the writer keeps it.
  std::string widest = inferred;
  widest.replace(widest.find("0.5f * A[1]"), std::string("0.5f * A[1]").size(), "0.5 * A[1]");
  CHECK(typeCheck(readProgram(widest), sizes).body().typeOrThrow().str() == "[double]5");
  std::string asBool = masked;
  asBool.replace(asBool.find(R"("returns": "float")"), std::string(R"("returns": "float")").size(),
                 R"("returns": "bool")");
  Program converted = readProgram(asBool);
  CHECK(typeCheck(converted, sizes).body().typeOrThrow().str() == "[bool]5");
  CHECK(contains(writeProgram(converted), R"("returns": "bool")"));
  CHECK(readProgram(writeProgram(converted)).fun == converted.fun);
}

TEST_CASE("json stencil form: several-grid output names the grids in order of first use") {
  Program p = readProgram(program2d(stencilBody(R"({"A": "clamp", "B": "wrap"})", "return B[0][1] + A[1][0];")));
  std::string text = writeProgram(p);
  CAPTURE(text);
  CHECK(contains(text, R"("grids": {"B": "wrap", "A": "clamp"})"));
  CHECK(contains(text, R"("body": "return B[0][1] + A[1][0];")"));
}

TEST_CASE("json stencil form: the expansion is the long form and the C++ API's stencil") {
  using namespace api;
  auto N = size("N", 3), M = size("M", 3);
  Expr A = input("A", array(array(f32(), M), N));
  Expr B = input("B", array(array(f32(), M), N));
  Expr V = input("V", array(f32(), N));
  Expr D = input("D", array(array(array(f64(), M), N), N));
  Expr k = input("k", f32());
  const std::string body = "return (5.0f * A[-1][0] + 12.0f * A[0][-1] + 15.0f * A[0][0] + 12.0f * A[0][1] + "
                           "5.0f * A[1][0]) / 118.0f;";
  Program read = readProgram(program2d(stencilBody(R"({"A": "clamp"})", body, R"("name": "jacobi5", )")));

  // By hand: the neighbours in order of first use, named A_m1_0 ...
  Expr f = userFun("jacobi5", examples::floatParams({"A_m1_0", "A_0_m1", "A_0_0", "A_0_1", "A_1_0"}), ScalarKind::Float,
                   "return (5.0f * A_m1_0 + 12.0f * A_0_m1 + 15.0f * A_0_0 + 12.0f * A_0_1 + 5.0f * A_1_0) / 118.0f;");
  Expr lambda = fn(
      [&](Expr nbh) {
        return apply(f,
                     {at(1, at(0, nbh)), at(0, at(1, nbh)), at(1, at(1, nbh)), at(2, at(1, nbh)), at(1, at(2, nbh))});
      },
      "nbh");
  Program byHand = program({A, B, V, D, k}, mapN(2, lambda, slideN(2, 3, 1, padN(2, 1, 1, clamp, A))));
  CHECK(read.fun.hash() == byHand.fun.hash());
  CHECK(read.fun == byHand.fun);

  Program api = program({A, B, V, D, k}, stencil({{A, clamp}}, body, "jacobi5"));
  CHECK(api.fun.hash() == read.fun.hash());
  CHECK(api.fun == read.fun);
  CHECK(writeProgram(api) == writeProgram(read));

  // Several grids: zipN of the windows, a centre-only grid as it is.
  Program twoApi =
      program({A, B, V, D, k}, stencil({{A, mirror}, {B, StencilBoundary::pointWise()}}, "return A[0][-1] * B[0][0];"));
  Program twoJson =
      readProgram(program2d(stencilBody(R"({"A": "mirror", "B": "pointwise"})", "return A[0][-1] * B[0][0];")));
  CHECK(twoApi.fun == twoJson.fun);
  Expr g = userFun("stencil", examples::floatParams({"A_0_m1", "B_0_0"}), ScalarKind::Float, "return A_0_m1 * B_0_0;");
  Expr two = fn([&](Expr m) { return apply(g, {at(0, at(1, get(0, m))), get(1, m)}); }, "m");
  CHECK(twoJson.fun ==
        program({A, B, V, D, k}, mapN(2, two, zipN(2, {slideN(2, 3, 1, padN(2, 1, 1, mirror, A)), B}))).fun);

  // A scalar: passed as it is, after the neighbours.
  Program scaledJson = readProgram(
      program2d(R"({"op": "stencil", "grids": {"V": "wrap"}, "scalars": ["k"], "body": "return k * V[1];"})"));
  Expr h = userFun("stencil", examples::floatParams({"V_1", "k"}), ScalarKind::Float, "return k * V_1;");
  Expr one = fn([&](Expr nbh) { return apply(h, {at(2, nbh), k}); }, "nbh");
  CHECK(scaledJson.fun == program({A, B, V, D, k}, map(one, slide(3, 1, pad(1, 1, wrap, V)))).fun);
  CHECK(scaledJson.fun == program({A, B, V, D, k}, stencil({{V, wrap}}, "return k * V[1];", "stencil", {k})).fun);
}

TEST_CASE("json stencil form: one evaluation against loops (2D, clamp, 5 x 7)") {
  Program p = readProgram(
      program2d(stencilBody(R"({"A": "clamp", "B": "pointwise"})",
                            "return A[-1][0] + 2.0f * A[0][1] - A[1][-1] + B[0][0] * k;", R"("scalars": ["k"], )")));
  std::map<std::string, int64_t> sizes{{"N", 5}, {"M", 7}};
  Program typed = typeCheck(p, sizes);
  std::mt19937_64 rng(7);
  std::vector<Value> inputs;
  for (const Expr &in : typed.inputs()) inputs.push_back(Value::random(in.typeOrThrow(), sizes, rng));
  Value out = interpret(typed, sizes, inputs);
  auto a = [&](int64_t i, int64_t j) {
    i = std::clamp<int64_t>(i, 0, 4);
    j = std::clamp<int64_t>(j, 0, 6);
    return inputs[0][size_t(i)][size_t(j)].scalar().asFloat();
  };
  size_t wrong = 0;
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 7; ++j) {
      float expected = a(i - 1, j) + 2.0f * a(i, j + 1) - a(i + 1, j - 1) +
                       inputs[1][size_t(i)][size_t(j)].scalar().asFloat() * inputs[4].scalar().asFloat();
      wrong += out[size_t(i)][size_t(j)].scalar().asFloat() != expected;
    }
  CHECK(wrong == 0);
}

TEST_CASE("json stencil form: the components of an iterated tuple keep their kinds through get") {
  // iterate(n, \s. (\t c. tuple(diffuse(t), age(c, t)))(get(0, s), get(1, s)), tuple(T, C)) with
  // T float and C int: c is read as an int grid. Before, a grid bound to a
  // component of a tuple parameter was read as float, and age's int
  // parameter refused the int argument.
  const char *text = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
    "inputs": [{"name": "T", "type": "[float]N"}, {"name": "C", "type": "[int]N"}],
    "body": {"op": "iterate", "n": 2, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["t", "c"],
      "body": {"op": "tuple", "in": [
        {"op": "stencil", "name": "diffuse", "grids": {"t": "clamp"}, "body": "return 0.5f * t[0] + 0.25f * (t[-1] + t[1]);"},
        {"op": "stencil", "name": "age", "returns": "int", "grids": {"c": "pointwise", "t": "pointwise"},
         "body": "return t[0] > 0.0f ? c[0] + 1 : 0;"}]}},
      "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}}]}},
    "in": {"op": "tuple", "in": [{"param": "T"}, {"param": "C"}]}}})";
  Program typed = typeCheck(readProgram(text), {{"N", 7}});
  CHECK(typed.body().typeOrThrow().str() == "([float]7, [int]7)");
  std::mt19937_64 rng(5);
  std::vector<Value> inputs{Value::random(typed.inputs()[0].typeOrThrow(), {{"N", 7}}, rng),
                            Value::random(typed.inputs()[1].typeOrThrow(), {{"N", 7}}, rng)};
  Value out = interpret(typed, {{"N", 7}}, inputs);
  // Two steps: an element's age grows by one per step while its field stays positive.
  std::vector<float> t(7);
  std::vector<int32_t> c(7);
  for (size_t i = 0; i < 7; ++i) {
    t[i] = inputs[0][i].scalar().asFloat();
    c[i] = inputs[1][i].scalar().asInt();
  }
  for (int step = 0; step < 2; ++step) {
    std::vector<float> next(7);
    for (size_t i = 0; i < 7; ++i) {
      float left = t[i == 0 ? 0 : i - 1], right = t[i == 6 ? 6 : i + 1];
      next[i] = 0.5f * t[i] + 0.25f * (left + right);
      c[i] = t[i] > 0.0f ? c[i] + 1 : 0;
    }
    t = next;
  }
  for (size_t i = 0; i < 7; ++i) {
    CHECK(out[0][i].scalar().asFloat() == doctest::Approx(t[i]));
    CHECK(out[1][i].scalar().asInt() == c[i]);
  }
}

TEST_CASE("json stencil form: a lambda parameter's grid has the kind of its argument's elements") {
  // The parameter of iterate's step takes the iterated input's kind (double
  // here, int below); the parameter of a lambda applied to a stage takes the
  // stage's result kind. Before, such grids were read as float and a double
  // or int program failed to type-check.
  const std::string iterated = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
    "inputs": [{"name": "A", "type": "[ELEMENT]N"}],
    "body": {"op": "iterate", "n": 3, "f": {"lambda": ["g"], "body": {"op": "stencil", "grids": {"g": "mirror"},
      "body": "return g[-1] + g[1] - g[0];"}}, "in": {"param": "A"}}})";
  for (const std::string element : {"double", "int", "float"}) {
    CAPTURE(element);
    std::string text = iterated;
    text.replace(text.find("ELEMENT"), 7, element);
    Program p = readProgram(text);
    Program typed = typeCheck(p, {{"N", 6}});
    CHECK(typed.body().typeOrThrow().str() == "[" + element + "]6");
    // The writer gives the stencil form back, and it reads to the same IR.
    std::string written = writeProgram(p);
    CHECK(contains(written, "\"op\": \"stencil\""));
    CHECK(readProgram(written).fun.hash() == p.fun.hash());
  }
  const std::string bound = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
    "inputs": [{"name": "A", "type": "[double]N"}],
    "body": {"apply": {"lambda": ["s"], "body": {"op": "stencil", "name": "d2", "grids": {"s": "clamp"},
      "body": "return s[-1] - 2.0 * s[0] + s[1];"}},
      "args": [{"op": "stencil", "name": "avg", "grids": {"A": "wrap"}, "body": "return (A[-1] + A[1]) / 2.0;"}]}})";
  Program p = readProgram(bound);
  Program typed = typeCheck(p, {{"N", 5}});
  CHECK(typed.body().typeOrThrow().str() == "[double]5");
  std::mt19937_64 rng(3);
  std::vector<Value> inputs{Value::random(typed.inputs()[0].typeOrThrow(), {{"N", 5}}, rng)};
  Value out = interpret(typed, {{"N", 5}}, inputs);
  auto avg = [&](int64_t i) {
    auto a = [&](int64_t j) { return inputs[0][size_t((j + 5) % 5)].scalar().asDouble(); };
    return (a(i - 1) + a(i + 1)) / 2.0;
  };
  for (int64_t i = 0; i < 5; ++i) {
    double expected = avg(std::max<int64_t>(i - 1, 0)) - 2.0 * avg(i) + avg(std::min<int64_t>(i + 1, 4));
    CHECK(out[size_t(i)].scalar().asDouble() == doctest::Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("json stencil form: each error names the offending offset or grid") {
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][1];", R"("returns": "real", )"), "/body/returns",
             "unknown scalar type \"real\" (expected bool, int, float or double)");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][100];"), "/body/body",
             "offset A[0][100] exceeds the largest stencil radius 64");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][i];"), "/body/body",
             "offset A[0][i] is not an integer literal");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0] + C[1][0];"), "/body/body",
             "unknown grid \"C\" in C[...] (the grids are: A)");
  checkError(stencilBody(R"({"Q": "clamp"})", "return Q[0][0];"), "/body/grids/Q",
             "unknown grid \"Q\" (not an input or parameter in scope)");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0];"), "/body/grids/A",
             "A is read with 1 subscript but has 2 dimensions ([[float]M]N)");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0] + A[1];"), "/body/body",
             "A[1] has 1 subscripts but A[0][0] has 2");
  checkError(stencilBody(R"({"A": "clamp", "V": "clamp"})", "return A[0][0] + V[1];"), "/body/body",
             "V[1] has 1 subscripts but A[0][0] has 2");
  checkError(stencilBody(R"({"A": "clamp", "B": "clamp"})", "return A[0][0];"), "/body/grids/B",
             "grid B is declared but never read");
  checkError(stencilBody(R"({"A": "clamp"})", "return A + 1.0f;"), "/body/body", "grid A is read without subscripts");
  checkError(stencilBody(R"({"A": "pointwise"})", "return A[0][1];"), "/body/body",
             "offset A[0][1] of the point-wise grid A");
  checkError(stencilBody(R"({"A": "edge"})", "return A[0][0];"), "/body/grids/A", "unknown boundary \"edge\"");
  checkError(stencilBody(R"({"A": {"constant": "x"}})", "return A[0][0];"), "/body/grids/A/constant",
             "expected a number");
  checkError(stencilBody(R"({"A": "clamp"})", "float A_0_0 = 1.0f; return A[0][0] + A_0_0;"), "/body/body",
             "the body uses the name A_0_0");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0]"), "/body/body", "the generated function stencil");
  checkError(stencilBody(R"({})", "return 1.0f;"), "/body/grids", "expected an object mapping grid names");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0];", R"("scalars": ["q"], )"), "/body/scalars/0",
             "unknown scalar \"q\"");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0];", R"("scalars": ["k"], )"), "/body/scalars/0",
             "scalar k is declared but never read");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0] + V + k;", R"("scalars": ["k", "V"], )"),
             "/body/scalars/1", "V is not a scalar ([float]N)");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0];", R"("name": "liftcc_f", )"), "/body/name",
             "stencil function name");
  checkError(stencilBody(R"({"A": "clamp"})", "return A[0][0];", R"("size": 3, )"), "/body/size", "unknown field");
  // Two stencils of one name and different bodies would give a kernel two definitions.
  checkError(R"({"op": "zipN", "dims": 2, "in": [)" + stencilBody(R"({"A": "clamp"})", "return A[0][0];") + ", " +
                 stencilBody(R"({"B": "clamp"})", "return B[0][1];") + "]}",
             "/body/in/1", "the function name \"stencil\" is already used by another stencil");
  // The C++ API throws the same errors.
  using namespace api;
  Expr A = input("A", array(array(f32(), size("N")), size("M")));
  CHECK_THROWS_WITH_AS(stencil({{A, clamp}}, "return A[0][-70];"),
                       "offset A[0][-70] exceeds the largest stencil radius 64", stencil_form::FormError);
}

TEST_CASE("json stencil form: the rewritten examples compute what their former long forms compute") {
  const std::map<std::string, int64_t> sizes{{"O", 5}, {"N", 6}, {"M", 7}};
  size_t compared = 0;
  for (const auto &entry : std::filesystem::directory_iterator(test::sourceDir() / "tests/data/long_forms")) {
    std::string name = entry.path().stem().string();
    CAPTURE(name);
    Program longForm = readProgram(test::readFile(entry.path()));
    std::string text = test::readFile(test::sourceDir() / "examples/json" / (name + ".json"));
    CHECK(contains(text, "\"op\": \"stencil\""));
    Program stencilForm = readProgram(text);
    CHECK(stencilForm.fun == examples::findExample(name).build().fun);
    std::map<std::string, int64_t> used;
    for (const arith::Expr &s : stencilForm.sizes) used[s.varName()] = sizes.at(s.varName());
    checkSameResults(longForm, stencilForm, used);
    ++compared;
  }
  CHECK(compared == 16);
}

} // TEST_SUITE("json stencil form")
} // namespace liftcc
