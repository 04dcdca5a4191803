// Rewrite rules preserve semantics: both sides are executed (interpreter, and
// the lowered results on the OpenCL device) on random inputs.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <random>

namespace liftcc {
namespace {

using namespace api;

Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}
Expr twice() { return userFun("twice", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return 2.0f * x;"); }
Expr plusOne() { return userFun("plusOne", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return x + 1.0f;"); }

void checkSameResults(const Program &before, const Program &after, const std::map<std::string, int64_t> &sizes,
                      uint64_t seed = 3) {
  std::vector<Value> inputs = randomInputs(before, sizes, seed);
  Value a = interpret(before, sizes, inputs), b = interpret(after, sizes, inputs);
  auto mismatch = compareValues(a, b, {1e-5, 1e-6});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// Applies `rule` at every location where it matches and checks each result.
int checkRuleEverywhere(const Program &program, const rewrite::Rule &rule,
                        const std::map<std::string, int64_t> &sizes) {
  Program typed = typeCheck(program, sizes);
  std::vector<std::string> locations = rewrite::applicableLocations(typed, rule);
  for (const std::string &loc : locations) {
    CAPTURE(rule.name);
    CAPTURE(loc);
    Program rewritten = rewrite::applyRule(typed, rule, loc);
    checkSameResults(typed, rewritten, sizes);
  }
  return static_cast<int>(locations.size());
}

} // namespace

TEST_CASE("rewrite: algorithmic rules on small programs") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  std::map<std::string, int64_t> sizes{{"N", 16}};
  Program twoMaps = program({a}, map(twice(), map(plusOne(), a)));
  CHECK(checkRuleEverywhere(twoMaps, rewrite::mapFusion(), sizes) == 1);
  CHECK(checkRuleEverywhere(twoMaps, rewrite::splitJoin(4), sizes) == 2);
  CHECK(checkRuleEverywhere(program({a}, map([](Expr w) { return reduce(add(), lit(0.0f), w); }, slide(3, 1, a))),
                            rewrite::mapFission(), sizes) >= 0);
  CHECK(checkRuleEverywhere(program({a}, map(twice(), join(split(4, a)))), rewrite::joinSplit(), sizes) == 1);
  Size m = size("M");
  Expr b = input("B", array(f32(), n, m));
  CHECK(checkRuleEverywhere(program({b}, map([](Expr r) { return map(twice(), r); }, transpose(transpose(b)))),
                            rewrite::transposeTranspose(), {{"N", 3}, {"M", 5}}) == 1);
  CHECK(checkRuleEverywhere(program({b}, map([](Expr r) { return map(twice(), r); }, split(5, join(b)))),
                            rewrite::splitJoinCancel(), {{"N", 3}, {"M", 5}}) == 1);
  CHECK(checkRuleEverywhere(program({a}, reduce(add(), lit(0.0f), map(twice(), a))), rewrite::reduceMapFusion(),
                            sizes) == 1);
  Program windows =
      program({a}, map([](Expr w) { return reduce(add(), lit(0.0f), w); }, slide(3, 1, pad(1, 1, clamp, a))));
  CHECK(checkRuleEverywhere(windows, rewrite::slideWidening(4), sizes) == 1);
  CHECK(checkRuleEverywhere(windows, rewrite::slideWidening(3), sizes) == 0); // 16 windows do not split into 3s
}

TEST_CASE("rewrite: overlapped tiling in 1, 2 and 3 dimensions, with zipped inputs") {
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    std::map<std::string, int64_t> sizes;
    for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 3 ? 8 : 16;
    int applied = checkRuleEverywhere(ex.build(), rewrite::overlappedTiling(ex.dims, 4), sizes);
    CHECK_MESSAGE(applied >= 1, ex.name, " does not tile");
  }
}

TEST_CASE("rewrite: a tile size dividing only some dimensions tiles all of them (partial tiles); with symbolic sizes "
          "the local recipe refuses clearly") {
  // 18 outputs are not divisible by 8: the last tile of each row is partial,
  // and both dimensions are tiled (so the local copy applies).
  std::map<std::string, int64_t> sizes{{"N", 16}, {"M", 18}};
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), sizes);
  rewrite::RecipeOptions options;
  options.tileOutputs = 8;
  Program tiled = rewrite::applyRecipe(typed, rewrite::Recipe::Tiled, options);
  checkSameResults(typed, tiled, sizes);
  Program partialLocal = rewrite::applyRecipe(typed, rewrite::Recipe::Local, options);
  checkSameResults(typed, partialLocal, sizes);
  // With a symbolic M only the rows tile, as rows of neighbourhoods, which no
  // local copy may materialise (it used to copy each row's view and fail in codegen).
  Program p = examples::findExample("jacobi2d_5pt").build();
  Program symbolic = typeCheck(p, {{"N", 16}});
  CHECK_THROWS_WITH_AS(rewrite::applyRecipe(symbolic, rewrite::Recipe::Local, options),
                       doctest::Contains("give concrete sizes"), rewrite::RewriteError);
  sizes["M"] = 16;
  Program square = typeCheck(examples::findExample("jacobi2d_5pt").build(), sizes);
  Program local = rewrite::applyRecipe(square, rewrite::Recipe::Local, options);
  CHECK(codegen::generateKernel(local, codegen::Target::OpenCL).source.find("local float") != std::string::npos);
}

TEST_CASE("rewrite: applying a rule where it does not match is an error naming the rule and location") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Program p = typeCheck(program({a}, map(twice(), a)));
  CHECK_THROWS_WITH_AS(rewrite::applyRule(p, rewrite::mapFusion(), "/body"), doctest::Contains("mapFusion"),
                       rewrite::RewriteError);
  CHECK_THROWS_AS(rewrite::applyRule(p, rewrite::mapFusion(), "/body/nowhere"), rewrite::RewriteError);
}

TEST_CASE("rewrite: strategies compose") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Program p = typeCheck(program({a}, map(twice(), map(plusOne(), map(twice(), a)))), {{"N", 8}});
  auto fused = rewrite::applyStrategy(p, rewrite::normalize(rewrite::mapFusion()));
  REQUIRE(fused);
  // All three maps fused into one.
  CHECK(!inputOf(fused->body()).isPrim(Op::Map));
  checkSameResults(p, *fused, {{"N", 8}});
  CHECK(!rewrite::applyStrategy(p, rewrite::topDown(rewrite::transposeTranspose())));
  CHECK(rewrite::applyStrategy(p, rewrite::attempt(rewrite::Strategy(rewrite::transposeTranspose()))));
  CHECK(rewrite::applyStrategy(p, rewrite::at("/in", rewrite::Strategy(rewrite::mapFusion()))));
  CHECK(!rewrite::applyStrategy(p, rewrite::all(rewrite::Strategy(rewrite::mapFusion()))));
  CHECK(rewrite::applyStrategy(p, rewrite::bottomUp(rewrite::Strategy(rewrite::mapFusion()))));
  CHECK(rewrite::applyStrategy(p, rewrite::some(rewrite::Strategy(rewrite::mapFusion()))));
  CHECK(rewrite::applyStrategy(p, rewrite::one(rewrite::Strategy(rewrite::mapFusion()))));
  CHECK(rewrite::applyStrategy(
      p, rewrite::seq(rewrite::Strategy(rewrite::mapFusion()), rewrite::Strategy(rewrite::mapFusion()))));
}

TEST_CASE("rewrite: random walks over the examples preserve semantics") {
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::mt19937_64 rng(4242);
  int walks = 0, steps = 0, executed = 0, exhausted = 0, overLimits = 0;
  std::map<std::string, int> applications; // per rule: a rule that silently stopped matching shows up here
  std::optional<ocl::Context> context = ocl::test::testContext();
  // The examples, and three small programs with the patterns of the rules
  // that no example produces (join(split), transpose(transpose), reduce(map)).
  struct Start {
    std::string name;
    Program program;
    std::map<std::string, int64_t> sizes;
  };
  std::vector<Start> starts;
  for (const examples::Example &ex : examples::allExamples()) {
    std::map<std::string, int64_t> sizes;
    // Sizes that the smaller tiles (and the vector width 4) divide and the
    // larger ones do not: tiles of 8 in 12, 16 in 24 are partial.
    for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 1 ? 24 : 12;
    starts.push_back({ex.name, ex.build(), sizes});
  }
  Size n = size("N"), m = size("M");
  Expr a = input("A", array(f32(), n)), b = input("B", array(f32(), n, m));
  starts.push_back({"join(split)", program({a}, map(twice(), join(split(4, a)))), {{"N", 32}}});
  starts.push_back({"transpose(transpose)",
                    program({b}, map([](Expr r) { return map(twice(), r); }, transpose(transpose(b)))),
                    {{"N", 8}, {"M", 16}}});
  // (The mapped function is a view, as in the examples: a reduction over a
  // computed map would need a materialised array the plain recipe does not make.)
  starts.push_back(
      {"reduce(map)",
       program(
           {b},
           map([](Expr r) { return reduce(add(), lit(0.0f), map([](Expr t) { return get(0, t); }, zip(r, r))); }, b)),
       {{"N", 8}, {"M", 16}}});
  for (const Start &start : starts) {
    const std::map<std::string, int64_t> &sizes = start.sizes;
    Program original = typeCheck(start.program, sizes);
    for (int walk = 0; walk < 14; ++walk, ++walks) {
      Program current = original;
      for (int step = 0; step < 4; ++step) {
        std::shuffle(rules.begin(), rules.end(), rng);
        bool applied = false;
        for (const rewrite::Rule &rule : rules) {
          std::vector<std::string> locations = rewrite::applicableLocations(current, rule);
          if (locations.empty()) continue;
          std::string loc = locations[rng() % locations.size()];
          CAPTURE(start.name);
          CAPTURE(rule.name);
          CAPTURE(loc);
          auto takes = [](const Program &p) {
            int count = 0;
            transformBottomUp(p.body(), [&](const Expr &e) -> Expr {
              count += e.isPrim(Op::Take);
              return e;
            });
            return count;
          };
          int takesBefore = takes(current);
          current = rewrite::applyRule(current, rule, loc);
          ++steps;
          ++applications[rule.name];
          // A tiling whose tile does not divide the extent: partial tiles.
          if (takes(current) > takesBefore) ++applications["(partial tiles)"];
          applied = true;
          break;
        }
        // Only a streamed stencil may leave nothing to rewrite: slideSeq over
        // a user function (jacobi1d_3pt after slideSeqIntroduction).
        if (!applied) {
          CAPTURE(start.name);
          CHECK(containsNode(current.body(), [](const Expr &e) { return e.isPrim(Op::SlideSeq); }));
          ++exhausted;
        }
      }
      CAPTURE(start.name);
      INFO(printProgram(current));
      checkSameResults(original, current, sizes, walk);
      // The walk's end point still lowers to a kernel, unless the kernel
      // would exceed a resource limit (e.g. a partial tile far wider than the
      // output, then streamed: a window too large for private memory).
      Program lowered = rewrite::applyRecipe(current, rewrite::Recipe::Plain);
      std::optional<codegen::Kernel> kernel;
      try {
        kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      } catch (const codegen::CodegenError &e) {
        std::string message = e.what();
        CHECK_MESSAGE(message.find("fit in private memory") != std::string::npos, message);
        ++overLimits;
        continue;
      }
      if (context && walk % 7 == 0) {
        // ... and the kernel computes what the original program computes.
        tuner::OpenCLKernelRunner runner(*context, *kernel);
        std::vector<Value> inputs = randomInputs(original, sizes, 11);
        Value expected = interpret(original, sizes, inputs);
        auto mismatch =
            compareValues(expected, runner.run(sizes, inputs, original.body().typeOrThrow()).output, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
        ++executed;
      }
    }
  }
  MESSAGE(walks, " random walks, ", steps, " rule applications, ", executed, " lowered end points run on the device, ",
          overLimits, " end points beyond a resource limit");
  CHECK(overLimits <= walks / 20);
  CHECK(walks >= 200);
  std::string counts;
  for (const auto &[name, count] : applications) counts += name + "=" + std::to_string(count) + " ";
  MESSAGE("applications per rule: ", counts);
  CHECK(steps + exhausted == 4 * walks); // every step found a rule, or the walk had streamed everything
  CHECK(exhausted <= 4);
  // Instances whose parameter exceeds the walks' sizes (e.g. splitJoin(64) of
  // 24 elements, 3D tiles of 16 in a 12^3 grid) cannot apply there; each must
  // still apply to some example at sizes that fit it (type-checked, not
  // interpreted: the walks check the same rule with smaller parameters).
  int walked = 0, roomy = 0;
  for (const rewrite::Rule &rule : rules) {
    if (applications[rule.name] > 0) {
      ++walked;
      continue;
    }
    bool applies = false;
    for (const examples::Example &ex : examples::allExamples()) {
      std::map<std::string, int64_t> sizes;
      for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 3 ? 64 : ex.dims == 2 ? 128 : 256;
      if (!rewrite::applicableLocations(typeCheck(ex.build(), sizes), rule).empty()) {
        applies = true;
        break;
      }
    }
    CHECK_MESSAGE(applies, rule.name, " applies nowhere");
    roomy += applies;
  }
  MESSAGE(walked, " rules applied in the walks, ", roomy, " more only at larger sizes");
  // Coarsening added 4 tilings with one-output-wide dimensions; streaming 3 rules;
  // vectorisation 3 (vectorizeStencil1D/2D/3D(4)).
  // (The walks are deterministic: counts change whenever the catalogue does.)
  CHECK(walked == 33);
  CHECK(roomy == 7);
  for (const char *streaming : {"slideSeqIntroduction", "streamOuterDimension2D", "streamOuterDimension3D"})
    CHECK_MESSAGE(applications[streaming] > 0, streaming, " never applied in the walks");
  for (const char *vectorising : {"vectorizeStencil1D(4)", "vectorizeStencil2D(4)", "vectorizeStencil3D(4)"})
    CHECK_MESSAGE(applications[vectorising] > 0, vectorising, " never applied in the walks");
  // Tilings at sizes their tile does not divide (tiles of 8 in 12x12 and
  // 12^3 grids, of 16 in 24) apply with partial tiles; tiles wider than the
  // output (16 or 32 in 12) do not apply.
  CHECK(applications["(partial tiles)"] >= 10);
}

} // namespace liftcc

namespace liftcc {

TEST_CASE("rewrite: random walks ending in every mapping of the map nest preserve semantics (per-mapping counts)") {
  // The mapping rules (rewrite/mapping.h: mapToGlb(k) on the NDRange dimension
  // a mapping gives each nest dimension, mapToSeq for those it leaves
  // sequential) at the end of short random walks: every alternative mapping
  // of 2D and 3D nests must apply, and each end point must compute what the
  // original computes (the interpreter, every fifth on the device).
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::mt19937_64 rng(77);
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::map<std::string, int> applications; // "mapGlb(y,x)" -> walks that ended in it
  int walks = 0, executed = 0;
  std::map<int, int> turn; // per nest depth: walks ended so far
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims == 1) continue;
    std::map<std::string, int64_t> sizes;
    for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 3 ? 8 : 16;
    Program original = typeCheck(ex.build(), sizes);
    for (int walk = 0; walk < 9; ++walk, ++walks) {
      Program current = original;
      for (int step = 0; step < 2; ++step) {
        std::shuffle(rules.begin(), rules.end(), rng);
        for (const rewrite::Rule &rule : rules) {
          std::vector<std::string> locations = rewrite::applicableLocations(current, rule);
          if (locations.empty()) continue;
          current = rewrite::applyRule(current, rule, locations[rng() % locations.size()]);
          break;
        }
      }
      CAPTURE(ex.name);
      INFO(printProgram(current));
      // The nest the plain lowering maps, and one of its mappings in turn.
      int depth =
          codegen::generateKernel(rewrite::applyRecipe(current, rewrite::Recipe::Plain), codegen::Target::OpenCL).dims;
      std::vector<rewrite::Mapping> mappings = rewrite::alternativeMappings(depth);
      mappings.insert(mappings.begin(), rewrite::Mapping{});
      // In turn per nest depth, so that every mapping ends some walk.
      const rewrite::Mapping &mapping = mappings[static_cast<size_t>(turn[depth]++) % mappings.size()];
      rewrite::RecipeOptions options;
      options.mapping = mapping;
      CAPTURE(mapping.text());
      Program lowered = rewrite::applyRecipe(current, rewrite::Recipe::Plain, options);
      ++applications["mapGlb(" + (mapping.isDefault() ? rewrite::defaultMappingText(depth) : mapping.text()) + ")"];
      checkSameResults(original, lowered, sizes, walk);
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      CHECK(kernel.dims == (mapping.isDefault() ? depth : static_cast<int>(mapping.ndrange.size())));
      if (context && walks % 5 == 0) {
        tuner::OpenCLKernelRunner runner(*context, kernel);
        std::vector<Value> inputs = randomInputs(original, sizes, 11);
        auto mismatch = compareValues(interpret(original, sizes, inputs),
                                      runner.run(sizes, inputs, original.body().typeOrThrow()).output, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
        ++executed;
      }
    }
  }
  std::string counts;
  for (const auto &[name, count] : applications) counts += name + "=" + std::to_string(count) + " ";
  MESSAGE(walks, " walks ending in a mapping, ", executed, " run on the device; per mapping: ", counts);
  // Every mapping of 2D and 3D nests (the default ones included) ended some walk.
  for (int depth : {2, 3}) {
    std::vector<std::string> names{"mapGlb(" + rewrite::defaultMappingText(depth) + ")"};
    for (const rewrite::Mapping &m : rewrite::alternativeMappings(depth)) names.push_back("mapGlb(" + m.text() + ")");
    for (const std::string &name : names) CHECK_MESSAGE(applications[name] > 0, name);
  }
}

} // namespace liftcc
