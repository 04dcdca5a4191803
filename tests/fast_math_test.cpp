// Fast math as a tuning choice: build options carried by the kernel, division
// by constants as multiplication, and verification tolerances that let the
// relaxed kernels pass but not a wrong one.

#include "codegen/fast_math.h"
#include "codegen/generate.h"
#include "core/cfun/function.h"
#include "core/cfun/printer.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/configuration.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "exporter/export_plan.h"
#include "exporter/opencl_host.h"
#include "rewrite/recipes.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

namespace liftcc {
namespace {

std::map<std::string, int64_t> smallSizes(const examples::Example &ex) {
  std::vector<int64_t> extents = ex.dims == 1   ? std::vector<int64_t>{37}
                                 : ex.dims == 2 ? std::vector<int64_t>{13, 21}
                                                : std::vector<int64_t>{5, 7, 9};
  std::map<std::string, int64_t> sizes;
  for (size_t i = 0; i < ex.sizeNames.size(); ++i) sizes[ex.sizeNames[i]] = extents[i % extents.size()];
  return sizes;
}

codegen::Kernel plainKernel(const Program &typed, codegen::Target target, codegen::FastMath level, bool divToMul) {
  codegen::CodegenOptions options;
  options.fastMath = level;
  options.divToMul = divToMul;
  return codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), target, options);
}

float scalarOf(const Scalar &s) { return static_cast<float>(s.toDouble()); }

} // namespace

TEST_SUITE("fast math") {
TEST_CASE("fast math: levels, build options and the tolerance they permit") {
  CHECK(codegen::parseFastMath("relaxed") == codegen::FastMath::Relaxed);
  CHECK_FALSE(codegen::parseFastMath("fast"));
  CHECK(codegen::buildOptionsFor(codegen::FastMath::None, codegen::Target::OpenCL).empty());
  CHECK(codegen::buildOptionsFor(codegen::FastMath::Mad, codegen::Target::OpenCL) == "-cl-mad-enable");
  CHECK(codegen::buildOptionsFor(codegen::FastMath::Relaxed, codegen::Target::OpenCL) == "-cl-fast-relaxed-math");
  CHECK(codegen::buildOptionsFor(codegen::FastMath::Relaxed, codegen::Target::CUDA) == "--use_fast_math");
  // Exact builds are checked as tightly as before.
  Tolerance exact = codegen::fastMathTolerance(codegen::FastMath::None, false);
  CHECK(exact.relative == 1e-4);
  CHECK(exact.absolute == 1e-5);
  CHECK(exact.magnitude == 0);
  CHECK(codegen::fastMathTolerance(codegen::FastMath::Relaxed, false).magnitude >
        codegen::fastMathTolerance(codegen::FastMath::Mad, false).magnitude);
}

TEST_CASE("fast math: the magnitude tolerance accepts cancellation error, never a wrong value") {
  // Values of magnitude 100 and one that cancelled to almost zero.
  auto grid = [](float last) {
    return Value::array({Value(Scalar::ofFloat(100.0f)), Value(Scalar::ofFloat(-80.0f)), Value(Scalar::ofFloat(last))});
  };
  Tolerance relaxed = codegen::fastMathTolerance(codegen::FastMath::Relaxed, true);
  Tolerance exact = codegen::fastMathTolerance(codegen::FastMath::None, false);
  // A reassociated sum of terms near 100: an error of a few ulps of 100 (1e-5 each).
  CHECK(compareValues(grid(1e-6f), grid(4e-5f), exact));
  CHECK_FALSE(compareValues(grid(1e-6f), grid(4e-5f), relaxed));
  // A bug's error (1% of the magnitude, or a wrong element) still fails.
  CHECK(compareValues(grid(1e-6f), grid(1.0f), relaxed));
  CHECK(compareValues(grid(0.5f), grid(0.6f), relaxed));
}

TEST_CASE("fast math: every example's plain kernel passes verification at every level on PoCL") {
  auto context = ocl::test::testContext();
  for (const examples::Example &ex : examples::allExamples())
    for (codegen::FastMath level :
         {codegen::FastMath::None, codegen::FastMath::Mad, codegen::FastMath::Reassociate, codegen::FastMath::Relaxed})
      for (bool divToMul : {false, true}) {
        if (level != codegen::FastMath::Relaxed && divToMul) continue; // mad + div-to-mul adds nothing new here
        CAPTURE(ex.name);
        CAPTURE(codegen::fastMathName(level));
        CAPTURE(divToMul);
        auto sizes = smallSizes(ex);
        Program typed = typeCheck(ex.build(), sizes);
        codegen::Kernel kernel = plainKernel(typed, codegen::Target::OpenCL, level, divToMul);
        CHECK(kernel.buildOptions == codegen::buildOptionsFor(level, codegen::Target::OpenCL));
        // reassociate changes the source, not the build: no buildOptions.
        CHECK(codegen::kernelMetadata(kernel).contains("buildOptions") ==
              (level == codegen::FastMath::Mad || level == codegen::FastMath::Relaxed));
        if (!context) continue;
        tuner::OpenCLKernelRunner runner(*context, kernel);
        std::vector<Value> inputs = randomInputs(typed, sizes, 5);
        Value expected = interpret(typed, sizes, inputs);
        Value actual = runner.run(sizes, inputs, typed.body().typeOrThrow()).output;
        auto mismatch = compareValues(expected, actual, codegen::fastMathTolerance(level, divToMul));
        CHECK_MESSAGE(!mismatch, *mismatch);
      }
}

TEST_CASE("fast math: division by a constant as multiplication keeps the value within the documented bound") {
  using cfun::Function;
  Function f =
      Function::compile("f", {{"x", ScalarKind::Float}, {"y", ScalarKind::Float}}, ScalarKind::Float,
                        "float t = x / 118.0f;\nt /= 4;\nint k = 7 / 2;\nreturn t + y / 0.25f + k / 3 - x / y;");
  Function g = f.divisionsAsMultiplications();
  // Every floating division by a constant went; integer ones and x / y stay.
  CHECK(g.body().find("/ 118") == std::string::npos);
  CHECK(g.body().find("* (0.25f)") != std::string::npos); // t /= 4 is t * 0.25f
  CHECK(g.body().find("* (4.0f)") != std::string::npos);  // y / 0.25f is y * 4
  CHECK(g.body().find("/ y") != std::string::npos);
  // Nothing to rewrite: the very same function, verbatim body included.
  Function h = Function::compile("h", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return x / x + 3 / 2;");
  CHECK(h.divisionsAsMultiplications().body() == h.body());

  // Property: over random divisors and operands, powers of two are exact,
  // other constants within 3 * 2^-24 relative of the division (float) and
  // 3 * 2^-53 (double).
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-20, 20), sign(0, 1);
  auto randomFloat = [&] { return (sign(rng) ? -1.0f : 1.0f) * std::ldexp(mantissa(rng), exponent(rng)); };
  for (int trial = 0; trial < 300; ++trial) {
    bool powerOfTwo = trial % 3 == 0;
    float c = powerOfTwo ? std::ldexp(1.0f, exponent(rng)) : randomFloat();
    char literal[64];
    std::snprintf(literal, sizeof literal, "%.9g", c);
    std::string text = literal;
    if (text.find_first_of(".e") == std::string::npos) text += ".0"; // 4 -> 4.0f: C has no "4f"
    std::snprintf(literal, sizeof literal, "%sf", text.c_str());
    bool asDouble = trial % 5 == 4;
    std::string body = asDouble ? std::string("double d = x; return (float)(d / ") + literal + ");" // double division
                                : std::string("float t = x * 2.0f - 1.0f; t /= ") + literal + "; return t;";
    CAPTURE(body);
    Function original = Function::compile("q", {{"x", ScalarKind::Float}}, ScalarKind::Float, body);
    Function rewritten = original.divisionsAsMultiplications();
    REQUIRE(rewritten.body() != original.body());
    for (int k = 0; k < 20; ++k) {
      float x = randomFloat();
      float a = scalarOf(original.call({Scalar::ofFloat(x)})), b = scalarOf(rewritten.call({Scalar::ofFloat(x)}));
      CAPTURE(x);
      if (powerOfTwo)
        CHECK(a == b);
      else
        CHECK(std::fabs(a - b) <= 3 * std::ldexp(1.0, -24) * std::fabs(a) + 1e-30);
    }
  }
}

TEST_CASE("fast math: reassociate regroups long sums into chains, keeping their terms and signs") {
  using cfun::Function;
  auto floats = [](int n) {
    std::vector<cfun::Param> params;
    for (int i = 0; i < n; ++i) params.push_back({"v" + std::to_string(i), ScalarKind::Float});
    return params;
  };
  // A weighted chain as the examples write it, with subtractions, a nested
  // sum inside a product, a parenthesised sum of the same type (one sum with
  // the rest: a reassociation), and an int sum that must stay as C
  // evaluates it.
  Function f = Function::compile("f", floats(6), ScalarKind::Float,
                                 "int k = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10;\n"
                                 "return 0.25f * v0 - v1 + 2.0f * (v2 + v3 + v4 + v5 + v0 + v1 + v2 + v3 + v4 + v5)"
                                 " - v3 + v4 - v5 + v0 - v1 + v2 + v3 - v4 + (float)k + (v0 + v1 + v2 + v3);");
  Function g = f.regroupedSums();
  REQUIRE(g.body() != f.body());
  // 16 terms: four chains of four; the second starts with a term that is
  // added and has subtractions inside. The nested 10-term sum: chains of 3,
  // 3, 3 and 1.
  // (A chain left of an operator of its precedence is printed without
  // parentheses: C groups it first anyway.)
  CHECK(g.body().find("return (((0.25f) * v0) - v1 + ((2.0f) * (v2 + v3 + v4 + (v5 + v0 + v1) + (v2 + v3 + v4) + "
                      "v5)) - v3 + (v4 - v5 + v0 - v1) + (v2 + v3 - v4 + ((float)") != std::string::npos);
  CHECK(g.body().find(" + (v0 + v1 + v2 + v3));") != std::string::npos);
  // The int sum keeps C's order.
  CHECK(g.body().find("((1) + (2) + (3) + (4) + (5) + (6) + (7) + (8) + (9) + (10))") != std::string::npos);
  // A chain starting with a subtracted term is summed with flipped signs
  // and subtracted: no negation is added.
  Function m =
      Function::compile("m", floats(6), ScalarKind::Float, "return v0 + v1 + v2 + v3 - v4 + v5 - v0 + v1 + v2 + v3;");
  CHECK(m.regroupedSums().body().find("return (v0 + v1 + v2 + (v3 - v4 + v5) - (v0 - v1 - v2) + v3);") !=
        std::string::npos);
  CHECK(m.regroupedSums().body().find("(-") == std::string::npos);
  // Nine terms or fewer: the very same function (regrouping them gained
  // nothing measurable, cfun::kRegroupedSumTerms).
  Function h =
      Function::compile("h", floats(6), ScalarKind::Float, "return v0 + v1 - v2 + v3 + v4 + v5 + v0 + v1 + v2;");
  CHECK(h.regroupedSums().body() == h.body());

  // Property: on random terms the regrouped sum differs from C's left to
  // right one by at most 2 (n - 1) roundings of the sum of the terms'
  // magnitudes, and not at all when every partial sum is exact (small
  // integers); the interpreter and the kernels use the same function.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  std::uniform_int_distribution<int> small(-1000, 1000), coin(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    int n = int(cfun::kRegroupedSumTerms) + trial % 23;
    std::string body = "return ";
    for (int i = 0; i < n; ++i)
      body += (i == 0 ? "" : coin(rng) ? " - " : " + ") + std::string("v") + std::to_string(i);
    body += ";";
    CAPTURE(body);
    Function original = Function::compile("s", floats(n), ScalarKind::Float, body);
    Function regrouped = original.regroupedSums();
    REQUIRE(regrouped.body() != original.body());
    bool integers = trial % 2 == 0;
    std::vector<Scalar> args;
    double magnitude = 0;
    for (int i = 0; i < n; ++i) {
      float v = integers ? static_cast<float>(small(rng)) : value(rng);
      args.push_back(Scalar::ofFloat(v));
      magnitude += std::fabs(v);
    }
    float a = scalarOf(original.call(args)), b = scalarOf(regrouped.call(args));
    if (integers)
      CHECK(a == b);
    else
      CHECK(std::fabs(a - b) <= 2.0 * (n - 1) * std::ldexp(1.0, -24) * magnitude);
  }
}

TEST_CASE("fast math: reassociate sums Gaussian's 25 taps as five row sums, built exactly") {
  const examples::Example &gaussian = examples::findExample("gaussian");
  auto sizes = smallSizes(gaussian);
  Program typed = typeCheck(gaussian.build(), sizes);
  for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
    codegen::Kernel regrouped = plainKernel(typed, target, codegen::FastMath::Reassociate, false);
    CHECK(regrouped.buildOptions.empty());
    // The first row's chain, then the second row's chain added to it.
    // (The stencil form names the taps by their offsets: A_m2_m1 is A[-2][-1].)
    CHECK(regrouped.source.find("(((0.00390625f) * A_m2_m2) + ((0.015625f) * A_m2_m1) + ((0.0234375f) * A_m2_0) + "
                                "((0.015625f) * A_m2_1) + ((0.00390625f) * A_m2_2) + (((0.015625f) * A_m1_m2) + ") !=
          std::string::npos);
    // Other levels keep the verbatim body.
    for (codegen::FastMath level : {codegen::FastMath::None, codegen::FastMath::Mad, codegen::FastMath::Relaxed})
      CHECK(plainKernel(typed, target, level, false).source.find("(0.00390625f) * A_m2_m2") == std::string::npos);
  }
  CHECK(codegen::fastMathTolerance(codegen::FastMath::Reassociate, false).magnitude ==
        codegen::fastMathTolerance(codegen::FastMath::Mad, false).magnitude);
}

TEST_CASE("fast math: the space has a reassociate twin exactly where it changes the kernel, rebuilt by its strategy") {
  size_t examplesWithTwins = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    auto sizes = smallSizes(ex);
    Program typed = typeCheck(ex.build(), sizes);
    explore::SpaceOptions options;
    options.includeStream = options.includeTiled = options.includeLocal = options.includeCoarsened =
        options.includeVector = options.includeMapping = options.includeFused = options.includeTimeTiled = false;
    options.groupExtents = {32};
    options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Reassociate};
    explore::Space space = explore::enumerateSpace(typed, {}, options);
    size_t exact = 0, twins = 0;
    for (const explore::Variant &v : space.variants) {
      if (v.configuration.fastMath == codegen::FastMath::None) {
        ++exact;
        continue;
      }
      ++twins;
      CHECK(v.kernel.buildOptions.empty());
      // The strategy it prints rebuilds this very kernel.
      explore::Variant rebuilt = explore::variantFromStrategy(typed, explore::strategyText(v));
      CHECK(rebuilt.kernel.source == v.kernel.source);
      CHECK(v.configuration.key().find("fast-math=reassociate") != std::string::npos);
    }
    // Every exact variant has its twin, or none has (no sum of 4 terms).
    CHECK((twins == 0 || twins == exact));
    examplesWithTwins += twins > 0;
    if (ex.name == "gaussian") CHECK(twins > 0);
  }
  CHECK(examplesWithTwins < examples::allExamples().size());
}

TEST_CASE("fast math: each work-group shape of a tiled or local program gets a reassociate kernel made for it") {
  // The twins were once built once per distinct source: a mapWrg kernel made
  // for 8x8 work-groups then stood in for the 4x8 and 8x4 shapes, whose
  // launches runPlan refused.
  const examples::Example &ex = examples::findExample("gaussian");
  Program typed = typeCheck(ex.build(), {{"N", 37}, {"M", 53}});
  explore::SpaceOptions options;
  options.includePlain = options.includeStream = options.includeCoarsened = options.includeVector =
      options.includeMapping = options.includeFused = options.includeTimeTiled = options.includeSpecialised = false;
  options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Reassociate};
  explore::Space space = explore::enumerateSpace(typed, {}, options);
  std::set<std::array<int64_t, 3>> shapes;
  for (const explore::Variant &v : space.variants) {
    if (v.configuration.fastMath != codegen::FastMath::Reassociate) continue;
    CAPTURE(v.configuration.key());
    REQUIRE(v.kernel.localSize.has_value());
    CHECK(*v.kernel.localSize == v.configuration.local);
    shapes.insert(v.configuration.local);
  }
  CHECK(shapes.size() >= 4); // the tiles' own shapes and their halved ones
}

TEST_CASE("fast math: the configuration keeps default keys and JSON, and names non-default choices") {
  explore::Configuration c;
  c.local = {32, 4, 1};
  CHECK(c.key() == "plain wg=32x4x1");
  CHECK(c.toJson().dump() == R"({"local":[32,4,1],"recipe":"plain","tile":0})");
  c.fastMath = codegen::FastMath::Relaxed;
  c.divToMul = true;
  CHECK(c.key() == "plain wg=32x4x1 fast-math=relaxed div-to-mul");
  CHECK(explore::Configuration::fromJson(c.toJson()) == c);
  explore::Configuration exact = c;
  exact.divToMul = false;
  CHECK(explore::areNeighbours(c, exact));
}

TEST_CASE("fast math: NVRTC compiles a kernel built with --use_fast_math") {
  auto options = cuda::test::strictSm90();
  if (!options) return;
  const examples::Example &ex = examples::findExample("gaussian");
  Program typed = typeCheck(ex.build(), smallSizes(ex));
  codegen::Kernel kernel = plainKernel(typed, codegen::Target::CUDA, codegen::FastMath::Relaxed, true);
  REQUIRE(kernel.buildOptions == "--use_fast_math");
  options->extraOptions.push_back(kernel.buildOptions);
  cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *options, "gaussian.cu");
  CHECK(std::find(ptx.options.begin(), ptx.options.end(), "--use_fast_math") != ptx.options.end());
  CHECK(ptx.ptx.find(".entry") != std::string::npos);
}

TEST_CASE("fast math: the exported OpenCL host code builds with the kernel's options") {
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  std::map<std::string, int64_t> sizes{{"N", 16}, {"M", 16}};
  Program typed = typeCheck(ex.build(), sizes);
  codegen::Kernel kernel = plainKernel(typed, codegen::Target::OpenCL, codegen::FastMath::Relaxed, false);
  exporter::ExportPlan plan = exporter::planFromKernel(kernel, "jacobi", {{"N", 16}, {"M", 16}}, std::nullopt, {});
  CHECK(plan.buildOptions == "-cl-fast-relaxed-math");
  std::string source = exporter::exportOpenCL(plan, "jacobi").source;
  CHECK(source.find("\"-cl-std=CL1.2 -cl-fast-relaxed-math\"") != std::string::npos);
  // From launch.json: the option survives, and anything but option words is refused.
  nlohmann::json launch{{"program", "jacobi"}, {"sizes", "N=16,M=16"}, {"kernel", codegen::kernelMetadata(kernel)}};
  CHECK(exporter::planFromLaunchJson(launch, kernel.source, "launch.json").buildOptions == "-cl-fast-relaxed-math");
  launch["kernel"]["buildOptions"] = "-cl-fast-relaxed-math\"); system(\"x";
  CHECK_THROWS_WITH_AS(exporter::planFromLaunchJson(launch, kernel.source, "launch.json"),
                       doctest::Contains("/kernel/buildOptions"), std::exception);
}

TEST_CASE("fast math: liftc compile and run take --fast-math and --div-to-mul") {
  std::string program = std::string(LIFTCC_SOURCE_DIR) + "/examples/json/gaussian.json";
  test::LiftcRun bad = test::runLiftc("compile " + test::shellQuote(program) + " --opt plain --fast-math fast");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("--fast-math must be none, mad, reassociate or relaxed") != std::string::npos);
  if (!ocl::test::testDevice()) return;
  test::LiftcRun run = test::runLiftc("run " + test::shellQuote(program) +
                                      " --opt plain --size N=40,M=33 --fast-math relaxed --div-to-mul --check");
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("check: the kernel agrees with the interpreter") != std::string::npos);
}
} // TEST_SUITE("fast math")

} // namespace liftcc
