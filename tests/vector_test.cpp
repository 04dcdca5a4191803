// Vectorisation of the innermost dimension: vector types (float<4>), the
// views asVector / asScalar, user functions applied lane-wise, the rule
// vectorizeStencil and its kernels (vloadN / vstoreN) on PoCL and NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/configuration.h"
#include "explore/strategy_text.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/recipes.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;

/// Occurrences of `needle` in `text`.
size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::map<std::string, int64_t> sizesOf(const examples::Example &ex, const std::vector<int64_t> &outerFirst) {
  std::map<std::string, int64_t> sizes;
  for (size_t i = 0; i < ex.sizeNames.size(); ++i) sizes[ex.sizeNames[i]] = outerFirst[i];
  return sizes;
}

struct Variant {
  int64_t width;
  bool coarsened;
  bool specialise;
};

codegen::Kernel vectorised(const Program &typed, const Variant &v, codegen::Target target,
                           std::optional<std::array<int64_t, 3>> local = std::nullopt) {
  rewrite::RecipeOptions options;
  options.vectorWidth = v.width;
  options.coarsen = {8, 1, 1};
  Program lowered =
      rewrite::applyRecipe(typed, v.coarsened ? rewrite::Recipe::Coarsened : rewrite::Recipe::Plain, options);
  codegen::CodegenOptions co;
  co.specialiseBoundaries = v.specialise;
  if (local) co.localSize = *local;
  return codegen::generateKernel(lowered, target, co);
}

/// Runs `kernel` on the device with poisoned outputs (an element no vector
/// writes fails) and checks it against the interpreter on random inputs.
void checkOnDevice(ocl::Context &context, const codegen::Kernel &kernel, const Program &typed,
                   const std::map<std::string, int64_t> &sizes, uint64_t seed,
                   std::optional<std::array<size_t, 3>> local = std::nullopt) {
  tuner::OpenCLKernelRunner runner(context, kernel);
  std::vector<Value> inputs = randomInputs(typed, sizes, seed);
  tuner::LaunchConfig launch;
  launch.localSize = local;
  launch.poisonOutput = true;
  auto mismatch = compareValues(interpret(typed, sizes, inputs),
                                runner.run(sizes, inputs, typed.body().typeOrThrow(), launch).output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

} // namespace

TEST_CASE("vector: types print, hash, parse and hold lanes in the interpreter") {
  Type f4 = Type::vector(ScalarKind::Float, 4);
  CHECK(f4.str() == "float<4>");
  CHECK(f4 == Type::vector(ScalarKind::Float, 4));
  CHECK(f4 != Type::vector(ScalarKind::Float, 8));
  CHECK(f4 != Type::vector(ScalarKind::Double, 4));
  CHECK(f4.hash() != Type::vector(ScalarKind::Float, 8).hash());
  CHECK(f4.scalarKind() == ScalarKind::Float);
  CHECK(f4.vectorWidth() == 4);
  CHECK(scalarCount(array(f4, 3), {}) == 12);
  CHECK(parseType("[double<8>]N", {{"N", arith::Range::atLeast(1)}}).str() == "[double<8>]N");
  CHECK_THROWS_WITH(parseType("float<3>", {}), doctest::Contains("vector width must be 2, 4, 8 or 16"));
  CHECK_THROWS_WITH(parseType("int<4>", {}), doctest::Contains("vector lanes must be float or double"));
  std::mt19937_64 rng(1);
  Value v = Value::random(f4, {}, rng);
  CHECK(v.size() == 4);
  CHECK_NOTHROW(v.checkMatches(f4, {}));
  CHECK(Value::fromFlat(f4, {}, v.flatten()).flatten() == v.flatten());
}

TEST_CASE("vector: asVector and asScalar on random inputs, and a user function applied lane-wise") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr scale = userFun("scale", {{"x", ScalarKind::Float}, {"y", ScalarKind::Float}}, ScalarKind::Float,
                       "const float k = 0.5f;\nreturn k * x - y / 3.0f + sqrt(fabs(x)) + 2;");
  std::map<std::string, int64_t> sizes{{"N", 32}};
  for (int64_t width : {2, 4, 8, 16}) {
    CAPTURE(width);
    Program roundTrip = typeCheck(program({a}, asScalar(asVector(width, a))), sizes);
    CHECK(roundTrip.body().typeOrThrow() == array(f32(), 32));
    Program grouped = typeCheck(program({a}, asVector(width, a)), sizes);
    CHECK(grouped.body().typeOrThrow() == array(Type::vector(ScalarKind::Float, static_cast<int>(width)), 32 / width));
    std::vector<Value> inputs = randomInputs(roundTrip, sizes, 7);
    Value in = inputs[0];
    CHECK(interpret(roundTrip, sizes, inputs).flatten() == in.flatten());
    Value vectors = interpret(grouped, sizes, inputs);
    REQUIRE(vectors.size() == static_cast<size_t>(32 / width));
    for (size_t i = 0; i < vectors.size(); ++i)
      for (size_t l = 0; l < static_cast<size_t>(width); ++l)
        CHECK(vectors[i][l].scalar() == in[i * static_cast<size_t>(width) + l].scalar());
    // f lane-wise on vectors = f on each scalar.
    Program laneWise = typeCheck(program({a}, asScalar(map(
                                                  [&](Expr v) {
                                                    return apply(scale, {v, v});
                                                  },
                                                  asVector(width, a)))),
                                 sizes);
    Program scalarWise = typeCheck(program({a}, map([&](Expr x) { return apply(scale, {x, x}); }, a)), sizes);
    auto mismatch = compareValues(interpret(scalarWise, sizes, inputs), interpret(laneWise, sizes, inputs), {0, 0});
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("vector: bad widths, lengths and user functions are refused with the place") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  CHECK_THROWS_WITH_AS(typeCheck(program({a}, asVector(3, a)), {{"N", 12}}),
                       doctest::Contains("asVector: the width must be 2, 4, 8 or 16, found 3"), TypeError);
  CHECK_THROWS_WITH_AS(typeCheck(program({a}, asVector(4, a)), {{"N", 10}}),
                       doctest::Contains("is not provably divisible by 4"), TypeError);
  CHECK_THROWS_WITH_AS(typeCheck(program({a}, asScalar(a)), {{"N", 8}}),
                       doctest::Contains("asScalar: expected an array of vectors, found [float]8"), TypeError);
  Expr clampUp =
      userFun("clampUp", {{"x", ScalarKind::Float}}, ScalarKind::Float, "if (x < 0.0f) return 0.0f;\nreturn x;");
  CHECK_THROWS_WITH_AS(
      typeCheck(program({a}, asScalar(map([&](Expr v) { return apply(clampUp, {v}); }, asVector(4, a)))), {{"N", 8}}),
      doctest::Contains("'clampUp' cannot be applied lane-wise to vectors: an if statement"), TypeError);
  Expr choose = userFun("choose", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return x > 0.0f ? x : -x;");
  CHECK_THROWS_WITH_AS(
      typeCheck(program({a}, asScalar(map([&](Expr v) { return apply(choose, {v}); }, asVector(4, a)))), {{"N", 8}}),
      doctest::Contains("a condition on a lane at line 1"), TypeError);
  // The recipes: a symbolic x extent the width may not divide (a constant one
  // ends in a partial vector), a width that is no vector width.
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  rewrite::RecipeOptions options;
  options.vectorWidth = 4;
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typeCheck(ex.build(), {}), rewrite::Recipe::Plain, options),
                       doctest::Contains("plain: no stencil to vectorise by 4"), rewrite::RewriteError);
  Program odd = typeCheck(ex.build(), {{"N", 16}, {"M", 18}});
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(odd, rewrite::Recipe::Tiled, options),
                       doctest::Contains("--vector applies to the plain, coarsened and streamLocal recipes only"),
                       rewrite::RewriteError);
  Program even = typeCheck(ex.build(), {{"N", 16}, {"M", 16}});
  options.coarsen = {2, 1, 1};
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(even, rewrite::Recipe::Coarsened, options),
                       doctest::Contains("a coarsening factor along x that is a multiple of it, found 2"),
                       rewrite::RewriteError);
  // The command line: one line naming the option.
  const std::string program = std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt.json";
  for (const std::string width : {"3", "0", "32", "x"}) {
    CAPTURE(width);
    test::LiftcRun run = test::runLiftc("compile " + test::shellQuote(program) +
                                        " --opt plain --size N=16,M=16 --vector " + width + " 2>&1");
    CHECK(run.status != 0);
    CHECK(count(run.output, "\n") == 1);
    CHECK(run.output.find("--vector") != std::string::npos);
  }
  test::LiftcRun stream =
      test::runLiftc("compile " + test::shellQuote(program) + " --opt stream --size N=16,M=16 --vector 4 2>&1");
  CHECK(stream.status != 0);
  CHECK(stream.output.find("--vector needs --opt plain, coarsened or streamLocal") != std::string::npos);
  test::LiftcRun ok = test::runLiftc("compile " + test::shellQuote(program) +
                                     " --opt plain --size N=64,M=64 --vector 4 --specialise-boundaries 2>&1");
  CHECK(ok.status == 0);
  CHECK(ok.output.find("vload4(") != std::string::npos);
  CHECK(ok.output.find("vstore4(") != std::string::npos);
}

TEST_CASE("vector: jacobi1d, jacobi2d, heat and gaussian vectorised match the interpreter on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  struct Case {
    std::string example;
    std::vector<int64_t> sizes; // outermost first
  };
  // The x extents are multiples of 8 (the coarsening factor); the other
  // extents are not multiples of any work-group size the runtime picks.
  std::vector<Case> cases{
      {"jacobi1d_3pt", {64}}, {"jacobi2d_5pt", {13, 32}}, {"heat", {5, 7, 16}}, {"gaussian", {11, 24}}};
  std::vector<Variant> variants{{4, false, false}, {4, false, true}, {8, false, true}, {2, true, false},
                                {4, true, false},  {4, true, true},  {8, true, true}};
  int ran = 0, generated = 0, interiors = 0;
  for (const Case &c : cases) {
    const examples::Example &ex = examples::findExample(c.example);
    std::map<std::string, int64_t> sizes = sizesOf(ex, c.sizes);
    Program typed = typeCheck(ex.build(), sizes);
    for (const Variant &v : variants) {
      if (!v.coarsened && c.sizes.back() % v.width != 0) continue;
      CAPTURE(c.example);
      CAPTURE(v.width);
      CAPTURE(v.coarsened);
      CAPTURE(v.specialise);
      codegen::Kernel kernel = vectorised(typed, v, codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      ++generated;
      const std::string w = std::to_string(v.width);
      // Every result is one vector store; the lane-wise user function is emitted with vector types.
      CHECK(count(kernel.source, "vstore" + w + "(") >= 1);
      CHECK(count(kernel.source, "float" + w + " ") >= 1);
      // x: the extent over the lanes (plain) or over the coarsening factor.
      REQUIRE(kernel.globalSize[0].isConstant());
      CHECK(kernel.globalSize[0].constant() == c.sizes.back() / (v.coarsened ? 8 : v.width));
      // The clamp-free interior loads each tap as one vector; the private
      // window of a coarsened work-item is contiguous everywhere.
      if (kernel.interior || v.coarsened) CHECK(count(kernel.source, "vload" + w + "(") >= 1);
      interiors += kernel.interior.has_value();
      if (!v.specialise) CHECK_FALSE(kernel.interior.has_value());
      if (!context) continue;
      checkOnDevice(*context, kernel, typed, sizes, 13);
      ++ran;
    }
  }
  MESSAGE(generated, " vectorised kernels generated, ", ran, " run on the device");
  CHECK(generated == 28);
  CHECK(interiors >= 8); // most specialised kernels have a clamp-free interior at these sizes
  if (context) CHECK(ran == generated);
}

TEST_CASE("vector: one vector wide along x coarsened along y or z, window in global memory, on the device") {
  // The vector family's outer coarsening (explore/families/vector.cpp): at
  // extents no factor divides, every boundary of the examples, 2D and 3D.
  std::optional<ocl::Context> context = ocl::test::testContext();
  struct Case {
    std::string example;
    std::vector<int64_t> sizes; // outermost first
    std::string strategy;
  };
  const std::vector<Case> cases{
      {"jacobi2d_5pt", {13, 32}, "coarsen(x=4,y=4) ; globalWindow ; vectorize(4) ; mapGlb(x,y)"},
      {"gaussian", {11, 24}, "coarsen(x=4,y=8) ; globalWindow ; vectorize(4) ; mapGlb(x,y) ; specialise"},
      {"gaussian", {11, 24}, "coarsen(x=8,y=2) ; globalWindow ; vectorize(8) ; mapGlb(x,y)"},
      {"jacobi2d_9pt", {9, 16}, "coarsen(x=4,y=2) ; globalWindow ; vectorize(4) ; mapGlb(x,y) ; specialise"},
      {"heat", {5, 7, 16}, "coarsen(x=4,z=4) ; globalWindow ; vectorize(4) ; mapGlb(x,y,z) ; specialise"},
      {"heat", {5, 7, 16}, "coarsen(x=4,y=2) ; globalWindow ; vectorize(4) ; mapGlb(x,y,z)"},
      {"jacobi3d_13pt", {6, 5, 8}, "coarsen(x=4,z=8) ; globalWindow ; vectorize(4) ; mapGlb(x,y,z) ; specialise"},
  };
  for (const Case &c : cases) {
    CAPTURE(c.example);
    CAPTURE(c.strategy);
    const examples::Example &ex = examples::findExample(c.example);
    std::map<std::string, int64_t> sizes = sizesOf(ex, c.sizes);
    Program typed = typeCheck(ex.build(), sizes);
    explore::Variant variant = explore::variantFromStrategy(typed, c.strategy, codegen::Target::OpenCL);
    CHECK(count(variant.kernel.source, "vstore") >= 1);
    if (context) checkOnDevice(*context, variant.kernel, typed, sizes, 17);
  }
}

TEST_CASE("vector: a work-group size dividing the extent drops every guard") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  std::map<std::string, int64_t> sizes{{"N", 12}, {"M", 64}};
  Program typed = typeCheck(ex.build(), sizes);
  codegen::Kernel kernel =
      vectorised(typed, {4, false, true}, codegen::Target::OpenCL, std::array<int64_t, 3>{4, 2, 1});
  CAPTURE(kernel.source);
  CHECK(kernel.requiresLocalSize);
  CHECK(kernel.source.find("< 16") == std::string::npos); // no guard on the 16 vectors of a row
  if (context) checkOnDevice(*context, kernel, typed, sizes, 3, std::array<size_t, 3>{4, 2, 1});
}

TEST_CASE("vector: sizes no width divides end in a partial vector whose surplus lanes are not stored") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int ran = 0, generated = 0;
  // 62 outputs along x (neither 4 nor 8 divides them), 3 (fewer than one
  // vector), 13 planes of 13 rows of 13 for 3D; plain and coarsened, specialised or not.
  for (const auto &[name, extents] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"jacobi2d_5pt", {12, 62}}, {"jacobi2d_5pt", {5, 3}}, {"jacobi1d_3pt", {13}}, {"heat", {13, 13, 13}}}) {
    const examples::Example &ex = examples::findExample(name);
    std::map<std::string, int64_t> sizes = sizesOf(ex, extents);
    Program typed = typeCheck(ex.build(), sizes);
    for (const Variant &v : {Variant{4, false, false}, Variant{8, false, true}, Variant{4, true, true}}) {
      CAPTURE(name);
      CAPTURE(extents.back());
      CAPTURE(v.width);
      CAPTURE(v.coarsened);
      codegen::Kernel kernel = vectorised(typed, v, codegen::Target::OpenCL);
      ++generated;
      CAPTURE(kernel.source);
      // The lanes beyond the last output are guarded, lane by lane.
      CHECK(kernel.source.find("< " + std::to_string(extents.back()) + ")") != std::string::npos);
      if (!context) continue;
      checkOnDevice(*context, kernel, typed, sizes, 17);
      ++ran;
    }
  }
  CHECK(generated == 12);
  if (context) CHECK(ran == generated);
}

TEST_CASE("vector: the CUDA variants compile with NVRTC without warnings") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  int compiled = 0;
  for (const std::string name : {"jacobi1d_3pt", "jacobi2d_5pt", "heat", "gaussian"}) {
    const examples::Example &ex = examples::findExample(name);
    std::vector<int64_t> extents(ex.sizeNames.size(), ex.dims == 3 ? 16 : 32);
    Program typed = typeCheck(ex.build(), sizesOf(ex, extents));
    for (const Variant &v : {Variant{4, false, true}, Variant{8, true, true}}) {
      codegen::Kernel kernel = vectorised(typed, v, codegen::Target::CUDA);
      CAPTURE(name);
      CAPTURE(kernel.source);
      // No vector arithmetic in CUDA: a struct of lanes, the user function per lane.
      CHECK(kernel.source.find(" liftcc_float" + std::to_string(v.width) + " { float s[") != std::string::npos);
      if (!strict) continue;
      cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, name + ".cu");
      CHECK(ptx.warnings.empty());
      CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
      ++compiled;
    }
  }
  if (strict) CHECK(compiled == 8);
}

TEST_CASE("vector: configurations keep the default key and JSON; a width shows in both") {
  explore::Configuration plain;
  CHECK(plain.key() == "plain");
  CHECK(plain.toJson() == nlohmann::json{{"recipe", "plain"}, {"tile", 0}, {"local", {0, 0, 0}}});
  explore::Configuration vec;
  vec.recipe = rewrite::Recipe::Coarsened;
  vec.coarsen = {8, 1, 1};
  vec.vectorWidth = 4;
  CHECK(vec.key() == "coarsened k=8x1x1 vec=4");
  CHECK(vec.toJson().at("vector") == 4);
  CHECK(explore::Configuration::fromJson(vec.toJson()) == vec);
  CHECK(vec.recipeOptions().vectorWidth == 4);
}

} // namespace liftcc
