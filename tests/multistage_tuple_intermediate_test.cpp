// Multi-kernel programs whose intermediate is an array of tuples: the stage
// writes one global temporary per component (a structure of arrays, as a
// result of tuples is stored) and the stages after it read the zip of them.
// Every recipe's kernels run on PoCL against the interpreter and compile with
// NVRTC; recipes that cannot take a window of tuples refuse with a clear error.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/typecheck/typecheck.h"
#include "explore/space.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"
#include "tests/device_check_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/launch_plan.h"

#include <doctest/doctest.h>

#include <numeric>

namespace liftcc {
namespace {

using namespace api;
using rewrite::Recipe;

Expr difference() {
  return userFun("difference", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float,
                 "return b - a;");
}
Expr divergence() {
  return userFun(
      "divergence",
      {{"ge", ScalarKind::Float}, {"gw", ScalarKind::Float}, {"gs", ScalarKind::Float}, {"gn", ScalarKind::Float}},
      ScalarKind::Float, "return 0.5f * (ge - gw + gs - gn);");
}

Expr neighbour(const Expr &window, int row, int column) { return at(column, at(row, window)); }

/// The divergence of the gradient: a first stencil computes (d/dx, d/dy) per
/// point, an array of pairs, which a second stencil reads through its
/// neighbourhood (each component at other points), so it is an intermediate.
Program divergenceOfGradient() {
  Expr a = input("A", array(f32(), size("N"), size("M")));
  Expr gradient = mapN(2, fn([](Expr w) {
                         return tuple({apply(difference(), {neighbour(w, 1, 0), neighbour(w, 1, 2)}),
                                       apply(difference(), {neighbour(w, 0, 1), neighbour(w, 2, 1)})});
                       }),
                       slideN(2, 3, 1, padN(2, 1, 1, clamp, a)));
  Expr result = mapN(2, fn([](Expr w) {
                       return apply(divergence(), {get(0, neighbour(w, 1, 2)), get(0, neighbour(w, 1, 0)),
                                                   get(1, neighbour(w, 2, 1)), get(1, neighbour(w, 0, 1))});
                     }),
                     slideN(2, 3, 1, padN(2, 1, 1, clamp, gradient)));
  return program({a}, result);
}

struct Variant {
  std::string name;
  Recipe recipe;
  rewrite::RecipeOptions options;
};

std::vector<Variant> variantsFor(int64_t n, int64_t m) {
  int64_t tile = std::gcd(std::gcd<int64_t>(8, n), m);
  rewrite::RecipeOptions tiled;
  tiled.tileOutputs = tile;
  rewrite::RecipeOptions coarsened;
  coarsened.coarsen = {std::gcd<int64_t>(4, m), 1, 1};
  rewrite::RecipeOptions coarsenedGlobal = coarsened;
  coarsenedGlobal.privateWindow = false;
  rewrite::RecipeOptions fused;
  fused.fusion = rewrite::Fusion::Inline;
  return {{"plain", Recipe::Plain, {}},
          {"tiled", Recipe::Tiled, tiled},
          {"local", Recipe::Local, tiled},
          {"coarsened", Recipe::Coarsened, coarsened},
          {"coarsened global window", Recipe::Coarsened, coarsenedGlobal},
          {"stream", Recipe::Stream, {}},
          {"plain fused", Recipe::Plain, fused}};
}

} // namespace

TEST_SUITE("multistage") {

TEST_CASE("multistage: an intermediate array of tuples is one temporary per component, with every recipe on the "
          "device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (std::pair<int64_t, int64_t> nm : {std::pair<int64_t, int64_t>{1, 1}, {2, 3}, {24, 40}, {100, 37}}) {
    std::map<std::string, int64_t> sizes{{"N", nm.first}, {"M", nm.second}};
    CAPTURE(nm.first);
    CAPTURE(nm.second);
    Program typed = typeCheck(divergenceOfGradient(), sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 23);
    std::optional<Value> expected;
    if (context) expected = interpret(typed, sizes, inputs);
    for (const Variant &v : variantsFor(nm.first, nm.second)) {
      CAPTURE(v.name);
      Program lowered = rewrite::applyRecipe(typed, v.recipe, v.options);
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      if (v.options.fusion == rewrite::Fusion::Inline) {
        CHECK(kernel.stages.empty());
      } else {
        // The pair array is two float temporaries, written by the first
        // kernel and read by the second.
        REQUIRE(kernel.stages.size() == 2);
        REQUIRE(kernel.temporaries.size() == 2);
        CHECK(kernel.temporaries[0].name == "tmp0_0");
        CHECK(kernel.temporaries[1].name == "tmp0_1");
        for (const codegen::KernelArg &t : kernel.temporaries) CHECK(t.kind == ScalarKind::Float);
        tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
        CHECK(plan.buffers.size() == 4); // A, out, tmp0_0, tmp0_1
        CHECK(plan.buffers[2].bytes == static_cast<size_t>(4 * nm.first * nm.second));
      }
      if (!context) continue;
      auto mismatch =
          test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), *expected, {1e-4, 1e-5});
      CHECK_MESSAGE(!mismatch, *mismatch);
    }
  }
}

TEST_CASE("multistage: the CUDA C of a tuple intermediate compiles with NVRTC") {
  std::optional<cuda::NvrtcOptions> options = cuda::test::strictSm90();
  std::map<std::string, int64_t> sizes{{"N", 64}, {"M", 64}};
  Program typed = typeCheck(divergenceOfGradient(), sizes);
  int compiled = 0;
  for (const Variant &v : variantsFor(64, 64)) {
    CAPTURE(v.name);
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, v.recipe, v.options), codegen::Target::CUDA);
    CAPTURE(kernel.source);
    if (!options) continue;
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *options, "tuple_intermediate.cu");
    CHECK(ptx.ptx.find(".entry liftcc_kernel(") != std::string::npos);
    ++compiled;
  }
  if (options) CHECK(compiled == 7);
}

TEST_CASE("multistage: a window of tuples is refused clearly where it cannot be held in private memory") {
  std::map<std::string, int64_t> sizes{{"N", 16}, {"M", 16}};
  Program typed = typeCheck(divergenceOfGradient(), sizes);
  // Fused, the coarsened reader's window holds the recomputed pairs.
  rewrite::RecipeOptions options;
  options.coarsen = {4, 1, 1};
  options.fusion = rewrite::Fusion::Inline;
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, Recipe::Coarsened, options),
                       doctest::Contains("the windows hold tuples"), rewrite::RewriteError);
  // Streaming keeps a window of rows in registers: rows of pairs are not
  // such a window, so the rule applies to the gradient (a window of floats)
  // and not to the divergence reading the pairs.
  CHECK(rewrite::applicableLocations(typed, rewrite::streamOuterDimension(2)).size() == 1);
  // The space enumerates every family (none throws), and the stream family
  // streams the gradient stage only.
  explore::SpaceOptions spaceOptions;
  spaceOptions.groupExtents = {8};
  spaceOptions.includeMapping = false;
  explore::Space space = explore::enumerateSpace(typed, explore::DeviceLimits{}, spaceOptions);
  CHECK(space.variants.size() > 20);
}

TEST_CASE("multistage: a stage generated for its own work-group size keeps it when the launch asks for another") {
  // local tiles of the gradient (mapWrg, its group shape fixed) and a last
  // stage the recipe could not tile (mapGlb, any group shape).
  std::map<std::string, int64_t> sizes{{"N", 64}, {"M", 64}};
  Program typed = typeCheck(divergenceOfGradient(), sizes);
  rewrite::RecipeOptions options;
  options.tileOutputs = 32;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, Recipe::Local, options), codegen::Target::OpenCL);
  REQUIRE(kernel.stages.size() == 2);
  std::optional<std::array<int64_t, 3>> own;
  for (const codegen::Kernel &stage : kernel.stages)
    if (stage.localSize && !own) own = stage.localSize;
  REQUIRE(own);
  std::array<size_t, 3> requested{16, 1, 1};
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, requested, std::nullopt);
  for (size_t s = 0; s < kernel.stages.size(); ++s) {
    CAPTURE(s);
    const codegen::Kernel &stage = kernel.stages[s];
    REQUIRE(plan.stages[s].local);
    if (stage.localSize)
      CHECK((*plan.stages[s].local)[0] == static_cast<size_t>((*stage.localSize)[0]));
    else
      CHECK(*plan.stages[s].local == requested);
  }
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  std::vector<Value> inputs = randomInputs(typed, sizes, 4);
  auto mismatch = test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(),
                                       interpret(typed, sizes, inputs), {1e-4, 1e-5}, requested);
  CHECK_MESSAGE(!mismatch, *mismatch);
}

} // TEST_SUITE("multistage")
} // namespace liftcc
