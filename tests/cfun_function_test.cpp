// Function API: signature text, name validation, usesDouble, accessors.

#include "core/cfun/magnitude_twin.h"
#include "tests/cfun_test_helpers.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace cfun_test;

namespace {

std::string signatureError(const std::string &name, std::vector<Param> params) {
  try {
    Function::compile(name, std::move(params), ScalarKind::Float, "return 1.0f;");
  } catch (const CFunError &e) {
    CHECK(e.line == 0);
    CHECK(e.column == 0);
    CHECK(e.reason == e.what());
    return e.what();
  }
  return "<accepted>";
}

} // namespace

TEST_CASE("cfun function: signatureC and accessors") {
  Function f = Function::compile("add", {f32("a"), f32("b")}, ScalarKind::Float, " return a + b; ");
  CHECK(f.signatureC() == "float add(float a, float b)");
  CHECK(f.name() == "add");
  CHECK(f.body() == " return a + b; ");
  CHECK(f.result() == ScalarKind::Float);
  REQUIRE(f.params().size() == 2);
  CHECK(f.params()[1].name == "b");
  CHECK(f.params()[1].kind == ScalarKind::Float);

  Function k = Function::compile("seven", {}, ScalarKind::Int, "return 7;");
  CHECK(k.signatureC() == "int seven(void)");
  CHECK(k.call({}) == Scalar::ofInt(7));

  Function g = Function::compile("pick", {b8("p"), i32("q"), f64("r")}, ScalarKind::Bool, "return p && q > r;");
  CHECK(g.signatureC() == "bool pick(bool p, int q, double r)");

  Function copy = f; // cheap, shares the compiled program
  CHECK(copy.call({Scalar::ofFloat(1), Scalar::ofFloat(2)}) == Scalar::ofFloat(3));
}

TEST_CASE("cfun function: usesDouble") {
  CHECK_FALSE(compile({f32("a")}, ScalarKind::Float, "float t = a * 2; return t > 1 ? t : 1.0f;").usesDouble());
  CHECK_FALSE(compile({i32("a")}, ScalarKind::Int, "return a * 2;").usesDouble());
  CHECK(compile({f64("a")}, ScalarKind::Float, "return 1.0f;").usesDouble()); // double parameter
  CHECK(compile({f32("a")}, ScalarKind::Double, "return a;").usesDouble());   // double result
  CHECK(compile({f32("a")}, ScalarKind::Float, "double t = a; return t;").usesDouble());
  CHECK(compile({f32("a")}, ScalarKind::Float, "return (double)a;").usesDouble());
  CHECK(compile({f32("a")}, ScalarKind::Float, "return a * 0.5;").usesDouble());       // double literal
  CHECK(compile({f32("a")}, ScalarKind::Float, "return (float)0.5;").usesDouble());    // still a double literal
  CHECK(compile({b8("b")}, ScalarKind::Float, "return b ? 1.0f : 0.5;").usesDouble()); // ?: arm
}

TEST_CASE("cfun function: function and parameter names are validated") {
  CHECK(signatureError("f", {f32("a")}) == "<accepted>");
  CHECK(signatureError("", {}) == "function name '' is not a valid C identifier");
  CHECK(signatureError("1f", {}) == "function name '1f' is not a valid C identifier");
  CHECK(signatureError("my fun", {}) == "function name 'my fun' is not a valid C identifier");
  CHECK(signatureError("for", {}) == "function name 'for' is a keyword");
  CHECK(signatureError("float4", {}) == "function name 'float4' is a type name");
  CHECK(signatureError("clamp", {}) == "function name 'clamp' is an OpenCL C or CUDA builtin function");
  CHECK(signatureError("sqrt", {}) == "function name 'sqrt' is an OpenCL C or CUDA builtin function");
  CHECK(signatureError("sqrtf", {}) == "function name 'sqrtf' is an OpenCL C or CUDA builtin function");
  CHECK(signatureError("hypotf", {}) == "function name 'hypotf' is a CUDA math function");
  CHECK(signatureError("get_global_id", {}) == "function name 'get_global_id' is an OpenCL C or CUDA builtin function");
  CHECK(signatureError("native_exp", {}) == "function name 'native_exp' is an OpenCL C builtin function");
  CHECK(signatureError("convert_int", {}) ==
        "function name 'convert_int' clashes with OpenCL C builtin functions (prefix convert_)");
  CHECK(signatureError("__f", {}).find("reserved for the implementation") != std::string::npos);
  CHECK(signatureError("f", {f32("")}) == "parameter 1 of 'f': '' is not a valid C identifier");
  CHECK(signatureError("f", {f32("a"), f32("x-y")}) == "parameter 2 of 'f': 'x-y' is not a valid C identifier");
  CHECK(signatureError("f", {f32("int")}) == "parameter 1 of 'f': 'int' is a keyword");
  CHECK(signatureError("f", {f32("exp")}) == "parameter 1 of 'f': 'exp' is the name of a math function");
  CHECK(signatureError("f", {f32("INFINITY")}) ==
        "parameter 1 of 'f': 'INFINITY' is a predefined macro in OpenCL C or CUDA");
  CHECK(signatureError("f", {f32("threadIdx")}) == "parameter 1 of 'f': 'threadIdx' is a CUDA built-in variable");
  CHECK(signatureError("f", {f32("a"), i32("a")}) == "parameter 2 of 'f': duplicate name 'a' (also parameter 1)");
  // Ordinary stencil names stay usable.
  CHECK(signatureError("jacobi", {f32("n"), f32("s"), f32("e"), f32("w"), f32("c"), f32("x0"), f32("y1"), f32("step"),
                                  f32("length"), f32("dot"), f32("_tmp")}) == "<accepted>");
}

TEST_CASE("cfun function: a sum of 729 terms is printed one level deep, so every printed form parses again") {
  // A radius-4 3D box stencil: 729 weighted taps. Printed with a pair of
  // parentheses per addition, the magnitude twin (run --check's tolerance),
  // division by multiplication and the float -> int conversion form nested
  // 729 levels deep: the C subset refuses more than 200 (the check failed
  // with "nesting is deeper than 200 levels") and Clang more than 256
  // brackets.
  std::vector<Param> params;
  std::string body = "return (";
  for (int i = 0; i < 729; ++i) {
    params.push_back({"a" + std::to_string(i), ScalarKind::Float});
    body += (i ? " + " : "") + std::string("0.5f * a") + std::to_string(i);
  }
  body += ") / 400.0f + (float)(int)a0;";
  Function f = Function::compile("box", params, ScalarKind::Float, body);
  auto depth = [](const std::string &text) {
    int deepest = 0, open = 0;
    for (char c : text) {
      open += c == '(' ? 1 : c == ')' ? -1 : 0;
      deepest = std::max(deepest, open);
    }
    return deepest;
  };
  std::string converted =
      f.bodyWithConversions([](ScalarKind, const std::string &operand) { return "(int)" + operand; });
  CHECK(depth(converted) <= 8);
  CHECK(converted.find("((0.5f) * a0) + ((0.5f) * a1) + ((0.5f) * a2) + ") != std::string::npos);
  CHECK(depth(f.divisionsAsMultiplications().body()) <= 8);
  CHECK(f.divisionsAsMultiplications().body().find(" / ") == std::string::npos);
  CHECK(depth(f.regroupedSums().body()) <= 8);
  std::optional<Function> twin = liftcc::cfun::magnitudeTwin(f);
  CHECK_FALSE(twin); // it converts to int: no twin, but no parse error either
  Function positive =
      Function::compile("box", params, ScalarKind::Float, body.substr(0, body.find(" + (float)")) + ";");
  twin = liftcc::cfun::magnitudeTwin(positive);
  REQUIRE(twin);
  std::vector<Scalar> ones(729, Scalar::ofFloat(1.0f));
  CHECK(twin->call(std::span<const Scalar>(ones)).toDouble() == doctest::Approx(0.5 * 729 / 400.0));
}

TEST_CASE("affine: int functions of +, - and literal products are affine forms of their parameters") {
  auto affine = [](std::vector<Param> params, ScalarKind result, const std::string &body) {
    return Function::compile("f", std::move(params), result, body).affine();
  };
  auto plus = affine({i32("at"), i32("offset")}, ScalarKind::Int, "return at + offset;");
  REQUIRE(plus);
  CHECK(plus->constant == 0);
  CHECK(plus->coefficients == std::vector<int64_t>{1, 1});
  auto offset = affine({i32("source"), i32("at")}, ScalarKind::Int, "return source - at + 2;");
  REQUIRE(offset);
  CHECK(offset->constant == 2);
  CHECK(offset->coefficients == std::vector<int64_t>{1, -1});
  auto scaled = affine({i32("a"), i32("b")}, ScalarKind::Int, "{ return 3 * a - (b * 2 - 4) + -a; }");
  REQUIRE(scaled);
  CHECK(scaled->constant == 4);
  CHECK(scaled->coefficients == std::vector<int64_t>{2, -2});
  // Anything else is not: a division, a product of parameters, a local, a
  // condition, a float.
  CHECK(!affine({i32("a")}, ScalarKind::Int, "return a / 2;"));
  CHECK(!affine({i32("a"), i32("b")}, ScalarKind::Int, "return a * b;"));
  CHECK(!affine({i32("a")}, ScalarKind::Int, "int s = a + 1; return s;"));
  CHECK(!affine({i32("a")}, ScalarKind::Int, "return a < 0 ? 0 : a;"));
  CHECK(!affine({f32("a")}, ScalarKind::Float, "return a + 1.0f;"));
  CHECK(!affine({f32("a")}, ScalarKind::Int, "return (int)a;"));
}
