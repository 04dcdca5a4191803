// A stage after an iterate that the loop cannot launch as one of its phases
// (core/ir/after_loop.h): of another type than the state (the sums of the
// final grid's rows), one component of a tuple state (a wave's u), a view of
// the state (its transpose, copied), a stage reading both components of a
// tuple state, and a stage of another type after a chain with a stage
// before the loop. Checked: the split, every recipe's kernels (time tiles
// too) on PoCL against the interpreter for 0, 1 and 4 steps, the CUDA C
// with NVRTC, and that what cannot be split is still refused with its reason.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/ir/after_loop.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
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

const std::string kSizes2D = R"([{"name": "N", "min": 3}, {"name": "M", "min": 3}])";
const std::string kAdd = R"({"add": {"params": [{"name": "x", "type": "float"}, {"name": "y", "type": "float"}],
                     "returns": "float", "body": "return x + y;"}})";

std::string header(const std::string &inputs, const std::string &userFuns = "{}") {
  return R"({"liftcc": 1, "sizes": )" + kSizes2D + R"(, "userFuns": )" + userFuns + R"(, "inputs": )" + inputs +
         R"(, "body": )";
}
std::string stencil(const std::string &name, const std::string &grids, const std::string &body) {
  return R"({"op": "stencil", "name": ")" + name + R"(", "grids": )" + grids + R"(, "body": ")" + body + R"("})";
}
std::string iterate(int64_t n, const std::string &step, const std::string &over) {
  return R"({"op": "iterate", "n": )" + std::to_string(n) + R"(, "f": {"lambda": ["g"], "body": )" + step +
         R"(}, "in": )" + over + "}";
}
std::string bound(const std::string &param, const std::string &body, const std::string &argument) {
  return R"({"apply": {"lambda": [")" + param + R"("], "body": )" + body + R"(}, "args": [)" + argument + "]}";
}

const std::string kOneGrid = R"([{"name": "A", "type": "[[float]M]N"}])";
const std::string kSmooth =
    stencil("smooth", R"({"g": "clamp"})", "return 0.2f*(g[-1][0] + g[1][0] + g[0][-1] + g[0][1] + g[0][0]) + 0.01f;");

/// The sums of the rows of the smoothed grid: [[float]1]N after a loop over [[float]M]N.
std::string rowSums(int64_t n) {
  return header(kOneGrid, kAdd) + R"({"op": "map", "f": {"lambda": ["row"], "body": {"op": "reduce",
    "f": {"userFun": "add"}, "init": {"literal": 0.0, "type": "float"}, "in": {"param": "row"}}}, "in": )" +
         iterate(n, kSmooth, R"({"param": "A"})") + "}}";
}

/// The wave's displacement alone: get(0, iterate(n, wave, tuple(U, V))).
std::string waveDisplacement(int64_t n) {
  std::string wave = test::waveTupleJson(n);
  const std::string body = R"("body": )";
  const size_t at = wave.find(body) + body.size();
  return wave.substr(0, at) + R"({"op": "get", "index": 0, "in": )" + wave.substr(at, wave.size() - 1 - at) + "}}";
}

/// The smoothed grid transposed: a view of the state, copied.
std::string transposed(int64_t n) {
  return header(kOneGrid) + R"({"op": "transpose", "in": )" + iterate(n, kSmooth, R"({"param": "A"})") + "}}";
}

/// A stage reading both components of the wave's state (its energy density).
std::string waveEnergy(int64_t n) {
  std::string wave = test::waveTupleJson(n);
  const std::string body = R"("body": )";
  const size_t at = wave.find(body) + body.size();
  const std::string loop = wave.substr(at, wave.size() - 1 - at);
  return wave.substr(0, at) +
         bound("s",
               R"({"apply": {"lambda": ["u", "v"], "body": )" +
                   stencil("energy", R"({"u": "clamp", "v": "pointwise"})",
                           "return 0.5f*(u[0][0] - v[0][0])*(u[0][0] - v[0][0]) + 0.25f*(u[1][0] - u[-1][0])*(u[0][1] "
                           "- u[0][-1]);") +
                   R"(}, "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": )"
                   R"({"param": "s"}}]})",
               loop) +
         "}";
}

/// A stage before the loop (of its type: a phase) and row sums after it.
std::string preThenRowSums(int64_t n) {
  const std::string pre = stencil("pre", R"({"A": "wrap"})", "return A[0][0] + 0.5f*(A[-1][-1] + A[1][1]);");
  return header(kOneGrid, kAdd) + R"({"op": "map", "f": {"lambda": ["row"], "body": {"op": "reduce",
    "f": {"userFun": "add"}, "init": {"literal": 0.0, "type": "float"}, "in": {"param": "row"}}}, "in": )" +
         iterate(n, kSmooth, pre) + "}}";
}

struct Case {
  std::string name;
  std::string (*program)(int64_t);
  size_t components; ///< of the loop's state
};

std::vector<Case> cases() {
  return {{"rowSums", rowSums, 1},
          {"waveDisplacement", waveDisplacement, 2},
          {"transposed", transposed, 1},
          {"waveEnergy", waveEnergy, 2},
          {"preThenRowSums", preThenRowSums, 1}};
}

const Sizes kSizes{{"N", 13}, {"M", 11}};

} // namespace

TEST_CASE("after loop: a stage the loop cannot launch splits off; the pieces are the loop and the stage") {
  for (const Case &c : cases()) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(3)), kSizes);
    std::optional<AfterLoop> split = splitAfterLoop(typed);
    REQUIRE(split);
    CHECK(split->state.size() == c.components);
    CHECK(typeCheck(split->loop).body().isPrim(Op::Iterate));
    Program after = typeCheck(split->after);
    CHECK(after.inputs().size() == typed.inputs().size() + c.components);
    CHECK(after.body().typeOrThrow() == typed.body().typeOrThrow());
  }
  // The loop itself, and a program without one, do not split.
  CHECK_FALSE(splitAfterLoop(typeCheck(readProgram(test::waveTupleJson(2)), kSizes)));
  CHECK_FALSE(splitAfterLoop(typeCheck(
      readProgram(header(kOneGrid) + stencil("sq", R"({"A": "clamp"})", "return A[0][1]*A[1][0];") + "}"), kSizes)));
}

TEST_CASE("after loop: every recipe's kernels, the stage launched once after the loop, agree on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int checked = 0;
  for (const Case &c : cases())
    for (int64_t n : {0, 1, 4}) {
      Program typed = typeCheck(readProgram(c.program(n)), kSizes);
      test::DeviceReference reference = test::deviceReference(typed, kSizes, 53 + static_cast<uint64_t>(n));
      for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local,
                                     rewrite::Recipe::Coarsened, rewrite::Recipe::Stream})
        for (int64_t t : {1, 2}) {
          if (t > 1 && (n < t || recipe != rewrite::Recipe::Plain)) continue;
          CAPTURE(c.name);
          CAPTURE(n);
          CAPTURE(rewrite::recipeName(recipe));
          CAPTURE(t);
          rewrite::RecipeOptions options;
          options.timeTile = t;
          options.tileExtents = {4, 3, 0};
          options.tileOutputs = 4;
          std::optional<Program> lowered;
          try {
            lowered = rewrite::applyRecipe(typed, recipe, options);
          } catch (const rewrite::RewriteError &e) {
            // The tuple loops are not tiled or streamed: the recipe says so.
            CHECK_MESSAGE(c.components > 1, e.what());
            continue;
          }
          codegen::Kernel kernel = codegen::generateKernel(*lowered, codegen::Target::OpenCL);
          REQUIRE(kernel.iteration);
          CHECK(kernel.iteration->epilogueStages >= 1);
          CHECK(kernel.iteration->stateBuffers.size() == c.components);
          ++checked;
          if (!context) continue;
          auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                               reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
          CHECK_MESSAGE(!mismatch, *mismatch);
        }
    }
  CHECK(checked >= 60);
}

TEST_CASE("after loop: a stage reading an input whose buffer the loop writes its steps over is refused") {
  // The transposed difference between the smoothed grid and its start A:
  // the host loop writes its steps over A's buffer.
  Program typed = typeCheck(
      readProgram(header(kOneGrid) + R"({"op": "transpose", "in": )" +
                  bound("w", stencil("diff", R"({"w": "clamp", "A": "pointwise"})", "return w[0][0] - A[0][0];"),
                        iterate(3, kSmooth, R"({"param": "A"})")) +
                  "}}"),
      kSizes);
  REQUIRE(splitAfterLoop(typed));
  const std::string message = "iterate: the stage after the loop reads A, whose buffer the loop writes its steps "
                              "over; pass the initial values as another input";
  CHECK(test::errorOf([&] { rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}); }) == message);
  // The code generator asks the same of the lowered pieces; the row sums read the state only.
  std::optional<AfterLoop> split = splitAfterLoop(typed);
  CHECK(stateInputReadAfterLoop(typeCheck(split->loop), typeCheck(split->after)) == "A");
  std::optional<AfterLoop> sums = splitAfterLoop(typeCheck(readProgram(rowSums(3)), kSizes));
  REQUIRE(sums);
  CHECK(stateInputReadAfterLoop(typeCheck(sums->loop), typeCheck(sums->after)) == std::nullopt);
}

TEST_CASE("after loop: the CUDA C compiles with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  for (const Case &c : cases()) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(5)), kSizes);
    rewrite::RecipeOptions options;
    options.timeTile = 2;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options), codegen::Target::CUDA);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, "after_loop.cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel_loop") != std::string::npos);
  }
}

} // namespace liftcc
