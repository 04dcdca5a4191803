// Programs split where they meet their loop (core/ir/loop_split.h). After
// it, a stage the loop cannot launch as one of its phases: of another type
// than the state (the sums of the final grid's rows), one component of a
// tuple state (a wave's u), a view of the state (its transpose, copied), a
// stage reading both components of a tuple state, and a stage of another
// type after a chain with a stage before the loop. Before it, a state no
// input can stand for: a wave starting at rest ((U, U)), one whose first
// displacement is computed, three grids starting from one input, a step
// reading its input by name, a loop over a transposed grid, a stage after the loop reading its input again, and both
// splits at once. Checked: the splits, every recipe's kernels (time tiles
// too) on PoCL against the interpreter for 0, 1 and 4 steps, the CUDA C
// with NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/iterated_state.h"
#include "core/ir/loop_split.h"
#include "core/ir/operands.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "exporter/export_plan.h"
#include "rewrite/iterate_chain.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/iterated_program.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

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

/// The wave `test::waveTupleJson` with its state `(U, V)` replaced by `state`.
std::string waveFrom(int64_t n, const std::string &state) {
  std::string wave = test::waveTupleJson(n);
  const std::string from = R"({"op": "tuple", "in": [{"param": "U"}, {"param": "V"}]})";
  wave.replace(wave.rfind(from), from.size(), state);
  return wave;
}

/// A wave starting at rest: the state (U, U) holds one input twice.
std::string waveAtRest(int64_t n) { return waveFrom(n, R"({"op": "tuple", "in": [{"param": "U"}, {"param": "U"}]})"); }

/// A wave whose first displacement is computed: (smoothed U, V).
std::string waveFromSmoothed(int64_t n) {
  return waveFrom(n, R"({"op": "tuple", "in": [)" +
                         stencil("s0", R"({"U": "mirror"})",
                                 "return 0.5f*U[0][0] + 0.125f*(U[-1][0] + U[1][0] + "
                                 "U[0][-1] + U[0][1]);") +
                         R"(, {"param": "V"}]})");
}

/// A coupled system of three grids all starting from A: (A, A, A), the same
/// copy three times (each must be a buffer of its own).
std::string threeFromOne(int64_t n) {
  return header(kOneGrid) + R"({"op": "iterate", "n": )" + std::to_string(n) +
         R"(, "f": {"lambda": ["s"], "body": {"apply": {"lambda": ["a", "b", "c"], "body": {"op": "tuple", "in": [)" +
         stencil("fa", R"({"a": "clamp", "b": "pointwise"})",
                 "return 0.5f*a[0][0] + 0.125f*(a[-1][0] + a[0][1]) + 0.25f*b[0][0];") +
         ", " +
         stencil("fb", R"({"b": "mirror", "c": "pointwise"})",
                 "return 0.5f*b[0][0] + 0.25f*(b[1][0] + b[0][-1]) - 0.1f*c[0][0];") +
         ", " +
         stencil("fc", R"({"c": "wrap", "a": "pointwise"})", "return 0.5f*(c[-1][-1] + c[1][1]) + 0.2f*a[0][0];") +
         R"(]}}, "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}},
           {"op": "get", "index": 2, "in": {"param": "s"}}]}}, "in": {"op": "tuple", "in": [{"param": "A"}, {"param": "A"}, {"param": "A"}]}}})";
}

/// A step that reads its input A by name (a source term of the initial values).
std::string sourceByName(int64_t n) {
  return header(kOneGrid) +
         iterate(n,
                 stencil("src", R"({"g": "clamp", "A": "pointwise"})",
                         "return 0.2f*(g[-1][0] + g[1][0] + g[0][-1] + g[0][1] + g[0][0]) + 0.05f*A[0][0];"),
                 R"({"param": "A"})") +
         "}";
}

/// A loop over a computed grid that no input can stand for: its transpose.
std::string overTransposed(int64_t n) {
  const std::string smoothT =
      stencil("smoothT", R"({"g": "wrap"})", "return 0.25f*(g[-1][0] + g[1][0] + g[0][-1] + g[0][1]) + 0.01f*g[0][0];");
  return header(kOneGrid) +
         iterate(n, smoothT,
                 R"({"op": "transpose", "in": )" + stencil("sq", R"({"A": "clamp"})", "return A[0][0]*A[0][1];") +
                     "}") +
         "}";
}

/// A stage after the loop that reads the loop's input A again (of the loop's
/// type, so a phase of the loop, all over a copy of A).
std::string differenceFromStart(int64_t n) {
  return header(kOneGrid) +
         bound("w", stencil("diff", R"({"w": "clamp", "A": "pointwise"})", "return w[0][1] - A[0][0];"),
               iterate(n, kSmooth, R"({"param": "A"})")) +
         "}";
}

/// The displacement alone of a wave starting at rest: computed before and copied after the loop.
std::string restingDisplacement(int64_t n) {
  std::string wave = waveAtRest(n);
  const std::string body = R"("body": )";
  const size_t at = wave.find(body) + body.size();
  return wave.substr(0, at) + R"({"op": "get", "index": 0, "in": )" + wave.substr(at, wave.size() - 1 - at) + "}}";
}

struct Case {
  std::string name;
  std::string (*program)(int64_t);
  size_t components;                 ///< of the loop's state
  bool after = true, before = false; ///< kernels launched once after / before the loop
};

std::vector<Case> cases() {
  return {{"rowSums", rowSums, 1},
          {"waveDisplacement", waveDisplacement, 2},
          {"transposed", transposed, 1},
          {"waveEnergy", waveEnergy, 2},
          {"preThenRowSums", preThenRowSums, 1}};
}

/// Programs whose loop starts from a state computed before it.
std::vector<Case> statesBefore() {
  return {{"waveAtRest", waveAtRest, 2, false, true},
          {"threeFromOne", threeFromOne, 3, false, true},
          {"waveFromSmoothed", waveFromSmoothed, 2, false, true},
          {"sourceByName", sourceByName, 1, false, true},
          {"overTransposed", overTransposed, 1, false, true},
          {"differenceFromStart", differenceFromStart, 1, false, true},
          {"restingDisplacement", restingDisplacement, 2, true, true}};
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

TEST_CASE("before loop: a state no input can stand for splits off; the pieces are its computation and the loop") {
  for (const Case &c : statesBefore()) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(3)), kSizes);
    Program loop = rewrite::asChain(typed); // a stage of the loop's type: a phase of it
    if (c.after) {
      std::optional<AfterLoop> after = splitAfterLoop(typed);
      REQUIRE(after);
      loop = typeCheck(after->loop);
    }
    std::optional<BeforeLoop> split = splitBeforeLoop(loop);
    REQUIRE(split);
    CHECK(split->state.size() == c.components);
    Program over = typeCheck(split->loop);
    CHECK(chainedInputs(over)); // the loop is over inputs: the state's
    CHECK_FALSE(stateInputReadByStep(over));
    CHECK(typeCheck(split->before).body().typeOrThrow() == over.body().typeOrThrow());
  }
}

TEST_CASE("loop split: every recipe's kernels, the other piece launched once around the loop, agree on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  int checked = 0;
  std::vector<Case> all = cases(), before = statesBefore();
  all.insert(all.end(), before.begin(), before.end());
  for (const Case &c : all)
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
          CHECK((kernel.iteration->epilogueStages >= 1) == c.after);
          CHECK(kernel.iteration->stateBuffers.size() == (c.after ? c.components : 0));
          CHECK((kernel.iteration->prologueStages >= 1) == c.before);
          CHECK(kernel.iteration->stateInputs.size() == (c.before ? c.components : 0));
          ++checked;
          if (!context) continue;
          auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                               reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
          CHECK_MESSAGE(!mismatch, *mismatch);
        }
    }
  CHECK(checked >= 130);
}

TEST_CASE("after loop: a stage reading an input the loop would write its steps over gets the state copied first") {
  // The transposed difference between the smoothed grid and its start A:
  // the host loop would write its steps over A's buffer, so it starts from a copy.
  Program typed = typeCheck(
      readProgram(header(kOneGrid) + R"({"op": "transpose", "in": )" +
                  bound("w", stencil("diff", R"({"w": "clamp", "A": "pointwise"})", "return w[0][0] - A[0][0];"),
                        iterate(3, kSmooth, R"({"param": "A"})")) +
                  "}}"),
      kSizes);
  std::optional<AfterLoop> split = splitAfterLoop(typed);
  REQUIRE(split);
  CHECK(stateInputReadAfterLoop(typeCheck(split->loop), typeCheck(split->after)) == "A");
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  REQUIRE(kernel.iteration);
  CHECK(kernel.iteration->prologueStages == 1);
  CHECK(kernel.iteration->epilogueStages == 1);
  // The row sums read the state only; a lowered program whose stage reads
  // the loop's input is refused by the code generator.
  std::optional<AfterLoop> sums = splitAfterLoop(typeCheck(readProgram(rowSums(3)), kSizes));
  REQUIRE(sums);
  CHECK(stateInputReadAfterLoop(typeCheck(sums->loop), typeCheck(sums->after)) == std::nullopt);
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  test::DeviceReference reference = test::deviceReference(typed, kSizes, 71);
  auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                       reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// Two loops side by side over U and V, then a stencil over both results.
std::string twoLoops(int64_t n, int64_t m) {
  const std::string grids = R"([{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"}])";
  return header(grids) + R"({"apply": {"lambda": ["a", "b"], "body": )" +
         stencil("sum", R"({"a": "clamp", "b": "pointwise"})", "return a[0][1] - a[0][-1] + b[0][0];") +
         R"(}, "args": [)" + iterate(n, kSmooth, R"({"param": "A"})") + ", " + R"({"op": "iterate", "n": )" +
         std::to_string(m) + R"(, "f": {"lambda": ["h"], "body": )" +
         stencil("s2", R"({"h": "wrap"})", "return 0.5f*(h[-1][0] + h[0][1]);") + R"(}, "in": {"param": "B"}}]})" + "}";
}

TEST_CASE("loop split: loops side by side of one count are one loop over the tuple of their states") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (int64_t n : {0, 1, 4}) {
    CAPTURE(n);
    Program typed = typeCheck(readProgram(twoLoops(n, n)), kSizes);
    std::optional<Program> merged = rewrite::loopsSideBySide(typed);
    REQUIRE(merged);
    CHECK_FALSE(compareValues(interpret(typed, kSizes, randomInputs(typed, kSizes, 5)),
                              interpret(*merged, kSizes, randomInputs(typed, kSizes, 5))));
    test::DeviceReference reference = test::deviceReference(typed, kSizes, 83 + static_cast<uint64_t>(n));
    for (int64_t t : {1, 2}) {
      if (t > n) continue;
      rewrite::RecipeOptions options;
      options.timeTile = t;
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options),
                                                       codegen::Target::OpenCL);
      REQUIRE(kernel.iteration);
      CHECK(kernel.iteration->epilogueStages == 1);
      CHECK(kernel.iteration->stateBuffers.size() == 2);
      if (!context) continue;
      auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                           reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
      CHECK_MESSAGE(!mismatch, *mismatch);
    }
  }
}

TEST_CASE("loop split: loops side by side of different counts are one loop of their counts' gcd") {
  // Each step of the merged loop applies a loop's step count/gcd times:
  // (2, 6) is 2 steps of (f, g^3); (3, 4) one step of (f^3, g^4); (0, 3)
  // 3 steps of (the start, g).
  std::optional<ocl::Context> context = ocl::test::testContext();
  for (auto [n, m, common] : {std::array<int64_t, 3>{2, 6, 2}, {3, 4, 1}, {0, 3, 3}}) {
    CAPTURE(n);
    CAPTURE(m);
    Program typed = typeCheck(readProgram(twoLoops(n, m)), kSizes);
    std::optional<Program> merged = rewrite::loopsSideBySide(typed);
    REQUIRE(merged);
    std::vector<Expr> loops = outermostIterates(merged->body());
    REQUIRE(loops.size() == 1);
    CHECK(iterateCount(loops.front()) == arith::Expr(common));
    CHECK_FALSE(compareValues(interpret(typed, kSizes, randomInputs(typed, kSizes, 5)),
                              interpret(*merged, kSizes, randomInputs(typed, kSizes, 5))));
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
    REQUIRE(kernel.iteration);
    if (!context) continue;
    test::DeviceReference reference = test::deviceReference(typed, kSizes, 91 + static_cast<uint64_t>(n));
    auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                         reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("loop split: a tuple of loops returned as they are (the stage after them only copies)") {
  // Before, the closed toGlobal of each copy named an input as its unused
  // operand, and the check that no stage reads an input the loop writes
  // over took it for a read: refused.
  std::optional<ocl::Context> context = ocl::test::testContext();
  const std::string grids = R"([{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"}])";
  for (int64_t m : {2, 6}) {
    Program typed =
        typeCheck(readProgram(header(grids) + R"({"op": "tuple", "in": [)" + iterate(2, kSmooth, R"({"param": "A"})") +
                              ", " + iterate(m, kSmooth, R"({"param": "B"})") + "]}}"),
                  kSizes);
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
    REQUIRE(kernel.iteration);
    if (!context) continue;
    test::DeviceReference reference = test::deviceReference(typed, kSizes, 97);
    auto mismatch = test::deviceMismatch(*context, kernel, kSizes, reference.inputs, typed.body().typeOrThrow(),
                                         reference.expected, {1e-4, 1e-5}, std::nullopt, 2);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("loop split: launch.json says which kernels run once around the loop; the exporter reads it back and "
          "refuses an edited one") {
  Program typed = typeCheck(readProgram(restingDisplacement(3)), kSizes);
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  nlohmann::json launch{{"program", "rest"}, {"sizes", "N=13,M=11"}, {"kernel", codegen::kernelMetadata(kernel)}};
  const nlohmann::json &iterate = launch["kernel"]["iterate"];
  CHECK(iterate["inputs"] == nlohmann::json{"state_init_0", "state_init_1"});
  CHECK(iterate["prologueStages"] == 2);
  CHECK(iterate["epilogueStages"] == 1);
  CHECK(iterate["stateBuffers"] == nlohmann::json{"state_0", "state_1"});
  exporter::ExportPlan plan = exporter::planFromLaunchJson(launch, kernel.source, "launch.json");
  REQUIRE(plan.iteration);
  CHECK(plan.loopBegin() == 2);
  CHECK(plan.loopEnd() == plan.stages.size() - 1);
  CHECK(plan.buffer(plan.iteration->inputArgs[0]).name == "state_init_0");
  CHECK(plan.buffer(plan.stateWritten()[1]).name == "state_1");

  auto errorWith = [&](const std::string &field, const nlohmann::json &value) {
    nlohmann::json changed = launch;
    if (value.is_null())
      changed["kernel"]["iterate"].erase(field);
    else
      changed["kernel"]["iterate"][field] = value;
    return test::errorOf([&] { exporter::planFromLaunchJson(changed, kernel.source, "launch.json"); });
  };
  CHECK(errorWith("prologueStages", nullptr) ==
        "launch.json: /kernel/iterate: the iterated buffer 'state_init_0' is a temporary, but no kernel computes it "
        "before the loop (prologueStages)");
  CHECK(errorWith("prologueStages", 9) ==
        "launch.json: /kernel/iterate/prologueStages: expected fewer than the 4 kernels, found 9");
  CHECK(errorWith("prologueStages", -1) ==
        "launch.json: /kernel/iterate/prologueStages: expected a count of kernels, found -1");
  CHECK(errorWith("epilogueStages", 3) == "launch.json: /kernel/iterate/epilogueStages: expected fewer than the 2 "
                                          "kernels after the prologue's, found 3");
  CHECK(errorWith("stateBuffers", nullptr) == "launch.json: /kernel/iterate: missing field 'stateBuffers'");
  CHECK(errorWith("stateBuffers", {"state_0", "out"}) ==
        "launch.json: /kernel/iterate/stateBuffers/1: no temporary named 'out'");
  CHECK(errorWith("stateBuffers", {"state_0", "state_0"}) ==
        "launch.json: /kernel/iterate/stateBuffers/1: the temporary 'state_0' holds two components");
  CHECK(errorWith("stateBuffers", {"state_0"}) ==
        "launch.json: /kernel/iterate/stateBuffers: expected one buffer per component of the state (2), found 1");
  CHECK(errorWith("inputs", {"state_init_0", "U"}) ==
        "launch.json: /kernel/iterate: the iterated buffer 'U' is an input, but the loop starts from a state "
        "computed before it (prologueStages)");
}

TEST_CASE("loop split: the CUDA C compiles with NVRTC with an empty log") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  std::vector<Case> all = cases(), before = statesBefore();
  all.insert(all.end(), before.begin(), before.end());
  for (const Case &c : all) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.program(5)), kSizes);
    rewrite::RecipeOptions options;
    options.timeTile = 2;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options), codegen::Target::CUDA);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, "after_loop.cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(c.after ? ".entry liftcc_kernel_loop" : ".entry liftcc_kernel_start") != std::string::npos);
  }
}

} // namespace liftcc
