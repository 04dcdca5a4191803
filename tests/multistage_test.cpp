// Multi-kernel programs (an intermediate array read by another computation
// is a kernel of its own writing a global temporary) and results of several
// arrays (one output buffer per component). Every kernel runs on PoCL against
// the interpreter; the CUDA variants compile with NVRTC.

#include "codegen/generate.h"
#include "core/interp/components.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/interp/value_io.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "explore/win_explanation.h"
#include "exporter/export_plan.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/recipes.h"
#include "rewrite/stages.h"
#include "tests/device_check_support.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/launch_plan.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

namespace liftcc {
namespace {

using namespace api;
using rewrite::Recipe;

Expr avg3() {
  return userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return (a + b + c) / 3.0f;");
}
Expr laplace3() {
  return userFun("laplace3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return a - 2.0f * b + c;");
}
Expr jacobi5() {
  return userFun("jacobi5",
                 {{"n", ScalarKind::Float},
                  {"w", ScalarKind::Float},
                  {"c", ScalarKind::Float},
                  {"e", ScalarKind::Float},
                  {"s", ScalarKind::Float}},
                 ScalarKind::Float, "return 0.2f * (n + w + c + e + s);");
}
Expr cross5() {
  return userFun("cross5",
                 {{"n", ScalarKind::Float},
                  {"w", ScalarKind::Float},
                  {"c", ScalarKind::Float},
                  {"e", ScalarKind::Float},
                  {"s", ScalarKind::Float}},
                 ScalarKind::Float, "return 4.0f * c - n - w - e - s;");
}

Expr stencil1D(const Expr &f, const Expr &in) {
  return map(fn([f](Expr w) { return apply(f, {at(0, w), at(1, w), at(2, w)}); }), slide(3, 1, pad(1, 1, clamp, in)));
}
Expr stencil2D(const Expr &f, const Expr &in) {
  auto nb = [](Expr w, int row, int column) { return at(column, at(row, w)); };
  return mapN(2, fn([f, nb](Expr w) {
                return apply(f, {nb(w, 0, 1), nb(w, 1, 0), nb(w, 1, 1), nb(w, 1, 2), nb(w, 2, 1)});
              }),
              slideN(2, 3, 1, padN(2, 1, 1, clamp, in)));
}

/// map(g, slide(3,1, pad(1,1,clamp, map(f, slide(3,1, pad(1,1,clamp, A)))))) of issue #16.
Program stencilOfStencil1D() {
  Expr a = input("A", array(f32(), size("N")));
  return program({a}, stencil1D(laplace3(), stencil1D(avg3(), a)));
}
Program stencilOfStencil2D() {
  Expr a = input("A", array(f32(), size("N"), size("M")));
  return program({a}, stencil2D(cross5(), stencil2D(jacobi5(), a)));
}

struct Variant {
  Recipe recipe;
  rewrite::RecipeOptions options;
};

/// Every recipe, with tiles and coarsening factors dividing the extents.
std::vector<Variant> recipesFor(const std::vector<int64_t> &extents, bool stream) {
  int64_t tile = 8;
  for (int64_t n : extents) tile = std::gcd(tile, n);
  std::vector<Variant> out{{Recipe::Plain, {}}};
  rewrite::RecipeOptions tiled;
  tiled.tileOutputs = tile;
  out.push_back({Recipe::Tiled, tiled});
  out.push_back({Recipe::Local, tiled});
  rewrite::RecipeOptions coarsened;
  coarsened.coarsen = {std::gcd<int64_t>(4, extents.front()), 1, 1}; // x: the innermost extent
  out.push_back({Recipe::Coarsened, coarsened});
  if (stream) out.push_back({Recipe::Stream, {}});
  return out;
}

size_t countOps(const Expr &e, Op op) {
  size_t n = 0;
  containsNode(e, [&](const Expr &x) {
    n += x.isPrim(op);
    return false;
  });
  return n;
}

/// What shows that each of the two stages was lowered by the recipe.
Op recipeMark(Recipe recipe) {
  switch (recipe) {
  case Recipe::Plain: return Op::MapGlb;
  case Recipe::Tiled: return Op::MapWrg;
  case Recipe::Local: return Op::ToLocal;
  case Recipe::Coarsened: return Op::ToPrivate;
  case Recipe::Stream: return Op::SlideSeq;
  case Recipe::StreamLocal: return Op::SlideSeq;
  case Recipe::TimeTiledLocal: return Op::ToLocal;
  case Recipe::TimeTiledStream: return Op::SlideSeq;
  }
  return Op::MapGlb;
}

/// The source with every number replaced by 0: what may differ between sizes.
std::string withoutNumbers(const std::string &source) {
  std::string out;
  for (size_t i = 0; i < source.size(); ++i) {
    bool digit = std::isdigit(static_cast<unsigned char>(source[i]));
    bool partOfName = i > 0 && (std::isalnum(static_cast<unsigned char>(source[i - 1])) || source[i - 1] == '_');
    if (digit && !partOfName) {
      while (i + 1 < source.size() && std::isdigit(static_cast<unsigned char>(source[i + 1]))) ++i;
      out += '0';
    } else {
      out += source[i];
    }
  }
  return out;
}

/// Lowers, generates and (with a context) runs `program` at `sizes` with every
/// recipe, checking two kernels lowered by the recipe; returns the OpenCL
/// sources per recipe.
std::map<std::string, std::string> checkStencilOfStencil(const Program &program,
                                                         const std::map<std::string, int64_t> &sizes,
                                                         std::optional<ocl::Context> &context, bool stream,
                                                         rewrite::Fusion fusion = rewrite::Fusion::Separate) {
  const bool fused = fusion == rewrite::Fusion::Inline;
  Program typed = typeCheck(program, sizes);
  std::vector<int64_t> extents;
  for (const auto &[name, value] : sizes) extents.push_back(value);
  std::vector<Value> inputs = randomInputs(typed, sizes, 11);
  std::optional<Value> expected;
  if (context) expected = interpret(typed, sizes, inputs);
  std::map<std::string, std::string> sources;
  for (const Variant &v : recipesFor(extents, stream)) {
    std::string name = rewrite::recipeName(v.recipe);
    CAPTURE(name);
    rewrite::RecipeOptions options = v.options;
    options.fusion = fusion;
    Program lowered = rewrite::applyRecipe(typed, v.recipe, options);
    CHECK(countOps(lowered.body(), Op::ToGlobal) == (fused ? 0 : 1));
    CHECK(countOps(lowered.body(), recipeMark(v.recipe)) >= (fused ? 1 : 2));
    codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    if (fused) {
      // One kernel recomputing the intermediate where it reads it: both
      // user functions in it, no temporary.
      CHECK(kernel.stages.empty());
      CHECK(kernel.temporaries.empty());
      CHECK(countOps(lowered.body(), Op::Map) >= 1);
      CHECK(kernel.source.size() < 16384);
    } else {
      REQUIRE(kernel.stages.size() == 2);
      REQUIRE(kernel.temporaries.size() == 1);
      CHECK(kernel.temporaries[0].name == "tmp0");
      CHECK(kernel.stages[0].name == "liftcc_kernel_stage0");
      CHECK(kernel.stages[1].name == "liftcc_kernel");
      // Never a private array of the problem's size: the temporary is global.
      CHECK(kernel.temporaries[0].count.isConstant());
      CHECK(kernel.source.size() < 16384);
      nlohmann::json meta = codegen::kernelMetadata(kernel);
      CHECK(meta["stages"].size() == 2);
      CHECK(meta["stages"][0]["args"][1]["name"] == "tmp0");
      CHECK(meta["stages"][1]["args"][0]["name"] == "tmp0");
      CHECK(meta["temporaries"][0]["name"] == "tmp0");
    }
    sources[name] = kernel.source;
    if (!context) continue;
    auto mismatch =
        test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), *expected, {1e-4, 1e-5});
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  return sources;
}

} // namespace

TEST_SUITE("multistage") {

TEST_CASE("multistage: the stencil of a stencil is two kernels with a global temporary, each lowered by the recipe") {
  Program typed = typeCheck(stencilOfStencil1D(), {{"N", 64}});
  std::optional<rewrite::StagedProgram> staged = rewrite::splitStages(typed);
  REQUIRE(staged);
  REQUIRE(staged->stages.size() == 1);
  CHECK(staged->stages[0].temporary.name() == "tmp0");
  CHECK(staged->stages[0].program.inputs().size() == 1);
  CHECK(staged->last.inputs().back().name() == "tmp0");
  // Single-kernel programs are not split.
  Expr a = input("A", array(f32(), size("N")));
  CHECK_FALSE(rewrite::splitStages(typeCheck(program({a}, stencil1D(avg3(), a)), {{"N", 64}})));
  // The joined low-level program means the same.
  Program lowered = rewrite::applyRecipe(typed, Recipe::Plain);
  std::vector<Value> inputs = randomInputs(typed, {{"N", 64}}, 3);
  auto mismatch = compareValues(interpret(typed, {{"N", 64}}, inputs), interpret(lowered, {{"N", 64}}, inputs), {0, 0});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("multistage: 1D stencil of a stencil at N = 1, 2, 1000, 4096 and 10^6 with every recipe on the device; "
          "source size independent of N") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<int64_t, std::map<std::string, std::string>> sources;
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(1000), int64_t(4096), int64_t(1000000)}) {
    CAPTURE(n);
    sources[n] = checkStencilOfStencil(stencilOfStencil1D(), {{"N", n}}, context, false);
  }
  // The same kernels up to the constants (the sizes are folded in), for
  // every N with the same tile and coarsening factors.
  for (const auto &[recipe, source] : sources[1000]) {
    CAPTURE(recipe);
    CHECK(withoutNumbers(sources[4096][recipe]) == withoutNumbers(source));
    CHECK(withoutNumbers(sources[1000000][recipe]) == withoutNumbers(source));
  }
}

TEST_CASE("multistage: 2D stencil of a stencil with every recipe on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<std::string, std::string> small, large;
  for (std::pair<int64_t, int64_t> nm : {std::pair<int64_t, int64_t>{1, 1}, {2, 3}, {24, 40}, {200, 256}}) {
    CAPTURE(nm.first);
    CAPTURE(nm.second);
    auto sources = checkStencilOfStencil(stencilOfStencil2D(), {{"N", nm.first}, {"M", nm.second}}, context, true);
    if (nm.first == 24) small = sources;
    if (nm.first == 200) large = sources;
  }
  for (const auto &[recipe, source] : small) {
    CAPTURE(recipe);
    CHECK(withoutNumbers(large[recipe]) == withoutNumbers(source));
  }
}

TEST_CASE("multistage: fused (the intermediate recomputed where read) is one kernel with every recipe, at every "
          "size, on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<int64_t, std::map<std::string, std::string>> sources;
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(1000), int64_t(4096), int64_t(1000000)}) {
    CAPTURE(n);
    sources[n] = checkStencilOfStencil(stencilOfStencil1D(), {{"N", n}}, context, false, rewrite::Fusion::Inline);
  }
  for (const auto &[recipe, source] : sources[1000]) {
    CAPTURE(recipe);
    CHECK(withoutNumbers(sources[1000000][recipe]) == withoutNumbers(source));
  }
  for (std::pair<int64_t, int64_t> nm : {std::pair<int64_t, int64_t>{1, 1}, {2, 3}, {24, 40}, {200, 256}}) {
    CAPTURE(nm.first);
    CAPTURE(nm.second);
    checkStencilOfStencil(stencilOfStencil2D(), {{"N", nm.first}, {"M", nm.second}}, context, true,
                          rewrite::Fusion::Inline);
  }
}

TEST_CASE("multistage: the fused family of the space: every recipe's program fused, each one kernel matching the "
          "interpreter on the device; its strategy re-applies; the traffic model counts the temporaries") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<std::string, int64_t> sizes{{"N", 24}, {"M", 40}};
  Program typed = typeCheck(stencilOfStencil2D(), sizes);
  explore::SpaceOptions options;
  options.groupExtents = {8};
  options.includeMapping = false;
  explore::Space space = explore::enumerateSpace(typed, explore::DeviceLimits{}, options);
  const explore::FamilySummary &fusedFamily = space.families.back();
  REQUIRE(fusedFamily.name == "fused");
  CHECK(fusedFamily.programs >= 5); // plain, stream, tiled, local, coarsened at least
  std::vector<Value> inputs = randomInputs(typed, sizes, 5);
  std::optional<Value> expected;
  if (context) expected = interpret(typed, sizes, inputs);
  double compulsory = explore::compulsoryBytesPerOutput(typed, sizes);
  CHECK(compulsory == doctest::Approx(8.0));
  std::set<std::string> fusedRecipes;
  size_t separate = 0;
  for (const explore::Variant &v : space.variants) {
    CAPTURE(v.configuration.key());
    double modelled = explore::modelledBytesPerOutput(v.kernel, compulsory, sizes, 24 * 40);
    if (!v.configuration.fuse) {
      // Two kernels: the float temporary written once and read once.
      CHECK(v.kernel.temporaries.size() == 1);
      CHECK(modelled == doctest::Approx(16.0));
      ++separate;
      continue;
    }
    CHECK(explore::familyOf(v.configuration) == "fused");
    CHECK(v.kernel.stages.empty());
    CHECK(modelled == doctest::Approx(compulsory));
    std::string strategy = explore::strategyText(v);
    CHECK(strategy.rfind("fuse ; ", 0) == 0);
    CHECK(explore::variantFromStrategy(typed, strategy).kernel.source == v.kernel.source);
    if (!fusedRecipes.insert(rewrite::recipeName(v.configuration.recipe) + (v.configuration.specialise ? " spec" : ""))
             .second ||
        !context)
      continue;
    // One variant per recipe (and specialised twin) on the device.
    auto mismatch = test::deviceMismatch(*context, v.kernel, sizes, inputs, typed.body().typeOrThrow(), *expected,
                                         {1e-4, 1e-5}, test::launchLocalSize(v.configuration.local));
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  CHECK(separate > 0);
  CHECK(fusedRecipes.size() >= 8);
  // A single-kernel program has nothing to fuse: no fused family.
  Expr a = input("A", array(f32(), size("N"), size("M")));
  explore::Space single = explore::enumerateSpace(typeCheck(program({a}, stencil2D(jacobi5(), a)), sizes),
                                                  explore::DeviceLimits{}, options);
  for (const explore::FamilySummary &f : single.families) CHECK(f.name != "fused");
  for (const explore::Variant &v : single.variants) CHECK_FALSE(v.configuration.fuse);
}

TEST_CASE("multistage: an array of tuples from one map is one kernel writing one buffer per component") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  Expr a = input("A", array(f32(), size("N")));
  Expr both = map(fn([](Expr w) {
                    return tuple({apply(avg3(), {at(0, w), at(1, w), at(2, w)}),
                                  apply(laplace3(), {at(0, w), at(1, w), at(2, w)})});
                  }),
                  slide(3, 1, pad(1, 1, clamp, a)));
  std::map<std::string, int64_t> sizes{{"N", 40}};
  Program typed = typeCheck(program({a}, both), sizes);
  CHECK(components(typed.body().typeOrThrow()).size() == 2);
  std::vector<Value> inputs = randomInputs(typed, sizes, 5);
  Value expected = interpret(typed, sizes, inputs);
  for (const Variant &v : recipesFor({40}, false)) {
    CAPTURE(rewrite::recipeName(v.recipe));
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, v.recipe, v.options), codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    CHECK(kernel.stages.empty());
    std::vector<std::string> outputs;
    for (const codegen::KernelArg &arg : kernel.args)
      if (arg.role == codegen::KernelArg::Role::Output) outputs.push_back(arg.name);
    CHECK(outputs == std::vector<std::string>{"out_0", "out_1"});
    CHECK(tuner::planLaunch(kernel, sizes, std::nullopt, std::nullopt).outputBuffers.size() == 2);
    if (!context) continue;
    auto mismatch = test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), expected, {});
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("multistage: the same array twice in a result is one kernel and a copy, each writing its output") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  Expr a = input("A", array(f32(), size("N")));
  Expr s = stencil1D(avg3(), a);
  std::map<std::string, int64_t> sizes{{"N", 37}};
  Program typed = typeCheck(program({a}, tuple({s, s})), sizes);
  std::vector<Value> inputs = randomInputs(typed, sizes, 8);
  Value expected = interpret(typed, sizes, inputs);
  for (const Variant &v : recipesFor({37}, false)) {
    CAPTURE(rewrite::recipeName(v.recipe));
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, v.recipe, v.options), codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    // Before: "a result whose components are ... the same array twice is not supported yet".
    CHECK(kernel.stages.size() == 2);
    CHECK(kernel.temporaries.empty());
    if (!context) continue;
    auto mismatch = test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), expected, {});
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("multistage: a tuple of arrays and a zip of stencils are one kernel per component, no temporary") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  Expr a = input("A", array(f32(), size("N")));
  Expr b = input("B", array(f32(), size("M")));
  Expr twice = userFun("twice", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return 2.0f * x;");
  // (stencil of A, map over B of another length)
  Program pair = program({a, b}, tuple({stencil1D(avg3(), a), map(twice, b)}));
  // [(avg, laplace)]N from two stencils of A, and a stencil of one of them
  Program zipped = program({a}, zip({stencil1D(avg3(), a), stencil1D(laplace3(), stencil1D(avg3(), a))}));
  std::map<std::string, int64_t> sizes{{"N", 48}, {"M", 20}};
  int ran = 0;
  for (const Program *program : {&pair, &zipped}) {
    const Program &p = *program;
    Program typed = typeCheck(p, sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 7);
    Value expected = interpret(typed, sizes, inputs);
    // pair with tiled: its stencil tiled, the pointwise map over B plain.
    std::vector<Recipe> recipes{Recipe::Plain, Recipe::Tiled};
    if (program == &zipped) recipes = {Recipe::Plain, Recipe::Tiled, Recipe::Local, Recipe::Coarsened};
    for (Recipe r : recipes) {
      CAPTURE(rewrite::recipeName(r));
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, r), codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      // One kernel per component, each writing its output buffer; zipped's
      // second component reads the first (the same avg3, computed once).
      CHECK(kernel.stages.size() == 2);
      CHECK(kernel.temporaries.empty());
      std::vector<std::string> outputs;
      for (const codegen::KernelArg &arg : kernel.args)
        if (arg.role == codegen::KernelArg::Role::Output) outputs.push_back(arg.name);
      CHECK(outputs == std::vector<std::string>{"out_0", "out_1"});
      if (!context) continue;
      auto mismatch = test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), expected, {});
      CHECK_MESSAGE(!mismatch, *mismatch);
      ++ran;
    }
  }
  if (context) CHECK(ran == 6);
  // A recipe that applies to none of the kernels says so.
  Program pointwise = typeCheck(program({a, b}, tuple({map(twice, a), map(twice, b)})), sizes);
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(pointwise, Recipe::Tiled), doctest::Contains("kernel 1 of 2"),
                       rewrite::RewriteError);
}

TEST_CASE("multistage: components of a result are its scalar positions, stored as a structure of arrays") {
  arith::Expr n = size("N");
  Type pairs = Type::array(Type::tuple({f32(), i32()}), n);
  std::vector<Type> parts = components(pairs);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == array(f32(), n));
  CHECK(parts[1] == array(i32(), n));
  CHECK(components(Type::tuple({array(f32(), n), array(f32(), n, n)})).size() == 2);
  CHECK(components(array(f32(), n)).size() == 1);
  CHECK_FALSE(hasTuple(array(f32(), n)));
  std::mt19937_64 rng(3);
  std::map<std::string, int64_t> sizes{{"N", 5}};
  Value v = Value::random(pairs, sizes, rng);
  std::vector<std::vector<std::byte>> bytes = componentBytes(v, pairs, sizes);
  REQUIRE(bytes.size() == 2);
  CHECK(bytes[0].size() == 20);
  CHECK(fromBytes(bytes[1], parts[1], sizes)[2].scalar() == v[2][1].scalar());
  std::vector<std::byte> all = bytes[0];
  all.insert(all.end(), bytes[1].begin(), bytes[1].end());
  CHECK(!compareValues(v, fromComponentBytes(all, pairs, sizes), {0, 0}));
  all.pop_back();
  CHECK_THROWS_AS(fromComponentBytes(all, pairs, sizes), std::invalid_argument);
}

TEST_CASE("multistage: the launch plan allocates the temporary and binds each stage by name") {
  Program typed = typeCheck(stencilOfStencil1D(), {{"N", 100}});
  codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, Recipe::Plain), codegen::Target::OpenCL);
  tuner::LaunchPlan plan = tuner::planLaunch(kernel, {{"N", 100}}, std::array<size_t, 3>{32, 1, 1}, std::nullopt);
  REQUIRE(plan.buffers.size() == 3);
  CHECK(plan.buffers[0].name == "A");
  CHECK(plan.buffers[1].name == "out");
  CHECK(plan.buffers[2].name == "tmp0");
  CHECK(plan.buffers[2].bytes == 400);
  CHECK_FALSE(plan.buffers[2].input);
  REQUIRE(plan.stages.size() == 2);
  CHECK(plan.stages[0].global[0] == 128);
  CHECK(std::get<tuner::BufferParam>(plan.stages[0].params[0]).buffer == 0); // reads A
  CHECK(std::get<tuner::BufferParam>(plan.stages[0].params[1]).buffer == 2); // writes tmp0
  CHECK(std::get<tuner::BufferParam>(plan.stages[1].params[0]).buffer == 2); // reads tmp0
  CHECK(std::get<tuner::BufferParam>(plan.stages[1].params[1]).buffer == 1); // writes out
}

TEST_CASE("multistage: the CUDA C of every variant compiles with NVRTC, one entry point per stage") {
  std::optional<cuda::NvrtcOptions> options = cuda::test::strictSm90();
  int compiled = 0;
  for (int dims : {1, 2}) {
    std::map<std::string, int64_t> sizes =
        dims == 1 ? std::map<std::string, int64_t>{{"N", 4096}} : std::map<std::string, int64_t>{{"N", 64}, {"M", 64}};
    Program typed = typeCheck(dims == 1 ? stencilOfStencil1D() : stencilOfStencil2D(), sizes);
    for (const Variant &v :
         recipesFor(dims == 1 ? std::vector<int64_t>{4096} : std::vector<int64_t>{64, 64}, dims == 2)) {
      CAPTURE(rewrite::recipeName(v.recipe));
      codegen::Kernel kernel =
          codegen::generateKernel(rewrite::applyRecipe(typed, v.recipe, v.options), codegen::Target::CUDA);
      CAPTURE(kernel.source);
      REQUIRE(kernel.stages.size() == 2);
      if (!options) continue;
      cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *options, "multistage.cu");
      CHECK(ptx.ptx.find(".entry liftcc_kernel_stage0") != std::string::npos);
      CHECK(ptx.ptx.find(".entry liftcc_kernel(") != std::string::npos);
      ++compiled;
    }
  }
  // A result of several arrays.
  Expr a = input("A", array(f32(), size("N")));
  Program zipped = typeCheck(program({a}, zip({stencil1D(avg3(), a), stencil1D(laplace3(), a)})), {{"N", 256}});
  codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(zipped, Recipe::Plain), codegen::Target::CUDA);
  if (options) {
    CHECK(cuda::compileToPtx(kernel.source, *options, "zipped.cu").ptx.find(".entry") != std::string::npos);
    CHECK(compiled == 9);
  }
}

TEST_CASE("multistage: iterate with every recipe, one step or a time tile of 2 and 4 steps per kernel, on the "
          "device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  auto check = [&](const Program &program, const std::map<std::string, int64_t> &sizes, bool stream) {
    Program typed = typeCheck(program, sizes);
    std::vector<int64_t> extents;
    for (const auto &[name, value] : sizes) extents.push_back(value);
    std::vector<Value> inputs = randomInputs(typed, sizes, 17);
    std::optional<Value> expected;
    if (context) expected = interpret(typed, sizes, inputs);
    for (const Variant &v : recipesFor(extents, stream))
      for (int64_t t : {1, 2, 4}) {
        CAPTURE(rewrite::recipeName(v.recipe));
        CAPTURE(t);
        rewrite::RecipeOptions options = v.options;
        options.timeTile = t;
        Program lowered = rewrite::applyRecipe(typed, v.recipe, options);
        REQUIRE(lowered.body().isPrim(Op::Iterate));
        CHECK(iterateCount(lowered.body()).constant() == 4 / t);
        CHECK(countOps(lowered.body(), recipeMark(v.recipe)) >= 1);
        // The earlier steps of a tile are recomputed by the last: t - 1
        // high-level maps left in it for the code generator to read.
        CHECK(countOps(lowered.body(), Op::Map) >= size_t(t - 1));
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(kernel.source);
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count.constant() == 4 / t);
        CHECK(kernel.stages.empty());
        // The traffic model: the compulsory bytes once per launch.
        double compulsory = explore::compulsoryBytesPerOutput(typed, sizes);
        CHECK(compulsory == doctest::Approx(8.0));
        CHECK(explore::modelledBytesPerOutput(kernel, compulsory, sizes,
                                              scalarCount(typed.body().typeOrThrow(), sizes)) ==
              doctest::Approx(8.0 * double(4 / t)));
        if (!context) continue;
        auto mismatch =
            test::deviceMismatch(*context, kernel, sizes, inputs, typed.body().typeOrThrow(), *expected, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
      }
  };
  Expr a = input("A", array(f32(), size("N")));
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(1000)}) {
    CAPTURE(n);
    check(program({a}, iterate(4, fn([](Expr x) { return stencil1D(avg3(), x); }), a)), {{"N", n}}, false);
  }
  Expr b = input("B", array(f32(), size("N"), size("M")));
  check(program({b}, iterate(4, fn([](Expr x) { return stencil2D(jacobi5(), x); }), b)), {{"N", 24}, {"M", 40}}, true);
}

TEST_CASE("multistage: the timeTiled family coarsens every dimension at once, launched beyond wide rows, and "
          "matches the interpreter") {
  Expr b = input("B", array(f32(), size("N"), size("M")));
  Program iterated = program({b}, iterate(4, fn([](Expr x) { return stencil2D(jacobi5(), x); }), b));
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeTiled = options.includeLocal = false;
  options.includeCoarsened = options.includeVector = options.includeMapping = options.includeSpecialised = false;
  options.timeTiles = {2, 4};
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.maxWorkItemSizes = {1024, 1024, 1024};
  Program typed = typeCheck(iterated, {{"N", 64}, {"M", 512}});
  explore::Space space = explore::enumerateSpace(typed, limits, options);
  std::set<std::pair<std::array<int64_t, 3>, int64_t>> programs; // coarsening, time tile
  bool narrowRows = false;
  for (const explore::Variant &v : space.variants) {
    CAPTURE(v.configuration.key());
    CHECK(explore::familyOf(v.configuration) == "timeTiled");
    CHECK(v.configuration.recipe == Recipe::Coarsened);
    programs.insert({v.configuration.coarsen, v.configuration.timeTile});
    // 32 or 16 work-items per row of outputs: wide-row shapes only would
    // keep x >= 16.
    if (v.configuration.local[0] > 0 && v.configuration.local[0] < 16) narrowRows = true;
  }
  using Coarsening = std::array<int64_t, 3>;
  CHECK(programs == std::set<std::pair<Coarsening, int64_t>>{{Coarsening{16, 8, 1}, 2},
                                                             {Coarsening{32, 8, 1}, 2},
                                                             {Coarsening{16, 8, 1}, 4},
                                                             {Coarsening{32, 8, 1}, 4}});
  CHECK(narrowRows);
  CHECK(space.variants.size() <= 4 * (1 + options.timeTiledGroupShapes));

  // The same programs with every dimension coarsened by less (8x4 and 4x2:
  // one code shape, kernels a quarter to a sixteenth the size, which PoCL
  // compiles in seconds rather than minutes under the sanitizers), at sizes
  // the coarsening divides and does not, against the interpreter.
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  std::set<std::pair<Coarsening, int64_t>> smaller;
  for (const auto &[coarsening, t] : programs)
    smaller.insert({coarsening[0] == 16 ? Coarsening{4, 2, 1} : Coarsening{8, 4, 1}, t});
  for (const std::map<std::string, int64_t> &sizes :
       {std::map<std::string, int64_t>{{"N", 40}, {"M", 64}}, std::map<std::string, int64_t>{{"N", 37}, {"M", 53}}}) {
    Program small = typeCheck(iterated, sizes);
    std::vector<Value> inputs = randomInputs(small, sizes, 5);
    Value expected = interpret(small, sizes, inputs);
    for (const auto &[coarsening, t] : smaller) {
      CAPTURE(sizes.at("M"));
      CAPTURE(coarsening[0]);
      CAPTURE(t);
      explore::Configuration c;
      c.recipe = Recipe::Coarsened;
      c.coarsen = coarsening;
      c.timeTile = t;
      codegen::Kernel kernel = explore::makeVariant(small, c).kernel;
      auto mismatch =
          test::deviceMismatch(*context, kernel, sizes, inputs, small.body().typeOrThrow(), expected, {1e-4, 1e-5});
      CHECK_MESSAGE(!mismatch, *mismatch);
    }
  }
}

TEST_CASE("multistage: what is not supported is a clear error") {
  // A stencil of a stencil inside iterate is one kernel (the intermediate
  // fused); a reduction as the intermediate is a kernel of its own
  // (multistage_iterate_stages_test.cpp), never put in private memory per
  // work-item.
  Expr a = input("A", array(f32(), size("N")));
  Program iterated =
      program({a}, iterate(2, fn([](Expr x) { return stencil1D(laplace3(), stencil1D(avg3(), x)); }), a));
  Program typed = typeCheck(iterated, {{"N", 8192}});
  codegen::Kernel fusedStep =
      codegen::generateKernel(rewrite::applyRecipe(typed, Recipe::Plain), codegen::Target::OpenCL);
  CHECK(fusedStep.source.size() < 4096);
  Expr add = userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
  Program summed =
      program({a}, iterate(2, fn([add](Expr x) {
                             return stencil1D(avg3(), join(map(fn([add](Expr w) { return reduce(add, lit(0.0f), w); }),
                                                               slide(3, 1, pad(1, 1, clamp, x)))));
                           }),
                           a));
  codegen::Kernel summedSteps = codegen::generateKernel(
      rewrite::applyRecipe(typeCheck(summed, {{"N", 64}}), Recipe::Plain), codegen::Target::OpenCL);
  CHECK(summedSteps.stages.size() == 2);
  CHECK(summedSteps.iteration);
  // Time tiles must be within the iteration count, and need an iterate.
  rewrite::RecipeOptions three;
  three.timeTile = 3;
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typed, Recipe::Plain, three),
                       doctest::Contains("time tile 3 is deeper than the iteration count 2"), rewrite::RewriteError);
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(typeCheck(stencilOfStencil1D(), {{"N", 64}}), Recipe::Plain, three),
                       doctest::Contains("only a program iterate(n, f, input) is time-tiled"), rewrite::RewriteError);
  // Fused steps recompute their producer at every read, so a time tile's
  // expression grows as 3^t here: 12 steps are refused while the text is
  // still small (5 steps of a 5-point stencil once made a 39 MB line).
  Program deep = program({a}, iterate(12, fn([](Expr x) { return stencil1D(avg3(), x); }), a));
  rewrite::RecipeOptions twelve;
  twelve.timeTile = 12;
  Program deepTile = rewrite::applyRecipe(typeCheck(deep, {{"N", 64}}), Recipe::Plain, twelve);
  CHECK_THROWS_WITH_AS(codegen::generateKernel(deepTile, codegen::Target::OpenCL),
                       doctest::Contains("/body: one output's expression exceeds 1024 KiB of C source"),
                       codegen::CodegenError);
  // The exploration leaves out such a time tile (3^12 reads per output,
  // beyond families::kMaxTimeTileReads) and keeps the others. (The plain
  // family's programs only, as when every family's tile of 12 was generated
  // up to the limit before it was dropped, minutes under the sanitizers.)
  explore::SpaceOptions deepSpace;
  deepSpace.timeTiles = {2, 12};
  deepSpace.includeStream = deepSpace.includeTiled = deepSpace.includeLocal = deepSpace.includeCoarsened = false;
  deepSpace.includeVector = deepSpace.includeMapping = deepSpace.includeSpecialised = false;
  deepSpace.timeTileCoarsenings.clear();
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 1024;
  limits.maxWorkItemSizes = {1024, 1024, 1024};
  explore::Space space = explore::enumerateSpace(typeCheck(deep, {{"N", 64}}), limits, deepSpace);
  std::set<int64_t> timeTiles;
  for (const explore::Variant &v : space.variants) timeTiles.insert(v.configuration.timeTile);
  CHECK(timeTiles.count(2) == 1);
  CHECK(timeTiles.count(12) == 0);
  // Export of several kernels: every stage planned, the temporaries with it.
  Program staged = typeCheck(stencilOfStencil1D(), {{"N", 64}});
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(staged, Recipe::Plain), codegen::Target::OpenCL);
  exporter::ExportPlan plan = exporter::planFromKernel(kernel, "s", {{"N", 64}}, std::nullopt, {});
  CHECK(plan.stages.size() == kernel.stages.size());
  CHECK(plan.temporaries.size() == kernel.temporaries.size());
}

TEST_CASE("multistage: liftc run --check and compile --metadata of a JSON stencil of a stencil and a tuple result") {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "liftcc_multistage_cli";
  std::filesystem::create_directories(dir);
  Expr a = input("A", array(f32(), size("N")));
  std::string twoStage = (dir / "two_stage.json").string(), pair = (dir / "pair.json").string();
  std::ofstream(twoStage) << writeProgram(stencilOfStencil1D());
  std::ofstream(pair) << writeProgram(program({a}, zip({stencil1D(avg3(), a), stencil1D(laplace3(), a)})));
  std::optional<ocl::DeviceInfo> device = ocl::test::testDevice();
  if (device) {
    for (const char *opt : {"plain", "tiled", "local", "coarsened"}) {
      test::LiftcRun run =
          test::runLiftc("run " + test::shellQuote(twoStage) + " --opt " + opt + " --size N=4096 --check --repeat 1");
      CAPTURE(run.output);
      CHECK(run.status == 0);
      CHECK(run.output.find("check: the kernel agrees with the interpreter") != std::string::npos);
    }
    test::LiftcRun run =
        test::runLiftc("run " + test::shellQuote(pair) + " --opt plain --size N=1000 --check --repeat 1");
    CAPTURE(run.output);
    CHECK(run.status == 0);
  }
  // --fuse: one kernel recomputing the intermediate; it needs a recipe.
  if (device) {
    for (const char *opt : {"plain", "local --tile 8", "coarsened --coarsen 4"}) {
      test::LiftcRun run = test::runLiftc("run " + test::shellQuote(twoStage) + " --opt " + opt +
                                          " --fuse --size N=4096 --check --repeat 1");
      CAPTURE(run.output);
      CHECK(run.status == 0);
      CHECK(run.output.find("check: the kernel agrees with the interpreter") != std::string::npos);
    }
  }
  test::LiftcRun fusedMeta = test::runLiftc(
      "compile " + test::shellQuote(twoStage) + " --opt plain --fuse --size N=1000 --metadata " +
      test::shellQuote((dir / "fused.json").string()) + " -o " + test::shellQuote((dir / "fused.cl").string()));
  CAPTURE(fusedMeta.output);
  REQUIRE(fusedMeta.status == 0);
  CHECK_FALSE(nlohmann::json::parse(std::ifstream(dir / "fused.json")).contains("temporaries"));
  test::LiftcRun noRecipe = test::runLiftc("compile " + test::shellQuote(twoStage) + " --fuse --size N=1000");
  CHECK(noRecipe.status != 0);
  CHECK(noRecipe.output.find("--fuse needs --opt") != std::string::npos);
  std::string meta = (dir / "k.json").string(), source = (dir / "k.cl").string();
  test::LiftcRun compile = test::runLiftc("compile " + test::shellQuote(twoStage) + " --opt plain --size N=1000 -o " +
                                          test::shellQuote(source) + " --metadata " + test::shellQuote(meta));
  CAPTURE(compile.output);
  REQUIRE(compile.status == 0);
  nlohmann::json m = nlohmann::json::parse(std::ifstream(meta));
  CHECK(m["stages"].size() == 2);
  CHECK(m["temporaries"][0]["count"] == "1000");
  // eval writes a tuple result as its components one after another.
  std::string out = (dir / "pair.bin").string();
  test::LiftcRun eval = test::runLiftc("eval " + test::shellQuote(pair) + " --size N=10 --input A=random --output " +
                                       test::shellQuote(out));
  CAPTURE(eval.output);
  CHECK(eval.status == 0);
  CHECK(std::filesystem::file_size(out) == 80);
  std::filesystem::remove_all(dir);
}

} // TEST_SUITE("multistage")
} // namespace liftcc
