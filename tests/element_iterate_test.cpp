// An iterate of one element's scalar (inside a per-element function) is a
// loop in the kernel: rule iterateAsReduction rewrites it into a reduction
// over its step count, which every recipe then lowers like any reduction
// (applyRecipe applies the rule first); a tuple of scalars likewise, its
// accumulator one scalar per component. The rule preserves semantics on
// random programs (interpreter, applications counted); the kernels of
// several recipes match the interpreter on PoCL, inside a host loop too;
// the CUDA text compiles; a state holding an array is refused with one line.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/printer.h"
#include "core/typecheck/typecheck.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <random>

namespace liftcc {
namespace {

using namespace api;

Expr damp() { return userFun("damp", {{"v", ScalarKind::Float}}, ScalarKind::Float, "return 0.5f * v + 0.25f;"); }
Expr wobble() { return userFun("wobble", {{"v", ScalarKind::Float}}, ScalarKind::Float, "return v - 0.125f * v * v;"); }
Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}

/// A step: one user function, or a lambda composing both.
Expr stepOf(int kind) {
  if (kind == 0) return damp();
  return fn([](Expr s) { return apply(wobble(), {apply(damp(), {s})}); }, "s");
}

struct Case {
  std::string name;
  Program program;
  std::map<std::string, int64_t> sizes;
  int loops; ///< scalar iterates in the program
};

/// Programs with per-element iterates of `steps` steps: over each element of
/// a 1D grid, over a 2D window's sum (clamped), inside a host loop over a
/// 2D grid, and two in one element's expression.
std::vector<Case> cases(int steps, int kind) {
  Size n = size("N"), m = size("M");
  Expr a = input("A", array(f32(), n)), b = input("B", array(f32(), n, m));
  std::vector<Case> out;
  out.push_back({"1D", program({a}, map([&](Expr x) { return iterate(steps, stepOf(kind), x); }, a)), {{"N", 37}}, 1});
  Expr windows = slideN(2, 3, 1, padN(2, 1, 1, PadMode::Clamp, b));
  Expr sum = fn(
      [&](Expr w) {
        Expr total = apply(add(), {at(0, at(1, w)), at(2, at(1, w))});
        return iterate(steps, stepOf(kind), apply(add(), {total, at(1, at(0, w))}));
      },
      "w");
  out.push_back({"2D window", program({b}, mapN(2, sum, windows)), {{"N", 11}, {"M", 13}}, 1});
  Expr host = iterate(
      3, [&](Expr g) { return mapN(2, fn([&](Expr x) { return iterate(steps, stepOf(kind), x); }, "x"), g); }, b);
  out.push_back({"in a host loop", program({b}, host), {{"N", 9}, {"M", 14}}, 1});
  Expr twice = map(
      [&](Expr x) {
        return apply(add(), {iterate(steps, damp(), x), iterate(steps + 1, wobble(), apply(damp(), {x}))});
      },
      a);
  out.push_back({"two in one element", program({a}, twice), {{"N", 29}}, 2});
  return out;
}

void checkSame(const Value &expected, const Value &actual) {
  auto mismatch = compareValues(expected, actual, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

} // namespace

TEST_CASE("element iterate: iterateAsReduction preserves semantics on random programs (applications counted)") {
  std::mt19937_64 rng(1234);
  int applications = 0, programs = 0;
  for (int steps : {0, 1, 3, 7})
    for (int kind = 0; kind < 2; ++kind)
      for (const Case &c : cases(steps, kind)) {
        CAPTURE(c.name);
        CAPTURE(steps);
        Program typed = typeCheck(c.program, c.sizes);
        Program current = typed;
        // Every scalar iterate, in a random order of its locations.
        for (int k = 0; k < c.loops; ++k) {
          std::vector<std::string> locations = rewrite::applicableLocations(current, rewrite::iterateAsReduction());
          REQUIRE(static_cast<int>(locations.size()) == c.loops - k);
          current = rewrite::applyRule(current, rewrite::iterateAsReduction(), locations[rng() % locations.size()]);
          ++applications;
        }
        INFO(printProgram(current));
        CHECK(rewrite::applicableLocations(current, rewrite::iterateAsReduction()).empty());
        std::vector<Value> inputs = randomInputs(typed, c.sizes, static_cast<uint64_t>(steps * 10 + kind));
        checkSame(interpret(typed, c.sizes, inputs), interpret(current, c.sizes, inputs));
        ++programs;
      }
  MESSAGE(programs, " programs, iterateAsReduction applied ", applications, " times");
  CHECK(programs == 32);
  CHECK(applications == 40);
  CHECK(rewrite::findRule("iterateAsReduction"));
  // An array state (a host loop) and a tuple state do not match.
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Program arrays = typeCheck(program({a}, iterate(
                                              2, [](Expr g) { return map(damp(), g); }, a)),
                             {{"N", 8}});
  CHECK(rewrite::applicableLocations(arrays, rewrite::iterateAsReduction()).empty());
}

TEST_CASE("element iterate: the kernels of the recipes match the interpreter on the device; CUDA compiles") {
  auto context = ocl::test::testContext();
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  int generated = 0;
  for (const Case &c : cases(5, 1)) {
    Program typed = typeCheck(c.program, c.sizes);
    // The stencil tiles and coarsens; the others have no window to tile.
    std::vector<rewrite::Recipe> recipes{rewrite::Recipe::Plain};
    if (c.name == "2D window") recipes.insert(recipes.end(), {rewrite::Recipe::Tiled, rewrite::Recipe::Coarsened});
    for (rewrite::Recipe recipe : recipes) {
      CAPTURE(c.name);
      CAPTURE(rewrite::recipeName(recipe));
      Program lowered = rewrite::applyRecipe(typed, recipe);
      codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
      CAPTURE(kernel.source);
      // The steps run inside the kernel: the host loop is only the program's own.
      CHECK(kernel.iteration.has_value() == (c.name == "in a host loop"));
      CHECK(kernel.source.find("wobble(") != std::string::npos);
      ++generated;
      if (strict) {
        codegen::Kernel cudaKernel = codegen::generateKernel(lowered, codegen::Target::CUDA);
        cuda::PtxResult ptx = cuda::compileToPtx(cudaKernel.source, *strict, "element_iterate.cu");
        CHECK(ptx.log.empty());
      }
      if (!context) continue;
      std::vector<Value> inputs = randomInputs(typed, c.sizes, 5);
      tuner::OpenCLKernelRunner runner(*context, kernel);
      checkSame(interpret(typed, c.sizes, inputs), runner.run(c.sizes, inputs, typed.body().typeOrThrow()).output);
    }
  }
  CHECK(generated == 6);
}

TEST_CASE("element iterate: a tuple of scalars per element is a loop too; a tuple holding an array is refused") {
  auto context = ocl::test::testContext();
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  // A rotation-like pair (each component reads both): the accumulator's
  // components are updated together, from the values before the step.
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr pair = fn(
      [](Expr s) {
        return tuple({apply(add(), {apply(damp(), {get(1, s)}), get(0, s)}), apply(wobble(), {get(0, s)})});
      },
      "s");
  std::map<std::string, int64_t> sizes{{"N", 23}};
  Program typed = typeCheck(program({a}, map(
                                             [&](Expr x) {
                                               Expr state = iterate(4, pair, tuple({x, apply(damp(), {x})}));
                                               return apply(add(), {get(0, state), get(1, state)});
                                             },
                                             a)),
                            sizes);
  // The state is read twice (each of its components): two locations of the
  // one iterate node, each rewritten by the rule; the recipes rewrite the
  // node once, so the loop runs once.
  Program rewritten = typed;
  int applied = 0;
  for (std::vector<std::string> at = rewrite::applicableLocations(typed, rewrite::iterateAsReduction()); !at.empty();
       at = rewrite::applicableLocations(rewritten, rewrite::iterateAsReduction()), ++applied)
    rewritten = rewrite::applyRule(rewritten, rewrite::iterateAsReduction(), at.front());
  CHECK(applied == 2);
  checkSame(interpret(typed, sizes, randomInputs(typed, sizes, 3)),
            interpret(rewrite::elementLoopsAsReductions(typed), sizes, randomInputs(typed, sizes, 3)));
  std::vector<Value> inputs = randomInputs(typed, sizes, 3);
  checkSame(interpret(typed, sizes, inputs), interpret(rewritten, sizes, inputs));
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
  CAPTURE(kernel.source);
  // Two accumulators, each step computed into temporaries first; the pair
  // kept as one private array per component.
  CHECK(kernel.source.find("float acc_1 = ") != std::string::npos);
  CHECK(kernel.source.find("float next_") != std::string::npos);
  CHECK(kernel.source.find("float priv_1[1];") != std::string::npos);
  CHECK(kernel.source.find("acc_2") == std::string::npos); // one loop
  if (context) {
    tuner::OpenCLKernelRunner runner(*context, kernel);
    checkSame(interpret(typed, sizes, inputs), runner.run(sizes, inputs, typed.body().typeOrThrow()).output);
  }
  if (strict) {
    codegen::Kernel cudaKernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::CUDA);
    CHECK(cuda::compileToPtx(cudaKernel.source, *strict, "pair.cu").log.empty());
  }
  // A state holding an array: refused with one line naming its type.
  Size m = size("M");
  Expr b = input("B", array(f32(), n, m));
  Expr rows = map(
      [&](Expr row) {
        Expr step = fn([](Expr s) { return tuple({get(0, s), map(damp(), get(1, s))}); }, "s");
        return get(1, iterate(2, step, tuple({at(0, row), row})));
      },
      b);
  Program refused = typeCheck(program({b}, rows), {{"N", 4}, {"M", 5}});
  try {
    rewrite::applyRecipe(refused, rewrite::Recipe::Plain);
    FAIL("a state holding an array per element was compiled");
  } catch (const rewrite::RewriteError &e) {
    CHECK(std::string(e.what()) ==
          "iterate inside a per-element function over a state of type (float, [float]5) is not compiled: a scalar or "
          "a tuple of scalars becomes a loop in the kernel");
  }
}

TEST_CASE("element iterate: a reduction over a tuple accumulator (a window's largest value and where it is)") {
  auto context = ocl::test::testContext();
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr larger = userFun("larger", {{"best", ScalarKind::Float}, {"v", ScalarKind::Float}}, ScalarKind::Float,
                        "return v > best ? v : best;");
  Expr where = userFun(
      "where",
      {{"best", ScalarKind::Float}, {"at", ScalarKind::Float}, {"v", ScalarKind::Float}, {"i", ScalarKind::Float}},
      ScalarKind::Float, "return v > best ? i : at;");
  Expr asFloat = userFun("asFloat", {{"i", ScalarKind::Int}}, ScalarKind::Float, "return (float)i;");
  Expr step = fn2([&](Expr acc, Expr e) {
    return tuple(
        {apply(larger, {get(0, acc), get(0, e)}), apply(where, {get(0, acc), get(1, acc), get(0, e), get(1, e)})});
  });
  Expr argmax = fn(
      [&](Expr w) {
        Expr indexed = zip(w, generate(7, [&](Expr i) { return apply(asFloat, {i}); }));
        Expr best = at(0, reduce(step, tuple({lit(-1e30f), lit(-1.0f)}), indexed));
        return apply(add(), {get(0, best), get(1, best)});
      },
      "w");
  std::map<std::string, int64_t> sizes{{"N", 45}};
  Program typed = typeCheck(program({a}, map(argmax, slide(7, 1, pad(3, 3, PadMode::Mirror, a)))), sizes);
  for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local}) {
    CAPTURE(rewrite::recipeName(recipe));
    codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, recipe), codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    CHECK(kernel.source.find("float acc_1 = ") != std::string::npos);
    if (!context) continue;
    std::vector<Value> inputs = randomInputs(typed, sizes, 11);
    tuner::OpenCLKernelRunner runner(*context, kernel);
    checkSame(interpret(typed, sizes, inputs), runner.run(sizes, inputs, typed.body().typeOrThrow()).output);
  }
}

TEST_CASE("element iterate: each row iterated on its own is one host loop over all rows (iterateOutOfMap)") {
  auto context = ocl::test::testContext();
  Size n = size("N"), m = size("M");
  Expr b = input("B", array(f32(), n, m));
  Expr sum3 = userFun("sum3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return 0.25f * a + 0.5f * b + 0.25f * c;");
  // One step over a row: a 3-point stencil along it, clamped.
  Expr smooth = fn(
      [&](Expr r) {
        return map(
            [&](Expr w) {
              return apply(sum3, {at(0, w), at(1, w), at(2, w)});
            },
            slide(3, 1, pad(1, 1, PadMode::Clamp, r)));
      },
      "r");
  std::map<std::string, int64_t> sizes{{"N", 7}, {"M", 19}};
  // The row itself; and with work before (Q) and after (P) the loop.
  std::vector<Expr> bodies{map([&](Expr row) { return iterate(3, smooth, row); }, b),
                           map([&](Expr row) { return map(damp(), iterate(2, smooth, map(wobble(), row))); }, b)};
  for (const Expr &body : bodies) {
    Program typed = typeCheck(program({b}, body), sizes);
    INFO(printProgram(typed));
    std::vector<std::string> locations = rewrite::applicableLocations(typed, rewrite::iterateOutOfMap());
    REQUIRE(locations.size() == 1);
    Program hoisted = rewrite::applyRule(typed, rewrite::iterateOutOfMap(), locations.front());
    std::vector<Value> inputs = randomInputs(typed, sizes, 21);
    checkSame(interpret(typed, sizes, inputs), interpret(hoisted, sizes, inputs));
    codegen::Kernel kernel =
        codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    // A host loop over the whole grid, its steps a launch each.
    REQUIRE(kernel.iteration.has_value());
    if (!context) continue;
    tuner::OpenCLKernelRunner runner(*context, kernel);
    checkSame(interpret(typed, sizes, inputs), runner.run(sizes, inputs, typed.body().typeOrThrow()).output);
  }
  // A step, and a stage after the loop, reading the row the loop started
  // from: the grid read beside the state (zip), the loop's start computed
  // before it (the step reads the input the host loop would write over).
  Expr reading = map(
      [&](Expr row) {
        Expr step = fn(
            [&](Expr r) {
              return map([&](Expr p) { return apply(add(), {get(0, p), get(1, p)}); }, zip(map(damp(), r), row));
            },
            "r");
        Expr after = map(
            [&](Expr p) {
              return apply(sum3, {get(0, p), get(1, p), get(0, p)});
            },
            zip(iterate(3, step, row), row));
        return after;
      },
      b);
  Program typed = typeCheck(program({b}, reading), sizes);
  std::vector<std::string> locations = rewrite::applicableLocations(typed, rewrite::iterateOutOfMap());
  REQUIRE(locations.size() == 1);
  std::vector<Value> inputs = randomInputs(typed, sizes, 22);
  checkSame(interpret(typed, sizes, inputs),
            interpret(rewrite::applyRule(typed, rewrite::iterateOutOfMap(), locations.front()), sizes, inputs));
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
  CAPTURE(kernel.source);
  CHECK(kernel.iteration.has_value());
  if (context) {
    tuner::OpenCLKernelRunner runner(*context, kernel);
    checkSame(interpret(typed, sizes, inputs), runner.run(sizes, inputs, typed.body().typeOrThrow()).output);
  }
}

} // namespace liftcc
