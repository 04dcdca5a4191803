// One tolerance, relative to the magnitudes of the terms (core/interp/magnitudes.h):
// a 125-point weighted sum whose results cancel towards zero passes when the
// device sums in another order with fused multiply-adds, and wrong kernels
// still fail; liftc run --check uses it on the device.

#include "core/cfun/magnitude_twin.h"
#include "core/interp/interpreter.h"
#include "core/interp/magnitudes.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;

/// Weights of mixed signs and sizes (-12.6 ... 14.7): the sums cancel to
/// near zero at some points of random inputs, where a relative bound of the
/// result alone has no room for a different rounding.
float weight(int j) { return 2.1f * float(j % 13 - 6) + (j % 2 ? 0.5f : -0.25f); }

/// A 5x5x5 stencil (125 points): sum of weight(j) * neighbour j, clamped borders.
std::string sum125Json() {
  std::string params, body = "return ", args;
  for (int j = 0; j < 125; ++j) {
    params += std::string(j ? ", " : "") + "{\"name\": \"p" + std::to_string(j) + "\", \"type\": \"float\"}";
    char term[64];
    std::snprintf(term, sizeof term, "%s%.2ff * p%d", j ? " + " : "", double(weight(j)), j);
    body += term;
    args += std::string(j ? ", " : "") + "{\"op\": \"at\", \"index\": " + std::to_string(j % 5) +
            ", \"in\": {\"op\": \"at\", \"index\": " + std::to_string(j / 5 % 5) +
            ", \"in\": {\"op\": \"at\", \"index\": " + std::to_string(j / 25) + ", \"in\": {\"param\": \"nbh\"}}}}";
  }
  return R"({"liftcc": 1, "sizes": ["N", "M", "O"],
    "userFuns": {"sum125": {"params": [)" +
         params + R"(], "returns": "float", "body": ")" + body + R"(;"}},
    "inputs": [{"name": "A", "type": "[[[float]O]M]N"}],
    "body": {"op": "mapN", "dims": 3,
      "f": {"lambda": ["nbh"], "body": {"apply": {"userFun": "sum125"}, "args": [)" +
         args + R"(]}},
      "in": {"op": "slideN", "dims": 3, "size": 5, "step": 1,
             "in": {"op": "padN", "dims": 3, "left": 2, "right": 2, "mode": "clamp", "in": {"param": "A"}}}}})";
}

/// What a device that contracts and reorders computes: the terms summed from
/// the last, each added with one fused multiply-add; `shift` reads the
/// neighbourhood one element off along the last dimension (a wrong kernel).
Value deviceSum(const Value &input, const Sizes &sizes, int shift) {
  int64_t n = sizes.at("N"), m = sizes.at("M"), o = sizes.at("O");
  std::vector<float> flat;
  for (const Scalar &s : input.flatten()) flat.push_back(s.asFloat());
  auto at = [&](int64_t i, int64_t j, int64_t k) {
    auto clamp = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi - 1); };
    return flat[size_t((clamp(i, n) * m + clamp(j, m)) * o + clamp(k, o))];
  };
  std::vector<Scalar> out;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t k = 0; k < o; ++k) {
        float acc = 0;
        for (int t = 124; t >= 0; --t)
          acc = std::fma(weight(t), at(i + t / 25 - 2, j + t / 5 % 5 - 2, k + t % 5 - 2 + shift), acc);
        out.push_back(Scalar::ofFloat(acc));
      }
  return Value::fromFlat(Type::array(Type::array(Type::array(f32(), o), m), n), sizes, out);
}

} // namespace

TEST_CASE("tolerance/twin: a user function's magnitude twin sums the magnitudes of its terms") {
  auto f = cfun::Function::compile("f", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float,
                                   "float t = a - 2.0f * b; return -t / 4.0f + fmin(a, b);");
  std::optional<cfun::Function> twin = cfun::magnitudeTwin(f);
  REQUIRE(twin);
  // (|a| + 2|b|) / 4 + max(|a|, |b|) at |a| = 1, |b| = 3
  CHECK(twin->call({Scalar::ofFloat(1), Scalar::ofFloat(3)}).asFloat() == doctest::Approx(1.75 + 3));
  for (const char *body :
       {"return a < b ? a : b;", "return a / b;", "return sqrt(a) + b;", "if (a > 0.0f) return a; return b;"}) {
    CAPTURE(body);
    auto g =
        cfun::Function::compile("g", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, body);
    CHECK(!cfun::magnitudeTwin(g));
  }
}

TEST_CASE("tolerance: a 125-point sum with cancellation passes when contracted and reordered; wrong sums fail") {
  // 4096 points: the sums cross zero at enough of them that the rule before
  // this one fails a reordered, contracted evaluation.
  Sizes sizes{{"N", 16}, {"M", 16}, {"O", 16}};
  Program typed = typeCheck(readProgram(sum125Json()), sizes);
  std::vector<Value> inputs = randomInputs(typed, sizes, 5);
  Reference reference = interpretReference(typed, sizes, inputs);
  REQUIRE(reference.magnitudes);
  Tolerance exact{1e-4, 1e-5};

  Value contracted = deviceSum(inputs[0], sizes, 0);
  // The result's own magnitude leaves no room: the rule before this one fails it.
  CHECK(compareValues(reference.expected, contracted, exact));
  CHECK_MESSAGE(!compareWithReference(reference, contracted, exact),
                *compareWithReference(reference, contracted, exact));
  // Wrong kernels: a shifted neighbourhood, or one element off by 0.5 (a
  // typical term is |weight * x| ~ 3.5; the tolerance there ~0.04).
  CHECK(compareWithReference(reference, deviceSum(inputs[0], sizes, 1), exact));
  std::vector<Scalar> off = reference.expected.flatten();
  off[100] = Scalar::ofFloat(off[100].asFloat() + 0.5f);
  CHECK(compareWithReference(reference, Value::fromFlat(typed.body().typeOrThrow(), sizes, off), exact));
}

TEST_CASE("tolerance: liftc run --check of the 125-point sum passes on the device") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path program = dir.path() / "sum125.json";
  std::ofstream(program) << sum125Json();
  for (const char *options : {"--opt plain", "--opt plain --fast-math mad", "--opt tiled --tile 4"}) {
    CAPTURE(options);
    test::LiftcRun run =
        test::runLiftc("run " + test::shellQuote(program.string()) + " --size N=12,M=16,O=20 " + options + " --check");
    CHECK_MESSAGE(run.status == 0, run.output);
    CHECK(run.output.find("check: the kernel agrees with the interpreter") != std::string::npos);
  }
}

} // namespace liftcc
