// An array a per-element function computes from the program's inputs alone
// (the same for every element: a coarser level read at a computed index, a
// sum that normalises every element) is an intermediate like any other: a
// stage of its own, computed once, not in every work-item's private memory
// (which was quadratic work, and refused beyond 4096 scalars). An array
// computed from constants alone stays in the function.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"
#include "rewrite/stages.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;

Expr avg3() {
  return userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return 0.25f * a + 0.5f * b + 0.25f * c;");
}
Expr halfOf() { return userFun("halfOf", {{"i", ScalarKind::Int}}, ScalarKind::Int, "return i / 2;"); }
Expr minus() {
  return userFun("minus", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a - b;");
}
Expr plus() {
  return userFun("plus", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}
Expr over() {
  return userFun("over", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float,
                 "return a / (1.0f + b * b);");
}

/// A Laplacian-pyramid level: A minus its smoothed half-resolution copy,
/// upsampled by reading element i/2.
Program pyramidLevel() {
  Size n = size("N");
  Expr a = input("A", array(f32(), arith::Expr(2) * n));
  Expr low = map(
      [](Expr w) {
        return apply(avg3(), {at(0, w), at(1, w), at(2, w)});
      },
      slide(3, 2, pad(1, 0, PadMode::Clamp, a)));
  Expr up = generate(arith::Expr(2) * n, [&](Expr i) { return atDynamic(apply(halfOf(), {i}), low); });
  return program({a}, map([](Expr p) { return apply(minus(), {get(0, p), get(1, p)}); }, zip(a, up)));
}

/// Every element over its array's sum.
Program normalised() {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  return program({a}, map([&](Expr x) { return apply(over(), {x, at(0, reduce(plus(), lit(0.0f), a))}); }, a));
}

void checkOnDevice(const Program &typed, const std::map<std::string, int64_t> &sizes, const codegen::Kernel &kernel) {
  auto context = ocl::test::testContext();
  if (!context) return;
  std::vector<Value> inputs = randomInputs(typed, sizes, 9);
  tuner::OpenCLKernelRunner runner(*context, kernel);
  auto mismatch = compareValues(interpret(typed, sizes, inputs),
                                runner.run(sizes, inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

} // namespace

TEST_CASE("stages: an array computed from the inputs inside a per-element function is a stage of its own") {
  struct Case {
    std::string name;
    Program program;
    std::map<std::string, int64_t> sizes;
  };
  // At sizes whose intermediate is beyond a work-item's private memory
  // (4096), generated; run at small sizes (the interpreter's reference
  // computes the intermediate again for every element: quadratic).
  for (const Case &c :
       {Case{"pyramid level", pyramidLevel(), {{"N", 5000}}}, Case{"normalised", normalised(), {{"N", 6000}}},
        Case{"pyramid level", pyramidLevel(), {{"N", 37}}}, Case{"normalised", normalised(), {{"N", 45}}}}) {
    CAPTURE(c.name);
    Program typed = typeCheck(c.program, c.sizes);
    std::optional<rewrite::StagedProgram> staged = rewrite::splitStages(typed);
    REQUIRE(staged);
    CHECK(staged->stages.size() == 1);
    const bool small = c.sizes.at("N") < 100;
    // The pyramid's coarse level is a stencil to tile; a sum is not.
    std::vector<rewrite::Recipe> recipes{rewrite::Recipe::Plain};
    if (c.name == "pyramid level") recipes.push_back(rewrite::Recipe::Tiled);
    for (rewrite::Recipe recipe : recipes) {
      CAPTURE(rewrite::recipeName(recipe));
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, recipe), codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      CHECK(kernel.stages.size() == 2);
      CHECK(kernel.source.find("priv_") == std::string::npos);
      if (small) checkOnDevice(typed, c.sizes, kernel);
    }
  }
  // A table computed from constants alone stays in the function.
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr table =
      map(fn([](Expr i) {
            return apply(userFun("asF", {{"i", ScalarKind::Int}}, ScalarKind::Float, "return 0.5f * (float)i;"), {i});
          }),
          generate(4, fn([](Expr i) { return i; }, "i")));
  Program constants = typeCheck(program({a}, map(
                                                 [&](Expr x) {
                                                   return apply(plus(), {x, at(2, table)});
                                                 },
                                                 a)),
                                {{"N", 64}});
  CHECK(!rewrite::splitStages(constants));
}

} // namespace liftcc
