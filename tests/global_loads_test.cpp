// Global loads executed per output (issue 33, item 4), counted by an
// instrumented run on PoCL (codegen::CodegenOptions::countGlobalLoads,
// tuner/global_load_count.h): Heat 3D plain reads its 7 taps, the
// private-window stream the 3x3 neighbourhood of every plane (about 9), a
// coarsened kernel its private box once per 4x4x4 outputs, and streaming
// through local memory each element of its tile plus halo once per chunk (at
// most 1.5); time tiles of two steps through streaming the tile plus two
// halos once per chunk, per two steps. Sizes are the smallest the tiles and chunks divide, so each
// figure is exact.

#include "codegen/generate.h"
#include "codegen/global_load_counter.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "primitives/stencil.h"
#include "rewrite/recipes.h"
#include "tests/kernel_text_support.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/global_load_count.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using test::sizesFor;

struct Measured {
  tuner::GlobalLoadCount count;
  codegen::Kernel kernel;
};

/// `recipe` applied to a 3D example at `extents` (x, y, z), instrumented and run once.
Measured exampleLoads(const std::string &name, ocl::Context &context, std::vector<int64_t> extents,
                      rewrite::Recipe recipe, const rewrite::RecipeOptions &recipeOptions,
                      codegen::CodegenOptions options = {}) {
  const examples::Example &example = examples::findExample(name);
  // sizesFor binds the outermost size first: O (z), N (y), M (x).
  std::map<std::string, int64_t> sizes = sizesFor(example, {extents[2], extents[1], extents[0]});
  Program typed = typeCheck(example.build(), sizes);
  Program lowered = rewrite::applyRecipe(typed, recipe, recipeOptions);
  options.countGlobalLoads = true;
  codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
  tuner::OpenCLKernelRunner runner(context, kernel);
  tuner::InputBytes inputs = tuner::toInputBytes(randomInputs(typed, sizes, 5));
  return {tuner::countGlobalLoads(runner, kernel, sizes, tuner::inputViews(inputs)), kernel};
}

Measured heatLoads(ocl::Context &context, std::vector<int64_t> extents, rewrite::Recipe recipe,
                   const rewrite::RecipeOptions &recipeOptions, codegen::CodegenOptions options = {}) {
  return exampleLoads("heat", context, std::move(extents), recipe, recipeOptions, options);
}

} // namespace

TEST_CASE("global loads: counting is off by default and instruments only global reads") {
  const examples::Example &heat = examples::findExample("heat");
  std::map<std::string, int64_t> sizes = sizesFor(heat, {8});
  Program lowered = rewrite::applyRecipe(typeCheck(heat.build(), sizes), rewrite::Recipe::StreamLocal, {});
  codegen::Kernel plain = codegen::generateKernel(lowered, codegen::Target::OpenCL);
  CHECK(!plain.countsGlobalLoads);
  CHECK(plain.source.find(codegen::kGlobalLoadCounter) == std::string::npos);
  codegen::CodegenOptions options;
  options.countGlobalLoads = true;
  for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
    codegen::Kernel counting = codegen::generateKernel(lowered, target, options);
    CAPTURE(counting.source);
    CHECK(counting.countsGlobalLoads);
    CHECK(counting.args.size() == plain.args.size());
    // The counter is the last parameter; the local ring's reads are not counted.
    CHECK(counting.source.find(", " + codegen::globalLoadCounterParameter(target) + ") {") != std::string::npos);
    CHECK(test::occurrences(counting.source, target == codegen::Target::CUDA ? "atomicAdd(" : "atomic_add(") >= 1);
    CHECK(counting.source.find("atomic_add(liftcc_global_loads, 1u), ring") == std::string::npos);
    // The CUDA counter compiles without a warning.
    std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
    if (target != codegen::Target::CUDA || !strict) continue;
    cuda::PtxResult ptx = cuda::compileToPtx(counting.source, *strict, "heat.cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.warnings.empty());
    // (ptxas turns an atomic whose result is unused into a reduction.)
    CHECK(
        (ptx.ptx.find("atom.global.add") != std::string::npos || ptx.ptx.find("red.global.add") != std::string::npos));
  }
}

TEST_CASE("global loads: Heat 3D per output, plain 7, stream about 9, coarsened 3.4, streamLocal at most 1.5") {
  auto context = ocl::test::testContext();
  if (!context) return;
  // One work-item per output: the 7 distinct taps (clamped reads load too).
  Measured plain = heatLoads(*context, {8, 8, 8}, rewrite::Recipe::Plain, {});
  CHECK(plain.count.outputs == 512);
  CHECK(plain.count.perOutput() == doctest::Approx(7.0));
  // The same with float4 vectors: each vector load counts its 4 lanes.
  rewrite::RecipeOptions vectors;
  vectors.vectorWidth = 4;
  Measured vector = heatLoads(*context, {8, 8, 8}, rewrite::Recipe::Plain, vectors);
  REQUIRE(vector.kernel.source.find("vload4") != std::string::npos);
  CHECK(vector.count.perOutput() == doctest::Approx(7.0));
  // The private-window stream: the 3x3 neighbourhood of each of the z + 2
  // planes a column's window takes in, per column of z outputs.
  Measured stream = heatLoads(*context, {8, 8, 64}, rewrite::Recipe::Stream, {});
  CHECK(stream.count.perOutput() == doctest::Approx(9.0 * 66 / 64));
  // Coarsened 4x4x4 with a private window: its 6x6x6 box once per 64 outputs.
  rewrite::RecipeOptions coarse;
  coarse.coarsen = {4, 4, 4};
  Measured coarsened = heatLoads(*context, {8, 8, 8}, rewrite::Recipe::Coarsened, coarse);
  CHECK(coarsened.count.perOutput() == doctest::Approx(216.0 / 64));
  // Streamed through local memory, 64x8 plane tiles, chunks of 32 planes:
  // each tile plus halo (66x10) once per plane of the chunk plus halo (34).
  rewrite::RecipeOptions planes;
  planes.tileExtents = {64, 8, 0};
  planes.streamChunk = 32;
  codegen::CodegenOptions tileShape;
  tileShape.localSize = {64, 8, 1};
  Measured local = heatLoads(*context, {64, 16, 32}, rewrite::Recipe::StreamLocal, planes, tileShape);
  CHECK(local.count.perOutput() == doctest::Approx(66.0 * 10 * 34 / (64 * 8 * 32)));
  CHECK(local.count.perOutput() <= 1.5);
  MESSAGE("Heat global loads per output: plain ", plain.count.perOutput(), ", plain float4 ", vector.count.perOutput(),
          ", stream ", stream.count.perOutput(), ", coarsened 4x4x4 ", coarsened.count.perOutput(),
          ", streamLocal 64x8 chunk 32 ", local.count.perOutput());
  CHECK(local.count.perOutput() < coarsened.count.perOutput());
  CHECK(coarsened.count.perOutput() < plain.count.perOutput());
  CHECK(plain.count.perOutput() < stream.count.perOutput());
}

TEST_CASE("global loads: Heat iterated, time tiles through streaming read the grid once per tile of two steps") {
  auto context = ocl::test::testContext();
  if (!context) return;
  // Heat (clamp) iterated 4 times at 64 x 16 x 32 (x, y, z), tiles the
  // plane tile of 64x8 and the chunk of 32 divide.
  std::vector<api::Size> sizes = examples::gridSizes(3, 3);
  Expr grid = examples::gridInput("A", sizes);
  Expr step = api::fn(
      [](Expr x) {
        return api::stencil({{x, PadMode::Clamp}},
                            "return 0.125f * (x[1][0][0] - 2.0f * x[0][0][0] + x[-1][0][0]) + 0.125f * (x[0][1][0] - "
                            "2.0f * x[0][0][0] + x[0][-1][0]) + 0.125f * (x[0][0][1] - 2.0f * x[0][0][0] + "
                            "x[0][0][-1]) + x[0][0][0];");
      },
      "x");
  Program program = api::program({grid}, api::iterate(4, step, grid));
  std::map<std::string, int64_t> extents{{sizes[0].varName(), 32}, {sizes[1].varName(), 16}, {sizes[2].varName(), 64}};
  Program typed = typeCheck(program, extents);
  auto count = [&](rewrite::Recipe recipe, int64_t depth) {
    rewrite::RecipeOptions planes;
    planes.tileExtents = {64, 8, 0};
    planes.streamChunk = 32;
    planes.timeTile = depth;
    codegen::CodegenOptions options;
    options.localSize = {64, 8, 1};
    options.countGlobalLoads = true;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, recipe, planes), codegen::Target::OpenCL, options);
    tuner::OpenCLKernelRunner runner(*context, kernel);
    tuner::InputBytes inputs = tuner::toInputBytes(randomInputs(typed, extents, 5));
    return tuner::countGlobalLoads(runner, kernel, extents, tuner::inputViews(inputs));
  };
  // One step a launch: each tile plus halo (66x10) once per plane of the chunk plus halo (34).
  tuner::GlobalLoadCount oneStep = count(rewrite::Recipe::StreamLocal, 1);
  CHECK(oneStep.launches == 4);
  CHECK(oneStep.perOutput() == doctest::Approx(66.0 * 10 * 34 / (64 * 8 * 32)));
  // Two steps a launch: the tile plus two halos (68x12) once per plane of the
  // chunk plus two halos (36), per two steps.
  tuner::GlobalLoadCount twoSteps = count(rewrite::Recipe::TimeTiledStream, 2);
  CHECK(twoSteps.launches == 2);
  CHECK(twoSteps.perOutput() == doctest::Approx(68.0 * 12 * 36 / (64 * 8 * 32)));
  const double perStep = twoSteps.perOutput() / 2;
  MESSAGE("Heat iterated, global loads per output and step: streamLocal ", oneStep.perOutput(),
          ", timeTiledStream depth 2 ", perStep);
  CHECK(perStep < 0.7 * oneStep.perOutput());
}

TEST_CASE("global loads: Hotspot3D streamed through local memory reads its power grid once, beside the ring") {
  auto context = ocl::test::testContext();
  if (!context) return;
  // Plain: the temperature's 7 taps and the power grid's value.
  Measured plain = exampleLoads("hotspot3d", *context, {8, 8, 8}, rewrite::Recipe::Plain, {});
  CHECK(plain.count.perOutput() == doctest::Approx(8.0));
  // streamLocal: the temperature's tiles plus halo as Heat's, and the power
  // grid once per output (zipped beside the neighbourhoods, in global memory).
  rewrite::RecipeOptions planes;
  planes.tileExtents = {64, 8, 0};
  planes.streamChunk = 32;
  codegen::CodegenOptions tileShape;
  tileShape.localSize = {64, 8, 1};
  Measured local = exampleLoads("hotspot3d", *context, {64, 16, 32}, rewrite::Recipe::StreamLocal, planes, tileShape);
  CHECK(local.count.perOutput() == doctest::Approx(66.0 * 10 * 34 / (64 * 8 * 32) + 1.0));
  MESSAGE("Hotspot3D global loads per output: plain ", plain.count.perOutput(), ", streamLocal 64x8 chunk 32 ",
          local.count.perOutput());
}

TEST_CASE("global loads: liftc run --count-global-loads prints the figure; --check is refused") {
  const std::string heat = test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/heat.json");
  test::LiftcRun refused = test::runLiftc("run " + heat + " --size O=8,N=8,M=8 --count-global-loads --check");
  CHECK(refused.status == 2);
  CHECK(refused.output.rfind("liftc: error: --count-global-loads runs an instrumented kernel; it cannot take --check",
                             0) == 0);
  CHECK(test::occurrences(refused.output, "\n") == 1);
  if (!ocl::test::testDevice()) return;
  test::LiftcRun counted = test::runLiftc("run " + heat + " --size O=8,N=8,M=8 --opt plain --count-global-loads");
  CAPTURE(counted.output);
  CHECK(counted.status == 0);
  CHECK(counted.output.find("global loads: 7.000 per output (3584 elements read for 512 outputs)\n") !=
        std::string::npos);
}

TEST_CASE("global loads: multi-kernel programs are refused with a clear error") {
  const examples::Example &srad = examples::findExample("srad_two_stage");
  Program typed = typeCheck(srad.build(), sizesFor(srad, {9}));
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {});
  codegen::CodegenOptions options;
  options.countGlobalLoads = true;
  CHECK_THROWS_WITH_AS(codegen::generateKernel(lowered, codegen::Target::OpenCL, options),
                       doctest::Contains("supports single-kernel programs only"), codegen::CodegenError);
}

} // namespace liftcc
