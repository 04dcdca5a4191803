// 2.5D streaming through local memory (recipe streamLocal, rule
// streamPlanesThroughLocal): the rule preserves semantics in random walks;
// its kernels (one work-group per chunk of planes and plane tile, each plane
// copied once into a local ring) match the interpreter on the device at
// sizes no tile or chunk divides, for radius 1 to 4 and every boundary, 2D
// and 3D, with inputs zipped beside the neighbourhoods (read in global
// memory at the output's position: Hotspot, Acoustic; or slid too, each
// through a ring of its own: SRAD2), and for iterated
// stencils (the host loop of a streamed step);
// their CUDA C compiles with NVRTC without a warning; the family is in the
// explored space and its strategies parse back.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "examples/stencil_helpers.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"
#include "tests/kernel_text_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/stream_local_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <random>
#include <set>

namespace liftcc {
namespace {

using namespace api;
using test::occurrences;
using test::sizesFor;
using test::streamingLoop;

using namespace test::streams;

} // namespace

TEST_CASE("streamLocal: random walks with the local streaming rules preserve semantics (application counts)") {
  // Short walks over the algorithmic catalogue, each ending in
  // streamPlanesThroughLocal2D/3D wherever it applies (also inside tiles of an
  // earlier tiling): every end point computes what the original computes.
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::vector<rewrite::Rule> streaming{rewrite::streamPlanesThroughLocal(2), rewrite::streamPlanesThroughLocal(3)};
  std::mt19937_64 rng(3333);
  std::map<std::string, int> applications;
  int walks = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims < 2) continue;
    std::map<std::string, int64_t> sizes =
        sizesFor(ex, ex.dims == 2 ? std::vector<int64_t>{9, 10} : std::vector<int64_t>{5, 6, 7});
    Program original = typeCheck(ex.build(), sizes);
    std::vector<Value> inputs = randomInputs(original, sizes, 5);
    Value expected = interpret(original, sizes, inputs);
    for (int walk = 0; walk < 3; ++walk, ++walks) {
      Program current = original;
      // One random step first (none in the first walk).
      for (int step = 0; step < walk; ++step) {
        std::shuffle(rules.begin(), rules.end(), rng);
        for (const rewrite::Rule &rule : rules) {
          std::vector<std::string> at = rewrite::applicableLocations(current, rule);
          if (at.empty()) continue;
          current = rewrite::applyRule(current, rule, at[rng() % at.size()]);
          break;
        }
      }
      bool streamed = false;
      for (const rewrite::Rule &rule : streaming) {
        std::vector<std::string> at = rewrite::applicableLocations(current, rule);
        if (at.empty()) continue;
        current = rewrite::applyRule(current, rule, at[rng() % at.size()]);
        ++applications[rule.name];
        if (ex.name == "hotspot2d" || ex.name == "hotspot3d" || ex.name == "acoustic" || ex.name == "srad2")
          ++applications["zipped"];
        streamed = true;
        break;
      }
      if (!streamed) continue;
      CAPTURE(ex.name);
      INFO(printProgram(current));
      checkSame(expected, interpret(current, sizes, inputs));
    }
  }
  MESSAGE(walks, " walks; streamPlanesThroughLocal2D=", applications["streamPlanesThroughLocal2D"],
          " streamPlanesThroughLocal3D=", applications["streamPlanesThroughLocal3D"],
          " with zipped inputs (hotspot2d, hotspot3d, acoustic, srad2)=", applications["zipped"]);
  // (Deterministic: the counts change when the catalogue or the examples do.)
  CHECK(applications["streamPlanesThroughLocal2D"] >= 5);
  CHECK(applications["streamPlanesThroughLocal3D"] >= 5);
  CHECK(applications["zipped"] >= 3);
  // The rule needs a 2D or 3D stencil.
  const examples::Example &j1 = examples::findExample("jacobi1d_3pt");
  Program oneD = typeCheck(j1.build(), sizesFor(j1, {19}));
  CHECK(rewrite::applicableLocations(oneD, rewrite::streamPlanesThroughLocal(2)).empty());
  // `liftc rewrite --rule` knows them.
  CHECK(rewrite::findRule("streamPlanesThroughLocal2D"));
  CHECK(rewrite::findRule("streamPlanesThroughLocal3D"));
}

TEST_CASE("streamLocal: the examples streamed through local memory match the interpreter on the device") {
  auto context = ocl::test::testContext();
  std::set<std::string> streamed;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims < 2) continue;
    CAPTURE(ex.name);
    // Extents neither the 4 x 3 plane tile nor the chunk of 3 divide.
    std::map<std::string, int64_t> sizes =
        sizesFor(ex, ex.dims == 2 ? std::vector<int64_t>{13, 21} : std::vector<int64_t>{7, 10, 11});
    Program typed = typeCheck(ex.build(), sizes);
    std::optional<Program> lowered;
    try {
      lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
    } catch (const rewrite::RewriteError &e) {
      MESSAGE(ex.name, " not streamed through local memory: ", std::string(e.what()));
      continue;
    }
    if (!containsNode(lowered->body(), [](const Expr &e) { return e.isPrim(Op::SlideSeq); })) continue;
    streamed.insert(ex.name);
    // The work-group's shape is the plane tile: the copies of the tile plus
    // halo loop over it.
    codegen::CodegenOptions options;
    options.localSize = {4, ex.dims == 3 ? 3 : 1, 1};
    codegen::Kernel kernel = codegen::generateKernel(*lowered, codegen::Target::OpenCL, options);
    CAPTURE(kernel.source);
    std::string loop = streamingLoop(kernel.source);
    REQUIRE(!loop.empty());
    CHECK(kernel.dims == ex.dims);
    // Per step one plane loaded (one copy) into a slot the step before did
    // not read (a ring of 2r+2 planes), one barrier; before the loop, the
    // first 2r planes.
    CHECK(occurrences(loop, "barrier(CLK_LOCAL_MEM_FENCE)") == 1);
    CHECK(occurrences(loop, "ring_0[") >= 2);
    // On the device: one example per window shape (PoCL builds dominate the time).
    const std::set<std::string> run{"jacobi2d_9pt", "gaussian",  "heat",     "jacobi3d_13pt",
                                    "poisson",      "hotspot3d", "acoustic", "srad2"};
    if (!context || !run.count(ex.name)) continue;
    checkOnDevice(*context, typed, sizes, kernel);
  }
  for (const char *name : {"jacobi2d_5pt", "jacobi2d_9pt", "gaussian", "heat", "jacobi3d_7pt", "jacobi3d_13pt",
                           "poisson", "hotspot2d", "hotspot3d", "acoustic", "srad2"})
    CHECK_MESSAGE(streamed.count(name), name, " is not streamed through local memory");
  std::string names;
  for (const std::string &n : streamed) names += n + " ";
  MESSAGE("streamed through local memory: ", names);
}

TEST_CASE("streamLocal: radius 1 to 4 with clamp, mirror, wrap and constant boundaries match on the device") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary)
      for (int radius = 1; radius <= 4; ++radius) {
        Program high = radiusStencil(dims, radius, boundary);
        std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
        Program typed = typeCheck(high, extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(boundary);
        CAPTURE(radius);
        CAPTURE(kernel.source);
        CHECK(!streamingLoop(kernel.source).empty());
        // The ring holds 2r+2 planes of the tile plus halo: the window's
        // 2r+1 and the slot the next step loads into (one barrier a step).
        int64_t plane = (4 + 2 * radius) * (dims == 3 ? 3 + 2 * radius : 1);
        CHECK(kernel.source.find("ring_0[" + std::to_string((2 * radius + 2) * plane) + "]") != std::string::npos);
        CHECK(occurrences(streamingLoop(kernel.source), "barrier(CLK_LOCAL_MEM_FENCE)") == 1);
        ++checked;
        if (!context) continue;
        checkOnDevice(*context, typed, extents, kernel);
      }
  CHECK(checked == 32);
}

TEST_CASE(
    "streamLocal: grids zipped beside the neighbourhoods (in global memory, or slid through rings of their own)") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary)
      for (int radius : {1, 3}) {
        if (dims == 3 && radius == 3 && boundary != 0) continue; // 3D radius 3: clamp only (PoCL builds)
        std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
        Program typed = typeCheck(zippedRadiusStencil(dims, radius, boundary), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(boundary);
        CAPTURE(radius);
        CAPTURE(kernel.source);
        std::string loop = streamingLoop(kernel.source);
        REQUIRE(!loop.empty());
        // A's planes through the ring (2r+2 of them), B read once per output.
        int64_t plane = (4 + 2 * radius) * (dims == 3 ? 3 + 2 * radius : 1);
        CHECK(kernel.source.find("ring_0[" + std::to_string((2 * radius + 2) * plane) + "]") != std::string::npos);
        CHECK(occurrences(loop, "B[") == 1);
        ++checked;
        if (!context) continue;
        checkOnDevice(*context, typed, extents, kernel);
      }
  CHECK(checked == 13);
  // Two slid grids, each through a local ring of its own.
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary) {
      const int radius = dims == 2 ? 1 : 2;
      if (dims == 3 && boundary != 1) continue; // 3D: mirror, radius 2
      std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
      Program typed = typeCheck(twoSlidStencil(dims, radius, boundary), extents);
      Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      CAPTURE(dims);
      CAPTURE(boundary);
      CAPTURE(kernel.source);
      CHECK(occurrences(kernel.source, "local float ring_") == 2);
      if (context) checkOnDevice(*context, typed, extents, kernel);
    }
}

TEST_CASE("streamLocal: an iterated stencil streams each step through local memory, launched n times") {
  auto context = ocl::test::testContext();
  // (dims, radius, boundary): every boundary, radius 1 and 2, 2D and 3D.
  for (auto [dims, radius, boundary] : {std::array{3, 1, 0}, std::array{3, 2, 1}, std::array{3, 1, 2},
                                        std::array{3, 1, 3}, std::array{2, 2, 0}, std::array{2, 1, 2}}) {
    CAPTURE(dims);
    CAPTURE(radius);
    CAPTURE(boundary);
    Expr grid = examples::gridInput("A", examples::gridSizes(dims, 2 * radius + 1));
    Program high = program({grid}, iterate(
                                       3, [&](Expr x) { return radiusStencilOf(dims, radius, boundary, x); }, grid));
    std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
    Program typed = typeCheck(high, extents);
    codegen::Kernel kernel = codegen::generateKernel(
        rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles()), codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    REQUIRE(kernel.iteration);
    CHECK(kernel.iteration->count == arith::Expr(3)); // the host loop: one streamed step per launch
    CHECK(!streamingLoop(kernel.source).empty());
    CHECK(kernel.source.find("local float ring_0[") != std::string::npos);
    if (!context) continue;
    checkOnDevice(*context, typed, extents, kernel);
  }
}

TEST_CASE("streamLocal: each work-item keeps its column along the streamed dimension in a register queue") {
  auto context = ocl::test::testContext();
  // Where each work-item owns the same output positions of the plane tile
  // at every step (the work-group size given, and per dimension covering
  // the tile or dividing it), the column of 2r+1 values at each is a
  // private queue: read there, not from the ring, refilled from the ring
  // once a step and rotated. Radius 1 to 4, every boundary, 2D and 3D,
  // sizes the 4 x 3 tile and the chunk of 3 do not divide; the work-group
  // the tile, wider (work-items without an output skip the refill), or 2 x 1
  // (each work-item owns 2 x 3 positions in 3D, 2 in 2D: the outputs' mapLcl
  // as one copy per position, each with its queue).
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary)
      for (int radius = 1; radius <= 4; ++radius) {
        std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
        Program typed = typeCheck(radiusStencil(dims, radius, boundary), extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
        codegen::CodegenOptions options;
        const int shape = (radius + boundary) % 3; // 0: the tile, 1: wider, 2: 2 x 1
        const std::array<std::array<int64_t, 3>, 3> groups{
            {{4, dims == 3 ? 3 : 1, 1}, {8, dims == 3 ? 4 : 1, 1}, {2, 1, 1}}};
        options.localSize = groups[static_cast<size_t>(shape)];
        const int64_t positions = shape == 2 ? (dims == 3 ? 6 : 2) : 1, n = 2 * radius + 1;
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
        CAPTURE(dims);
        CAPTURE(boundary);
        CAPTURE(radius);
        CAPTURE(shape);
        CAPTURE(kernel.source);
        REQUIRE(kernel.source.find("float queue_0[" + std::to_string(positions * n) + "];") != std::string::npos);
        CHECK(kernel.requiresLocalSize);
        std::string loop = streamingLoop(kernel.source);
        // Per position: the star's 2r off-plane taps and the centre read in
        // the queue, the refill of its last slot, the rotation of 2r values.
        CHECK(occurrences(loop, "queue_0[") >= positions * (n + 1 + 4 * radius));
        for (int64_t p = 0; p < positions; ++p)
          CHECK(occurrences(loop, "queue_0[" + std::to_string(p * n + n - 1) + "] = ring_0[") == 1);
        CHECK((loop.find("get_local_id(0) < 4") != std::string::npos) == (shape == 1));
        // No loop over the outputs: one position per work-item where the
        // group covers the tile (guarded where it is wider), copies where
        // each work-item owns several.
        CHECK(loop.find("for (int lid0_") == std::string::npos);
        ++checked;
        if (context) checkOnDevice(*context, typed, extents, kernel);
      }
  CHECK(checked == 32);
  {
    // Rings beyond kMaxOneBarrierRingBytes keep the window's 2r+1 planes and
    // two barriers a step: radius 4 in 2D, rows of 1024 outputs (1032 floats
    // with halo; ten would take 41,280 bytes).
    std::vector<Size> sizes = examples::gridSizes(2, 9);
    std::map<std::string, int64_t> extents{{sizes[0].varName(), 10}, {sizes[1].varName(), 11}};
    Program typed = typeCheck(radiusStencil(2, 4, 0), extents);
    rewrite::RecipeOptions wide = oddTiles();
    wide.tileExtents = {1024, 0, 0};
    codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, wide),
                                                     codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    CHECK(kernel.source.find("local float ring_0[" + std::to_string(9 * 1032) + "]") != std::string::npos);
    CHECK(occurrences(streamingLoop(kernel.source), "barrier(CLK_LOCAL_MEM_FENCE)") == 2);
    if (context) checkOnDevice(*context, typed, extents, kernel);
  }
  // A grid zipped beside the neighbourhoods, two slid grids (a queue each).
  for (int dims = 2; dims <= 3; ++dims) {
    std::map<std::string, int64_t> extents = oddExtents(dims, 3);
    codegen::CodegenOptions options;
    options.localSize = {4, dims == 3 ? 3 : 1, 1};
    for (const Program &high : {zippedRadiusStencil(dims, 1, 1), twoSlidStencil(dims, 1, 2)}) {
      Program typed = typeCheck(high, extents);
      codegen::Kernel kernel = codegen::generateKernel(
          rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles()), codegen::Target::OpenCL, options);
      CAPTURE(kernel.source);
      CHECK(occurrences(kernel.source, "float queue_") == occurrences(kernel.source, "local float ring_"));
      if (context) checkOnDevice(*context, typed, extents, kernel);
    }
  }
  // Without a given work-group size (the launch's default is not known to
  // the generator), or one that does not divide the tile (a work-item's
  // positions would differ between work-items): the ring only.
  std::map<std::string, int64_t> extents = oddExtents(3, 3);
  Program typed = typeCheck(radiusStencil(3, 1, 0), extents);
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
  codegen::CodegenOptions narrow;
  narrow.localSize = {3, 3, 1};
  for (const codegen::CodegenOptions &options : {codegen::CodegenOptions{}, narrow}) {
    codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
    CAPTURE(kernel.source);
    CHECK(kernel.source.find("queue_") == std::string::npos);
    CHECK(kernel.requiresLocalSize == (options.localSize[0] > 0)); // the copy spread over the group
    if (context) checkOnDevice(*context, typed, extents, kernel);
  }
}

TEST_CASE("streamLocal: with the work-group size given, the plane copy is spread over it and prefetched") {
  auto context = ocl::test::testContext();
  // Each work-item copies every F-th scalar of the tile plus halo (F the
  // work-items of the group), the next step's plane read into registers
  // while the step computes and stored into the ring at the next step.
  // Sizes neither the tile nor the chunk divide; work-groups whose size
  // does or does not divide the plane.
  for (int dims = 2; dims <= 3; ++dims)
    for (int radius : {1, 2, 4}) {
      std::map<std::string, int64_t> extents = oddExtents(dims, 2 * radius + 1);
      Program typed = typeCheck(radiusStencil(dims, radius, radius % 4), extents);
      Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles());
      codegen::CodegenOptions options;
      options.localSize = {4, dims == 3 ? 3 : 1, 1};
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL, options);
      CAPTURE(dims);
      CAPTURE(radius);
      CAPTURE(kernel.source);
      const int64_t plane = (4 + 2 * radius) * (dims == 3 ? 3 + 2 * radius : 1);
      const int64_t items = dims == 3 ? 12 : 4, perItem = (plane + items - 1) / items;
      const std::string loop = streamingLoop(kernel.source);
      CHECK(kernel.source.find("int item_0 = ") != std::string::npos);
      if (perItem <= 16) {
        // Stored from the registers, fetched for the next step, no copy loop.
        CHECK(kernel.source.find("float next_0[" + std::to_string(perItem) + "];") != std::string::npos);
        CHECK(occurrences(loop, "] = next_0[") == perItem);
        CHECK(occurrences(loop, "next_0[" + std::to_string(perItem - 1) + "] = ") == 1);
      } else {
        CHECK(kernel.source.find("next_0") == std::string::npos);
      }
      CHECK(loop.find("for (int lid0_0") == loop.rfind("for (int lid0_")); // the outputs' loop only
      if (context) checkOnDevice(*context, typed, extents, kernel);
    }
  // Windows advancing by two planes: two planes copied a step, not prefetched.
  std::vector<Size> sizes = examples::gridSizes(2, 3);
  std::map<std::string, int64_t> extents{{sizes[0].varName(), 10}, {sizes[1].varName(), 11}};
  Expr grid = examples::gridInput("A", sizes);
  Expr f = fn([&](Expr nbh) { return examples::weightedSum("s2", nbh, 1, starGroups(2, 1)); }, "nbh");
  Program typed =
      typeCheck(program({grid}, mapN(2, f, slideN(2, 3, 2, padN(2, 1, 1, PadMode::Mirror, grid)))), extents);
  codegen::CodegenOptions options;
  options.localSize = {4, 1, 1};
  codegen::Kernel kernel = codegen::generateKernel(
      rewrite::applyRecipe(typed, rewrite::Recipe::StreamLocal, oddTiles()), codegen::Target::OpenCL, options);
  CAPTURE(kernel.source);
  CHECK(kernel.source.find("int item_0 = ") != std::string::npos);
  CHECK(kernel.source.find("next_") == std::string::npos);
  if (context) checkOnDevice(*context, typed, extents, kernel);
}

TEST_CASE("streamLocal: the CUDA kernels compile with NVRTC; Heat 256^3 loads fewer values per store than stream") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (const char *name : {"jacobi2d_5pt", "gaussian", "heat", "poisson", "jacobi3d_13pt", "hotspot3d", "acoustic"}) {
    const examples::Example &ex = examples::findExample(name);
    std::map<std::string, int64_t> sizes = sizesFor(ex, {13, 21, 22});
    Program lowered = rewrite::applyRecipe(typeCheck(ex.build(), sizes), rewrite::Recipe::StreamLocal, oddTiles());
    codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::CUDA);
    CAPTURE(ex.name);
    CAPTURE(kernel.source);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, ex.name + ".cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
    CHECK(ptx.ptx.find("bar.sync") != std::string::npos);
    ++compiled;
  }
  CHECK(compiled == 7);
  // The global loads and stores in the PTX of Heat at 256^3: the old stream
  // family (a private window per work-item) against streamLocal (32 x 4 plane
  // tiles, chunks of 32 planes).
  const examples::Example &heat = examples::findExample("heat");
  Program typed = typeCheck(heat.build(), sizesFor(heat, {256}));
  auto counts = [&](rewrite::Recipe recipe, const rewrite::RecipeOptions &options) {
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, recipe, options), codegen::Target::CUDA);
    std::string ptx = cuda::compileToPtx(kernel.source, *strict, "heat.cu").ptx;
    return std::pair{occurrences(ptx, "ld.global"), occurrences(ptx, "st.global")};
  };
  rewrite::RecipeOptions planes;
  planes.tileExtents = {32, 4, 0};
  planes.streamChunk = 32;
  auto [streamLoads, streamStores] = counts(rewrite::Recipe::Stream, {});
  auto [localLoads, localStores] = counts(rewrite::Recipe::StreamLocal, planes);
  MESSAGE("Heat 256^3 PTX: stream ", streamLoads, " ld.global / ", streamStores, " st.global; streamLocal ", localLoads,
          " ld.global / ", localStores, " st.global");
  CHECK(localLoads < streamLoads);
  CHECK(localStores >= 1);
}

TEST_CASE("streamLocal: the family is in the explored space and its strategies parse back") {
  const examples::Example &heat = examples::findExample("heat");
  Program typed = typeCheck(heat.build(), sizesFor(heat, {13}));
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeTiled = options.includeLocal =
      options.includeCoarsened = options.includeVector = options.includeMapping = options.includeFused =
          options.includeTimeTiled = false;
  options.includeSpecialised = false;
  options.includeStreamLocal = true;
  options.streamChunks = {4, 8};
  options.streamTiles = {{8, 4, 0}};
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.localMemoryBytes = 65536;
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  REQUIRE(!space.variants.empty());
  std::set<int64_t> chunks;
  for (const explore::Variant &v : space.variants) {
    CHECK(explore::familyOf(v.configuration) == "streamLocal");
    chunks.insert(v.configuration.streamChunk);
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    CHECK(text.rfind("streamLocal(", 0) == 0);
    explore::ParsedStrategy parsed = explore::parseStrategy(text);
    CHECK(parsed.configuration == v.configuration);
    explore::Variant rebuilt = explore::variantFromStrategy(typed, text);
    CHECK(rebuilt.kernel.source == v.kernel.source);
    CHECK(rebuilt.kernel.localSize == v.kernel.localSize);
  }
  CHECK(chunks == std::set<int64_t>{4, 8});
  // The plane tile is the default launch shape.
  CHECK(space.variants.front().configuration.local == std::array<int64_t, 3>{8, 4, 1});
  CHECK(explore::strategyText(space.variants.front()) == "streamLocal(4) ; tile(8,4) ; mapWrg(x,y,z) ; wg(8,4)");
  // A 2D program streams rows of streamRows outputs (groups of as many
  // work-items), not the 3D plane tiles' x extents.
  const examples::Example &jacobi = examples::findExample("jacobi2d_5pt");
  options.streamRows = {128, 256};
  options.streamVectorWidths = {};
  explore::Space rows = explore::enumerateSpace(typeCheck(jacobi.build(), sizesFor(jacobi, {300})), limits, options);
  std::set<int64_t> rowTiles, groupsX;
  for (const explore::Variant &v : rows.variants) {
    rowTiles.insert(v.configuration.tile);
    groupsX.insert(v.configuration.local[0]);
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    CHECK(explore::parseStrategy(text).configuration == v.configuration);
  }
  CHECK(rowTiles == std::set<int64_t>{128, 256});
  CHECK(groupsX == std::set<int64_t>{64, 128, 256}); // each row tile and its half
  CHECK_THROWS_WITH_AS(explore::parseStrategy("streamLocal(4) ; mapWrg(x,y,z)"),
                       doctest::Contains("expected 'tile' after streamLocal"), explore::StrategyError);
}

} // namespace liftcc
