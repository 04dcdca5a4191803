// Stages around an iterate (rewrite/iterate_chain.h): a stage computing an
// array of the iterated type before or after the loop becomes a level of one
// launch of a chain of iterates, which the host launches in phases. Checked
// here: the chain's shape and meaning (the interpreter on both), every
// recipe's kernels on PoCL against the interpreter with and without time
// tiles (launches and phases asserted), the CUDA C with NVRTC, the explorer's
// time tiles of the loop inside the stages, and what is refused with its
// reason. The exported host code is run from C in export_multistage_test.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/operands.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/families/family.h"
#include "explore/space.h"
#include "rewrite/iterate_chain.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/iterated_program.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;

std::string header(const std::string &sizes, const std::string &inputs) {
  return R"({"liftcc": 1, "sizes": )" + sizes + R"(, "inputs": )" + inputs + R"(, "body": )";
}
std::string stencil(const std::string &name, const std::string &grids, const std::string &body) {
  return R"({"op": "stencil", "name": ")" + name + R"(", "grids": )" + grids + R"(, "body": ")" + body + R"("})";
}
std::string iterate(int64_t n, const std::string &param, const std::string &step, const std::string &over) {
  return R"({"op": "iterate", "n": )" + std::to_string(n) + R"(, "f": {"lambda": [")" + param + R"("], "body": )" +
         step + R"(}, "in": )" + over + "}";
}
std::string bound(const std::string &param, const std::string &body, const std::string &argument) {
  return R"({"apply": {"lambda": [")" + param + R"("], "body": )" + body + R"(}, "args": [)" + argument + "]}";
}

const std::string kSizes2D = R"([{"name": "N", "min": 3}, {"name": "M", "min": 3}])";

/// 2D: a stage before (reading A and the source B) and after (reading B) a
/// loop of n steps that also reads B.
std::string prePost2D(int64_t n) {
  return header(kSizes2D, R"([{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"}])") +
         bound(
             "w", stencil("post", R"({"w": "mirror", "B": "pointwise"})", "return w[0][1] - w[0][-1] + 0.1f*B[0][0];"),
             bound("s",
                   iterate(n, "g",
                           stencil("jac", R"({"g": "clamp", "B": "pointwise"})",
                                   "return 0.2f*(g[-1][0] + g[1][0] + g[0][-1] + g[0][1] + g[0][0]) + 0.01f*B[0][0];"),
                           R"({"param": "s"})"),
                   stencil("pre", R"({"A": "wrap", "B": "pointwise"})",
                           "return A[0][0] + 0.5f*(A[-1][-1] + A[1][1])*B[0][0];"))) +
         "}";
}

/// 1D: a loop, then two stages (a stencil of a stencil) after it.
std::string postTwoStages1D(int64_t n) {
  return header(R"([{"name": "N", "min": 5}])", R"([{"name": "A", "type": "[float]N"}])") +
         bound("s",
               bound("d", stencil("d2", R"({"d": "clamp"})", "return d[-1] - 2.0f*d[0] + d[1];"),
                     stencil("d1", R"({"s": "wrap"})", "return 0.5f*(s[1] - s[-1]);")),
               iterate(n, "g",
                       stencil("avg5", R"({"g": "mirror"})", "return (g[-2] + g[-1] + g[0] + g[1] + g[2])/5.0f;"),
                       R"({"param": "A"})")) +
         "}";
}

/// 3D: a chain written by hand (two smoothers), after a stage reading U.
std::string chain3D(int64_t n) {
  const std::string sizes = R"([{"name": "O", "min": 3}, {"name": "N", "min": 3}, {"name": "M", "min": 3}])";
  return header(sizes, R"([{"name": "U", "type": "[[[float]M]N]O"}])") +
         iterate(2, "h",
                 stencil("s2", R"({"h": "wrap"})", "return 0.5f*h[0][0][0] + 0.25f*(h[0][0][-1] + h[0][0][1]);"),
                 iterate(n, "g",
                         stencil("s1", R"({"g": "clamp"})",
                                 "return (g[-1][0][0] + g[1][0][0] + g[0][-1][0] + g[0][1][0] + g[0][0][-1] + "
                                 "g[0][0][1] + 2.0f*g[0][0][0])/8.0f;"),
                         stencil("sq", R"({"U": "clamp"})", "return U[0][0][0]*U[0][0][0] - U[1][0][0];"))) +
         "}";
}

struct Case {
  std::string name;
  std::string (*program)(int64_t);
  Sizes sizes;
  int dims;
  /// The counts of the chain's levels, innermost first, for a loop of n steps.
  std::vector<int64_t> (*levels)(int64_t);
};

std::vector<Case> cases() {
  return {{"prePost2D",
           prePost2D,
           {{"N", 13}, {"M", 11}},
           2,
           [](int64_t n) {
             return std::vector<int64_t>{1, n, 1};
           }},
          {"postTwoStages1D",
           postTwoStages1D,
           {{"N", 37}},
           1,
           [](int64_t n) {
             return std::vector<int64_t>{n, 1};
           }},
          {"chain3D", chain3D, {{"O", 7}, {"N", 6}, {"M", 9}}, 3, [](int64_t n) {
             return std::vector<int64_t>{1, n, 2};
           }}};
}

std::vector<int64_t> levelCounts(const Program &program) {
  std::vector<int64_t> counts;
  for (Expr e = program.body(); e.isPrim(Op::Iterate); e = inputOf(e))
    counts.insert(counts.begin(), iterateCount(e).constant());
  return counts;
}

/// Launches of a chain with time tile t: a level of c steps fuses min(t, c)
/// steps into each launch (a level shorter than t all of its steps), plus
/// one launch of the steps left.
int64_t launches(const std::vector<int64_t> &levels, int64_t t) {
  int64_t total = 0;
  for (int64_t c : levels) {
    const int64_t depth = std::min(t, std::max<int64_t>(c, 1));
    total += c / depth + (c % depth > 0);
  }
  return total;
}

} // namespace

TEST_CASE("iterate chain: stages before and after an iterate become one-launch levels of a chain; same meaning") {
  for (const Case &c : cases())
    for (int64_t n : {0, 1, 4}) {
      CAPTURE(c.name);
      CAPTURE(n);
      Program typed = typeCheck(readProgram(c.program(n)), c.sizes);
      std::optional<Program> chained = rewrite::iterateChain(typed);
      REQUIRE(chained);
      CHECK(levelCounts(*chained) == c.levels(n));
      CHECK(chainedInputs(*chained));
      CHECK_FALSE(rewrite::iterateChain(*chained)); // a chain over an input is left as it is
      std::vector<Value> inputs = randomInputs(typed, c.sizes, 3);
      CHECK_MESSAGE(!compareValues(interpret(typed, c.sizes, inputs), interpret(*chained, c.sizes, inputs)),
                    "the chain computes something else");
    }
  // Programs without stages around their loop are left alone.
  Program plain = typeCheck(
      readProgram(header(R"([{"name": "N", "min": 3}])", R"([{"name": "A", "type": "[float]N"}])") +
                  iterate(3, "g", stencil("a3", R"({"g": "clamp"})", "return g[-1] + g[1];"), R"({"param": "A"})") +
                  "}"),
      {{"N", 9}});
  CHECK_FALSE(rewrite::iterateChain(plain));
  // So is a loop over a tuple holding an input twice (applyRecipe once
  // recursed on it without end): the recipes copy its state into buffers of
  // its own before the loop (tests/loop_split_test.cpp).
  std::string twice = test::waveTupleJson(2);
  twice.replace(twice.rfind(R"({"param": "V"})"), 14, R"({"param": "U"})");
  Program same = typeCheck(readProgram(twice), {{"N", 13}, {"M", 11}});
  CHECK_FALSE(rewrite::iterateChain(same));
  CHECK_FALSE(chainedInputs(rewrite::applyRecipe(same, rewrite::Recipe::Plain, {})));
}

TEST_CASE("iterate chain: every recipe's kernels, launched in phases, agree with the interpreter on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int checked = 0;
  for (const Case &c : cases())
    for (int64_t n : {0, 3, 4}) {
      Program typed = typeCheck(readProgram(c.program(n)), c.sizes);
      test::DeviceReference reference = test::deviceReference(typed, c.sizes, 29 + static_cast<uint64_t>(n));
      std::vector<rewrite::Recipe> recipes{rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local,
                                           rewrite::Recipe::Coarsened};
      if (c.dims > 1) recipes.push_back(rewrite::Recipe::Stream);
      if (c.dims > 1 && n >= 2) recipes.push_back(rewrite::Recipe::TimeTiledLocal);
      for (rewrite::Recipe recipe : recipes)
        for (int64_t t : {1, 2}) {
          if (recipe == rewrite::Recipe::TimeTiledLocal && t == 1) continue; // its depth is the time tile
          CAPTURE(c.name);
          CAPTURE(n);
          CAPTURE(rewrite::recipeName(recipe));
          CAPTURE(t);
          rewrite::RecipeOptions options;
          options.timeTile = t;
          options.tileExtents = {4, c.dims > 1 ? 3 : 0, c.dims > 2 ? 2 : 0};
          options.tileOutputs = 4;
          codegen::Kernel kernel =
              codegen::generateKernel(rewrite::applyRecipe(typed, recipe, options), codegen::Target::OpenCL);
          REQUIRE(kernel.iteration);
          CHECK(kernel.iteration->count == arith::Expr(launches(c.levels(n), t)));
          CHECK(kernel.iteration->phases.size() >= c.levels(n).size());
          // The loop's time tiles keep their steps in local memory (the
          // one-step stages around it are lowered plain).
          if (recipe == rewrite::Recipe::TimeTiledLocal) CHECK(kernel.localMemoryBytes > 0);
          ++checked;
          if (!context) continue;
          auto mismatch = test::deviceMismatch(*context, kernel, c.sizes, reference.inputs, typed.body().typeOrThrow(),
                                               reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
          CHECK_MESSAGE(!mismatch, *mismatch);
        }
    }
  CHECK(checked == 88);
}

TEST_CASE("iterate chain: fused, the stages are computed in the loop's first and last launches, on the device") {
  // [pre, f^n, post] -> [f . pre, f^(n-2), post . f]: two launches fewer for
  // the 2D case (one for the 1D loop followed by its stages, whose stage
  // level is one step; one for the 3D chain, whose outer level has 2 steps).
  std::optional<ocl::Context> context = ocl::test::testContext();
  const std::map<std::string, std::vector<int64_t>> fewer{
      {"prePost2D", {2, 2}}, {"postTwoStages1D", {1, 1}}, {"chain3D", {1, 1}}};
  for (const Case &c : cases())
    for (int64_t n : {2, 5}) {
      CAPTURE(c.name);
      CAPTURE(n);
      Program typed = typeCheck(readProgram(c.program(n)), c.sizes);
      CHECK(rewrite::fusesStagesIntoLoop(typed));
      test::DeviceReference reference = test::deviceReference(typed, c.sizes, 41 + static_cast<uint64_t>(n));
      for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Coarsened}) {
        CAPTURE(rewrite::recipeName(recipe));
        rewrite::RecipeOptions options;
        options.fusion = rewrite::Fusion::Inline;
        options.tileExtents = {4, c.dims > 1 ? 3 : 0, c.dims > 2 ? 2 : 0};
        codegen::Kernel kernel =
            codegen::generateKernel(rewrite::applyRecipe(typed, recipe, options), codegen::Target::OpenCL);
        REQUIRE(kernel.iteration);
        CHECK(kernel.iteration->count == arith::Expr(launches(c.levels(n), 1) - fewer.at(c.name)[n == 2 ? 0 : 1]));
        if (!context) continue;
        auto mismatch = test::deviceMismatch(*context, kernel, c.sizes, reference.inputs, typed.body().typeOrThrow(),
                                             reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
        CHECK_MESSAGE(!mismatch, *mismatch);
      }
    }
  // A loop without stages fuses nothing.
  CHECK_FALSE(rewrite::fusesStagesIntoLoop(typeCheck(
      readProgram(header(R"([{"name": "N", "min": 3}])", R"([{"name": "A", "type": "[float]N"}])") +
                  iterate(3, "g", stencil("a3", R"({"g": "clamp"})", "return g[-1] + g[1];"), R"({"param": "A"})") +
                  "}"),
      {{"N", 9}})));
}

TEST_CASE("iterate chain: the CUDA C of the phases compiles with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  for (const Case &c : cases()) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(5)), c.sizes);
    rewrite::RecipeOptions options;
    options.timeTile = 2;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options), codegen::Target::CUDA);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, "iterate_chain.cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
  }
}

TEST_CASE("iterate chain: the explorer's time tiles are those of the loop inside the stages") {
  explore::SpaceOptions options;
  options.includeTimeTiled = true;
  options.timeTiles = {2, 3, 4, 8};
  for (const Case &c : cases()) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(4)), c.sizes);
    REQUIRE(explore::families::mainLoop(typed));
    CHECK(iterateCount(*explore::families::mainLoop(typed)) == arith::Expr(4));
    CHECK(explore::families::timeTilesWithin(typed, options) == std::vector<int64_t>{2, 3, 4});
  }
  CHECK_FALSE(explore::families::mainLoop(
      typeCheck(readProgram(header(R"([{"name": "N", "min": 3}])", R"([{"name": "A", "type": "[float]N"}])") +
                            stencil("a3", R"({"A": "clamp"})", "return A[-1] + A[1];") + "}"),
                {{"N", 9}})));
}

TEST_CASE("iterate chain: what cannot be chained is refused with its reason") {
  const std::string one = R"([{"name": "A", "type": "[[float]M]N"}])";
  auto refusal = [](const std::string &text) {
    Program typed = typeCheck(readProgram(text), {{"N", 13}, {"M", 11}});
    return test::errorOf([&] { rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}); });
  };
  // A stage of another type after the loop (the sums of its rows), one
  // component of a tuple state and a view of the result are launched once
  // after the loop instead (tests/loop_split_test.cpp).
  // Two loops side by side are one loop over the tuple of their states,
  // of their counts' gcd (tests/loop_split_test.cpp).
  // A loop over a computed array no input of its type can stand for (a
  // transposed grid), or whose one input of its type is read again after the
  // loop, starts from a state computed before it (tests/loop_split_test.cpp).
  // An iterate inside a per-element function is a loop in the kernel (a
  // state of scalars) or one host loop over all elements (an array state):
  // tests/element_iterate_test.cpp. A state pairing a scalar with the row
  // is neither.
  CHECK(refusal(header(kSizes2D, one) + R"({"op": "map", "f": {"lambda": ["row"], "body": {"op": "get", "index": 1,
      "in": {"op": "iterate", "n": 2, "f": {"lambda": ["s"], "body": {"op": "tuple", "in": [
        {"op": "get", "index": 0, "in": {"param": "s"}},)" +
                bound("r", stencil("r3", R"({"r": "clamp"})", "return r[-1] + r[1];"),
                      R"({"op": "get", "index": 1, "in": {"param": "s"}})") +
                R"(]}}, "in": {"op": "tuple", "in": [{"op": "at", "index": 0, "in": {"param": "row"}},
        {"param": "row"}]}}}}, "in": {"param": "A"}}})") ==
        "iterate inside a per-element function over a state of type (float, [float]11) is not compiled: a scalar or "
        "a tuple of scalars becomes a loop in the kernel");
}

} // namespace liftcc
