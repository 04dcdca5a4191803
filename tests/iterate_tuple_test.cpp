// iterate over a tuple of grids, iterate(n, f, tuple(U, V)): the state of a
// two-level scheme (a wave's current and previous fields) or of a coupled
// system. One step over the inputs themselves is compiled (a kernel per
// computed component), and the host launches it n times with each
// component's buffer exchanged with its output
// (codegen::Kernel::Iteration::inputArgs), or, where a component is only
// carried over from another (a wave's v = old u), with the state's buffers
// rotating so that no kernel copies it (Iteration::carriedFrom). Checked
// here: every recipe's kernels against the interpreter on PoCL for zero,
// one, even and odd counts, the launch plan's exchanges and rotations,
// launch.json's "inputs" and "carriedFrom", and the exported C host code run
// from a C driver against liftc eval.

#include "codegen/generate.h"
#include "codegen/kernel.h"
#include "core/ir/iterated_state.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/families/family.h"
#include "explore/space.h"
#include "explore/win_explanation.h"
#include "exporter/export_plan.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/explore_test_support.h"
#include "tests/export_test_support.h"
#include "tests/iterated_program.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tests/shell_support.h"
#include "tests/test_support.h"
#include "tuner/launch_plan.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace liftcc {
namespace {

namespace fs = std::filesystem;

/// A two-level wave in 2D: (u, v) -> (2u - v + c lap(u), u).
std::string wave2D(int64_t count) { return test::waveTupleJson(count); }

/// Three coupled 1D fields, each computed from its own neighbourhood and the
/// others' points, with three different boundaries.
std::string coupled1D(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}],
 "inputs": [{"name": "A", "type": "[float]N"}, {"name": "B", "type": "[float]N"}, {"name": "C", "type": "[float]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["a", "b", "c"],
   "body": {"op": "tuple", "in": [
     {"op": "stencil", "name": "fa", "grids": {"a": "wrap", "b": "pointwise"},
      "body": "return 0.5f*a[0] + 0.2f*(a[-1] + a[1]) + 0.1f*b[0];"},
     {"op": "stencil", "name": "fb", "grids": {"b": "mirror", "c": "pointwise", "a": "pointwise"},
      "body": "return 0.6f*b[0] + 0.1f*(b[-2] + b[2]) + 0.1f*c[0] + 0.1f*a[0];"},
     {"op": "stencil", "name": "fc", "grids": {"c": "clamp", "a": "pointwise"},
      "body": "return 0.25f*(c[-1] + 2.0f*c[0] + c[1]) - 0.01f*a[0];"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}},
            {"op": "get", "index": 2, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "A"}, {"param": "B"}, {"param": "C"}]}}})";
}

/// A three-level scheme in 1D, (a, b, c) -> (b, c, f(a, b, c)): two components
/// carried over, so one kernel per step and the buffers rotate.
std::string rotate1D(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}],
 "inputs": [{"name": "A", "type": "[float]N"}, {"name": "B", "type": "[float]N"}, {"name": "C", "type": "[float]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["a", "b", "c"],
   "body": {"op": "tuple", "in": [{"param": "b"}, {"param": "c"},
     {"op": "stencil", "name": "f3", "grids": {"c": "clamp", "b": "pointwise", "a": "pointwise"},
      "body": "return 0.5f*c[0] + 0.2f*(c[-1] + c[1]) + 0.07f*b[0] - 0.03f*a[0];"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}},
            {"op": "get", "index": 2, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "A"}, {"param": "B"}, {"param": "C"}]}}})";
}

/// (a, b, c) -> (f(a, b), a, a): a carried over twice; the second is a copy
/// (two components of the state never share a buffer).
std::string carriedTwice1D(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 5}],
 "inputs": [{"name": "A", "type": "[float]N"}, {"name": "B", "type": "[float]N"}, {"name": "C", "type": "[float]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["a", "b", "c"],
   "body": {"op": "tuple", "in": [
     {"op": "stencil", "name": "g2", "grids": {"a": "wrap", "b": "pointwise"},
      "body": "return 0.6f*a[0] + 0.15f*(a[-1] + a[1]) + 0.1f*b[0];"},
     {"param": "a"}, {"param": "a"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}},
            {"op": "get", "index": 2, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "A"}, {"param": "B"}, {"param": "C"}]}}})";
}

/// (k, u) -> (k, f(u, k)): an int mask carried over from itself (its buffer
/// never changes) beside a float field of another element size.
std::string maskCarried2D(int64_t count) {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "K", "type": "[[int]M]N"}, {"name": "U", "type": "[[float]M]N"}],
 "body": {"op": "iterate", "n": )" +
         std::to_string(count) + R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["k", "u"],
   "body": {"op": "tuple", "in": [{"param": "k"},
     {"op": "stencil", "name": "masked", "grids": {"u": "mirror", "k": "pointwise"},
      "body": "float s = 0.25f*(u[-1][0] + u[1][0] + u[0][-1] + u[0][1]); if (k[0][0] > 0) s = u[0][0]; return s;"}]}},
   "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}}]}},
  "in": {"op": "tuple", "in": [{"param": "K"}, {"param": "U"}]}}})";
}

struct Case {
  std::string name;
  std::function<std::string(int64_t)> program;
  std::map<std::string, int64_t> sizes;
  std::vector<std::string> state;
  std::vector<std::optional<size_t>> carriedFrom; ///< Kernel::Iteration::carriedFrom
  size_t kernels;                                 ///< launched per step
};

std::vector<Case> cases() {
  return {{"wave2D", wave2D, {{"N", 13}, {"M", 11}}, {"U", "V"}, {std::nullopt, 0}, 1},
          {"coupled1D", coupled1D, {{"N", 37}}, {"A", "B", "C"}, {}, 3},
          {"rotate1D", rotate1D, {{"N", 29}}, {"A", "B", "C"}, {1, 2, std::nullopt}, 1},
          {"carriedTwice1D", carriedTwice1D, {{"N", 23}}, {"A", "B", "C"}, {std::nullopt, 0, std::nullopt}, 2},
          {"maskCarried2D", maskCarried2D, {{"N", 12}, {"M", 9}}, {"K", "U"}, {0, std::nullopt}, 1}};
}

TEST_CASE("iterate tuple: every recipe's kernels, launched n times with each component exchanged, agree with the "
          "interpreter") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (const Case &c : cases())
    for (int64_t count : {0, 1, 4, 5}) {
      CAPTURE(c.name);
      CAPTURE(count);
      Program typed = typeCheck(readProgram(c.program(count)), c.sizes);
      REQUIRE(iteratesTuple(typed));
      test::DeviceReference reference = test::deviceReference(typed, c.sizes, 17 + static_cast<uint64_t>(count));
      for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Coarsened, rewrite::Recipe::Tiled}) {
        CAPTURE(rewrite::recipeName(recipe));
        Program lowered = rewrite::applyRecipe(typed, recipe, {});
        // The loop stays the host's, over the same tuple of inputs.
        REQUIRE(iteratesTuple(lowered));
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count == arith::Expr(count));
        REQUIRE(kernel.iteration->inputArgs.size() == c.state.size());
        for (size_t k = 0; k < c.state.size(); ++k)
          CHECK(kernel.args.at(kernel.iteration->inputArgs[k]).name == c.state[k]);
        // A component carried over is no kernel: its buffer is passed on.
        CHECK(kernel.iteration->carriedFrom == c.carriedFrom);
        CHECK(kernel.stages.size() == c.kernels);
        if (!context) continue;
        // Two repetitions: the second must start from the inputs again.
        auto mismatch = test::deviceMismatch(*context, kernel, c.sizes, reference.inputs, typed.body().typeOrThrow(),
                                             reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
        CHECK_MESSAGE(!mismatch, *mismatch);
      }
    }
}

TEST_CASE("iterate tuple: time tiles compose the step; every recipe's kernels agree with the interpreter") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (const Case &c : cases())
    // Dividing tiles, and tiles followed by a launch of the steps left (phases).
    for (auto [count, depth] : {std::pair<int64_t, int64_t>{4, 2}, {6, 3}, {5, 2}, {4, 3}}) {
      CAPTURE(c.name);
      CAPTURE(count);
      CAPTURE(depth);
      Program typed = typeCheck(readProgram(c.program(count)), c.sizes);
      test::DeviceReference reference = test::deviceReference(typed, c.sizes, 29 + static_cast<uint64_t>(depth));
      // Tiles recompute 5^t-fold: three steps of a tiled mask exceed the
      // generator's expression cap (refused with "fuse fewer steps").
      std::vector<rewrite::Recipe> recipes{rewrite::Recipe::Plain, rewrite::Recipe::Coarsened};
      if (depth == 2) recipes.push_back(rewrite::Recipe::Tiled);
      for (rewrite::Recipe recipe : recipes) {
        CAPTURE(rewrite::recipeName(recipe));
        rewrite::RecipeOptions options;
        options.timeTile = depth;
        Program lowered = rewrite::applyRecipe(typed, recipe, options);
        // The steps left iterate over what the tiles leave: no longer over the inputs.
        CHECK(iteratesTuple(lowered) == (count % depth == 0));
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        REQUIRE(kernel.iteration);
        // depth steps per launch, count / depth launches, then one of the steps left
        CHECK(kernel.iteration->count == arith::Expr(count / depth + (count % depth ? 1 : 0)));
        CHECK(kernel.iteration->phases.size() == (count % depth ? 2u : 0u));
        if (!context) continue;
        auto mismatch = test::deviceMismatch(*context, kernel, c.sizes, reference.inputs, typed.body().typeOrThrow(),
                                             reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
        CHECK_MESSAGE(!mismatch, *mismatch);
      }
    }
  // The rotation's two carried components: after 2 steps (c, f(a, b, c),
  // f(b, c, f(a, b, c))) carries c only.
  Program rotation = typeCheck(readProgram(rotate1D(4)), {{"N", 29}});
  rewrite::RecipeOptions two;
  two.timeTile = 2;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(rotation, rewrite::Recipe::Plain, two), codegen::Target::OpenCL);
  REQUIRE(kernel.iteration);
  CHECK(kernel.iteration->carriedFrom == std::vector<std::optional<size_t>>{2, std::nullopt, std::nullopt});
}

TEST_CASE("iterate tuple: the explored time tiles are those up to the count, as for one array") {
  explore::SpaceOptions options;
  options.includeTimeTiled = true;
  options.timeTiles = {2, 3, 4, 8};
  CHECK(explore::families::timeTilesWithin(typeCheck(readProgram(wave2D(4)), {{"N", 13}, {"M", 11}}), options) ==
        std::vector<int64_t>{2, 3, 4});
  CHECK(explore::families::timeTilesWithin(typeCheck(readProgram(rotate1D(6)), {{"N", 29}}), options) ==
        std::vector<int64_t>{2, 3, 4});
}

TEST_CASE("iterate tuple: a time tile and the launch of the steps left carry different components; the plan and "
          "launch.json follow each phase") {
  std::map<std::string, int64_t> sizes{{"N", 13}, {"M", 11}};
  // 5 steps two at a time: 2 launches of (f(f(u, v), u), f(u, v)) carrying
  // nothing, then 1 of (f(u, v), u) carrying u.
  Program typed = typeCheck(readProgram(wave2D(5)), sizes);
  rewrite::RecipeOptions two;
  two.timeTile = 2;
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, two), codegen::Target::OpenCL);
  REQUIRE(kernel.iteration);
  REQUIRE(kernel.iteration->phases.size() == 2);
  CHECK(kernel.iteration->phases[0].carriedFrom.empty());
  CHECK(kernel.iteration->phases[1].carriedFrom == std::vector<std::optional<size_t>>{std::nullopt, 0});
  CHECK(kernel.iteration->carries());
  nlohmann::json meta = codegen::kernelMetadata(kernel);
  CHECK_FALSE(meta["iterate"]["phases"][0].contains("carriedFrom"));
  CHECK(meta["iterate"]["phases"][1]["carriedFrom"] == nlohmann::json{nullptr, 0});
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
  REQUIRE(plan.iteration);
  const size_t U = plan.iteration->inputBuffers.at(0), V = plan.iteration->inputBuffers.at(1);
  const size_t out0 = plan.outputBuffers.at(0), out1 = plan.outputBuffers.at(1);
  using Rotation = tuner::LaunchPlan::Rotation;
  // The tiles compute both components: each its own output first, then back.
  CHECK(plan.rotationOfLaunch(0) == Rotation{{U, V}, {out0, out1}});
  CHECK(plan.rotationOfLaunch(1) == Rotation{{out0, out1}, {U, V}});
  // The step left computes u only; v takes over u's buffer.
  CHECK(plan.rotationOfLaunch(2) == Rotation{{U, V}, {out0, out1}});
  CHECK(plan.resultBuffers() == std::vector<size_t>{out0, U});
  // The traffic model per phase: 2 launches of 8 bytes per output, 1 of 6.
  CHECK(kernel.temporaries.empty());
  CHECK(explore::modelledBytesPerOutput(kernel, explore::compulsoryBytesPerOutput(typed, sizes), sizes, 2 * 13 * 11) ==
        doctest::Approx(2 * 8.0 + 6.0));
  // launch.json read back: the phase's carriedFrom, and its errors.
  nlohmann::json launch{{"program", "wave"}, {"sizes", "N=13,M=11"}, {"kernel", meta}};
  exporter::ExportPlan exported = exporter::planFromLaunchJson(launch, kernel.source, "launch.json");
  REQUIRE(exported.iteration);
  CHECK(exported.iteration->carriedIn(1) == std::vector<std::optional<size_t>>{std::nullopt, 0});
  launch["kernel"]["iterate"]["phases"][1]["carriedFrom"] = {1, nullptr};
  CHECK(test::errorOf([&] { exporter::planFromLaunchJson(launch, kernel.source, "launch.json"); })
            .find("launch.json: /kernel/iterate/phases/1/carriedFrom/0: the output 'out_0' of a carried component is "
                  "written by kernel") != std::string::npos);
}

TEST_CASE("iterate tuple: time tiles deeper than the count and states that are not distinct inputs are refused "
          "with their reason") {
  Program typed = typeCheck(readProgram(wave2D(4)), {{"N", 13}, {"M", 11}});
  rewrite::RecipeOptions options;
  options.timeTile = 8;
  CHECK(test::errorOf([&] { rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options); }) ==
        "plain time tile 8: a time tile of an iterate over a tuple of arrays needs a constant iteration count of at "
        "least the tile, found 4");
  CHECK(test::errorOf([&] {
          rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledLocal, {});
        }).find("timeTiledLocal: an iterate over a tuple of arrays is not time-tiled through local memory yet") !=
        std::string::npos);
  // The same input twice cannot be two buffers exchanged with two outputs:
  // the state is copied into buffers of its own before the loop
  // (tests/loop_split_test.cpp runs such programs).
  std::string twice = wave2D(2);
  twice.replace(twice.rfind("{\"param\": \"V\"}"), 14, "{\"param\": \"U\"}");
  Program same = typeCheck(readProgram(twice), {{"N", 13}, {"M", 11}});
  CHECK_FALSE(iteratedInputs(same));
  codegen::Kernel copied =
      codegen::generateKernel(rewrite::applyRecipe(same, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  REQUIRE(copied.iteration);
  CHECK(copied.iteration->stateInputs.size() == 2);
}

TEST_CASE("iterate: a step reading an iterated input by name (not through its parameter) gets a copy of it as "
          "its state; the code generator refuses such a lowered loop over the input itself") {
  // The host loop writes each launch's result over the state's buffers:
  // a step reading the input by name would read the latest state where it
  // means the initial values (the kernel was generated, and failed
  // verification). The recipes start the loop from a copy instead.
  const std::string one = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "A", "type": "[[float]M]N"}],
 "body": {"op": "iterate", "n": 4, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "src",
   "grids": {"g": "wrap", "A": "pointwise"}, "body": "return 0.25f*(g[0][-1] + g[0][1] + g[-1][0] + g[1][0]) + 0.5f*A[0][0];"}},
  "in": {"param": "A"}}})";
  std::string tuple = wave2D(4);
  tuple.replace(tuple.find(R"("v": "pointwise")"), 16, R"("V": "pointwise")");
  tuple.replace(tuple.find("- v[0][0]"), 9, "- V[0][0]");
  const std::map<std::string, int64_t> sizes{{"N", 13}, {"M", 11}};
  for (const auto &[text, input] : {std::pair{one, std::string("A")}, std::pair{tuple, std::string("V")}}) {
    CAPTURE(input);
    Program typed = typeCheck(readProgram(text), sizes);
    REQUIRE(stateInputReadByStep(typed));
    CHECK(stateInputReadByStep(typed)->name() == input);
    const std::string why = "iterate's step reads its input " + input + " by name, not through its parameter (" +
                            input + "'s buffer holds the latest state); pass the initial values as another input";
    CHECK(test::errorOf([&] { codegen::generateKernel(typed, codegen::Target::OpenCL); }) == "/body/f: " + why);
    rewrite::RecipeOptions options;
    options.timeTile = 2;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options), codegen::Target::OpenCL);
    REQUIRE(kernel.iteration);
    CHECK(kernel.iteration->prologueStages >= 1);
    std::optional<ocl::Context> context = ocl::test::testContext();
    if (!context) continue;
    test::DeviceReference reference = test::deviceReference(typed, sizes, 17);
    auto mismatch = test::deviceMismatch(*context, kernel, sizes, reference.inputs, typed.body().typeOrThrow(),
                                         reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  // Reading the state through the parameter, and other inputs by name, is the normal case.
  CHECK_FALSE(stateInputReadByStep(typeCheck(readProgram(wave2D(4)), {{"N", 13}, {"M", 11}})));
}

TEST_CASE("iterate tuple: the launch plan exchanges each input with its own output in odd launches") {
  std::map<std::string, int64_t> sizes{{"N", 37}};
  for (int64_t count : {4, 5}) {
    CAPTURE(count);
    Program typed = typeCheck(readProgram(coupled1D(count)), sizes);
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
    tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
    REQUIRE(plan.iteration);
    REQUIRE(plan.iteration->inputBuffers.size() == 3);
    REQUIRE(plan.outputBuffers.size() == 3);
    CHECK(plan.iteration->carriedFrom.empty());
    CHECK(plan.buffers[plan.iteration->inputBuffers[0]].name == "A");
    CHECK(plan.buffers[plan.iteration->inputBuffers[2]].name == "C");
    // Written in odd launches, so not read-only.
    for (size_t b : plan.iteration->inputBuffers) CHECK_FALSE(plan.buffers[b].readOnly);
    REQUIRE_FALSE(plan.stages.empty());
    for (size_t s = 0; s < plan.stages.size(); ++s) {
      std::vector<std::optional<size_t>> even = plan.buffersOfStageLaunch(s, 0), odd = plan.buffersOfStageLaunch(s, 1);
      for (size_t p = 0; p < even.size(); ++p) {
        if (!even[p]) continue;
        for (size_t k = 0; k < 3; ++k) {
          if (*even[p] == plan.iteration->inputBuffers[k]) CHECK(odd[p] == plan.outputBuffers[k]);
          if (*even[p] == plan.outputBuffers[k]) CHECK(odd[p] == plan.iteration->inputBuffers[k]);
        }
      }
    }
    CHECK(plan.resultBuffers() == (count % 2 == 0 ? plan.iteration->inputBuffers : plan.outputBuffers));
  }
}

TEST_CASE("iterate tuple: a carried component passes its buffer on; the state rotates through the buffers") {
  std::map<std::string, int64_t> sizes{{"N", 13}, {"M", 11}};
  Program typed = typeCheck(readProgram(wave2D(7)), sizes);
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt);
  REQUIRE(plan.iteration);
  REQUIRE(plan.stages.size() == 1); // the new u; v is the old u, no copy kernel
  const size_t U = plan.iteration->inputBuffers.at(0), V = plan.iteration->inputBuffers.at(1);
  const size_t out0 = plan.outputBuffers.at(0), out1 = plan.outputBuffers.at(1);
  CHECK(plan.buffers[U].name == "U");
  CHECK(plan.buffers[out0].name == "out_0");
  // (u, v) -> (f(u, v), u): launch k reads the state and writes the new u to
  // a buffer that holds neither; the old u becomes v without moving.
  using Rotation = tuner::LaunchPlan::Rotation;
  CHECK(plan.rotationOfLaunch(0) == Rotation{{U, V}, {out0, out1}});
  CHECK(plan.rotationOfLaunch(1) == Rotation{{out0, U}, {V, out1}});
  CHECK(plan.rotationOfLaunch(2) == Rotation{{V, out0}, {U, out1}});
  CHECK(plan.rotationOfLaunch(3) == Rotation{{U, V}, {out0, out1}}); // period 3
  CHECK(plan.rotationOfLaunch(1000) == plan.rotationOfLaunch(1));
  // The one kernel's parameters in launch 1: U read as v, out_0 as u, V written.
  std::vector<std::optional<size_t>> bound = plan.buffersOfStageLaunch(0, 1);
  std::vector<size_t> buffers;
  for (const std::optional<size_t> &b : bound)
    if (b) buffers.push_back(*b);
  CHECK(buffers == std::vector<size_t>{out0, U, V});
  // After 7 launches (7 mod 3 = 1) the result is in launch 1's state.
  CHECK(plan.resultBuffers() == std::vector<size_t>{out0, U});
  // The traffic model: per launch U and V read and the new u written, 12
  // bytes per point, 6 per output (two per point), not the compulsory 8.
  double compulsory = explore::compulsoryBytesPerOutput(typed, sizes);
  CHECK(compulsory == doctest::Approx(8.0));
  CHECK(explore::modelledBytesPerOutput(kernel, compulsory, sizes, 2 * 13 * 11) == doctest::Approx(7 * 6.0));
}

TEST_CASE("iterate tuple: launch.json lists the iterated inputs and the exporter reads them back") {
  std::map<std::string, int64_t> sizes{{"N", 13}, {"M", 11}};
  Program typed = typeCheck(readProgram(wave2D(3)), sizes);
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  nlohmann::json launch{{"program", "wave"}, {"sizes", "N=13,M=11"}, {"kernel", codegen::kernelMetadata(kernel)}};
  CHECK(launch["kernel"]["iterate"] ==
        nlohmann::json{{"count", "3"}, {"inputs", {"U", "V"}}, {"carriedFrom", {nullptr, 0}}});
  exporter::ExportPlan plan = exporter::planFromLaunchJson(launch, kernel.source, "launch.json");
  REQUIRE(plan.iteration);
  CHECK(plan.iteration->count == 3);
  REQUIRE(plan.iteration->inputArgs.size() == 2);
  CHECK(plan.args[plan.iteration->inputArgs[0]].name == "U");
  CHECK(plan.args[plan.iteration->inputArgs[1]].name == "V");

  auto errorWith = [&](const nlohmann::json &iterate) {
    nlohmann::json changed = launch;
    changed["kernel"]["iterate"] = iterate;
    return test::errorOf([&] { exporter::planFromLaunchJson(changed, kernel.source, "launch.json"); });
  };
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "V"}}, {"input", "U"}})
            .find("launch.json: /kernel/iterate: expected either \"input\" or \"inputs\", found both") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "W"}}})
            .find("launch.json: /kernel/iterate/inputs/1: no input argument or temporary named 'W'") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", 2}}})
            .find("launch.json: /kernel/iterate/inputs/1: expected a string") != std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "U"}}}).find("the input 'U' is iterated twice") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"input", "U"}})
            .find("an iterated program has one output per iterated input, found 2 outputs for 1 input") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", nlohmann::json::array()}})
            .find("/kernel/iterate/inputs: expected a non-empty array of input names") != std::string::npos);
  CHECK(plan.iteration->carriedFrom == std::vector<std::optional<size_t>>{std::nullopt, 0});
  // carriedFrom: per component null or the component it is the old value of.
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "V"}}, {"carriedFrom", {nullptr, 2}}})
            .find("launch.json: /kernel/iterate/carriedFrom/1: expected null or a component index below 2, found 2") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "V"}}, {"carriedFrom", {nullptr}}})
            .find("/kernel/iterate/carriedFrom: expected one entry per component of the state (2), found 1") !=
        std::string::npos);
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "V"}}, {"carriedFrom", {1, 0}}})
            .find("/kernel/iterate/carriedFrom: expected some component computed by the kernels") != std::string::npos);
  // Carrying U into the first component: the kernel writes out_0.
  CHECK(errorWith({{"count", "3"}, {"inputs", {"U", "V"}}, {"carriedFrom", {1, nullptr}}})
            .find("/kernel/iterate/carriedFrom/0: the output 'out_0' of a carried component is written by kernel") !=
        std::string::npos);
}

/// A driver for the exported wave: reads U and V, launches twice (the second
/// launch must compute the same: the scratch buffers are reused), checks
/// that neither input was written and writes out_0 then out_1.
std::string waveDriver(const std::string &api, int64_t n, int64_t m) {
  std::string API = api;
  for (char &c : API) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string text = R"C(#include "@api@.h"

#include <stdio.h>
#include <string.h>

#define COUNT @API@_U_COUNT

static int launch(@api@_program *program, cl_command_queue queue, cl_mem u, cl_mem v, cl_mem o0, cl_mem o1,
                  float *result) {
  cl_event done;
  if (@api@_launch(program, queue, u, v, o0, o1, @N@, @M@, &done) != @API@_OK) return 1;
  clWaitForEvents(1, &done);
  clReleaseEvent(done);
  if (clEnqueueReadBuffer(queue, o0, CL_TRUE, 0, @API@_OUT_0_BYTES, result, 0, NULL, NULL) != CL_SUCCESS) return 1;
  if (clEnqueueReadBuffer(queue, o1, CL_TRUE, 0, @API@_OUT_1_BYTES, result + COUNT, 0, NULL, NULL) != CL_SUCCESS)
    return 1;
  return 0;
}
@OPEN_FIRST_DEVICE@
int main(int argc, char **argv) {
  static float u0[COUNT], v0[COUNT], after[COUNT], result[2 * COUNT], again[2 * COUNT];
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_mem u, v, o0, o1;
  cl_int error;
  @api@_program *program = NULL;
  FILE *file;
  char log[4096];
  if (argc != 4) return 2;
  file = fopen(argv[1], "rb");
  if (!file || fread(u0, 1, sizeof u0, file) != sizeof u0) return 2;
  fclose(file);
  file = fopen(argv[2], "rb");
  if (!file || fread(v0, 1, sizeof v0, file) != sizeof v0) return 2;
  fclose(file);
  if (!open_first_device(&device, &context, &queue)) return 3;
  u = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, @API@_U_BYTES, u0, &error);
  v = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, @API@_V_BYTES, v0, &error);
  o0 = clCreateBuffer(context, CL_MEM_READ_WRITE, @API@_OUT_0_BYTES, NULL, &error);
  o1 = clCreateBuffer(context, CL_MEM_READ_WRITE, @API@_OUT_1_BYTES, NULL, &error);
  if (error != CL_SUCCESS) return 3;
  if (@api@_build(context, device, &program, log, sizeof log) != @API@_OK) {
    printf("FAIL build: %s\n", log);
    return 1;
  }
  if (@api@_launch(program, queue, u, v, o0, u, @N@, @M@, NULL) != @API@_ERROR_INVALID_ARGUMENT) {
    printf("FAIL: an output aliasing an input was accepted\n");
    return 1;
  }
  if (launch(program, queue, u, v, o0, o1, again) || launch(program, queue, u, v, o0, o1, result)) {
    printf("FAIL: launch\n");
    return 1;
  }
  if (memcmp(again, result, sizeof result) != 0) {
    printf("FAIL: a second launch computed something else\n");
    return 1;
  }
  if (clEnqueueReadBuffer(queue, u, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL) != CL_SUCCESS ||
      memcmp(u0, after, sizeof after) != 0 ||
      clEnqueueReadBuffer(queue, v, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL) != CL_SUCCESS ||
      memcmp(v0, after, sizeof after) != 0) {
    printf("FAIL: the launch wrote an input\n");
    return 1;
  }
  file = fopen(argv[3], "wb");
  if (!file || fwrite(result, 1, sizeof result, file) != sizeof result) return 2;
  fclose(file);
  @api@_release(program);
  clReleaseMemObject(u);
  clReleaseMemObject(v);
  clReleaseMemObject(o0);
  clReleaseMemObject(o1);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("driver ok\n");
  return 0;
}
)C";
  auto replaceAll = [&](const std::string &key, const std::string &value) {
    for (size_t p; (p = text.find(key)) != std::string::npos;) text.replace(p, key.size(), value);
  };
  replaceAll("@OPEN_FIRST_DEVICE@", test::kOpenFirstDeviceC);
  replaceAll("@api@", api);
  replaceAll("@API@", API);
  replaceAll("@N@", std::to_string(n));
  replaceAll("@M@", std::to_string(m));
  return text;
}

void writeRandomFloats(const fs::path &path, size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float &v : values) v = dist(rng);
  test::writeFile(path, std::string(reinterpret_cast<const char *>(values.data()), count * sizeof(float)));
}

TEST_CASE("iterate tuple: the exported host code runs the wave from C, generated and explored, as liftc eval does") {
  if (!test::canRunExported()) return;
  test::TempDir dir;
  const int64_t n = 13, m = 11;
  const std::string sizes = "N=13,M=11";
  fs::path u = dir.path() / "u.bin", v = dir.path() / "v.bin";
  writeRandomFloats(u, n * m, 5);
  writeRandomFloats(v, n * m, 6);
  auto liftc = [](const std::vector<std::string> &args) { return test::runLiftc(test::quoteArgs(args)); };
  // Zero, odd and even counts generated on the spot (6 steps also two at a
  // time: nothing carried, three launches; 5 two at a time: two such
  // launches, then one step carrying u); an even count from the best-kernel
  // directory of a short exploration.
  struct Export {
    int64_t count;
    bool explored;
    int64_t timeTile;
  };
  for (auto [count, explored, timeTile] : {Export{0, false, 1}, Export{3, false, 1}, Export{4, false, 1},
                                           Export{6, false, 2}, Export{5, false, 2}, Export{4, true, 1}}) {
    CAPTURE(count);
    CAPTURE(explored);
    CAPTURE(timeTile);
    std::string name = "wave" + std::to_string(count) + (explored ? "_explored" : "") +
                       (timeTile > 1 ? "_t" + std::to_string(timeTile) : "");
    fs::path program = dir.path() / (name + ".json"), out = dir.path() / name;
    test::writeFile(program, wave2D(count));
    std::vector<std::string> command{"export", program.string(), "--size", sizes,         "--target",
                                     "opencl", "--opt",          "plain",  "--time-tile", std::to_string(timeTile)};
    if (explored) {
      fs::path results = dir.path() / (name + "_results");
      test::LiftcRun run = liftc({"explore", program.string(), "--size", sizes, "--out", results.string(), "--evals",
                                  "2", "--runs", "1", "--quiet", "--families", "plain,coarsened"});
      REQUIRE_MESSAGE(run.status == 0, run.output);
      command = {"export", test::bestKernelDirectory(results).string()};
    }
    command.insert(command.end(), {"--name", name, "--out", out.string()});
    test::LiftcRun exported = liftc(command);
    REQUIRE_MESSAGE(exported.status == 0, exported.output);
    std::string api = name + "_opencl";
    test::writeFile(out / "driver.c", waveDriver(api, n, m));
    test::compileC({out / "driver.c", out / (api + ".c")}, out, out / "driver");
    fs::path result = dir.path() / (name + "_out.bin"), reference = dir.path() / (name + "_ref.bin");
    test::ShellRun run =
        test::runShell(test::shellQuote((out / "driver").string()) + " " + test::shellQuote(u.string()) + " " +
                       test::shellQuote(v.string()) + " " + test::shellQuote(result.string()));
    REQUIRE_MESSAGE(run.status == 0, run.output);
    test::LiftcRun eval = liftc({"eval", program.string(), "--size", sizes, "--input", "U=" + u.string(), "--input",
                                 "V=" + v.string(), "--output", reference.string()});
    REQUIRE_MESSAGE(eval.status == 0, eval.output);
    std::vector<float> expected = test::readFloats(reference), actual = test::readFloats(result);
    REQUIRE(actual.size() == expected.size());
    size_t wrong = 0;
    for (size_t i = 0; i < expected.size(); ++i)
      if (!(std::fabs(actual[i] - expected[i]) <= 1e-4f * (1.0f + std::fabs(expected[i])))) ++wrong;
    CHECK(wrong == 0);
  }
}

} // namespace
} // namespace liftcc
