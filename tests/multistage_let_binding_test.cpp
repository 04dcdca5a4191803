// An intermediate array named by a lambda application, (\s. B)(A): the way a
// JSON program reads one stage's result several times (its stencil form
// takes grids that are parameters). The application is inlined before the
// program is split into stages, so A is a stage of its own, computed once,
// like an intermediate written in place; left applied, every work-item of
// B's kernel computed the whole of A (correct, far slower), and a tuple
// result over such a binding was refused as computing nothing. A tuple of
// grids is bound the same way (the state of a two-level step), and a result
// component that computes nothing (an input) is copied by a stage.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "rewrite/recipes.h"
#include "rewrite/stages.h"
#include "tests/device_check_support.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

namespace liftcc {
namespace {

/// A 1D smoothing bound to s, read by two results: its second difference
/// (through a window) and its square (point-wise).
const char *kTupleOfOneBinding = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
 "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"apply": {"lambda": ["s"], "body": {"op": "tuple", "in": [
     {"op": "stencil", "name": "d2", "grids": {"s": "clamp"}, "body": "return s[-1] - 2.0f * s[0] + s[1];"},
     {"op": "stencil", "name": "sq", "grids": {"s": "pointwise"}, "body": "return s[0] * s[0];"}]}},
   "args": [{"op": "stencil", "name": "avg3", "grids": {"A": "wrap"}, "body": "return (A[-1] + A[0] + A[1]) / 3.0f;"}]}})";

/// A 2D smoothing bound to s, whose gradient magnitude is scaled by a
/// point-wise second input.
const char *kTwoStages = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"}],
 "body": {"apply": {"lambda": ["s"], "body": {"op": "stencil", "name": "grad", "grids": {"s": "mirror", "B": "pointwise"},
     "body": "float gx = s[0][1] - s[0][-1];\nfloat gy = s[1][0] - s[-1][0];\nreturn B[0][0] * sqrt(gx * gx + gy * gy);"}},
   "args": [{"op": "stencil", "name": "smooth5", "grids": {"A": "clamp"},
     "body": "return 0.6f * A[0][0] + 0.1f * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1]);"}]}})";

/// One step of a two-level scheme (a wave): the state is a tuple of grids
/// bound by a lambda, its components named by a second binding; the result
/// is the next state, whose second component is the first grid as it was.
const char *kTupleOfGridsBound = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
 "inputs": [{"name": "U", "type": "[[float]M]N"}, {"name": "V", "type": "[[float]M]N"}],
 "body": {"apply": {"lambda": ["s"], "body": {"apply": {"lambda": ["u", "v"], "body": {"op": "tuple", "in": [
     {"op": "stencil", "name": "wave", "grids": {"u": "clamp", "v": "pointwise"},
      "body": "return 2.0f * u[0][0] - v[0][0] + 0.1f * (u[-1][0] + u[1][0] + u[0][-1] + u[0][1] - 4.0f * u[0][0]);"},
     {"param": "u"}]}},
    "args": [{"op": "get", "index": 0, "in": {"param": "s"}}, {"op": "get", "index": 1, "in": {"param": "s"}}]}},
   "args": [{"op": "tuple", "in": [{"param": "U"}, {"param": "V"}]}]}})";

/// A result whose second component is an input: it is copied by a kernel of
/// its own (before, its output buffer was never written).
const char *kComponentIsAnInput = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
 "inputs": [{"name": "A", "type": "[float]N"}],
 "body": {"op": "tuple", "in": [
     {"op": "stencil", "name": "d2", "grids": {"A": "mirror"}, "body": "return A[-1] - 2.0f * A[0] + A[1];"},
     {"param": "A"}]}})";

struct Case {
  const char *name;
  const char *json;
  std::map<std::string, int64_t> sizes;
  size_t stages;  ///< intermediates split off (splitStages)
  size_t kernels; ///< of the separate lowering: the stages, and the last program where it computes
};

} // namespace

TEST_SUITE("multistage") {

TEST_CASE("multistage: an intermediate bound by a lambda application is a stage of its own, on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  // The tuple: the smoothing (shared by both components), its second
  // difference and its square; the last program only gathers them.
  // The two stages: the smoothing and the gradient reading it.
  // A tuple of grids bound, and a component that is an input: each
  // component a kernel of its own (the copy of u, of A, one of them).
  for (const Case &c : {Case{"tuple of one binding", kTupleOfOneBinding, {{"N", 37}}, 3, 3},
                        Case{"two stages", kTwoStages, {{"N", 13}, {"M", 21}}, 1, 2},
                        Case{"tuple of grids bound", kTupleOfGridsBound, {{"N", 11}, {"M", 17}}, 2, 2},
                        Case{"component is an input", kComponentIsAnInput, {{"N", 29}}, 2, 2}}) {
    CAPTURE(c.name);
    Program typed = typeCheck(readProgram(c.json), c.sizes);
    std::optional<rewrite::StagedProgram> staged = rewrite::splitStages(typed);
    REQUIRE(staged);
    CHECK(staged->stages.size() == c.stages);
    test::DeviceReference reference = test::deviceReference(typed, c.sizes, 11);
    rewrite::RecipeOptions fused;
    fused.fusion = rewrite::Fusion::Inline;
    for (const auto &[variant, options] : {std::pair<const char *, rewrite::RecipeOptions>{"separate", {}},
                                           std::pair<const char *, rewrite::RecipeOptions>{"fused", fused}}) {
      CAPTURE(variant);
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options),
                                                       codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      if (options.fusion == rewrite::Fusion::Separate) CHECK(kernel.stages.size() == c.kernels);
      if (!context) continue;
      auto mismatch = test::deviceMismatch(*context, kernel, c.sizes, reference.inputs, typed.body().typeOrThrow(),
                                           reference.expected, {1e-4, 1e-5});
      CHECK_MESSAGE(!mismatch, *mismatch);
    }
  }
}

TEST_CASE("multistage: an iterated step with a binding is time-tiled and explored") {
  // Composing two steps copied the binding's lambda into its own body (one
  // parameter bound twice): the type checker refused the time tile, and
  // with it the whole exploration.
  const char *json = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
   "inputs": [{"name": "A", "type": "[[float]M]N"}],
   "body": {"op": "iterate", "n": 4,
    "f": {"lambda": ["g"], "body": {"apply": {"lambda": ["s"], "body": {"op": "stencil", "name": "lapS",
          "grids": {"s": "clamp", "g": "pointwise"},
          "body": "return g[0][0] + 0.1f * (s[-1][0] + s[1][0] + s[0][-1] + s[0][1] - 4.0f * s[0][0]);"}},
        "args": [{"op": "stencil", "name": "sm", "grids": {"g": "mirror"},
          "body": "return 0.5f * g[0][0] + 0.125f * (g[-1][0] + g[1][0] + g[0][-1] + g[0][1]);"}]}},
    "in": {"param": "A"}}})";
  std::map<std::string, int64_t> sizes{{"N", 12}, {"M", 15}};
  Program typed = typeCheck(readProgram(json), sizes);
  std::optional<ocl::Context> context = ocl::test::testContext();
  test::DeviceReference reference = test::deviceReference(typed, sizes, 5);
  for (int64_t timeTile : {1, 2}) {
    CAPTURE(timeTile);
    rewrite::RecipeOptions options;
    options.timeTile = timeTile;
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, options), codegen::Target::OpenCL);
    REQUIRE(kernel.iteration);
    CHECK(kernel.iteration->count == arith::Expr(4 / timeTile));
    if (!context) continue;
    auto mismatch = test::deviceMismatch(*context, kernel, sizes, reference.inputs, typed.body().typeOrThrow(),
                                         reference.expected, {1e-4, 1e-5});
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  // The timeTiled family beside plain (the others do not change the point).
  explore::SpaceOptions options;
  options.includeTiled = options.includeLocal = options.includeCoarsened = options.includeVector =
      options.includeStream = options.includeMapping = options.includeFused = options.includeSpecialised = false;
  options.groupExtents = {8};
  options.timeTileCoarsenings.clear();
  explore::Space space = explore::enumerateSpace(typed, explore::DeviceLimits{}, options);
  std::set<std::string> families;
  for (const explore::Variant &v : space.variants) families.insert(explore::familyOf(v.configuration));
  CHECK(families.count("timeTiled"));
}

TEST_CASE("multistage: a binding of a scalar inside a function's body stays applied") {
  // (\v. v * v)(w[1]) per element: not an array, so not a stage.
  const char *json = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
   "userFuns": {"sq": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x * x;"}},
   "inputs": [{"name": "A", "type": "[float]N"}],
   "body": {"op": "map", "f": {"lambda": ["w"], "body": {"apply": {"lambda": ["v"], "body": {"apply": {"userFun": "sq"},
      "args": [{"param": "v"}]}}, "args": [{"op": "at", "index": 1, "in": {"param": "w"}}]}},
    "in": {"op": "slide", "size": 3, "step": 1, "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp",
      "in": {"param": "A"}}}}})";
  Program typed = typeCheck(readProgram(json), {{"N", 9}});
  CHECK_FALSE(rewrite::splitStages(typed));
}

} // TEST_SUITE("multistage")

} // namespace liftcc
