// Partial tiles: tiled, local and coarsened variants at sizes their tiles do
// not divide (the extent rounded up to whole tiles, the inputs extended by
// clamping, the surplus outputs dropped by take, whose writes are guarded),
// per-dimension tile extents and non-square windows. Every kernel runs on the
// device against the interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/nd_forms.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/configuration.h"
#include "explore/space.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include <set>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;
using Extents = std::array<int64_t, 3>;

bool containsOp(const Expr &e, Op op) {
  return containsNode(e, [op](const Expr &n) { return n.isPrim(op); });
}

/// The output extents, innermost first (as the NDRange).
std::vector<int64_t> outputExtentsXFirst(const Program &typed) {
  std::vector<int64_t> extents;
  for (Type t = typed.body().typeOrThrow(); t.isArray(); t = t.arrayElement())
    extents.insert(extents.begin(), t.arrayLength().constant());
  return extents;
}

int64_t roundUp(int64_t n, int64_t k) { return (n + k - 1) / k * k; }

struct Variant {
  std::string name;
  rewrite::Recipe recipe;
  rewrite::RecipeOptions options;
};

/// tiled and local with 8 outputs per tile, and coarsened along each
/// dimension (by 8 along x, 4 along the others).
std::vector<Variant> variantsFor(int dims) {
  std::vector<Variant> variants;
  rewrite::RecipeOptions tile8;
  tile8.tileOutputs = 8;
  variants.push_back({"tiled 8", rewrite::Recipe::Tiled, tile8});
  variants.push_back({"local 8", rewrite::Recipe::Local, tile8});
  for (int d = 0; d < dims; ++d) {
    rewrite::RecipeOptions coarsen;
    coarsen.coarsen = {1, 1, 1};
    coarsen.coarsen[static_cast<size_t>(d)] = d == 0 ? 8 : 4;
    variants.push_back({"coarsened along " + std::to_string(d), rewrite::Recipe::Coarsened, coarsen});
  }
  return variants;
}

/// Sizes of an example from extents (outermost first), each at least the
/// size's declared minimum (the examples declare 3 or 5).
Sizes sizesFor(const Program &program, const std::vector<int64_t> &extents) {
  Sizes sizes;
  for (size_t i = 0; i < program.sizes.size(); ++i) {
    const arith::Expr &var = program.sizes[i];
    int64_t minimum = var.varRange().lo && var.varRange().lo->isConstant() ? var.varRange().lo->constant() : 1;
    sizes[var.varName()] = std::max(minimum, extents[i % extents.size()]);
  }
  return sizes;
}

/// Size sets no tile of 8 (nor 4) divides: the smallest allowed, primes,
/// 37 x 53, and SRAD's 504 x 458 for the SRAD examples.
std::vector<std::vector<int64_t>> partialSizeSets(const examples::Example &ex) {
  std::vector<std::vector<int64_t>> sets;
  if (ex.dims == 1) sets = {{1}, {13}, {37}, {53}};
  if (ex.dims == 2) sets = {{1, 1}, {11, 13}, {37, 53}};
  if (ex.dims == 3) sets = {{1, 1, 1}, {7, 11, 13}, {5, 37, 53}};
  if (ex.name == "srad1" || ex.name == "srad2") sets.push_back({504, 458});
  return sets;
}

/// Runs the kernel of `lowered` on the device and compares it with the
/// interpreter on `typed` (the high-level program).
void checkOnDevice(ocl::Context &context, const Program &typed, const codegen::Kernel &kernel, const Sizes &sizes,
                   const test::DeviceReference &reference) {
  tuner::OpenCLKernelRunner runner(context, kernel);
  auto mismatch = compareValues(reference.expected,
                                runner.run(sizes, reference.inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// A user function weighting the points of a window differently (so that a
/// transposed or shifted window shows), applied to every point of a rows x
/// cols window.
Expr windowSum(int64_t rows, int64_t cols) {
  std::vector<cfun::Param> params;
  std::string body = "return ";
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      std::string name = "v" + std::to_string(i) + "_" + std::to_string(j);
      params.push_back({name, ScalarKind::Float});
      body += (params.size() > 1 ? " + " : "") + std::to_string(1 + i * cols + j) + ".0f * " + name;
    }
  body += ";";
  Expr f = api::userFun("window" + std::to_string(rows) + "x" + std::to_string(cols), params, ScalarKind::Float, body);
  return api::fn([&, f](Expr window) {
    std::vector<Expr> points;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) points.push_back(api::at(j, api::at(i, window)));
    return api::apply(f, points);
  });
}

/// A 2D stencil over a rows x cols window (clamped borders), any size >= 1.
Program nonSquareStencil(int64_t rows, int64_t cols) {
  api::Size n = api::size("N", 1), m = api::size("M", 1);
  Expr a = api::input("A", array(f32(), n, m));
  Expr padded = nd::padN({arith::Expr(rows / 2), arith::Expr(cols / 2)},
                         {arith::Expr(rows - 1 - rows / 2), arith::Expr(cols - 1 - cols / 2)},
                         {PadMode::Clamp, PadMode::Clamp}, a);
  Expr windows = nd::slideN({arith::Expr(rows), arith::Expr(cols)}, {arith::Expr(1), arith::Expr(1)}, padded);
  return api::program({a}, api::mapN(2, windowSum(rows, cols), windows));
}

} // namespace

TEST_SUITE("partialTiles") {

TEST_CASE("partial tiles: take keeps the first elements; its type rule refuses more than the length") {
  api::Size n = api::size("N");
  Expr a = api::input("A", array(f32(), n));
  Expr twice = api::userFun("twice", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return 2.0f * x;");
  Program p = typeCheck(api::program({a}, api::take(3, api::map(twice, a))), {{"N", 5}});
  CHECK(p.body().typeOrThrow().str() == "[float]3");
  std::vector<Value> inputs = randomInputs(p, {{"N", 5}}, 1);
  Value out = interpret(p, {{"N", 5}}, inputs);
  REQUIRE(out.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(out[i].scalar().asFloat() == 2.0f * inputs[0][i].scalar().asFloat());
  CHECK_THROWS_WITH_AS(typeCheck(api::program({a}, api::take(6, a)), {{"N", 5}}),
                       doctest::Contains("take(6) of [float]5: 6 is not provably at most the length 5"), TypeError);
  // Written through: the map runs over all 5 elements, the stores beyond 3 are guarded.
  Program lowered = rewrite::applyRecipe(p, rewrite::Recipe::Plain);
  codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
  CAPTURE(kernel.source);
  CHECK(kernel.source.find("if (gid0_0 < 3) out[gid0_0] = ") != std::string::npos);
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (context) checkOnDevice(*context, p, kernel, {{"N", 5}}, test::deviceReference(p, {{"N", 5}}, 17));
}

TEST_CASE("partial tiles: every example tiled, local and coarsened along each dimension at sizes no tile divides "
          "matches the interpreter on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int generated = 0, ran = 0, notApplicable = 0, tiledEverywhere = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    Program program = ex.build();
    std::map<Sizes, test::DeviceReference> references; // one per size set, for every variant
    for (const Variant &variant : variantsFor(ex.dims)) {
      // Variants that do not apply at dividing sizes either (iterate, a
      // local copy of neighbourhoods) are not partial-tile questions.
      Sizes dividing = sizesFor(program, std::vector<int64_t>(static_cast<size_t>(ex.dims), 16));
      try {
        rewrite::applyRecipe(typeCheck(program, dividing), variant.recipe, variant.options);
      } catch (const rewrite::RewriteError &) {
        ++notApplicable;
        continue;
      }
      for (const std::vector<int64_t> &extents : partialSizeSets(ex)) {
        Sizes sizes = sizesFor(program, extents);
        CAPTURE(ex.name);
        CAPTURE(variant.name);
        CAPTURE(sizes);
        Program typed = typeCheck(program, sizes);
        Program lowered = rewrite::applyRecipe(typed, variant.recipe, variant.options);
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(kernel.source);
        ++generated;
        // The launch covers the output rounded up to whole tiles.
        std::vector<int64_t> out = outputExtentsXFirst(typed);
        bool partial = false;
        if (variant.recipe == rewrite::Recipe::Coarsened) {
          REQUIRE(kernel.dims == ex.dims);
          for (int d = 0; d < ex.dims; ++d) {
            int64_t k = variant.options.coarsen[static_cast<size_t>(d)], n = out[static_cast<size_t>(d)];
            partial = partial || n % k != 0;
            REQUIRE(kernel.globalSize[d].isConstant());
            CHECK(kernel.globalSize[d].constant() == roundUp(n, k) / k);
          }
        } else {
          REQUIRE(kernel.localSize.has_value());
          // Tiles of 8 in every dimension of the output (where the stencil
          // covers them all: a reduce over the window keeps some untiled).
          if (kernel.dims == ex.dims) {
            ++tiledEverywhere;
            for (int d = 0; d < kernel.dims; ++d) {
              int64_t n = out[static_cast<size_t>(d)];
              partial = partial || n % 8 != 0;
              // One work-group per tile (local: as many work-items as the
              // widest copy of the tile with its halo, at least the tile).
              int64_t group = (*kernel.localSize)[static_cast<size_t>(d)];
              CHECK((variant.recipe == rewrite::Recipe::Local ? group >= 8 : group == 8));
              REQUIRE(kernel.globalSize[d].isConstant());
              CHECK(kernel.globalSize[d].constant() == roundUp(n, 8) / 8 * group);
            }
          } else {
            partial = containsOp(lowered.body(), Op::Take);
          }
        }
        // A partial tile drops its surplus outputs through take, whose
        // writes are guarded in the kernel.
        CHECK(containsOp(lowered.body(), Op::Take) == partial);
        if (partial) CHECK(kernel.source.find(") out[") != std::string::npos);
        if (!context) continue;
        auto known = references.find(sizes);
        if (known == references.end()) known = references.emplace(sizes, test::deviceReference(typed, sizes, 17)).first;
        checkOnDevice(*context, typed, kernel, sizes, known->second);
        ++ran;
      }
    }
  }
  MESSAGE(generated, " partial-tile kernels generated, ", ran, " run on the device, ", notApplicable,
          " example/recipe pairs that do not apply at dividing sizes either, ", tiledEverywhere,
          " tiled/local kernels tiling every dimension");
  CHECK(tiledEverywhere >= 60);
  // 15 examples: every (example, variant) pair but those refused at dividing
  // sizes too, 3 to 5 size sets each.
  CHECK(generated >= 180);
  if (context) CHECK(ran == generated);
}

TEST_CASE("partial tiles: dividing sizes keep today's programs (no take, no guard)") {
  for (const char *name : {"jacobi2d_5pt", "hotspot2d", "heat"}) {
    const examples::Example &ex = examples::findExample(name);
    Program typed = typeCheck(ex.build(), sizesFor(ex.build(), {16, 16, 16}));
    for (const Variant &variant : variantsFor(ex.dims)) {
      CAPTURE(name);
      CAPTURE(variant.name);
      Program lowered = rewrite::applyRecipe(typed, variant.recipe, variant.options);
      CHECK_FALSE(containsOp(lowered.body(), Op::Take));
      // No guarded store (bounds guards of mapGlb open blocks; they are not stores).
      CHECK(codegen::generateKernel(lowered, codegen::Target::OpenCL).source.find(") out[") == std::string::npos);
    }
  }
}

TEST_CASE("partial tiles: the CUDA variants at 37x53 compile with NVRTC without warnings") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    Program program = ex.build();
    Program typed = typeCheck(
        program, sizesFor(program, ex.dims == 3 ? std::vector<int64_t>{5, 37, 53} : std::vector<int64_t>{37, 53}));
    for (const Variant &variant : variantsFor(ex.dims)) {
      std::optional<Program> lowered;
      try {
        lowered = rewrite::applyRecipe(typed, variant.recipe, variant.options);
      } catch (const rewrite::RewriteError &) {
        continue; // iterate, or local copies of neighbourhoods (as at dividing sizes)
      }
      codegen::Kernel kernel = codegen::generateKernel(*lowered, codegen::Target::CUDA);
      CAPTURE(ex.name);
      CAPTURE(variant.name);
      CAPTURE(kernel.source);
      cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, ex.name + ".cu");
      CHECK(ptx.warnings.empty());
      CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
      ++compiled;
    }
  }
  MESSAGE(compiled, " CUDA kernels with partial tiles compiled");
  CHECK(compiled >= 50);
}

TEST_CASE("partial tiles: non-square windows 3x5, 1x3 and 3x1 tile into multi-work-item work-groups, at any size") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int ran = 0;
  for (auto [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{3, 5}, {1, 3}, {3, 1}}) {
    Program program = nonSquareStencil(rows, cols);
    for (const Sizes &sizes : std::vector<Sizes>{
             {{"N", 1}, {"M", 2}}, {{"N", 2}, {"M", 1}}, {{"N", 13}, {"M", 37}}, {{"N", 16}, {"M", 32}}}) {
      Program typed = typeCheck(program, sizes);
      rewrite::RecipeOptions square, shaped;
      shaped.tileExtents = {32, 4, 0};
      struct Case {
        std::string name;
        rewrite::Recipe recipe;
        rewrite::RecipeOptions options;
        Extents local;
      };
      rewrite::RecipeOptions coarsenY;
      coarsenY.coarsen = {1, 4, 1};
      for (const Case &c : std::vector<Case>{{"tiled 8", rewrite::Recipe::Tiled, square, {8, 8, 1}},
                                             {"local 8", rewrite::Recipe::Local, square, {8, 8, 1}},
                                             {"tiled 32x4", rewrite::Recipe::Tiled, shaped, {32, 4, 1}},
                                             {"local 32x4", rewrite::Recipe::Local, shaped, {32, 4, 1}},
                                             {"coarsened y4", rewrite::Recipe::Coarsened, coarsenY, {0, 0, 0}}}) {
        CAPTURE(rows);
        CAPTURE(cols);
        CAPTURE(sizes);
        CAPTURE(c.name);
        Program lowered = rewrite::applyRecipe(typed, c.recipe, c.options);
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(kernel.source);
        REQUIRE(kernel.dims == 2);
        if (c.recipe == rewrite::Recipe::Coarsened) {
          CHECK(kernel.globalSize[1].constant() == roundUp(sizes.at("N"), 4) / 4);
        } else {
          // Work-groups of the tile's shape, tiles in both dimensions.
          // (local: as many work-items as the widest copy of the tile and its halo).
          REQUIRE(kernel.localSize.has_value());
          Extents group = *kernel.localSize;
          if (c.recipe == rewrite::Recipe::Tiled) CHECK(group == c.local);
          CHECK(group[0] >= c.local[0]);
          CHECK(group[1] >= c.local[1]);
          CHECK(group[0] * group[1] > 1); // not a one-work-item group
          CHECK(kernel.globalSize[0].constant() == roundUp(sizes.at("M"), c.local[0]) / c.local[0] * group[0]);
          CHECK(kernel.globalSize[1].constant() == roundUp(sizes.at("N"), c.local[1]) / c.local[1] * group[1]);
          if (c.recipe == rewrite::Recipe::Local) CHECK(kernel.localMemoryBytes > 0);
        }
        if (!context) continue;
        checkOnDevice(*context, typed, kernel, sizes, test::deviceReference(typed, sizes, 17));
        ++ran;
      }
    }
  }
  if (context) CHECK(ran == 3 * 4 * 5);
}

TEST_CASE("partial tiles: non-square windows 3x5, 1x3, 3x1 and 5x1 vectorise with each dimension's own window") {
  // vectorizeStencil once rebuilt the windows square from the outer window's
  // size: a 3x1 window's vectors then covered 6 of 8 columns (a kernel for the
  // wrong output shape, the explorer's variants recorded as bugs).
  std::optional<ocl::Context> context = ocl::test::testContext();
  int ran = 0, generated = 0;
  for (auto [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{3, 5}, {1, 3}, {3, 1}, {5, 1}}) {
    Program program = nonSquareStencil(rows, cols);
    for (const Sizes &sizes : std::vector<Sizes>{{{"N", 4}, {"M", 8}}, {{"N", 13}, {"M", 37}}, {{"N", 2}, {"M", 3}}}) {
      Program typed = typeCheck(program, sizes);
      for (auto [width, recipe] : std::vector<std::pair<int64_t, rewrite::Recipe>>{
               {2, rewrite::Recipe::Plain}, {4, rewrite::Recipe::Plain}, {4, rewrite::Recipe::Coarsened}}) {
        CAPTURE(rows);
        CAPTURE(cols);
        CAPTURE(sizes);
        CAPTURE(width);
        rewrite::RecipeOptions options;
        options.vectorWidth = width;
        options.coarsen = {8, 1, 1};
        Program lowered = rewrite::applyRecipe(typed, recipe, options);
        CHECK(lowered.body().typeOrThrow() == typed.body().typeOrThrow());
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(kernel.source);
        ++generated;
        // The rule applied: results are vectors (stored whole, or lane by lane in a partial last vector).
        CHECK(kernel.source.find("float" + std::to_string(width) + " ") != std::string::npos);
        if (!context) continue;
        tuner::OpenCLKernelRunner runner(*context, kernel);
        std::vector<Value> inputs = randomInputs(typed, sizes, 23);
        tuner::LaunchConfig launch;
        launch.poisonOutput = true; // an element no vector writes fails
        auto mismatch =
            compareValues(interpret(typed, sizes, inputs),
                          runner.run(sizes, inputs, typed.body().typeOrThrow(), launch).output, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
        ++ran;
      }
    }
  }
  CHECK(generated == 4 * 3 * 3);
  if (context) CHECK(ran == generated);
}

TEST_CASE("partial tiles: per-dimension tile extents are refused clearly where they do not fit the output") {
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), {{"N", 37}, {"M", 53}});
  rewrite::RecipeOptions options;
  options.tileExtents = {8, 4, 2};
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, rewrite::Recipe::Tiled, options),
                       doctest::Contains("tile extent 2 along dimension 2 but the output has 2 dimension(s)"),
                       rewrite::RewriteError);
  options.tileExtents = {8, 0, 0};
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, rewrite::Recipe::Tiled, options),
                       doctest::Contains("tile extents must be at least 1 in every dimension of the output"),
                       rewrite::RewriteError);
  // Symbolic sizes that the tile does not provably divide are still refused
  // (the rounded-up extent must be known).
  CHECK_THROWS_AS(
      rewrite::applyRecipe(typeCheck(examples::findExample("jacobi1d_3pt").build()), rewrite::Recipe::Tiled),
      rewrite::RewriteError);
}

TEST_CASE("partial tiles: local refuses a stencil nested in another map; tiled compiles it and agrees on the device") {
  // Rows zipped with a coefficient per row: the 1D stencil of each row is
  // the one tiled, inside the map over rows, so local's copy would run per
  // work-item (the code generator then refused toLocal inside mapLcl).
  using namespace api;
  Expr w = input("w", array(f32(), size("N"))), a = input("A", array(array(f32(), size("M")), size("N")));
  Expr wsum = userFun("wsum", {{"w", ScalarKind::Float}, {"a", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return w * (a + c);");
  Expr body = map(fn(
                      [&](Expr p) {
                        return map(fn(
                                       [&](Expr nb) {
                                         return apply(wsum, {get(0, p), at(0, nb), at(2, nb)});
                                       },
                                       "nb"),
                                   slide(3, 1, pad(1, 1, clamp, get(1, p))));
                      },
                      "p"),
                  zip({w, a}));
  const std::map<std::string, int64_t> sizes{{"N", 37}, {"M", 29}};
  Program typed = typeCheck(program({w, a}, body), sizes);
  CHECK(test::errorOf([&] { rewrite::applyRecipe(typed, rewrite::Recipe::Local, {}); }) ==
        "local: the tiled stencil is nested in another map (its tiles would be copied to local memory by single "
        "work-items, not by work-groups), e.g. rows zipped with a coefficient per row; use --opt tiled");
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Tiled, {}), codegen::Target::OpenCL);
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  test::DeviceReference reference = test::deviceReference(typed, sizes, 5);
  auto mismatch = test::deviceMismatch(*context, kernel, sizes, reference.inputs, typed.body().typeOrThrow(),
                                       reference.expected, {1e-5, 1e-6});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("partial tiles: liftc compiles partial and per-dimension tiles, and refuses bad --tile values") {
  const std::string program = test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt.json");
  for (const char *opt : {"tiled", "local", "coarsened"}) {
    CAPTURE(opt);
    test::LiftcRun run = test::runLiftc("compile " + program + " --opt " + opt + " --size N=37,M=53");
    CHECK(run.status == 0);
    // The last tile's guarded store (the guard along x among those of the tile).
    bool guardedAlongX = false;
    std::istringstream lines(run.output);
    for (std::string line; std::getline(lines, line);) {
      size_t store = line.find(") out[");
      guardedAlongX = guardedAlongX || (store != std::string::npos && line.find("if (") < store &&
                                        line.substr(0, store).find(" < 53") != std::string::npos);
    }
    CHECK(guardedAlongX);
  }
  test::LiftcRun shaped = test::runLiftc("compile " + program + " --opt local --tile 32,4 --size N=37,M=53");
  CHECK(shaped.status == 0);
  CHECK(shaped.output.find("local float") != std::string::npos);
  test::LiftcRun tooMany = test::runLiftc("compile " + program + " --opt tiled --tile 2,2,2,2 --size N=37,M=53");
  CHECK(tooMany.status == 2);
  CHECK(tooMany.output.find("--tile takes at most 3 extents") != std::string::npos);
  test::LiftcRun zero = test::runLiftc("compile " + program + " --opt tiled --tile 8,0 --size N=37,M=53");
  CHECK(zero.status == 2);
  CHECK(zero.output.find("--tile expects an integer from 1 to 1024, found '0'") != std::string::npos);
  // A recipe without tiles refuses --tile (it would ignore it, and tune would
  // record a key naming a tile its kernel does not have).
  for (const char *verb : {"compile", "tune"}) {
    CAPTURE(verb);
    test::LiftcRun untiled =
        test::runLiftc(std::string(verb) + " " + program + " --opt coarsened --tile 4 --size N=37,M=53");
    CHECK(untiled.status == 2);
    CHECK(untiled.output.find("--tile needs a recipe with tiles (--opt tiled, local, streamLocal, timeTiledLocal or "
                              "timeTiledStream), found --opt coarsened") != std::string::npos);
  }
  test::LiftcRun extra = test::runLiftc("compile " + program + " --opt tiled --tile 8,4,2 --size N=37,M=53");
  CHECK(extra.status == 1);
  CHECK(extra.output.find("liftc: error: ") == 0);
  CHECK(extra.output.find("along dimension 2 but the output has 2") != std::string::npos);
}

TEST_CASE("partial tiles: configurations with tile shapes, verification at any size, and the space at 37x53") {
  explore::Configuration tiled{rewrite::Recipe::Tiled, 8, {8, 8, 1}};
  CHECK(tiled.key() == "tiled tile=8 wg=8x8x1");
  CHECK(tiled.toJson() == nlohmann::json{{"recipe", "tiled"}, {"tile", 8}, {"local", {8, 8, 1}}});
  explore::Configuration shaped = tiled;
  shaped.tileShape = {32, 4, 1};
  shaped.local = {32, 4, 1};
  CHECK(shaped.key() == "tiled tile=32x4x1 wg=32x4x1");
  CHECK(shaped.toJson().at("tileShape") == nlohmann::json{32, 4, 1});
  CHECK(explore::Configuration::fromJson(shaped.toJson()) == shaped);
  CHECK(shaped.recipeOptions().tileExtents == Extents{32, 4, 1});
  explore::Configuration taller = shaped;
  taller.tileShape = {32, 8, 1};
  CHECK(explore::areNeighbours(shaped, taller));

  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.maxWorkItemSizes = {1024, 1024, 1024};
  limits.localMemoryBytes = 65536;
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  auto keysAt = [&](const Sizes &sizes) {
    std::set<std::string> keys;
    explore::Space space = explore::enumerateSpace(typeCheck(ex.build(), sizes), limits);
    for (const explore::Variant &v : space.variants) keys.insert(v.configuration.key());
    return std::pair{keys, space.variants.size()};
  };
  auto [partial, partialCount] = keysAt({{"N", 37}, {"M", 53}});
  // Tiles of 4, 8, 16 and 32 (none divides 37 or 53), the 32x4 shape, and coarsening.
  CHECK(partial.count("tiled tile=8 wg=8x8x1") == 1);
  // Local tiles' work-groups are as wide as the tile's copy with its halo.
  auto anyStartingWith = [](const std::set<std::string> &keys, const std::string &prefix) {
    return std::any_of(keys.begin(), keys.end(), [&](const std::string &k) { return k.rfind(prefix, 0) == 0; });
  };
  CHECK(anyStartingWith(partial, "local tile=32 wg="));
  CHECK(partial.count("tiled tile=32x4x1 wg=32x4x1") == 1);
  CHECK(anyStartingWith(partial, "local tile=32x4x1 wg="));
  CHECK(partial.count("coarsened k=8x1x1") == 1);
  // At 13x11 tiles of 16 and 32 would leave most work-items idle: left out.
  auto [small, smallCount] = keysAt({{"N", 11}, {"M", 13}});
  CHECK(small.count("tiled tile=8 wg=8x8x1") == 1);
  CHECK(small.count("tiled tile=16 wg=16x16x1") == 0);
  CHECK(small.count("tiled tile=32x4x1 wg=32x4x1") == 0);
  auto [dividing, dividingCount] = keysAt({{"N", 64}, {"M", 64}});
  MESSAGE("jacobi2d_5pt space: ", dividingCount, " variants at 64x64, ", partialCount, " at 37x53, ", smallCount,
          " at 11x13");
  CHECK(dividing.count("tiled tile=32x4x1 wg=32x4x1") == 1);
}

} // TEST_SUITE("partialTiles")

} // namespace liftcc
