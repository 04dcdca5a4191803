// Temporal blocking through streaming (recipe timeTiledStream, rule
// timeTileThroughStream): each step of a time tile streams its planes
// through a local ring from the planes the step before produces. The rule
// preserves semantics in random walks; its kernels match the interpreter on
// the device at sizes no tile or chunk divides, radius 1 to 4, every boundary
// (clamp and mirror read planes beyond the grid from their sources), 2D and
// 3D, with a grid zipped beside the windows; the CUDA C compiles with NVRTC
// with an empty log; refusals are one line.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"
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

using namespace test::time_tiles;
using test::occurrences;

/// Plane tiles 8 (2D) or 4 x 3 (3D), x first, and chunks of 3 planes: none
/// divides the test extents.
rewrite::RecipeOptions oddTiles(int dims, int64_t depth) {
  rewrite::RecipeOptions options;
  options.tileExtents = dims == 2 ? std::array<int64_t, 3>{8, 0, 0} : std::array<int64_t, 3>{4, 3, 0};
  options.streamChunk = 3;
  options.timeTile = depth;
  return options;
}

codegen::Kernel kernelOf(const Program &lowered, int dims, codegen::Target target) {
  codegen::CodegenOptions options;
  options.localSize = dims == 2 ? std::array<int64_t, 3>{8, 1, 1} : std::array<int64_t, 3>{4, 3, 1};
  return codegen::generateKernel(lowered, target, options);
}

} // namespace

TEST_CASE("timeTiledStream: random walks ending in timeTileThroughStream preserve semantics (application counts)") {
  // Time tiles of depth 2 and 3 of 2D and 3D steps, radius 1 and 2, each
  // boundary, chunks of 2 planes and plane tiles of 4 (x 3); the rule alone,
  // after a random step of the algorithmic catalogue, and followed by one.
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::mt19937_64 rng(4444);
  std::map<std::string, int> applications;
  auto randomStep = [&](const Program &p) {
    std::shuffle(rules.begin(), rules.end(), rng);
    for (const rewrite::Rule &r : rules) {
      std::vector<std::string> at = rewrite::applicableLocations(p, r);
      if (!at.empty()) return rewrite::applyRule(p, r, at[rng() % at.size()]);
    }
    return p;
  };
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
          std::vector<int64_t> tile = dims == 2 ? std::vector<int64_t>{4, 2} : std::vector<int64_t>{4, 3, 2};
          rewrite::Rule rule = rewrite::timeTileThroughStream(depth, tile);
          for (int walk = 0; walk < 3; ++walk) {
            Program current = walk == 1 ? randomStep(original) : original;
            std::vector<std::string> at = rewrite::applicableLocations(current, rule);
            if (at.empty()) continue;
            current = rewrite::applyRule(current, rule, at[rng() % at.size()]);
            CHECK(containsNode(current.body(), [](const Expr &e) { return e.isPrim(Op::SlideSeq); }));
            ++applications[std::string(kBoundaryNames[boundary]) + std::to_string(dims) + "D"];
            if (walk == 2) current = randomStep(current);
            CAPTURE(std::string(kBoundaryNames[boundary]));
            CAPTURE(dims);
            CAPTURE(radius);
            CAPTURE(depth);
            INFO(printProgram(current));
            checkSame(expected, interpret(current, sizes, inputs));
          }
        }
  std::string counts;
  for (const auto &[key, count] : applications) counts += " " + key + "=" + std::to_string(count);
  MESSAGE("applications:", counts);
  for (const char *boundary : kBoundaryNames) {
    CAPTURE(std::string(boundary));
    CHECK(applications[std::string(boundary) + "2D"] >= 8);
    CHECK(applications[std::string(boundary) + "3D"] >= 2);
  }
}

TEST_CASE("timeTiledStream: radius 1 to 4, every boundary, 2D and 3D, match the interpreter on the device") {
  auto context = ocl::test::testContext();
  int checked = 0, ran = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant})
      for (int radius = 1; radius <= 4; ++radius) {
        // Odd radii: a depth that does not divide the steps (two tiles, then
        // one launch of the step left).
        const int64_t depth = radius == 1 ? 3 : 2, steps = 2 * depth + radius % 2;
        std::map<std::string, int64_t> extents = extentsOf(dims, radius, oddExtents(dims));
        Program typed = typeCheck(iterated(dims, radius, Boundary(boundary), steps), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledStream, oddTiles(dims, depth));
        codegen::Kernel kernel = kernelOf(lowered, dims, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(std::string(kBoundaryNames[boundary]));
        CAPTURE(radius);
        CAPTURE(kernel.source);
        // One ring per step (the input's planes and each intermediate
        // step's) in the tiles' kernel, and one in the kernel of the step left.
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count == arith::Expr(steps / depth + radius % 2));
        CHECK(kernel.iteration->phases.size() == (radius % 2 ? 2u : 0u));
        CHECK(occurrences(kernel.source, "local float ring_") == depth + radius % 2);
        // Clamp and mirror read planes beyond the grid from their sources,
        // slots and positions computed as index arithmetic.
        CHECK(kernel.source.find("timeTileSource") == std::string::npos);
        ++checked;
        ran += checkOnDevice(context ? &*context : nullptr, typed, extents, kernel);
      }
  CHECK(checked == 32);
  CHECK(ran == (context ? 32 : 0));
}

TEST_CASE("timeTiledStream: a grid zipped beside the windows (the same every step), every boundary, on the device") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant}) {
      std::map<std::string, int64_t> extents = extentsOf(dims, 1, oddExtents(dims));
      Program typed = typeCheck(iteratedPointwise(dims, 1, Boundary(boundary), 6), extents);
      Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledStream, oddTiles(dims, 3));
      codegen::Kernel kernel = kernelOf(lowered, dims, codegen::Target::OpenCL);
      CAPTURE(dims);
      CAPTURE(std::string(kBoundaryNames[boundary]));
      CAPTURE(kernel.source);
      // The power grid stays in global memory, read at each step's outputs.
      CHECK(occurrences(kernel.source, "local float ring_") == 3);
      CHECK(occurrences(kernel.source, "P[") >= 3);
      ++checked;
      checkOnDevice(context ? &*context : nullptr, typed, extents, kernel);
    }
  CHECK(checked == 8);
}

TEST_CASE("timeTiledStream: the CUDA kernels compile with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary : {Clamp, Mirror, Wrap, Constant})
      for (int radius : {1, 4}) {
        std::map<std::string, int64_t> extents = extentsOf(dims, radius, oddExtents(dims));
        Program typed = typeCheck(iterated(dims, radius, Boundary(boundary), 4), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledStream, oddTiles(dims, 2));
        checkCompilesWithBarriers(kernelOf(lowered, dims, codegen::Target::CUDA), *strict, "time_tile_stream.cu");
        ++compiled;
      }
  CHECK(compiled == 16);
}

TEST_CASE("timeTiledStream: a specialised CUDA interior reads every plane and position where it is") {
  // Clamp and mirror: the source offsets are index arithmetic, which the
  // interior's ranges prove 0; no clamp and no offset remains there.
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  for (int boundary : {Clamp, Mirror}) {
    std::map<std::string, int64_t> extents = extentsOf(3, 1, {20, 24, 40});
    Program typed = typeCheck(iterated(3, 1, Boundary(boundary), 4), extents);
    rewrite::RecipeOptions tiles = oddTiles(3, 2);
    tiles.tileExtents = {8, 4, 0};
    tiles.streamChunk = 4;
    codegen::CodegenOptions options;
    options.localSize = {8, 4, 1};
    options.specialiseBoundaries = true;
    codegen::Kernel kernel = codegen::generateKernel(
        rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledStream, tiles), codegen::Target::CUDA, options);
    CAPTURE(std::string(kBoundaryNames[boundary]));
    CAPTURE(kernel.source);
    REQUIRE(kernel.interior);
    const std::string interior = test::interiorOf(kernel.source);
    CHECK(interior.find("__syncthreads()") != std::string::npos);
    // The first step's input planes prefetched a step ahead (12x8 a plane: 3 a work-item).
    CHECK(interior.find("next_0[2]") != std::string::npos);
    CHECK(interior.find("min(") == std::string::npos);
    CHECK(interior.find("max(") == std::string::npos);
    if (!strict) continue;
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, "time_tile_stream_interior.cu");
    CHECK(ptx.log.empty());
  }
}

TEST_CASE("timeTiledStream: refusals are one line") {
  std::map<std::string, int64_t> extents = extentsOf(3, 1, oddExtents(3));
  Program typed = typeCheck(iterated(3, 1, Clamp, 4), extents);
  auto refusal = [&](const Program &p, const rewrite::RecipeOptions &options) {
    try {
      rewrite::applyRecipe(p, rewrite::Recipe::TimeTiledStream, options);
    } catch (const rewrite::RewriteError &e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      return std::string(e.what());
    }
    return std::string("not refused");
  };
  rewrite::RecipeOptions chunkless = oddTiles(3, 2);
  chunkless.streamChunk = 0;
  CHECK(refusal(typed, chunkless) == "timeTiledStream: the chunk must be at least 1 output plane, found 0");
  rewrite::RecipeOptions cube = oddTiles(3, 2);
  cube.tileExtents = {4, 3, 2};
  CHECK(refusal(typed, cube).find("the streamed dimension's is the chunk") != std::string::npos);
  // A 1D grid has no planes to stream.
  Program line = typeCheck(iterated(1, 1, Clamp, 4), extentsOf(1, 1, {40}));
  CHECK(refusal(line, oddTiles(2, 2)) == "timeTiledStream: the iterated array must have 2 to 3 dimensions");
  // Not an iterate: nothing to time-tile.
  Program single = typeCheck(composed(3, 1, Wrap, 1), extents);
  CHECK(refusal(single, oddTiles(3, 2)).find("only a program iterate(n, f, input)") != std::string::npos);
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, rewrite::Recipe::TimeTiledStream, oddTiles(3, 6)),
                       "time tile 6 is deeper than the iteration count 4", rewrite::RewriteError);
}

TEST_CASE("timeTiledStream: the family is in the explored space and its strategies parse back") {
  std::map<std::string, int64_t> extents = extentsOf(3, 1, {20, 12, 9});
  Program typed = typeCheck(iterated(3, 1, Mirror, 4), extents);
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeTiled = options.includeLocal =
      options.includeCoarsened = options.includeVector = options.includeMapping = options.includeFused =
          options.includeTimeTiled = false;
  options.includeSpecialised = false;
  options.includeTimeTiledStream = true;
  options.timeTiledStreamDepths = {2, 5}; // 5 is beyond 4: left out
  options.streamTiles = {{8, 4, 0}};
  options.streamChunks = {4};
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.localMemoryBytes = 65536;
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  REQUIRE(!space.variants.empty());
  for (const explore::Variant &v : space.variants) {
    CHECK(explore::familyOf(v.configuration) == "timeTiledStream");
    CHECK(v.configuration.timeTile == 2);
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    explore::ParsedStrategy parsed = explore::parseStrategy(text);
    CHECK(parsed.configuration == v.configuration);
    explore::Variant rebuilt = explore::variantFromStrategy(typed, text);
    CHECK(rebuilt.kernel.source == v.kernel.source);
  }
  // One work-item per output of the plane tile.
  CHECK(explore::strategyText(space.variants.front()) ==
        "timeTile(2) ; streamLocal(4) ; tile(8,4) ; stepsToLocal ; mapWrg(x,y,z) ; wg(8,4)");
}

} // namespace liftcc
