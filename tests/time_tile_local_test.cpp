// Temporal blocking through local memory (recipe timeTiledLocal, rule
// timeTileThroughLocal): the rule preserves semantics in random walks; its
// kernels (one work-group per tile of the last step, every intermediate step
// in local memory) match the interpreter on the device at sizes no tile
// divides, radius 1 to 4, every boundary (clamp and mirror read each
// intermediate buffer through tiled offsets), 2D and 3D; a mirror beyond one
// reflection and depths beyond the iteration count are refused with one
// line; the CUDA C compiles with NVRTC with an empty log; the family is in
// the explored space and its strategies parse back.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "examples/stencil_helpers.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"
#include "rewrite/time_tiled_local.h"
#include "tests/kernel_text_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/time_tile_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <random>
#include <set>

namespace liftcc {
namespace {

using namespace api;
using test::occurrences;

using namespace test::time_tiles;

/// Tiles 8 x 3 (2D) or 4 x 3 x 2 (3D), x first: none divides the test extents.
rewrite::RecipeOptions oddTiles(int dims, int64_t depth) {
  rewrite::RecipeOptions options;
  options.tileExtents = dims == 2 ? std::array<int64_t, 3>{8, 3, 0} : std::array<int64_t, 3>{4, 3, 2};
  options.timeTile = depth;
  return options;
}

codegen::Kernel kernelOf(const Program &lowered, int dims, codegen::Target target) {
  codegen::CodegenOptions options;
  options.localSize = dims == 2 ? std::array<int64_t, 3>{8, 3, 1} : std::array<int64_t, 3>{4, 3, 2};
  return codegen::generateKernel(lowered, target, options);
}

} // namespace

TEST_CASE("timeTiledLocal: random walks ending in timeTileThroughLocal preserve semantics (application counts)") {
  // Time tiles of depth 2 and 3 of 2D and 3D steps, radius 1 and 2, each
  // boundary; short walks over the algorithmic catalogue, then the rule
  // wherever it applies.
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::mt19937_64 rng(3333);
  std::map<std::string, int> applications;
  int walks = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int radius = 1; radius <= 2; ++radius)
      for (int boundary = Clamp; boundary <= Constant; ++boundary)
        for (int depth = 2; depth <= 3; ++depth) {
          if (dims == 3 && (radius == 2 || depth == 3)) continue; // small 3D interpretations only
          std::map<std::string, int64_t> sizes =
              extentsOf(dims, radius, dims == 2 ? std::vector<int64_t>{11, 9} : std::vector<int64_t>{5, 6, 7});
          Program original = typeCheck(composed(dims, radius, Boundary(boundary), depth), sizes);
          std::vector<Value> inputs = randomInputs(original, sizes, 5);
          Value expected = interpret(original, sizes, inputs);
          std::vector<int64_t> tile = dims == 2 ? std::vector<int64_t>{4, 3} : std::vector<int64_t>{4, 3, 2};
          rewrite::Rule rule = rewrite::timeTileThroughLocal(depth, tile);
          // One random step of the algorithmic catalogue anywhere it applies.
          auto randomStep = [&](const Program &p) {
            std::shuffle(rules.begin(), rules.end(), rng);
            for (const rewrite::Rule &r : rules) {
              std::vector<std::string> at = rewrite::applicableLocations(p, r);
              if (!at.empty()) return rewrite::applyRule(p, r, at[rng() % at.size()]);
            }
            return p;
          };
          // Walk 0: the rule alone; 1: a random step, then the rule; 2: the
          // rule, then a random step (inside the tiled program).
          for (int walk = 0; walk < 3; ++walk, ++walks) {
            Program current = walk == 1 ? randomStep(original) : original;
            std::vector<std::string> at = rewrite::applicableLocations(current, rule);
            CAPTURE(std::string(kBoundaryNames[boundary]));
            if (at.empty()) continue;
            current = rewrite::applyRule(current, rule, at[rng() % at.size()]);
            ++applications[std::string(kBoundaryNames[boundary]) + std::to_string(dims) + "D"];
            if (walk == 2) current = randomStep(current);
            CAPTURE(dims);
            CAPTURE(radius);
            CAPTURE(depth);
            INFO(printProgram(current));
            checkSame(expected, interpret(current, sizes, inputs));
          }
        }
  // With a power grid zipped beside the windows: depth 2 in 2D, the rule
  // alone and after a random step.
  for (int boundary = Clamp; boundary <= Constant; ++boundary) {
    std::map<std::string, int64_t> sizes = extentsOf(2, 1, {11, 9});
    std::vector<Size> gridSizes = examples::gridSizes(2, 3);
    Expr grid = examples::gridInput("A", gridSizes), power = examples::gridInput("P", gridSizes);
    Program original =
        typeCheck(program({grid, power}, pointwiseStep(2, 1, Boundary(boundary),
                                                       pointwiseStep(2, 1, Boundary(boundary), grid, power), power)),
                  sizes);
    std::vector<Value> inputs = randomInputs(original, sizes, 5);
    Value expected = interpret(original, sizes, inputs);
    rewrite::Rule rule = rewrite::timeTileThroughLocal(2, {4, 3});
    for (int walk = 0; walk < 2; ++walk, ++walks) {
      Program current = original;
      if (walk == 1) {
        std::shuffle(rules.begin(), rules.end(), rng);
        for (const rewrite::Rule &r : rules)
          if (std::vector<std::string> at = rewrite::applicableLocations(current, r); !at.empty()) {
            current = rewrite::applyRule(current, r, at[rng() % at.size()]);
            break;
          }
      }
      std::vector<std::string> at = rewrite::applicableLocations(current, rule);
      if (at.empty()) continue;
      current = rewrite::applyRule(current, rule, at[rng() % at.size()]);
      ++applications["pointwise2D"];
      CAPTURE(std::string(kBoundaryNames[boundary]));
      INFO(printProgram(current));
      checkSame(expected, interpret(current, sizes, inputs));
    }
  }
  CHECK(applications["pointwise2D"] >= 4);
  std::string counts;
  for (const auto &[key, count] : applications) counts += " " + key + "=" + std::to_string(count);
  MESSAGE(walks, " walks;", counts);
  // (Deterministic: the counts change when the catalogue does.)
  for (const char *boundary : kBoundaryNames) {
    CAPTURE(std::string(boundary));
    CHECK(applications[std::string(boundary) + "2D"] >= 8);
    CHECK(applications[std::string(boundary) + "3D"] >= 2);
  }
}

TEST_CASE("timeTiledLocal: radius 1 to 4, every boundary, 2D and 3D, match the interpreter on the device") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant})
      for (int radius = 1; radius <= 4; ++radius) {
        // Depth 2 of 4 steps or depth 4 of 8 (2D, odd radii); the tiles
        // divide none of the extents (37 x 29; 11 x 10 x 9).
        const int64_t depth = dims == 2 && radius % 2 == 1 ? 4 : 2, steps = 2 * depth;
        std::map<std::string, int64_t> extents = extentsOf(dims, radius, oddExtents(dims));
        Program typed = typeCheck(iterated(dims, radius, Boundary(boundary), steps), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledLocal, oddTiles(dims, depth));
        codegen::Kernel kernel = kernelOf(lowered, dims, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(std::string(kBoundaryNames[boundary]));
        CAPTURE(radius);
        CAPTURE(kernel.source);
        // One host launch per time tile; `depth` local buffers (the input's
        // tile and each intermediate step's), a barrier after each.
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count == arith::Expr(steps / depth));
        CHECK(occurrences(kernel.source, "local float tile_") == depth);
        CHECK(occurrences(kernel.source, "barrier(CLK_LOCAL_MEM_FENCE)") >= depth);
        // Clamp and mirror compute each intermediate position from the
        // window at its source: an index computed as index arithmetic (its
        // offset is an affine function of generated positions), no user
        // function called for it.
        CHECK(kernel.source.find("timeTileSource") == std::string::npos);
        ++checked;
        checkOnDevice(context ? &*context : nullptr, typed, extents, kernel);
      }
  CHECK(checked == 32);
}

TEST_CASE("timeTiledLocal: a mirror beyond one reflection and depths beyond the count are refused with one line") {
  std::map<std::string, int64_t> extents = extentsOf(2, 1, {37, 29});
  // A window of 3 padded by 0 and 2 with mirror: a value 2 beyond the right
  // edge reflects to 2 inside, outside the last tile's buffer of step 1.
  {
    std::vector<Size> sizes = examples::gridSizes(2, 3);
    Expr grid = examples::gridInput("A", sizes);
    std::vector<examples::WeightedGroup> groups{{"0.5f", {examples::centre(2)}}, {"0.25f", {{1, 1}, {-1, 0}}}};
    Expr f = fn([&](Expr nbh) { return examples::weightedSum("asym", nbh, 1, groups); }, "nbh");
    auto asymmetric = [&](Expr x) { return mapN(2, f, slideN(2, 3, 1, padN(2, 0, 2, PadMode::Mirror, x))); };
    Program typed = typeCheck(program({grid}, iterate(4, fn(asymmetric, "x"), grid)), extents);
    try {
      rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledLocal, oddTiles(2, 2));
      FAIL("not refused");
    } catch (const rewrite::RewriteError &e) {
      std::string message = e.what();
      CHECK(message.find("a mirror boundary also needs pads of at most the grid's extent, a right pad at most the "
                         "left plus 1") != std::string::npos);
      CHECK(message.find('\n') == std::string::npos);
    }
  }
  // A depth beyond the count (one that does not divide it ends with a launch
  // of the steps left: tests/iterate_remainder_test.cpp).
  Program five = typeCheck(iterated(2, 1, Wrap, 5), extents);
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(five, rewrite::Recipe::TimeTiledLocal, oddTiles(2, 6)),
                       "time tile 6 is deeper than the iteration count 5", rewrite::RewriteError);
  // Not an iterate: nothing to time-tile.
  Program single = typeCheck(composed(2, 1, Wrap, 1), extents);
  CHECK_THROWS_AS(rewrite::applyRecipe(single, rewrite::Recipe::TimeTiledLocal, oddTiles(2, 2)), rewrite::RewriteError);
}

TEST_CASE("timeTiledLocal: a grid zipped beside the windows (the same every step), every boundary, on the device") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant})
      for (int radius : {1, 2}) {
        if (dims == 3 && radius == 2) continue;
        const int64_t depth = radius == 1 ? 3 : 2, steps = 2 * depth;
        std::map<std::string, int64_t> extents = extentsOf(dims, radius, oddExtents(dims));
        Program typed = typeCheck(iteratedPointwise(dims, radius, Boundary(boundary), steps), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledLocal, oddTiles(dims, depth));
        codegen::Kernel kernel = kernelOf(lowered, dims, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(std::string(kBoundaryNames[boundary]));
        CAPTURE(radius);
        CAPTURE(kernel.source);
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count == arith::Expr(steps / depth));
        // The power grid stays in global memory: read once per computed
        // position of each level, never copied to local memory.
        CHECK(occurrences(kernel.source, "local float tile_") == depth);
        CHECK(occurrences(kernel.source, "P[") == depth);
        ++checked;
        checkOnDevice(context ? &*context : nullptr, typed, extents, kernel);
      }
  CHECK(checked == 12);
  // A grid zipped beside the windows that changes from step to step (the
  // state itself, read at the centre) is not tiled.
  std::map<std::string, int64_t> extents = extentsOf(2, 1, {37, 29});
  std::vector<Size> sizes = examples::gridSizes(2, 3);
  Expr grid = examples::gridInput("A", sizes);
  Program itself = typeCheck(
      program({grid}, iterate(4, fn([&](Expr x) { return pointwiseStep(2, 1, Clamp, x, x); }, "x"), grid)), extents);
  CHECK_THROWS_AS(rewrite::applyRecipe(itself, rewrite::Recipe::TimeTiledLocal, oddTiles(2, 2)), rewrite::RewriteError);
}

TEST_CASE("timeTiledLocal: the CUDA kernels compile with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant})
      for (int radius : {1, 4}) {
        if (dims == 3 && radius > 1) continue;
        const int64_t depth = radius == 1 ? 2 : 4;
        std::map<std::string, int64_t> extents = extentsOf(dims, radius, oddExtents(dims));
        Program typed = typeCheck(iterated(dims, radius, Boundary(boundary), 2 * depth), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledLocal, oddTiles(dims, depth));
        checkCompilesWithBarriers(kernelOf(lowered, dims, codegen::Target::CUDA), *strict, "time_tile_local.cu");
        ++compiled;
      }
  CHECK(compiled == 12);
}

TEST_CASE("timeTiledLocal: the family is in the explored space and its strategies parse back") {
  std::map<std::string, int64_t> extents = extentsOf(2, 1, {37, 29});
  Program typed = typeCheck(iterated(2, 1, Constant, 4), extents);
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeTiled = options.includeLocal =
      options.includeCoarsened = options.includeVector = options.includeMapping = options.includeFused =
          options.includeTimeTiled = false;
  options.includeSpecialised = false;
  options.includeTimeTiledLocal = true;
  // 3 does not divide 4 (a tile of 3, then one step); 5 is beyond 4: left out.
  options.timeTiledLocalDepths = {2, 3, 4, 5};
  options.timeTiledLocalTiles = {{8, 4, 0}};
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.localMemoryBytes = 65536;
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  REQUIRE(!space.variants.empty());
  std::set<int64_t> depths;
  for (const explore::Variant &v : space.variants) {
    CHECK(explore::familyOf(v.configuration) == "timeTiledLocal");
    depths.insert(v.configuration.timeTile);
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    CHECK(text.find("stepsToLocal") != std::string::npos);
    explore::ParsedStrategy parsed = explore::parseStrategy(text);
    CHECK(parsed.configuration == v.configuration);
    explore::Variant rebuilt = explore::variantFromStrategy(typed, text);
    CHECK(rebuilt.kernel.source == v.kernel.source);
  }
  CHECK(depths == std::set<int64_t>{2, 3, 4});
  // The tile is the default launch shape; the widest buffer (the tile plus
  // every step's halo: 8+2D x 4+2D) is another, one pass a step.
  CHECK(space.variants.front().configuration.local == std::array<int64_t, 3>{8, 4, 1});
  std::set<std::array<int64_t, 3>> shapes;
  for (const explore::Variant &v : space.variants)
    if (v.configuration.timeTile == 2) shapes.insert(v.configuration.local);
  CHECK(shapes.count({12, 8, 1}) == 1);
  CHECK(explore::strategyText(space.variants.front()) ==
        "timeTile(2) ; tile(8,4) ; stepsToLocal ; mapWrg(x,y) ; wg(8,4)");
  // A clamp program has the same variants (before clamp was refused).
  Program clamp = typeCheck(iterated(2, 1, Clamp, 4), extents);
  CHECK(explore::enumerateSpace(clamp, limits, options).variants.size() == space.variants.size());
}

} // namespace liftcc
