// Time tiles whose depth does not divide the iteration count: iterate(n, f,
// A) with a tile of t steps is lowered to iterate(1, f^r, iterate(q, f^t,
// A)), n = q t + r, and launched in two phases, q launches of the tile then
// one of the r steps left, the buffers exchanging after every launch as in
// one loop (codegen::Kernel::Iteration::phases). Checked: the lowered form
// and the phases for every recipe and depth, each on PoCL against the
// interpreter (two repetitions, so the second starts from the input again),
// a step of two kernels, time tiles through local memory, the launch plan,
// the metadata read back by the exporter with its errors, the families of
// the explored space (time tiles within the count and the reads they
// recompute), and the early refusal of a fused step too wide to generate. tests/export_multistage_test.cpp runs the
// exported host code of such a program from C.

#include "codegen/generate.h"
#include "codegen/kernel.h"
#include "core/ir/operands.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/families/family.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "exporter/export_plan.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/launch_plan.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace liftcc {
namespace {

/// A 1D three-point average with clamped borders, `steps` times.
std::string average1D(int64_t steps) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}], "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(steps) + R"(, "f": {"lambda": ["A"], "body": {"op": "stencil", "name": "avg3",
   "grids": {"A": "clamp"}, "body": "return (A[-1] + A[0] + A[1]) / 3.0f;"}}, "in": {"param": "A"}}})";
}

/// A 2D five-point Jacobi with wrapped borders (time-tiled through local
/// memory too), `steps` times.
std::string jacobi2D(int64_t steps) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "A", "type": "[[float]M]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(steps) + R"(, "f": {"lambda": ["A"], "body": {"op": "stencil", "name": "jacobi",
   "grids": {"A": "wrap"}, "body": "return 0.2f * (A[0][0] + A[-1][0] + A[1][0] + A[0][-1] + A[0][1]);"}},
  "in": {"param": "A"}}})";
}

/// A step of two kernels: the sums of each 3-window (a reduction, a kernel of
/// its own) and their 3-point average.
std::string summedSteps(int64_t steps) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}], "inputs": [{"name": "A", "type": "[float]N"}],
 "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}], "returns": "float",
   "body": "return a + b;"}},
 "body": {"op": "iterate", "n": )" +
         std::to_string(steps) + R"(, "f": {"lambda": ["x"], "body": {"apply": {"lambda": ["s"], "body":
   {"op": "stencil", "name": "avg3", "grids": {"s": "clamp"}, "body": "return (s[-1] + s[0] + s[1]) / 3.0f;"}},
   "args": [{"op": "join", "in": {"op": "map", "f": {"lambda": ["w"], "body": {"op": "reduce", "f": {"userFun": "add"},
     "init": {"literal": 0.0, "type": "float"}, "in": {"param": "w"}}}, "in": {"op": "slide", "size": 3, "step": 1,
     "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp", "in": {"param": "x"}}}}}]}},
  "in": {"param": "A"}}})";
}

/// The average of every point of a radius-4 box in `dims` dimensions (81
/// taps in 2D, 729 in 3D) with `boundary` borders, `steps` times.
std::string radius4Box(int dims, const std::string &boundary, int64_t steps) {
  std::vector<std::string> taps{"A"};
  for (int d = 0; d < dims; ++d) {
    std::vector<std::string> longer;
    for (const std::string &tap : taps)
      for (int offset = -4; offset <= 4; ++offset) longer.push_back(tap + "[" + std::to_string(offset) + "]");
    taps = longer;
  }
  std::string sum;
  for (const std::string &tap : taps) sum += (sum.empty() ? "" : " + ") + tap;
  const std::vector<std::string> names{"O", "N", "M"};
  std::string sizes, type = "float";
  for (int d = 3 - dims; d < 3; ++d)
    sizes += std::string(sizes.empty() ? "" : ", ") + "{\"name\": \"" + names[size_t(d)] + "\", \"min\": 9}";
  for (int d = 2; d >= 3 - dims; --d) type = "[" + type + "]" + names[size_t(d)]; // innermost (M) first
  return R"({"liftcc": 1, "sizes": [)" + sizes + R"(], "inputs": [{"name": "A", "type": ")" + type + R"("}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(steps) + R"(, "f": {"lambda": ["A"], "body": {"op": "stencil", "name": "box",
   "grids": {"A": ")" +
         boundary + R"("}, "body": "return ()" + sum + ") / " + std::to_string(taps.size()) +
         R"(.0f;"}}, "in": {"param": "A"}}})";
}

/// The kernel of `typed` lowered by `recipe` with time tiles of `depth`,
/// checked for its two phases and, on the test device, against the interpreter.
void checkPhases(const Program &typed, const std::map<std::string, int64_t> &sizes, rewrite::Recipe recipe,
                 rewrite::RecipeOptions options, int64_t depth, const test::DeviceReference &reference,
                 std::optional<ocl::Context> &context, codegen::CodegenOptions codegenOptions = {}) {
  const int64_t n = iterateCount(typed.body()).constant();
  CAPTURE(rewrite::recipeName(recipe));
  CAPTURE(depth);
  options.timeTile = depth;
  Program lowered = rewrite::applyRecipe(typed, recipe, options);
  // iterate(1, f^r, iterate(q, f^t, A)): the rule applied.
  REQUIRE(lowered.body().isPrim(Op::Iterate));
  REQUIRE(inputOf(lowered.body()).isPrim(Op::Iterate));
  CHECK(iterateCount(lowered.body()) == arith::Expr(1));
  CHECK(iterateCount(inputOf(lowered.body())) == arith::Expr(n / depth));
  codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, codegenOptions);
  REQUIRE(kernel.iteration);
  CHECK(kernel.iteration->count == arith::Expr(n / depth + 1));
  REQUIRE(kernel.iteration->phases.size() == 2);
  CHECK(kernel.iteration->phases[0].count == arith::Expr(n / depth));
  CHECK(kernel.iteration->phases[1].count == arith::Expr(1));
  CHECK(kernel.iteration->phases[0].stages + kernel.iteration->phases[1].stages == kernel.stages.size());
  if (!context) return;
  auto mismatch = test::deviceMismatch(*context, kernel, sizes, reference.inputs, typed.body().typeOrThrow(),
                                       reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("iterate remainder: every recipe's time tiles that do not divide the count agree with the interpreter") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  struct Case {
    std::string name, json;
    std::map<std::string, int64_t> sizes;
    std::vector<rewrite::Recipe> recipes;
    std::vector<int64_t> depths;
  };
  using rewrite::Recipe;
  for (const Case &c : {Case{"average1D, 7 steps",
                             average1D(7),
                             {{"N", 61}},
                             {Recipe::Plain, Recipe::Coarsened, Recipe::Tiled, Recipe::Local},
                             {2, 3, 4}},
                        Case{"jacobi2D, 5 steps",
                             jacobi2D(5),
                             {{"N", 13}, {"M", 11}},
                             {Recipe::Plain, Recipe::Coarsened, Recipe::Tiled},
                             {2, 3}},
                        Case{"summedSteps, 5 steps", summedSteps(5), {{"N", 50}}, {Recipe::Plain}, {2}}}) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.json), c.sizes);
    test::DeviceReference reference = test::deviceReference(typed, c.sizes, 23);
    for (Recipe recipe : c.recipes)
      for (int64_t depth : c.depths) checkPhases(typed, c.sizes, recipe, {}, depth, reference, context);
  }
  // The step of two kernels: each phase launches both.
  Program summed = typeCheck(readProgram(summedSteps(5)), {{"N", 50}});
  rewrite::RecipeOptions two;
  two.timeTile = 2;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(summed, Recipe::Plain, two), codegen::Target::OpenCL);
  REQUIRE(kernel.iteration);
  CHECK(kernel.iteration->phases.size() == 2);
  CHECK(kernel.stages.size() >= 3);
  // The temporaries of the two phases are distinct buffers.
  std::set<std::string> temporaries;
  for (const codegen::KernelArg &t : kernel.temporaries) CHECK(temporaries.insert(t.name).second);
  // A depth beyond the count is refused.
  rewrite::RecipeOptions six;
  six.timeTile = 6;
  CHECK(test::errorOf([&] { rewrite::applyRecipe(summed, Recipe::Plain, six); }) ==
        "time tile 6 is deeper than the iteration count 5");
}

TEST_CASE("iterate remainder: time tiles through local memory end with a launch of the steps left") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<std::string, int64_t> sizes{{"N", 37}, {"M", 29}};
  Program typed = typeCheck(readProgram(jacobi2D(5)), sizes);
  test::DeviceReference reference = test::deviceReference(typed, sizes, 29);
  rewrite::RecipeOptions options;
  options.tileExtents = {8, 3, 0};
  codegen::CodegenOptions codegenOptions;
  codegenOptions.localSize = std::array<int64_t, 3>{8, 3, 1};
  for (int64_t depth : {2, 3, 4})
    checkPhases(typed, sizes, rewrite::Recipe::TimeTiledLocal, options, depth, reference, context, codegenOptions);
}

TEST_CASE("iterate remainder: the launch plan launches each phase's stages in turn") {
  std::map<std::string, int64_t> sizes{{"N", 50}};
  Program typed = typeCheck(readProgram(summedSteps(7)), sizes);
  rewrite::RecipeOptions three;
  three.timeTile = 3;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, three), codegen::Target::OpenCL);
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
  REQUIRE(plan.iteration);
  CHECK(plan.launches() == 3);
  REQUIRE(plan.iteration->phases.size() == 2);
  const tuner::LaunchPlan::Iteration::Phase first = plan.iteration->phases[0], second = plan.iteration->phases[1];
  CHECK(first.count == 2);
  CHECK(second.count == 1);
  CHECK(first.firstStage == 0);
  CHECK(first.endStage == second.firstStage);
  CHECK(second.endStage == plan.stages.size());
  for (int64_t k = 0; k < 2; ++k) CHECK(plan.stagesOfLaunch(k) == std::pair<size_t, size_t>{0, first.endStage});
  CHECK(plan.stagesOfLaunch(2) == std::pair<size_t, size_t>{second.firstStage, second.endStage});
  // Three launches: the result ends in the output buffer.
  CHECK(plan.resultBuffer() == plan.outputBuffer);
}

TEST_CASE("iterate remainder: launch.json lists the phases and the exporter reads them back") {
  std::map<std::string, int64_t> sizes{{"N", 61}};
  Program typed = typeCheck(readProgram(average1D(7)), sizes);
  rewrite::RecipeOptions three;
  three.timeTile = 3;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, three), codegen::Target::OpenCL);
  nlohmann::json launch{{"program", "average"}, {"sizes", "N=61"}, {"kernel", codegen::kernelMetadata(kernel)}};
  CHECK(launch["kernel"]["iterate"] ==
        nlohmann::json{{"count", "3"},
                       {"input", "A"},
                       {"phases", {{{"count", "2"}, {"stages", 1}}, {{"count", "1"}, {"stages", 1}}}}});
  exporter::ExportPlan plan = exporter::planFromLaunchJson(launch, kernel.source, "launch.json");
  REQUIRE(plan.iteration);
  REQUIRE(plan.iteration->phases.size() == 2);
  CHECK(plan.iteration->phases[0].count == 2);
  CHECK(plan.iteration->phases[1].stages == 1);

  auto errorWith = [&](const nlohmann::json &phases) {
    nlohmann::json changed = launch;
    changed["kernel"]["iterate"]["phases"] = phases;
    return test::errorOf([&] { exporter::planFromLaunchJson(changed, kernel.source, "launch.json"); });
  };
  CHECK(errorWith({{{"count", "2"}, {"stages", 1}}, {{"count", "2"}, {"stages", 1}}}) ==
        "launch.json: /kernel/iterate/phases: the phases add up to 4 launches of 2 kernels, expected 3 launches of 2 "
        "kernels");
  CHECK(errorWith({{{"count", "3"}, {"stages", 1}}}) == "launch.json: /kernel/iterate/phases: the phases add up to 3 "
                                                        "launches of 1 kernel, expected 3 launches of 2 kernels");
  CHECK(errorWith({{{"count", "2"}, {"stages", 0}}, {{"count", "1"}, {"stages", 1}}}) ==
        "launch.json: /kernel/iterate/phases/0/stages: expected a number of kernels from 1 to 1024, found 0");
  CHECK(errorWith({{{"count", "4611686018427387904"}, {"stages", 1}}, {{"count", "1"}, {"stages", 1}}})
            .find("launch.json: /kernel/iterate/phases/0/count: ") != std::string::npos);
  CHECK(errorWith(nlohmann::json::array()) == "launch.json: /kernel/iterate/phases: expected a non-empty array");
}

TEST_CASE("iterate remainder: the explored space has time tiles within the count, not only those dividing it") {
  Program typed = typeCheck(readProgram(jacobi2D(5)), {{"N", 40}, {"M", 64}});
  explore::SpaceOptions options;
  options.includeTiled = options.includeLocal = options.includeCoarsened = options.includeVector =
      options.includeStream = options.includeMapping = options.includeFused = options.includeSpecialised = false;
  options.groupExtents = {8};
  options.timeTiles = {2, 3, 8};
  options.timeTileCoarsenings.clear();
  explore::Space space = explore::enumerateSpace(typed, explore::DeviceLimits{}, options);
  std::set<int64_t> tiles;
  for (const explore::Variant &v : space.variants)
    if (explore::familyOf(v.configuration) == "timeTiled") tiles.insert(v.configuration.timeTile);
  CHECK(tiles == std::set<int64_t>{2, 3});

  // A radius-4 2D box reads 81 points per step: a tile of 2 steps about
  // 81^2 = 6561 per output, one of 3 steps 531441, beyond
  // families::kMaxTimeTileReads (its kernels took minutes to generate).
  Program box = typeCheck(readProgram(radius4Box(2, "wrap", 4)), {{"N", 40}, {"M", 64}});
  CHECK(explore::families::timeTilesWithin(box, options) == std::vector<int64_t>{2});
  CHECK(explore::families::timeTilesWithin(typed, options) == std::vector<int64_t>{2, 3});
}

TEST_CASE("iterate remainder: a fused step of a wide stencil is refused before its whole text is built") {
  // Two steps of a radius-4 3D box fused: 729 recomputed neighbours of 729
  // taps each. The expression cap used to be checked once all 729 arguments
  // of the outer call were built (16 MB of text, half a million index
  // expressions); it is checked as they grow.
  std::map<std::string, int64_t> sizes{{"O", 12}, {"N", 11}, {"M", 10}};
  Program typed = typeCheck(readProgram(radius4Box(3, "clamp", 2)), sizes);
  rewrite::RecipeOptions two;
  two.timeTile = 2;
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, two);
  CHECK(test::errorOf([&] {
          codegen::generateKernel(lowered, codegen::Target::OpenCL);
        }).find("one output's expression exceeds 1024 KiB of C source") != std::string::npos);
}

} // namespace
} // namespace liftcc
