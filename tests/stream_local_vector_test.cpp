// Streaming through local memory with vectors (rule vectorizeLocalOutputs,
// strategy `streamLocal(C) ; tile(X,Y) ; vectorize(W) ; mapWrg(..)`): each
// work-item computes W consecutive outputs of the plane along x as one
// vector, its taps read from the local ring (vloadN where the lanes are
// consecutive there) or from its register queue (the lanes' columns). The
// rule preserves semantics in random walks (interpreter); the kernels match
// the interpreter on the device for radius 1 to 4, every boundary, 2D and
// 3D, at sizes neither the plane tile, the chunk nor the width divides, with
// grids zipped beside the neighbourhoods (in place or slid); the
// CUDA C compiles with NVRTC with an empty log; the explorer's family has
// the vector variants, one work-item per vector; the refusals are one line.

#include "codegen/generate.h"
#include "core/ir/printer.h"
#include "examples/example.h"
#include "explore/families/family.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/rule.h"
#include "tests/kernel_text_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/stream_local_support.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <algorithm>
#include <random>
#include <set>

namespace liftcc {
namespace {

using namespace test::streams;
using test::occurrences;
using test::sizesFor;
using test::streamingLoop;

/// The 4 x 3 plane tile and chunk of 3 of oddTiles, the outputs as vectors of `width`.
rewrite::RecipeOptions oddVectorTiles(int64_t width) {
  rewrite::RecipeOptions options = oddTiles();
  options.vectorWidth = width;
  return options;
}

} // namespace

TEST_CASE("streamLocal vectors: random walks ending in vectorizeLocalOutputs preserve semantics (application counts)") {
  // Every 2D and 3D example streamed through local memory (inside an
  // earlier overlapped tiling in one walk of two), then its plane's outputs
  // vectorised by 2 or 4 wherever that applies: the interpreter computes
  // what the original computes.
  std::mt19937_64 rng(4242);
  std::map<std::string, int> applications;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims < 2) continue;
    // x extents of 8 (a multiple of both widths) and 12.
    std::map<std::string, int64_t> sizes =
        sizesFor(ex, ex.dims == 2 ? std::vector<int64_t>{9, 8} : std::vector<int64_t>{5, 6, 8});
    Program original = typeCheck(ex.build(), sizes);
    std::vector<Value> inputs = randomInputs(original, sizes, 5);
    Value expected = interpret(original, sizes, inputs);
    for (int walk = 0; walk < 2; ++walk) {
      Program current = original;
      if (walk == 1) {
        rewrite::Rule tiling = rewrite::overlappedTiling(ex.dims, 4);
        std::vector<std::string> at = rewrite::applicableLocations(current, tiling);
        if (at.empty()) continue;
        current = rewrite::applyRule(current, tiling, at[rng() % at.size()]);
      }
      rewrite::Rule stream = rewrite::streamPlanesThroughLocal(ex.dims);
      std::vector<std::string> streams = rewrite::applicableLocations(current, stream);
      if (streams.empty()) continue;
      current = rewrite::applyRule(current, stream, streams[rng() % streams.size()]);
      rewrite::Rule vectors = rewrite::vectorizeLocalOutputs(ex.dims - 1, rng() % 2 ? 2 : 4);
      std::vector<std::string> at = rewrite::applicableLocations(current, vectors);
      if (at.empty()) continue;
      current = rewrite::applyRule(current, vectors, at[rng() % at.size()]);
      ++applications[vectors.name];
      CAPTURE(ex.name);
      INFO(printProgram(current));
      checkSame(expected, interpret(current, sizes, inputs));
    }
  }
  MESSAGE("vectorizeLocalOutputs1D(2)=", applications["vectorizeLocalOutputs1D(2)"],
          " 1D(4)=", applications["vectorizeLocalOutputs1D(4)"], " 2D(2)=", applications["vectorizeLocalOutputs2D(2)"],
          " 2D(4)=", applications["vectorizeLocalOutputs2D(4)"]);
  // (Deterministic: the counts change when the examples or the seed do.)
  CHECK(applications["vectorizeLocalOutputs1D(2)"] + applications["vectorizeLocalOutputs1D(4)"] >= 4);
  CHECK(applications["vectorizeLocalOutputs2D(2)"] + applications["vectorizeLocalOutputs2D(4)"] >= 4);
  // The catalogue has it, and it needs windows of scalars (not a stream's
  // plane copy, a mapLcl of scalars) and a width dividing the x extent.
  CHECK(rewrite::findRule("vectorizeLocalOutputs1D(4)"));
  CHECK(rewrite::findRule("vectorizeLocalOutputs2D(4)"));
  const examples::Example &heat = examples::findExample("heat");
  Program streamed = rewrite::applyRecipe(typeCheck(heat.build(), sizesFor(heat, {13})), rewrite::Recipe::StreamLocal,
                                          oddTiles()); // a plane tile 4 wide
  CHECK(rewrite::applicableLocations(streamed, rewrite::vectorizeLocalOutputs(2, 4)).size() == 1);
  CHECK(rewrite::applicableLocations(streamed, rewrite::vectorizeLocalOutputs(2, 8)).empty());
}

TEST_CASE("streamLocal vectors: radius 1 to 4 with every boundary, in the ring and in the register queue") {
  auto context = ocl::test::testContext();
  // The 4 x 3 plane tile as one vector of 4 or two of 2 per row, on extents
  // (10 x 11 x 13) no tile, chunk or width divides: the last tile's surplus
  // lanes are stored one by one under their guards. Without a given
  // work-group size every tap is read from the ring (vload where its lanes
  // are consecutive); with one, each work-item's lanes keep their columns
  // in its register queue (the group covering the tile's vectors, or
  // narrower so that each work-item computes two vectors in 2D).
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary)
      for (int radius = 1; radius <= 4; ++radius) {
        const int64_t width = radius % 2 ? 4 : 2, vectorsPerRow = 4 / width;
        const bool queued = (radius + boundary) % 2 == 0;
        std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
        Program typed = typeCheck(radiusStencil(dims, radius, boundary), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddVectorTiles(width));
        codegen::CodegenOptions options;
        // 2D with two vectors a row: one work-item computing both.
        const int64_t groupX = dims == 2 && vectorsPerRow == 2 ? 1 : vectorsPerRow;
        if (queued) options.localSize = {groupX, dims == 3 ? 3 : 1, 1};
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
        CAPTURE(dims);
        CAPTURE(boundary);
        CAPTURE(radius);
        CAPTURE(width);
        CAPTURE(kernel.source);
        std::string loop = streamingLoop(kernel.source);
        REQUIRE(!loop.empty());
        const std::string vector = "float" + std::to_string(width);
        CHECK(loop.find("const " + vector + " vec_") != std::string::npos);
        if (queued) {
          // Each position's lanes, 2r+1 planes each.
          const int64_t positions = dims == 2 ? vectorsPerRow / groupX : 1;
          CHECK(kernel.source.find("float queue_0[" + std::to_string(positions * width * (2 * radius + 1)) + "];") !=
                std::string::npos);
          CHECK(occurrences(loop, "] = ring_0[") >= positions * width); // the refills
        } else {
          CHECK(kernel.source.find("queue_") == std::string::npos);
          CHECK(loop.find("vload" + std::to_string(width) + "(0, ring_0 + ") != std::string::npos);
        }
        ++checked;
        if (context) checkOnDevice(*context, typed, extents, kernel);
      }
  CHECK(checked == 32);
}

TEST_CASE("streamLocal vectors: grids zipped beside the neighbourhoods (read in place, or slid through rings)") {
  auto context = ocl::test::testContext();
  // A grid read at the output's position (Hotspot's power grid) is one
  // vector of its lanes, from global memory; two slid grids each give a
  // window of vectors from their own ring. Every boundary, 2D and 3D (each
  // form on every other boundary).
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary) {
      const bool slid = (boundary + dims) % 2 == 1;
      const int radius = dims == 2 ? 2 : 1;
      std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
      Program high = slid ? twoSlidStencil(dims, radius, boundary) : zippedRadiusStencil(dims, radius, boundary);
      Program typed = typeCheck(high, extents);
      Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddVectorTiles(2));
      codegen::CodegenOptions options;
      if (boundary % 2) options.localSize = {2, dims == 3 ? 3 : 1, 1};
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
      CAPTURE(dims);
      CAPTURE(boundary);
      CAPTURE(slid);
      CAPTURE(kernel.source);
      std::string loop = streamingLoop(kernel.source);
      REQUIRE(!loop.empty());
      CHECK(loop.find("const float2 vec_") != std::string::npos);
      CHECK(occurrences(kernel.source, "local float ring_") == (slid ? 2 : 1));
      // B's lanes read in place, in global memory (gathered: the partial
      // tile's clamps hide that they are consecutive).
      if (!slid) CHECK(loop.find("B[") != std::string::npos);
      ++checked;
      if (context) checkOnDevice(*context, typed, extents, kernel);
    }
  CHECK(checked == 8);
}

TEST_CASE("streamLocal vectors: stores are whole vectors where the tile is whole; iterated stencils stream vectors") {
  auto context = ocl::test::testContext();
  // Extents the plane tile and width divide: one vstore per output vector,
  // under the guard of the partial chunk its lanes share (6 planes in
  // chunks of 4).
  const examples::Example &heat = examples::findExample("heat");
  std::map<std::string, int64_t> even = sizesFor(heat, {6, 6, 16});
  Program typed = typeCheck(heat.build(), even);
  rewrite::RecipeOptions options;
  options.tileExtents = {8, 2, 0};
  options.streamChunk = 4;
  options.vectorWidth = 4;
  codegen::CodegenOptions group;
  group.localSize = {2, 2, 1};
  codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, options),
                                                   codegen::Target::OpenCL, group);
  CAPTURE(kernel.source);
  CHECK(occurrences(streamingLoop(kernel.source), "vstore4(") == 1);
  CHECK(kernel.requiresLocalSize);
  if (context) checkOnDevice(*context, typed, even, kernel);
  // An iterated 3D stencil: its step streamed with vectors, launched n times.
  Expr grid = examples::gridInput("A", examples::gridSizes(3, 3));
  Program iterated = program({grid}, iterate(
                                         3, [&](Expr x) { return radiusStencilOf(3, 1, 2, x); }, grid));
  std::map<std::string, int64_t> extents = oddExtents(3, 3);
  Program typedIterated = typeCheck(iterated, extents);
  codegen::Kernel steps = codegen::generateKernel(
      rewrite::applyRecipe(typedIterated, rewrite::Recipe::StreamLocal, oddVectorTiles(4)), codegen::Target::OpenCL);
  CAPTURE(steps.source);
  REQUIRE(steps.iteration);
  CHECK(steps.source.find("float4 vec_") != std::string::npos);
  if (context) checkOnDevice(*context, typedIterated, extents, steps);
}

TEST_CASE("streamLocal vectors: the CUDA kernels compile with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (const char *name : {"jacobi2d_5pt", "gaussian", "heat", "poisson", "jacobi3d_13pt", "hotspot3d", "hotspot2d"}) {
    const examples::Example &ex = examples::findExample(name);
    std::map<std::string, int64_t> sizes = sizesFor(ex, {13, 21, 22});
    Program lowered =
        rewrite::applyRecipe(typeCheck(ex.build(), sizes), rewrite::Recipe::StreamLocal, oddVectorTiles(4));
    for (bool queued : {false, true}) {
      codegen::CodegenOptions options;
      if (queued) options.localSize = {1, ex.dims == 3 ? 3 : 1, 1};
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::CUDA, options);
      CAPTURE(ex.name);
      CAPTURE(kernel.source);
      CHECK(kernel.source.find("liftcc_float4") != std::string::npos);
      CHECK((kernel.source.find("queue_") != std::string::npos) == queued);
      cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, ex.name + ".cu");
      CHECK(ptx.log.empty());
      CHECK(ptx.warnings.empty());
      CHECK(ptx.ptx.find("bar.sync") != std::string::npos);
      ++compiled;
    }
  }
  CHECK(compiled == 14);
}

TEST_CASE("streamLocal vectors: the family's vector variants, one work-item per vector; strategies parse back") {
  const examples::Example &heat = examples::findExample("heat");
  Program typed = typeCheck(heat.build(), sizesFor(heat, {13, 13, 40})); // x 40: the vector tiles fit
  explore::SpaceOptions options;
  for (bool *include : {&options.includePlain, &options.includeStream, &options.includeTiled, &options.includeLocal,
                        &options.includeCoarsened, &options.includeVector, &options.includeMapping,
                        &options.includeFused, &options.includeTimeTiled, &options.includeSpecialised})
    *include = false;
  options.includeStreamLocal = true;
  options.streamChunks = {4};
  options.streamTiles = {{8, 4, 0}, {6, 4, 0}};
  options.streamVectorWidths = {4};
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.localMemoryBytes = 65536;
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  std::set<std::string> vectorised;
  for (const explore::Variant &v : space.variants) {
    CHECK(explore::familyOf(v.configuration) == "streamLocal");
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    CHECK(explore::parseStrategy(text).configuration == v.configuration);
    CHECK(explore::variantFromStrategy(typed, text).kernel.source == v.kernel.source);
    if (v.configuration.vectorWidth == 0) continue;
    CHECK(v.kernel.source.find("float4") != std::string::npos);
    vectorised.insert(text);
  }
  // Each tile four times as wide in vectors of 4, launched with as many
  // work-items as the scalar tile (one per vector), and the halved shapes.
  CHECK(vectorised.count("streamLocal(4) ; tile(32,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(8,4)") == 1);
  CHECK(vectorised.count("streamLocal(4) ; tile(32,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(8,2)") == 1);
  CHECK(vectorised.count("streamLocal(4) ; tile(24,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(6,4)") == 1);
  explore::families::Parameters parameters = explore::families::findFamily("streamLocal")->parameters(options);
  CHECK(std::count(parameters.begin(), parameters.end(), std::pair<std::string, std::string>{"streamVector", "4"}) ==
        1);
}

TEST_CASE("streamLocal vectors: refusals are one line naming the cause") {
  // A plane tile the width does not divide; a user function that cannot
  // run lane-wise (a condition on a lane), with the type checker's reason.
  const examples::Example &heat = examples::findExample("heat");
  Program typed = typeCheck(heat.build(), sizesFor(heat, {13}));
  rewrite::RecipeOptions narrow = oddVectorTiles(8);
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, narrow),
                       doctest::Contains("streamLocal: cannot vectorise the plane's outputs by 8: needs windows of "
                                         "float or double scalars"),
                       rewrite::RewriteError);
  Expr grid = examples::gridInput("A", examples::gridSizes(2, 3));
  Expr positive = userFun("positive", {{"v", ScalarKind::Float}}, ScalarKind::Float, "return v > 0.0f ? v : 0.0f;");
  Program conditional =
      program({grid}, mapN(2, fn([&](Expr nbh) { return apply(positive, {at(1, at(0, nbh))}); }, "nbh"),
                           slideN(2, 3, 1, paddedBy(2, 1, 0, grid))));
  CHECK_THROWS_WITH_AS(
      rewrite::applyRecipe(typeCheck(conditional, oddExtents(2, 3)), rewrite::Recipe::StreamLocal, oddVectorTiles(4)),
      doctest::Contains("streamLocal: cannot vectorise the plane's outputs by 4: "), rewrite::RewriteError);
  CHECK_THROWS_WITH_AS(explore::parseStrategy("streamLocal(4) ; tile(8,4) ; vectorize(3) ; mapWrg(x,y,z)"),
                       doctest::Contains("expected a vector width 2, 4, 8 or 16 in vectorize, found '3'"),
                       explore::StrategyError);
}

} // namespace liftcc
