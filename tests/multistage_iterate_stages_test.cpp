// iterate over a step of several kernels: a step whose intermediate cannot be
// recomputed per element (a reduction per window) keeps that intermediate a
// kernel of its own, and the host launches the step's kernels in order, n
// times, with the iterated input's buffer and the output exchanged between
// steps. Every recipe runs on PoCL against the interpreter, for odd and even
// counts and time tiles; the CUDA C compiles with NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/launch_plan.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;
using rewrite::Recipe;

Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}
Expr avg3() {
  return userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return (a + b + c) / 3.0f;");
}

/// One step: the sum of each 3-window (a reduction, so an intermediate that
/// is not recomputed where read), then a 3-point average of those sums.
Expr step(const Expr &x) {
  Expr sums = join(map(fn([](Expr w) { return reduce(add(), lit(0.0f), w); }, "w"), slide(3, 1, pad(1, 1, clamp, x))));
  return map(fn(
                 [](Expr w) {
                   return apply(avg3(), {at(0, w), at(1, w), at(2, w)});
                 },
                 "v"),
             slide(3, 1, pad(1, 1, clamp, sums)));
}

Program iterated(int64_t count) {
  Expr a = input("A", array(f32(), size("N")));
  return program({a}, iterate(count, fn([](Expr x) { return step(x); }, "x"), a));
}

struct Variant {
  std::string name;
  Recipe recipe;
  rewrite::RecipeOptions options;
};

std::vector<Variant> variants(int64_t n) {
  rewrite::RecipeOptions tiled;
  tiled.tileOutputs = n % 4 == 0 ? 4 : 1;
  rewrite::RecipeOptions coarsened;
  coarsened.coarsen = {n % 4 == 0 ? 4 : 1, 1, 1};
  return {{"plain", Recipe::Plain, {}},
          {"tiled", Recipe::Tiled, tiled},
          {"local", Recipe::Local, tiled},
          {"coarsened", Recipe::Coarsened, coarsened}};
}

} // namespace

TEST_SUITE("multistage") {

TEST_CASE("multistage: iterate over a step of several kernels, with every recipe and time tile, on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (int64_t count : {int64_t(1), int64_t(3), int64_t(4)})
    for (int64_t n : {int64_t(1), int64_t(2), int64_t(1000)}) {
      CAPTURE(count);
      CAPTURE(n);
      std::map<std::string, int64_t> sizes{{"N", n}};
      Program typed = typeCheck(iterated(count), sizes);
      std::vector<Value> inputs = randomInputs(typed, sizes, 31);
      std::optional<Value> expected;
      if (context) expected = interpret(typed, sizes, inputs);
      for (const Variant &v : variants(n))
        for (int64_t t : {int64_t(1), int64_t(2)}) {
          if (count % t != 0) continue;
          CAPTURE(v.name);
          CAPTURE(t);
          rewrite::RecipeOptions options = v.options;
          options.timeTile = t;
          Program lowered = rewrite::applyRecipe(typed, v.recipe, options);
          REQUIRE(lowered.body().isPrim(Op::Iterate));
          codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
          CAPTURE(kernel.source);
          // Each step: the sums, then the average reading them (t steps per
          // launch: t sums kernels, the averages between fused into them).
          CHECK(kernel.stages.size() >= 2);
          CHECK_FALSE(kernel.temporaries.empty());
          REQUIRE(kernel.iteration);
          CHECK(kernel.iteration->count.constant() == count / t);
          CHECK(kernel.args[kernel.iteration->inputArgs.at(0)].name == "A");
          tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
          REQUIRE(plan.iteration);
          CHECK_FALSE(plan.buffers[plan.iteration->inputBuffers.at(0)].readOnly); // written in odd steps
          if (!context) continue;
          // Two repetitions: the second starts from the input again.
          auto mismatch = test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), *expected,
                                               {1e-4, 1e-5}, std::nullopt, 2);
          CHECK_MESSAGE(!mismatch, *mismatch);
        }
    }
}

TEST_CASE("multistage: the launch plan of an iterated step of several kernels exchanges the input and output "
          "buffers of every stage in odd steps") {
  std::map<std::string, int64_t> sizes{{"N", 64}};
  Program typed = typeCheck(iterated(3), sizes);
  codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, Recipe::Plain), codegen::Target::OpenCL);
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
  REQUIRE(plan.iteration);
  CHECK(plan.launches() == 3);
  const size_t in = plan.iteration->inputBuffers.at(0), out = plan.outputBuffer;
  CHECK(plan.buffers[in].name == "A");
  CHECK(plan.resultBuffer() == out); // odd: the last step wrote the output buffer
  REQUIRE(plan.stages.size() == 2);
  // The first stage reads A and writes the temporary; the last reads the
  // temporary and writes out. In odd steps A and out trade places.
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    CAPTURE(s);
    std::vector<std::optional<size_t>> even = plan.buffersOfStageLaunch(s, 0), odd = plan.buffersOfStageLaunch(s, 1);
    REQUIRE(even.size() == odd.size());
    for (size_t i = 0; i < even.size(); ++i) {
      if (!even[i]) continue;
      if (*even[i] == in)
        CHECK(*odd[i] == out);
      else if (*even[i] == out)
        CHECK(*odd[i] == in);
      else
        CHECK(*odd[i] == *even[i]); // the temporary stays
    }
  }
  CHECK(tuner::planLaunch(codegen::generateKernel(rewrite::applyRecipe(typeCheck(iterated(4), sizes), Recipe::Plain),
                                                  codegen::Target::OpenCL),
                          sizes, std::nullopt, std::nullopt)
            .resultBuffer() == in);
}

TEST_CASE("multistage: the CUDA C of an iterated step of several kernels compiles with NVRTC") {
  std::optional<cuda::NvrtcOptions> options = cuda::test::strictSm90();
  std::map<std::string, int64_t> sizes{{"N", 4096}};
  Program typed = typeCheck(iterated(4), sizes);
  for (const Variant &v : variants(4096)) {
    CAPTURE(v.name);
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, v.recipe, v.options), codegen::Target::CUDA);
    CAPTURE(kernel.source);
    REQUIRE(kernel.iteration);
    if (!options) continue;
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *options, "iterated_stages.cu");
    CHECK(ptx.ptx.find(".entry liftcc_kernel_stage0") != std::string::npos);
    CHECK(ptx.ptx.find(".entry liftcc_kernel(") != std::string::npos);
  }
}

} // TEST_SUITE("multistage")
} // namespace liftcc
