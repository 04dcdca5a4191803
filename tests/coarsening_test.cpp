// Thread coarsening / register blocking: overlapped tiling with per-dimension
// extents, the tiles on global work-items, each tile's outputs computed
// sequentially by one work-item from a private copy of its window.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/configuration.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/recipes.h"
#include "tests/kernel_text_support.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <cctype>
#include <set>

namespace liftcc {
namespace {

using Factors = std::array<int64_t, 3>;

using test::sizesFor;

/// The output extents, outermost first.
std::vector<int64_t> outputExtents(const Program &typed) {
  std::vector<int64_t> extents;
  for (Type t = typed.body().typeOrThrow(); t.isArray(); t = t.arrayElement())
    extents.push_back(t.arrayLength().constant());
  return extents;
}

/// Loads of input `name` in a kernel's source (`name[` as a whole word).
size_t loadsOf(const std::string &source, const std::string &name) {
  auto identifierChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  size_t loads = 0;
  for (size_t at = source.find(name + "["); at != std::string::npos; at = source.find(name + "[", at + 1))
    loads += at == 0 || !identifierChar(source[at - 1]);
  return loads;
}

/// The examples whose only input is the grid the stencil slides over.
bool singleInput(const examples::Example &ex) { return ex.build().inputs().size() == 1; }

/// Window extent per dimension of the examples' stencils: their neighbourhood
/// size (every example slides with step 1).
int64_t windowSize(const Program &typed) {
  int64_t size = 0;
  std::function<void(const Expr &)> visit = [&](const Expr &e) {
    if (e.isPrim(Op::Slide)) size = std::max(size, slideSize(e).constant());
    for (const Child &c : e.children()) visit(*c.expr);
  };
  visit(typed.body());
  return size;
}

struct CoarsenedKernel {
  Program lowered;
  codegen::Kernel kernel;
};

CoarsenedKernel coarsened(const Program &typed, const Factors &factors, bool privateWindow,
                          codegen::Target target = codegen::Target::OpenCL) {
  rewrite::RecipeOptions options;
  options.coarsen = factors;
  options.privateWindow = privateWindow;
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Coarsened, options);
  return {lowered, codegen::generateKernel(lowered, target)};
}

bool containsOp(const Expr &e, Op op) {
  return containsNode(e, [op](const Expr &n) { return n.isPrim(op); });
}

} // namespace

TEST_CASE("coarsening: per-dimension tiling with equal extents is the existing rule, name and result") {
  api::Size n = api::size("N"), m = api::size("M");
  Expr a = api::input("A", array(f32(), n, m));
  CHECK(rewrite::slideNPerDimension({3, 3}, {1, 1}, a) == api::slideN(2, 3, 1, a));
  CHECK(rewrite::overlappedTiling(std::vector<int64_t>{8, 8}).name == "overlappedTiling2D(8)");
  CHECK(rewrite::overlappedTiling(std::vector<int64_t>{8, 1}).name == "overlappedTiling2D(8,1)");
  CHECK(rewrite::overlappedTiling(std::vector<int64_t>{1, 1, 4}).name == "overlappedTiling3D(1,1,4)");
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  Program typed = typeCheck(ex.build(), {{"N", 16}, {"M", 32}});
  Program old = rewrite::applyRule(typed, rewrite::overlappedTiling(2, 4), "/body");
  Program perDimension = rewrite::applyRule(typed, rewrite::overlappedTiling(std::vector<int64_t>{4, 4}), "/body");
  CHECK(old.body().hash() == perDimension.body().hash());
  // Extents (8, 1): 8 outputs along x, one along y, same results.
  Program wide = rewrite::applyRule(typed, rewrite::overlappedTiling(std::vector<int64_t>{8, 1}), "/body");
  std::vector<Value> inputs = randomInputs(typed, {{"N", 16}, {"M", 32}}, 3);
  auto mismatch = compareValues(interpret(typed, {{"N", 16}, {"M", 32}}, inputs),
                                interpret(wide, {{"N", 16}, {"M", 32}}, inputs), {0, 0});
  CHECK_MESSAGE(!mismatch, *mismatch);
  // 3 does not divide the 16 rows: a partial last tile, same results.
  Program partial = rewrite::applyRule(typed, rewrite::overlappedTiling(std::vector<int64_t>{1, 3}), "/body");
  mismatch = compareValues(interpret(typed, {{"N", 16}, {"M", 32}}, inputs),
                           interpret(partial, {{"N", 16}, {"M", 32}}, inputs), {0, 0});
  CHECK_MESSAGE(!mismatch, *mismatch);
  CHECK(rewrite::findRule("overlappedTiling2D(4,1)"));
  CHECK(rewrite::findRule("privateCopy2D"));
  CHECK(rewrite::findRule("privateCopy3D"));
}

TEST_CASE("coarsening: every example coarsened along each dimension, with and without the private window, matches on "
          "the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int ran = 0, variants = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    std::vector<int64_t> extents = ex.dims == 1   ? std::vector<int64_t>{32}
                                   : ex.dims == 2 ? std::vector<int64_t>{16, 24}
                                                  : std::vector<int64_t>{8, 8, 12};
    std::map<std::string, int64_t> sizes = sizesFor(ex, extents);
    Program typed = typeCheck(ex.build(), sizes);
    std::vector<int64_t> out = outputExtents(typed);
    // Every variant of the example is checked against one interpreter result.
    std::vector<Value> inputs;
    Value expected;
    if (context) {
      inputs = randomInputs(typed, sizes, 5);
      expected = interpret(typed, sizes, inputs);
    }
    // Along x by 2 and 4, along the outermost dimension by 4, and along every
    // dimension at once.
    std::vector<Factors> choices{{2, 1, 1}, {4, 1, 1}};
    if (ex.dims == 2) choices.insert(choices.end(), {{1, 4, 1}, {2, 2, 1}});
    if (ex.dims == 3) choices.insert(choices.end(), {{1, 1, 4}, {2, 2, 2}});
    for (const Factors &k : choices)
      for (bool privateWindow : {true, false}) {
        CAPTURE(ex.name);
        CAPTURE(k);
        CAPTURE(privateWindow);
        CoarsenedKernel c = coarsened(typed, k, privateWindow);
        ++variants;
        CAPTURE(c.kernel.source);
        // k outputs per work-item: the NDRange is the output extent over k.
        REQUIRE(c.kernel.dims == ex.dims);
        CHECK_FALSE(c.kernel.localSize.has_value());
        for (int d = 0; d < ex.dims; ++d) {
          REQUIRE(c.kernel.globalSize[d].isConstant());
          CHECK(c.kernel.globalSize[d].constant() ==
                out[static_cast<size_t>(ex.dims - 1 - d)] / k[static_cast<size_t>(d)]);
        }
        CHECK(containsOp(c.lowered.body(), Op::MapSeqUnroll));
        CHECK(containsOp(c.lowered.body(), Op::ToPrivate) == privateWindow);
        CHECK((c.kernel.source.find("priv_") != std::string::npos) == privateWindow);
        if (singleInput(ex)) {
          // Each element of the window is loaded once: (k*s + n - s) per dimension.
          const std::string input = typed.inputs().front().name();
          int64_t n = windowSize(typed), window = 1, outputs = 1;
          for (int d = 0; d < ex.dims; ++d) {
            window *= k[static_cast<size_t>(d)] + n - 1;
            outputs *= k[static_cast<size_t>(d)];
          }
          if (privateWindow) CHECK(loadsOf(c.kernel.source, input) == static_cast<size_t>(window));
          // Without the copy every output loads its neighbours itself.
          else
            CHECK(loadsOf(c.kernel.source, input) > static_cast<size_t>(outputs));
        }
        if (!context) continue;
        tuner::OpenCLKernelRunner runner(*context, c.kernel);
        auto mismatch =
            compareValues(expected, runner.run(sizes, inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
        ++ran;
      }
  }
  MESSAGE(variants, " coarsened variants generated, ", ran, " run on the device");
  CHECK(variants == 4 + 14 * 8); // one 1D example (2 choices), fourteen 2D/3D ones (4 choices)
  if (context) CHECK(ran == variants);
}

TEST_CASE("coarsening: a sequential row of a wide stencil stays a loop rather than 1024 unrolled copies") {
  // mapGlb(y) leaves x sequential. Each output of a 7x7 box is a 49-tap
  // body: within the copy budget, its 1024 copies made 2 MB of CUDA C that
  // NVRTC compiled for minutes (an exploration stalled past its budget).
  const char *box = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 7}, {"name": "M", "min": 7}],
    "inputs": [{"name": "A", "type": "[[float]M]N"}],
    "body": {"op": "stencil", "name": "box7", "grids": {"A": {"constant": 1.5}},
             "body": "float s = 0.0f;\ns += A[-3][-3] + A[-3][-2] + A[-3][-1] + A[-3][0] + A[-3][1] + A[-3][2] + A[-3][3];\ns += A[-2][-3] + A[-2][-2] + A[-2][-1] + A[-2][0] + A[-2][1] + A[-2][2] + A[-2][3];\ns += A[-1][-3] + A[-1][-2] + A[-1][-1] + A[-1][0] + A[-1][1] + A[-1][2] + A[-1][3];\ns += A[0][-3] + A[0][-2] + A[0][-1] + A[0][0] + A[0][1] + A[0][2] + A[0][3];\ns += A[1][-3] + A[1][-2] + A[1][-1] + A[1][0] + A[1][1] + A[1][2] + A[1][3];\ns += A[2][-3] + A[2][-2] + A[2][-1] + A[2][0] + A[2][1] + A[2][2] + A[2][3];\ns += A[3][-3] + A[3][-2] + A[3][-1] + A[3][0] + A[3][1] + A[3][2] + A[3][3];\nreturn s / 49.0f;"}})";
  std::map<std::string, int64_t> sizes{{"N", 1024}, {"M", 1024}};
  Program typed = typeCheck(readProgram(box), sizes);
  explore::Variant v = explore::variantFromStrategy(typed, "mapGlb(y) ; wg(32)", codegen::Target::CUDA);
  CAPTURE(v.kernel.source.substr(0, 2000));
  CHECK(v.kernel.source.size() < 20000);
  CHECK(v.kernel.source.find("< 1024; ") != std::string::npos);
}

TEST_CASE("coarsening: CUDA C emits loops of more than 129 iterations as loops; OpenCL C keeps the copies") {
  // Jacobi 2D's sequential row (mapGlb(y)) is 20 IR nodes a copy, within the
  // node budget, so the rewrite unrolls it; at 1024 wide that was 115 KB of
  // CUDA C that NVRTC compiled for 14 s (0.05 s as a loop). PoCL runs such
  // copies faster than the loop, so OpenCL C keeps them.
  const examples::Example &jacobi = examples::findExample("jacobi2d_5pt");
  for (int64_t width : {129, 130, 1024}) {
    CAPTURE(width);
    std::map<std::string, int64_t> sizes{{"N", 64}, {"M", width}};
    Program typed = typeCheck(jacobi.build(), sizes);
    explore::Variant cuda = explore::variantFromStrategy(typed, "mapGlb(y) ; wg(32)", codegen::Target::CUDA);
    explore::Variant opencl = explore::variantFromStrategy(typed, "mapGlb(y) ; wg(32)", codegen::Target::OpenCL);
    CHECK(containsOp(cuda.lowered.body(), Op::MapSeqUnroll));
    const std::string loop = "< " + std::to_string(width) + "; ";
    CHECK((cuda.kernel.source.find(loop) != std::string::npos) == (width > 129));
    CHECK(opencl.kernel.source.find(loop) == std::string::npos);
  }
  // A coarsened block of 32 outputs (and its window) stays unrolled in CUDA C.
  Program grid = typeCheck(jacobi.build(), {{"N", 256}, {"M", 256}});
  explore::Variant coarsened =
      explore::variantFromStrategy(grid, "coarsen(x=32) ; privateWindow ; mapGlb(x,y)", codegen::Target::CUDA);
  CHECK(containsOp(coarsened.lowered.body(), Op::MapSeqUnroll));
  CHECK(coarsened.kernel.source.find("< 32; ") == std::string::npos);
}

TEST_CASE(
    "coarsening: a sequential dimension of coarsened blocks stays a loop rather than multiplying private windows") {
  // mapGlb(y) leaves x sequential: at 1024^2 a work-item walks 128 blocks of
  // 8 outputs, each with a 30-float private window. Unrolled, that was 128
  // arrays (3840 floats) per work-item, and PoCL crashed the exploration with
  // a stack overflow at its runtime's 512-work-item groups.
  std::map<std::string, int64_t> sizes{{"N", 1024}, {"M", 1024}};
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), sizes);
  explore::Variant v =
      explore::variantFromStrategy(typed, "coarsen(x=8) ; privateWindow ; mapGlb(y)", codegen::Target::OpenCL);
  CAPTURE(v.kernel.source);
  CHECK(v.kernel.source.find("< 128; ") != std::string::npos);
  size_t arrays = 0;
  for (size_t at = v.kernel.source.find("float priv_"); at != std::string::npos;
       at = v.kernel.source.find("float priv_", at + 1))
    ++arrays;
  CHECK(arrays == 1);
  CHECK(v.kernel.source.size() < 8000);
  // The window of one block is still unrolled (its 8 outputs and 30 loads).
  CHECK(containsOp(v.lowered.body(), Op::MapSeqUnroll));

  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  tuner::OpenCLKernelRunner runner(*context, v.kernel);
  std::vector<Value> inputs = randomInputs(typed, sizes, 9);
  auto mismatch = compareValues(interpret(typed, sizes, inputs),
                                runner.run(sizes, inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("coarsening: the private window copy is the rule privateCopy2D at the tile") {
  const examples::Example &ex = examples::findExample("gaussian");
  std::map<std::string, int64_t> sizes{{"N", 16}, {"M", 16}};
  Program typed = typeCheck(ex.build(), sizes);
  Program tiled = rewrite::applyRule(typed, rewrite::overlappedTiling(std::vector<int64_t>{4, 1}), "/body");
  std::vector<std::string> at = rewrite::applicableLocations(tiled, rewrite::privateCopy(2));
  REQUIRE_FALSE(at.empty());
  // Copying the tile (the argument of the per-tile slideN) preserves semantics.
  bool copiedTile = false;
  for (const std::string &loc : at) {
    Program copied = rewrite::applyRule(tiled, rewrite::privateCopy(2), loc);
    if (!containsOp(copied.body(), Op::ToPrivate)) continue;
    std::vector<Value> inputs = randomInputs(typed, sizes, 9);
    auto mismatch = compareValues(interpret(typed, sizes, inputs), interpret(copied, sizes, inputs), {0, 0});
    CHECK_MESSAGE(!mismatch, *mismatch);
    copiedTile = true;
    break;
  }
  CHECK(copiedTile);
}

TEST_CASE("coarsening: factors that do not divide the extent give a partial last tile; a missing dimension is refused "
          "clearly") {
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  Program typed = typeCheck(ex.build(), {{"N", 37}, {"M", 53}});
  // 53 columns by 8: 7 work-items along x, the last one's 3 surplus outputs
  // dropped (tests/partial_tiles_test.cpp runs these on the device).
  CoarsenedKernel partial = coarsened(typed, {8, 1, 1}, true);
  CHECK(partial.kernel.globalSize[0] == arith::Expr(7));
  CHECK(containsOp(partial.lowered.body(), Op::Take));
  Program even = typeCheck(ex.build(), {{"N", 16}, {"M", 16}});
  CHECK_THROWS_WITH_AS(coarsened(even, {2, 1, 2}, true), doctest::Contains("along dimension 2 but the output has 2"),
                       rewrite::RewriteError);
}

TEST_CASE("coarsening: the CUDA variants compile with NVRTC without warnings") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (const std::string name : {"jacobi1d_3pt", "jacobi2d_5pt", "gaussian", "hotspot2d", "heat", "acoustic"}) {
    const examples::Example &ex = examples::findExample(name);
    std::map<std::string, int64_t> sizes;
    for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 3 ? 16 : 32;
    Program typed = typeCheck(ex.build(), sizes);
    std::vector<Factors> choices{{8, 1, 1}};
    if (ex.dims > 1) choices.push_back(ex.dims == 2 ? Factors{1, 4, 1} : Factors{1, 1, 4});
    for (const Factors &k : choices)
      for (bool privateWindow : {true, false}) {
        codegen::Kernel kernel = coarsened(typed, k, privateWindow, codegen::Target::CUDA).kernel;
        CAPTURE(name);
        CAPTURE(kernel.source);
        cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, name + ".cu");
        CHECK(ptx.warnings.empty());
        CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
        ++compiled;
      }
  }
  CHECK(compiled == 22);
}

TEST_CASE("coarsening: configurations keep the other recipes' keys and JSON, and the space holds coarsened variants") {
  explore::Configuration plain;
  CHECK(plain.key() == "plain");
  CHECK(plain.toJson() == nlohmann::json{{"recipe", "plain"}, {"tile", 0}, {"local", {0, 0, 0}}});
  explore::Configuration local{rewrite::Recipe::Local, 8, {8, 8, 1}};
  CHECK(local.key() == "local tile=8 wg=8x8x1");
  CHECK(local.toJson() == nlohmann::json{{"recipe", "local"}, {"tile", 8}, {"local", {8, 8, 1}}});
  explore::Configuration c;
  c.recipe = rewrite::Recipe::Coarsened;
  c.coarsen = {1, 4, 1};
  c.local = {32, 2, 1};
  CHECK(c.key() == "coarsened k=1x4x1 wg=32x2x1");
  c.privateWindow = false;
  CHECK(c.key() == "coarsened k=1x4x1 window=global wg=32x2x1");
  CHECK(explore::Configuration::fromJson(c.toJson()) == c);

  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  Program typed = typeCheck(ex.build(), {{"N", 64}, {"M", 48}});
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.maxWorkItemSizes = {1024, 1024, 1024};
  limits.localMemoryBytes = 65536;
  // Without the mapping family, which remaps the coarsened programs too.
  explore::SpaceOptions without, with;
  without.includeCoarsened = false;
  without.includeMapping = with.includeMapping = false;
  without.includeVector = with.includeVector = false; // its coarsened programs are the vector family's
  explore::Space base = explore::enumerateSpace(typed, limits, without);
  explore::Space space = explore::enumerateSpace(typed, limits, with);
  std::set<std::string> coarsenings;
  for (const explore::Variant &v : space.variants) {
    if (v.configuration.recipe != rewrite::Recipe::Coarsened || v.configuration.specialise) continue;
    coarsenings.insert(v.configuration.key().substr(0, v.configuration.key().find(" wg=")));
    CHECK_FALSE(v.kernel.localSize.has_value()); // launched with the explorer's shapes (specialised twins fix theirs)
  }
  // {2, 4, 8} along x and along y: 6 programs.
  CHECK(coarsenings.size() == 6);
  CHECK(coarsenings.count("coarsened k=8x1x1") == 1);
  CHECK(coarsenings.count("coarsened k=1x2x1") == 1);
  MESSAGE("jacobi2d 64x48: ", base.variants.size(), " variants without coarsening, ", space.variants.size(), " with");
  CHECK(space.variants.size() <= 2 * base.variants.size());
  CHECK(space.distinctPrograms == base.distinctPrograms + 6);
}

TEST_CASE("coarsening: the explorer launches coarsened programs with wide rows") {
  // Heat at 64^3, coarsened along x by 8: 8 work-items per row, so rows of 8
  // (the whole extent); by 2: 32 of them, rows of 32. At most 256 in all.
  const examples::Example &ex = examples::findExample("heat");
  Program typed = typeCheck(ex.build(), {{"O", 64}, {"N", 64}, {"M", 64}});
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 4096;
  limits.maxWorkItemSizes = {4096, 4096, 4096};
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeTiled = options.includeLocal = false;
  options.includeVector = options.includeMapping = options.includeSpecialised = false;
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  size_t explicitShapes = 0;
  for (const explore::Variant &v : space.variants) {
    const std::array<int64_t, 3> &wg = v.configuration.local;
    if (wg == std::array<int64_t, 3>{0, 0, 0}) continue; // the runtime's choice
    CAPTURE(v.configuration.key());
    ++explicitShapes;
    int64_t rowOutputs = v.kernel.globalSize[0].constant();
    CHECK(wg[0] >= std::min<int64_t>(32, rowOutputs));
    CHECK(wg[0] * wg[1] * wg[2] <= 256);
  }
  CHECK(explicitShapes == space.variants.size() - space.distinctPrograms);
  CHECK(explicitShapes > 0);
}

TEST_CASE("coarsening: liftc compile --opt coarsened and its errors") {
  const std::string program = test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt.json");
  test::LiftcRun ok = test::runLiftc("compile " + program + " --opt coarsened --coarsen 8 --size N=32,M=64");
  CHECK(ok.status == 0);
  CHECK(ok.output.find("priv_") != std::string::npos);
  test::LiftcRun global =
      test::runLiftc("compile " + program + " --opt coarsened --coarsen 1,4 --window global --size N=32,M=64");
  CHECK(global.status == 0);
  CHECK(global.output.find("priv_") == std::string::npos);
  test::LiftcRun partial = test::runLiftc("compile " + program + " --opt coarsened --coarsen 8 --size N=37,M=53");
  CHECK(partial.status == 0);
  CHECK(partial.output.find("priv_") != std::string::npos);
  test::LiftcRun missing = test::runLiftc("compile " + program + " --opt coarsened --coarsen 2,1,2 --size N=37,M=53");
  CHECK(missing.status == 1);
  CHECK(missing.output.find("liftc: error: ") == 0);
  CHECK(missing.output.find("coarsened: factor 2 along dimension 2 but the output has 2 dimension(s)") !=
        std::string::npos);
  test::LiftcRun noRecipe = test::runLiftc("compile " + program + " --coarsen 8 --size N=32,M=64");
  CHECK(noRecipe.status == 2);
  CHECK(noRecipe.output.find("--coarsen needs --opt coarsened") != std::string::npos);
  test::LiftcRun badWindow = test::runLiftc("compile " + program + " --opt coarsened --window local --size N=32,M=64");
  CHECK(badWindow.status == 2);
  CHECK(badWindow.output.find("--window must be private or global") != std::string::npos);
  test::LiftcRun tooMany = test::runLiftc("compile " + program + " --opt coarsened --coarsen 2,2,2,2 --size N=32,M=64");
  CHECK(tooMany.status == 2);
  CHECK(tooMany.output.find("--coarsen takes at most 3 factors") != std::string::npos);
}

} // namespace liftcc
