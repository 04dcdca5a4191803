// Every example, lowered by the recipes, runs on the OpenCL device and agrees
// with the interpreter on the high-level program.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "rewrite/recipes.h"
#include "tests/kernel_text_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using test::sizesFor;

void checkRecipe(const examples::Example &ex, rewrite::Recipe recipe, const std::map<std::string, int64_t> &sizes,
                 int64_t tile, ocl::Context *context) {
  CAPTURE(ex.name);
  CAPTURE(rewrite::recipeName(recipe));
  Program typed = typeCheck(ex.build(), sizes);
  rewrite::RecipeOptions options;
  options.tileOutputs = tile;
  Program lowered = rewrite::applyRecipe(typed, recipe, options);
  codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
  if (recipe != rewrite::Recipe::Plain) CHECK(kernel.localSize.has_value());
  // Views never allocate: the plain kernels have no temporary arrays at all,
  // and every input is read straight from global memory.
  if (recipe == rewrite::Recipe::Plain) {
    CHECK(kernel.source.find("tile_") == std::string::npos);
    CHECK(kernel.source.find("priv_") == std::string::npos);
    CHECK(kernel.localMemoryBytes == 0);
  }
  if (recipe == rewrite::Recipe::Local) CHECK(kernel.localMemoryBytes > 0);
  if (!context) return;
  CAPTURE(kernel.source);
  tuner::OpenCLKernelRunner runner(*context, kernel);
  std::vector<Value> inputs = randomInputs(typed, sizes, 5);
  Value expected = interpret(typed, sizes, inputs);
  tuner::KernelRun run = runner.run(sizes, inputs, typed.body().typeOrThrow());
  auto mismatch = compareValues(expected, run.output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// Without a device the kernels are generated but not executed.
std::optional<ocl::Context> maybeContext() { return ocl::test::testContext(); }

} // namespace

TEST_CASE("examples: the plain (mapGlb) variant of every example matches on the device") {
  auto context = maybeContext();
  for (const examples::Example &ex : examples::allExamples()) {
    // Sizes deliberately not multiples of any work-group size.
    std::vector<int64_t> extents = ex.dims == 1   ? std::vector<int64_t>{37}
                                   : ex.dims == 2 ? std::vector<int64_t>{13, 21}
                                                  : std::vector<int64_t>{5, 7, 9};
    checkRecipe(ex, rewrite::Recipe::Plain, sizesFor(ex, extents), 0, context ? &*context : nullptr);
  }
}

TEST_CASE("examples: tiled and local-memory variants derived by the recipes match on the device") {
  auto context = maybeContext();
  for (const examples::Example &ex : examples::allExamples()) {
    std::vector<int64_t> extents = ex.dims == 1   ? std::vector<int64_t>{32}
                                   : ex.dims == 2 ? std::vector<int64_t>{16, 24}
                                                  : std::vector<int64_t>{8, 8, 12};
    for (rewrite::Recipe recipe : {rewrite::Recipe::Tiled, rewrite::Recipe::Local})
      checkRecipe(ex, recipe, sizesFor(ex, extents), 4, context ? &*context : nullptr);
  }
}

} // namespace liftcc
