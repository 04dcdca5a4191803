// Strategies as printable, re-applicable values (explore/strategy_text.h), the
// space as a union of strategy families (explore/space.h), and the mapping
// choices (rewrite/mapping.h), each mapping run on the device against the
// interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "rewrite/mapping.h"
#include "rewrite/recipes.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <set>

namespace liftcc {
namespace {

using explore::Configuration;
using explore::Space;
using explore::SpaceOptions;
using rewrite::Mapping;
using rewrite::Recipe;

std::map<std::string, int64_t> sizesOf(const examples::Example &ex, int64_t extent) {
  std::map<std::string, int64_t> sizes;
  for (const std::string &s : ex.sizeNames) sizes[s] = extent;
  return sizes;
}

Program typedExample(const std::string &name, int64_t extent) {
  const examples::Example &ex = examples::findExample(name);
  return typeCheck(ex.build(), sizesOf(ex, extent));
}

/// A PoCL-like device: 4096 work-items per group, 64 KiB of local memory.
tuner::DeviceLimits roomyLimits() {
  tuner::DeviceLimits limits;
  limits.maxWorkGroupSize = 4096;
  limits.maxWorkItemSizes = {4096, 4096, 4096};
  limits.localMemoryBytes = 65536;
  return limits;
}

/// Every variant's strategy parses back to its configuration and prints the same.
void checkRoundTrips(const Space &space) {
  for (const explore::Variant &v : space.variants) {
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    explore::ParsedStrategy parsed = explore::parseStrategy(text);
    CHECK(parsed.configuration == v.configuration);
    CHECK(explore::strategyText(parsed.configuration, v.kernel.dims) == text);
  }
}

/// Compiling every variant's printed strategy gives the same kernel and launch.
/// A mapGlb kernel that is not specialised takes its work-group shape at
/// launch only, so one compilation per such program serves all its shapes
/// (each shape's text still parses to its own configuration): under the
/// sanitizers compiling each of the ~2,000 texts took 8 minutes.
size_t checkCompilesIdentically(const Program &typed, const Space &space) {
  size_t checked = 0;
  std::map<std::string, explore::Variant> launchedAlike;
  for (const explore::Variant &v : space.variants) {
    std::string text = explore::strategyText(v);
    CAPTURE(text);
    CHECK(explore::parseStrategy(text).configuration == v.configuration);
    Configuration shapeless = v.configuration;
    shapeless.local = {0, 0, 0};
    bool shapeAtLaunch = !v.configuration.specialise && v.configuration.recipe != Recipe::Tiled &&
                         v.configuration.recipe != Recipe::Local;
    std::string program = shapeAtLaunch ? explore::strategyText(shapeless, v.kernel.dims) : text;
    auto known = launchedAlike.find(program);
    if (known == launchedAlike.end())
      known = launchedAlike.emplace(program, explore::variantFromStrategy(typed, text)).first;
    const explore::Variant &rebuilt = known->second;
    if (!shapeAtLaunch) CHECK(rebuilt.configuration == v.configuration);
    CHECK(rebuilt.kernel.source == v.kernel.source);
    CHECK(rebuilt.kernel.buildOptions == v.kernel.buildOptions);
    CHECK(rebuilt.kernel.dims == v.kernel.dims);
    CHECK(rebuilt.kernel.localSize == v.kernel.localSize);
    CHECK(rebuilt.kernel.requiresLocalSize == v.kernel.requiresLocalSize);
    for (int d = 0; d < 3; ++d) CHECK(rebuilt.kernel.globalSize[d] == v.kernel.globalSize[d]);
    ++checked;
  }
  return checked;
}

std::string errorOf(const std::string &text) {
  try {
    explore::parseStrategy(text);
  } catch (const explore::StrategyError &e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("strategy: printed strategies of known configurations") {
  Configuration plain;
  CHECK(explore::strategyText(plain, 2) == "mapGlb(x,y)");
  Configuration c;
  c.recipe = Recipe::Coarsened;
  c.coarsen = {8, 1, 1};
  c.local = {32, 4, 1};
  c.specialise = true;
  c.fastMath = codegen::FastMath::Relaxed;
  CHECK(explore::strategyText(c, 2) ==
        "coarsen(x=8) ; privateWindow ; mapGlb(x,y) ; wg(32,4) ; specialise ; fastMath(relaxed)");
  Configuration local;
  local.recipe = Recipe::Local;
  local.tile = 16;
  local.local = {16, 16, 1};
  local.mapping.ndrange = {1, 0};
  CHECK(explore::strategyText(local, 2) == "tile(16) ; toLocal ; mapWrg(y,x) ; wg(16,16)");
  CHECK(local.key() == "local tile=16 wg=16x16x1 map=y,x");
  CHECK(Configuration::fromJson(local.toJson()) == local);
  // The default mapping leaves key and JSON as they were (stored results stay valid).
  CHECK(plain.key() == "plain");
  CHECK_FALSE(plain.toJson().contains("mapping"));
  Configuration streamed;
  streamed.recipe = Recipe::Stream;
  streamed.mapping.ndrange = {1};
  streamed.divToMul = true;
  CHECK(explore::strategyText(streamed, 1) == "stream ; mapGlb(y) ; divToMul");
  Configuration vectorised = c;
  vectorised.vectorWidth = 4;
  CHECK(explore::strategyText(vectorised, 2) ==
        "coarsen(x=8) ; privateWindow ; vectorize(4) ; mapGlb(x,y) ; wg(32,4) ; specialise ; fastMath(relaxed)");
  CHECK(explore::parseStrategy(explore::strategyText(vectorised, 2)).configuration == vectorised);
  Configuration plainVector;
  plainVector.vectorWidth = 8;
  CHECK(explore::strategyText(plainVector, 2) == "vectorize(8) ; mapGlb(x,y)");
  CHECK(explore::parseStrategy("vectorize(8) ; mapGlb(x,y)").configuration == plainVector);
  CHECK(explore::familyOf(plainVector) == "vector");
  Configuration shaped;
  shaped.recipe = Recipe::Local;
  shaped.tile = 8;
  shaped.tileShape = {32, 4, 1};
  CHECK(explore::strategyText(shaped, 2) == "tile(32,4,1) ; toLocal ; mapWrg(x,y)");
  CHECK(explore::parseStrategy("tile(32,4,1) ; toLocal ; mapWrg(x,y)").configuration == shaped);
  CHECK(explore::parseStrategy("tile(32,4) ; mapWrg(x,y)").configuration.tileShape == std::array<int64_t, 3>{32, 4, 0});
  // Free whitespace, positional coarsening factors and an explicit default.
  explore::ParsedStrategy p =
      explore::parseStrategy("  coarsen( 2 , 4 );globalWindow;mapGlb(x,y) ;wg(8);fastMath(none)");
  CHECK(p.configuration.coarsen == std::array<int64_t, 3>{2, 4, 1});
  CHECK_FALSE(p.configuration.privateWindow);
  CHECK(p.configuration.mapping.isDefault());
  CHECK(p.mappedDimensions == 2);
  CHECK(p.configuration.local == std::array<int64_t, 3>{8, 1, 1});
  CHECK(p.configuration.fastMath == codegen::FastMath::None);
  // Fusion of a multi-kernel program's intermediates comes first.
  Configuration fused = local;
  fused.fuse = true;
  CHECK(explore::strategyText(fused, 2) == "fuse ; tile(16) ; toLocal ; mapWrg(y,x) ; wg(16,16)");
  CHECK(explore::parseStrategy(explore::strategyText(fused, 2)).configuration == fused);
  CHECK(fused.key() == "local tile=16 wg=16x16x1 map=y,x fused");
  CHECK(fused.toJson()["fuse"] == true);
  CHECK(Configuration::fromJson(fused.toJson()) == fused);
  CHECK_FALSE(local.toJson().contains("fuse"));
  CHECK(explore::familyOf(fused) == "fused");
  Configuration timeTiled;
  timeTiled.recipe = Recipe::Coarsened;
  timeTiled.coarsen = {8, 1, 1};
  timeTiled.timeTile = 4;
  CHECK(explore::strategyText(timeTiled, 2) == "timeTile(4) ; coarsen(x=8) ; privateWindow ; mapGlb(x,y)");
  CHECK(explore::parseStrategy(explore::strategyText(timeTiled, 2)).configuration == timeTiled);
  CHECK(timeTiled.key() == "coarsened k=8x1x1 time=4");
  CHECK(Configuration::fromJson(timeTiled.toJson()) == timeTiled);
  CHECK(explore::familyOf(timeTiled) == "timeTiled");
}

TEST_CASE("strategy: malformed text is a one-line error naming the position and what was expected") {
  struct Case {
    std::string text, expected;
  };
  std::vector<Case> cases{
      {"", "at character 1: expected a step"},
      {"mapGlb(x,y) wg(8)", "at character 13: expected ';' between steps, found 'w'"},
      {"tiles(8) ; mapWrg(x,y)",
       "at character 1: expected a lowering (mapGlb, vectorize, tile, coarsen, stream or streamLocal), found 'tiles'"},
      {"tile(0) ; mapWrg(x,y)", "at character 6: expected a number from 1 to 1024 in tile, found '0'"},
      {"tile(8) ; mapGlb(x,y)", "at character 11: expected 'mapWrg' after tile, found 'mapGlb'"},
      {"tile(8)", "at character 8: expected 'mapWrg' after tile, found the end of the text"},
      {"coarsen(x=8) ; mapGlb(x,y)", "at character 16: expected 'privateWindow' or 'globalWindow' after coarsen"},
      {"coarsen(w=8) ; privateWindow ; mapGlb(x)", "at character 9: expected a dimension x, y or z in coarsen"},
      {"mapGlb(x,x)", "at character 10: mapGlb names dimension x twice"},
      {"mapGlb(x,q)", "at character 10: expected a dimension x, y or z in mapGlb, found 'q'"},
      {"mapGlb(x,y", "at character 11: expected ',' or ')' in the arguments of mapGlb, found the end of the text"},
      {"mapGlb(x) ; specialise ; wg(8)",
       "at character 26: expected noinlineBorder, splitBorder, fastMath, divToMul, found 'wg'"},
      {"mapGlb(x) ; specialise ; specialise",
       "at character 26: expected noinlineBorder, splitBorder, fastMath, divToMul, found 'specialise'"},
      {"mapGlb(x) ; splitBorder", "at character 13: splitBorder needs specialise before it"},
      {"mapGlb(x) ; specialise ; splitBorder ; noinlineBorder",
       "at character 40: expected fastMath, divToMul, found 'noinlineBorder'"},
      {"mapGlb(x) ; fastMath(fast)",
       "at character 22: expected none, mad, reassociate or relaxed in fastMath, found 'fast'"},
      {"mapGlb(x) ; wg(8,x)", "at character 18: expected a number from 1 to 4096 in wg, found 'x'"},
      {"mapGlb(x) ; wg()", "at character 13: wg takes 1 to 3 argument(s), e.g. wg(32,4)"},
      {"stream(2) ; mapGlb(x)", "at character 1: stream takes no arguments"},
      {"vectorize(3) ; mapGlb(x)", "at character 11: expected a vector width 2, 4, 8 or 16 in vectorize, found '3'"},
      {"vectorize ; mapGlb(x)", "at character 1: vectorize takes 1 argument(s), e.g. vectorize(4)"},
      {"coarsen(x=8) ; privateWindow ; vectorize(4)",
       "at character 44: expected 'mapGlb' after vectorize, found the end of the text"},
      {"mapGlb(x) ; divToMul ; ", "at character 24: expected a step name, found the end of the text"},
      {"fuse", "at character 5: expected a lowering after fuse, found the end of the text"},
      {"fuse(2) ; mapGlb(x)", "at character 1: fuse takes no arguments"},
      {"fuse ; fuse ; mapGlb(x)",
       "at character 8: expected a lowering (mapGlb, vectorize, tile, coarsen, stream or streamLocal), "
       "found 'fuse'"},
      {"mapGlb(x) ; fuse", "at character 13: expected wg, specialise"},
      {"timeTile(0) ; mapGlb(x)", "at character 10: expected a number from 1 to 64 in timeTile, found '0'"},
      {"timeTile(2)", "at character 12: expected a lowering after timeTile, found the end of the text"},
      {"timeTile ; mapGlb(x)", "at character 1: timeTile takes 1 argument(s), e.g. timeTile(4)"},
  };
  for (const Case &c : cases) {
    CAPTURE(c.text);
    std::string message = errorOf(c.text);
    CHECK_MESSAGE(message.find(c.expected) != std::string::npos, message);
    CHECK(message.rfind("strategy: ", 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.size() < 300);
  }
  // Well-formed, but not for this program: the mapping must name the nest's dimensions.
  Program jacobi = typedExample("jacobi2d_5pt", 32);
  auto failure = [&](const std::string &text) -> std::string {
    try {
      explore::variantFromStrategy(jacobi, text);
    } catch (const Error &e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(failure("mapGlb(x)")
            .find("at character 1: the mapping names 1 dimension(s) but the program's map nest has "
                  "2 (x,y;") != std::string::npos);
  CHECK(failure("mapGlb(x,y,z)").find("the mapping names 3 dimension(s) but the program's map nest has 2") !=
        std::string::npos);
  CHECK(failure("mapGlb(z,y,x)").find("names dimension z but the map nest has 2 dimension(s)") != std::string::npos);
  CHECK(failure("mapGlb(x,y) ; wg(8)") == "(no error)");
  CHECK(failure("tile(8) ; mapWrg(y)").find("tiles on work-groups map every dimension") != std::string::npos);
}

// One test for both, so that each space is enumerated once (enumerating
// generates every kernel: minutes under the sanitizers).
TEST_CASE("strategy: every variant of several spaces prints and parses back to itself, and the printed strategy "
          "of every Jacobi2D and Heat variant compiles to the identical kernel") {
  size_t variants = 0, checked = 0;
  for (const auto &[name, extent] :
       std::vector<std::pair<std::string, int64_t>>{{"jacobi2d_5pt", 16}, {"heat", 8}, {"jacobi1d_3pt", 64}}) {
    CAPTURE(name);
    Program typed = typedExample(name, extent);
    Space space = explore::enumerateSpace(typed, roomyLimits());
    checkRoundTrips(space);
    variants += space.variants.size();
    if (name == "jacobi1d_3pt") continue;
    CHECK(space.variants.size() >= 100);
    checked += checkCompilesIdentically(typed, space);
  }
  MESSAGE(variants, " variants printed and parsed, ", checked, " strategies compiled to their variants' kernels");
  CHECK(variants > 200);
}

TEST_CASE("strategy: the space is a union of families, chosen, excluded and narrowed by parameters") {
  Program typed = typedExample("jacobi2d_5pt", 64);
  Space all = explore::enumerateSpace(typed, roomyLimits());
  std::vector<std::string> names;
  size_t sum = 0;
  for (const explore::FamilySummary &f : all.families) {
    names.push_back(f.name);
    sum += f.variants;
    CHECK(f.variants > 0);
    CHECK(f.programs > 0);
  }
  // Every family but fused, which only programs with intermediate arrays have,
  std::vector<std::string> expected = explore::familyNames();
  std::erase(expected, "fused");
  std::erase(expected, "timeTiled");      // nor timeTiled, which only programs iterate(n, f, A) have
  std::erase(expected, "streamLocal");    // nor streamLocal, off unless selected
  std::erase(expected, "timeTiledLocal"); // nor timeTiledLocal (iterate only, off unless selected)
  std::erase(expected, "timeTiledStream"); // nor timeTiledStream (likewise)
  CHECK(names == expected);
  CHECK(sum == all.variants.size());
  // Deduplicated by kernel and launch, not by configuration.
  std::set<std::string> kernels;
  for (const explore::Variant &v : all.variants) {
    std::string launch = v.kernel.source + "|" + v.kernel.buildOptions;
    for (int64_t l : v.configuration.local) launch += "|" + std::to_string(l);
    for (const arith::Expr &g : v.kernel.globalSize) launch += "|" + g.str();
    kernels.insert(launch);
  }
  CHECK(kernels.size() == all.variants.size());

  SpaceOptions chosen;
  chosen.includeStream = chosen.includeTiled = chosen.includeLocal = chosen.includeMapping = chosen.includeVector =
      false;
  chosen.coarsenFactors = {2, 4};
  Space some = explore::enumerateSpace(typed, roomyLimits(), chosen);
  std::set<std::string> families;
  for (const explore::Variant &v : some.variants) {
    families.insert(explore::familyOf(v.configuration));
    if (v.configuration.recipe == Recipe::Coarsened)
      CHECK(std::max(v.configuration.coarsen[0], v.configuration.coarsen[1]) <= 4);
  }
  CHECK(families == std::set<std::string>{"plain", "coarsened"});
  CHECK(some.variants.size() < all.variants.size());

  // The mapping family alone remaps the recipes' programs (plain's too, although
  // the plain family is excluded): x on NDRange dimension 1, or rows sequential.
  SpaceOptions mappingOnly;
  mappingOnly.includePlain = mappingOnly.includeStream = mappingOnly.includeTiled = mappingOnly.includeLocal =
      mappingOnly.includeCoarsened = mappingOnly.includeVector = false;
  mappingOnly.mappedRecipes = {Recipe::Plain};
  Space mapped = explore::enumerateSpace(typed, roomyLimits(), mappingOnly);
  std::set<std::string> mappings;
  for (const explore::Variant &v : mapped.variants) {
    CHECK(explore::familyOf(v.configuration) == "mapping");
    mappings.insert(v.configuration.mapping.text());
  }
  CHECK(mappings == std::set<std::string>{"y,x", "y"});
  CHECK(mapped.distinctPrograms == 2);
}

TEST_CASE("strategy: Jacobi2D and Heat at their paper sizes have at least 1000 distinct kernels each") {
  // The explorer's space on PoCL (its limits), at the CGO'18 paper's sizes.
  for (const auto &[name, extent] :
       std::vector<std::pair<std::string, int64_t>>{{"jacobi2d_5pt", 4096}, {"heat", 256}}) {
    CAPTURE(name);
    SpaceOptions options;
    options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Relaxed}; // liftc explore's default
    // Heat's space is large without the mapping family, which costs minutes
    // to enumerate under the sanitizers: a subset of the default space, so
    // its count is a lower bound of the default's (deduplication only drops
    // repeated kernels).
    if (name == "heat") options.includeMapping = false;
    auto start = std::chrono::steady_clock::now();
    Space space = explore::enumerateSpace(typedExample(name, extent), roomyLimits(), options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE(name, ": ", space.variants.size(), " distinct kernels from ", space.distinctPrograms,
            " low-level programs (", space.duplicates, " duplicates removed), enumerated in ", seconds, " s");
    CHECK(space.variants.size() >= 1000);
  }
}

TEST_CASE("mapping: alternative mappings of 1, 2 and 3 dimensional nests") {
  CHECK(rewrite::alternativeMappings(1).empty());
  std::vector<std::string> two;
  for (const Mapping &m : rewrite::alternativeMappings(2)) two.push_back(m.text());
  CHECK(two == std::vector<std::string>{"y,x", "y"});
  std::vector<std::string> three;
  for (const Mapping &m : rewrite::alternativeMappings(3)) three.push_back(m.text());
  CHECK(three == std::vector<std::string>{"x,z,y", "y,x,z", "y,z,x", "z,x,y", "z,y,x", "y,z", "z,y", "z"});
  CHECK_THROWS_WITH_AS(Mapping{{0}}.checkFor(2),
                       "mapping x leaves y sequential outside the parallel x: only the innermost dimensions can stay "
                       "sequential",
                       rewrite::RewriteError);
  CHECK(rewrite::canonicalMapping(Mapping{{0, 1}}).isDefault());
  CHECK(Mapping{{1, 0}}.ndrangeDimensionOf(0) == 1);
  CHECK(Mapping{{2}}.ndrangeDimensionOf(0) == std::nullopt);
}

TEST_CASE("mapping: every mapping of the 2D and 3D examples' recipes matches the interpreter on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int ran = 0, kernels = 0;
  std::map<std::string, int> perMapping;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims == 1) continue;
    // Sizes no work-group divides, and a non-cubic 3D grid so that a swapped
    // order shows in the NDRange.
    std::map<std::string, int64_t> sizes;
    for (size_t i = 0; i < ex.sizeNames.size(); ++i)
      sizes[ex.sizeNames[i]] = ex.dims == 2 ? (i ? 20 : 13) : std::vector<int64_t>{6, 5, 7}[i];
    Program typed = typeCheck(ex.build(), sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 5);
    Value expected = interpret(typed, sizes, inputs);
    struct Lowering {
      Recipe recipe;
      int nest; ///< map-nest depth the recipe lowers
    };
    std::vector<Lowering> lowerings{{Recipe::Plain, ex.dims}, {Recipe::Stream, ex.dims - 1}};
    for (const Lowering &l : lowerings)
      for (const Mapping &m : rewrite::alternativeMappings(l.nest)) {
        CAPTURE(ex.name);
        CAPTURE(rewrite::recipeName(l.recipe));
        CAPTURE(m.text());
        rewrite::RecipeOptions options;
        options.mapping = m;
        Program lowered = rewrite::applyRecipe(typed, l.recipe, options);
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        ++kernels;
        ++perMapping[m.text()];
        CHECK(kernel.dims == static_cast<int>(m.ndrange.size()));
        // NDRange dimension k spans nest dimension m.ndrange[k] of the output.
        if (l.recipe == Recipe::Plain) {
          Type t = typed.body().typeOrThrow();
          std::vector<int64_t> extents; // outermost first
          for (; t.isArray(); t = t.arrayElement()) extents.push_back(t.arrayLength().constant());
          for (size_t k = 0; k < m.ndrange.size(); ++k)
            CHECK(kernel.globalSize[k] == arith::Expr(extents[extents.size() - 1 - size_t(m.ndrange[k])]));
        }
        if (!context) continue;
        tuner::OpenCLKernelRunner runner(*context, kernel);
        auto mismatch =
            compareValues(expected, runner.run(sizes, inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
        CHECK_MESSAGE(!mismatch, *mismatch);
        ++ran;
      }
    // Work-group recipes take every order of their dimensions.
    for (const Mapping &m : rewrite::alternativeMappings(ex.dims)) {
      if (static_cast<int>(m.ndrange.size()) < ex.dims) continue;
      CAPTURE(ex.name);
      CAPTURE(m.text());
      rewrite::RecipeOptions options;
      options.mapping = m;
      options.tileOutputs = 1; // divides every extent
      Program lowered = rewrite::applyRecipe(typed, Recipe::Tiled, options);
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      ++kernels;
      if (!context) continue;
      tuner::OpenCLKernelRunner runner(*context, kernel);
      auto mismatch =
          compareValues(expected, runner.run(sizes, inputs, typed.body().typeOrThrow()).output, {1e-4, 1e-5});
      CHECK_MESSAGE(!mismatch, *mismatch);
      ++ran;
    }
  }
  MESSAGE(kernels, " mapped kernels, ", ran, " run on the device");
  for (const char *m : {"y,x", "y", "z,y,x", "x,z,y", "y,z", "z"}) CHECK_MESSAGE(perMapping[m] > 0, m);
  CHECK(kernels >= 100);
}

TEST_CASE("strategy: liftc compile --strategy rebuilds what explore printed; explore --space; errors") {
  test::TempDir dir;
  const std::string program = test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt.json");
  const std::string sizes = " --size N=64,M=48";
  // The same kernel as --opt with the same choices.
  test::LiftcRun byOptions =
      test::runLiftc("compile " + program + sizes + " --opt coarsened --coarsen 4 --mapping y,x");
  REQUIRE(byOptions.status == 0);
  test::LiftcRun byStrategy =
      test::runLiftc("compile " + program + sizes + " --strategy 'coarsen(x=4) ; privateWindow ; mapGlb(y,x)'");
  REQUIRE(byStrategy.status == 0);
  CHECK(byStrategy.output == byOptions.output);
  CHECK(byStrategy.output.find("get_global_id(1)") != std::string::npos);

  std::string metadata = (dir.path() / "k.json").string();
  test::LiftcRun withLaunch =
      test::runLiftc("compile " + program + sizes + " --strategy 'mapGlb(y) ; wg(16)' -o " +
                     test::shellQuote((dir.path() / "k.cl").string()) + " --metadata " + test::shellQuote(metadata));
  REQUIRE(withLaunch.status == 0);
  nlohmann::json m = nlohmann::json::parse(test::readFile(metadata));
  CHECK(m["strategy"] == "mapGlb(y) ; wg(16)");
  CHECK(m["launchLocalSize"] == nlohmann::json::array({16, 1, 1}));
  CHECK(m["dims"] == 1);

  test::LiftcRun bad = test::runLiftc("compile " + program + sizes + " --strategy 'coarsen(x=4) ; mapGlb(x,y)'");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("liftc: error: --strategy: strategy: at character 16: expected 'privateWindow' or "
                        "'globalWindow' after coarsen") != std::string::npos);
  test::LiftcRun mixed = test::runLiftc("compile " + program + sizes + " --strategy 'mapGlb(x,y)' --opt plain");
  CHECK(mixed.status == 2);
  CHECK(mixed.output.find("cannot be combined with --opt") != std::string::npos);
  test::LiftcRun badMapping = test::runLiftc("compile " + program + sizes + " --opt plain --mapping y,w");
  CHECK(badMapping.status == 2);
  CHECK(badMapping.output.find("--mapping takes dimensions x, y and z, found 'w'") != std::string::npos);

  if (!ocl::test::testDevice()) return;
  // run --strategy checks the kernel against the interpreter.
  test::LiftcRun run =
      test::runLiftc("run " + program + sizes + " --check --strategy 'mapGlb(y,x) ; wg(4,8) ; specialise'");
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("check: the kernel agrees with the interpreter") != std::string::npos);

  // explore --space: families, their parameters and sizes, nothing measured.
  std::string out = (dir.path() / "results").string();
  test::LiftcRun space = test::runLiftc("explore " + program + sizes + " --space --families plain,coarsened,mapping " +
                                        "--param coarsen=2,4 --param mapped=plain --out " + test::shellQuote(out));
  CHECK_MESSAGE(space.status == 0, space.output);
  CHECK(space.output.find("plain ") != std::string::npos);
  CHECK(space.output.find("coarsen=2,4;") != std::string::npos);
  CHECK(space.output.find("mapped=plain;") != std::string::npos);
  CHECK(space.output.find("tiled ") == std::string::npos);
  CHECK(space.output.find("total") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  test::LiftcRun unknown = test::runLiftc("explore " + program + sizes + " --space --families plain,fancy");
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find(
            "--families takes families plain, stream, streamLocal, tiled, local, coarsened, vector, mapping, "
            "fused, timeTiled, timeTiledLocal and timeTiledStream, found 'fancy'") != std::string::npos);
  test::LiftcRun derivedOnly = test::runLiftc("explore " + program + sizes + " --space --families fused,timeTiled");
  CHECK(derivedOnly.status == 2);
  CHECK_MESSAGE(derivedOnly.output.find("--families: fused and timeTiled re-apply the other selected families") !=
                    std::string::npos,
                derivedOnly.output);
  test::LiftcRun badParam = test::runLiftc("explore " + program + sizes + " --space --param tiles=4");
  CHECK(badParam.status == 2);
  CHECK(badParam.output.find("--param: unknown parameter 'tiles'") != std::string::npos);
  test::LiftcRun badShape = test::runLiftc("explore " + program + sizes + " --space --param timeTileCoarsen=16x8x8x2");
  CHECK(badShape.status == 2);
  CHECK_MESSAGE(badShape.output.find("--param timeTileCoarsen takes shapes X[xY[xZ]], found '16x8x8x2'") !=
                    std::string::npos,
                badShape.output);
  // An iterated program: the timeTiled family with its parameters.
  const std::string iterated =
      test::shellQuote(std::string(LIFTCC_SOURCE_DIR) + "/examples/json/jacobi2d_5pt_iter16.json");
  test::LiftcRun timeTiled = test::runLiftc("explore " + iterated + sizes +
                                            " --space --families plain,timeTiled --param timeTileCoarsen=8x4 "
                                            "--param timeTiledShapes=3");
  CHECK_MESSAGE(timeTiled.status == 0, timeTiled.output);
  CHECK_MESSAGE(timeTiled.output.find("timeTileCoarsen=8x4x1") != std::string::npos, timeTiled.output);
  CHECK(timeTiled.output.find("timeTiledShapes=3") != std::string::npos);

  // A short exploration stores each record's strategy; the printed best
  // strategy compiles to the best kernel.
  test::LiftcRun explored =
      test::runLiftc("explore " + program + sizes + " --families mapping --param mapped=plain --param wg=16 " +
                     "--fast-math none --evals 3 --runs 1 --quiet --out " + test::shellQuote(out));
  REQUIRE_MESSAGE(explored.status == 0, explored.output);
  size_t at = explored.output.find("strategy: ");
  REQUIRE(at != std::string::npos);
  std::string strategy = explored.output.substr(at + 10, explored.output.find('\n', at) - at - 10);
  CHECK(strategy.find("mapGlb(y") == 0);
  std::vector<std::string> stores;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(out))
    if (entry.path().extension() == ".jsonl") stores.push_back(entry.path().string());
  REQUIRE(stores.size() == 1);
  search::ResultStore store(stores[0], search::ResultStore::Access::Read);
  // The mapping family's baseline (its first candidate: no plain default in
  // this space), then the three of --evals.
  CHECK_MESSAGE(explored.output.find("baselines: 1 of 1 evaluated") != std::string::npos, explored.output);
  REQUIRE(store.records().size() == 1 + 3);
  for (const search::Record &r : store.records()) {
    CHECK(r.strategy.find("mapGlb(") == 0);
    CHECK(r.key.find(" map=") != std::string::npos);
  }
  test::LiftcRun best = test::runLiftc("best " + test::shellQuote(out));
  CHECK(best.output.find("// strategy " + strategy) != std::string::npos);
  test::LiftcRun rebuilt = test::runLiftc("compile " + program + sizes + " --strategy " + test::shellQuote(strategy));
  REQUIRE(rebuilt.status == 0);
  CHECK(best.output.find(rebuilt.output) != std::string::npos);
}

} // namespace liftcc
